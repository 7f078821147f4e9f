//===- OpenCLRenderer.cpp - OpenCL buffers and kernels, per array ---------===//
//
// See OpenCLRenderer.h; the helpers the host calls are OpenCLHelpers.cpp's.
//
//===----------------------------------------------------------------------===//
#include "rewriter/OpenCLRenderer.h"
#include "analysis/OpenCLHost.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

void OpenCLRenderer::hostCalls() {
  std::vector<const RecordDecl *> Records;
  for (const auto &[RD, L] : Layouts)
    Records.push_back(RD);
  OpenCLHost Host =
      OpenCLHost::forRecords(Ctx, Uses, std::move(Records), State.KnownBuffers);
  if (!Host.collect())
    return;
  // Legality refused every record with a problem of its strategy: one
  // here is a bug.
  for (const ClProblem &P : Host.problems()) {
    Strategy How =
        State.Boundary.count(P.Record) ? Strategy::Boundary : Strategy::Whole;
    if (Blocker::blocks(P.Blocks, How))
      cannotRender(P.Record, P.At, P.Reason);
  }
  for (const ClUse &U : Host.uses())
    hostUse(U);
}

int64_t OpenCLRenderer::renumbered(const ClUse &U) const {
  int64_t Index = U.Index;
  for (const RecordDecl *RD : U.Before)
    if (const HandleLayout *L = Layouts.lookup(RD))
      Index += static_cast<int64_t>(L->members().size()) - 1;
  return Index;
}

void OpenCLRenderer::callSite(const RecordDecl *RD, const CallExpr *Call,
                              std::string Fn, std::vector<TextFn> Args,
                              uint64_t Helper, const Expr *Replaced) {
  for (const TextFn &Arg : Args)
    if (!Arg)
      return cannotRender(RD, Call->getBeginLoc(),
                          "an argument of an OpenCL call");
  unsigned Column = SM.getSpellingColumnNumber(Call->getBeginLoc()) - 1;
  addSite(
      RD, (Replaced ? Replaced : Call)->getSourceRange(), Call->getBeginLoc(),
      [this, Fn, Args, Column](const EditSet &ES, const LaneContext *) {
        std::vector<std::string> Texts;
        for (const TextFn &Arg : Args)
          Texts.push_back(Arg(ES));
        return format(Fn + "(" + llvm::join(Texts, ", ") + ")", Column);
      },
      "an OpenCL call",
      HandleLayout::HandleType | HandleLayout::ClBuffers | Helper);
}

void OpenCLRenderer::hostUse(const ClUse &U) {
  const RecordDecl *RD = U.Record;
  const HandleLayout *L = Layouts.lookup(RD);
  if (!L)
    return;
  const CallExpr *Call = U.Call;
  switch (U.Kind) {
  case ClUseKind::BufferDeclaration:
    if (!U.Others.empty())
      return sharedDeclaration(RD, *L, cast<VarDecl>(U.Holder), U.Others);
    return bufferDeclaration(RD, *L, U.Holder);
  case ClUseKind::Create:
  case ClUseKind::Write:
  case ClUseKind::Read:
  case ClUseKind::Fill:
  case ClUseKind::Map:
  case ClUseKind::Unmap:
    return transferUse(U, *L);
  case ClUseKind::Copy:
    return callSite(RD, Call, L->clCopyName(), args(Call, 9),
                    HandleLayout::ClCopy);
  case ClUseKind::SetArgument: {
    TextFn Buffer = textFn(U.Buffer);
    TextFn AddressOf =
        Buffer ? [Buffer](const EditSet &ES) { return "&" + Buffer(ES); }
               : TextFn();
    return callSite(RD, Call, L->clSetArgsName(),
                    {textFn(Call->getArg(0)), indexText(U, *L), AddressOf},
                    HandleLayout::ClSetArgs);
  }
  case ClUseKind::ArgumentIndex: {
    int64_t Index = renumbered(U);
    if (auto Range = rangeOf(Call->getArg(1)->getSourceRange()))
      return textSite(RD, *Range, std::to_string(Index), /*Needs=*/0);
    return cannotRender(RD, Call->getArg(1)->getExprLoc(),
                        "a kernel argument's index");
  }
  case ClUseKind::Release:
  case ClUseKind::Retain:
    return callSite(RD, Call,
                    U.Kind == ClUseKind::Release ? L->clReleaseName()
                                                 : L->clRetainName(),
                    args(Call, 1),
                    U.Kind == ClUseKind::Release ? HandleLayout::ClRelease
                                                 : HandleLayout::ClRetain);
  case ClUseKind::NullTest: {
    TextFn Ref = textFn(U.Ref);
    if (!Ref)
      return cannotRender(RD, U.Ref->getExprLoc(), "a buffer's null test");
    std::string Member = "." + L->members().front().Name;
    return addSite(
        RD, U.Ref->getSourceRange(), U.Ref->getExprLoc(),
        [Ref, Member](const EditSet &ES, const LaneContext *) {
          return Ref(ES) + Member;
        },
        "a buffer's null test",
        HandleLayout::HandleType | HandleLayout::ClBuffers);
  }
  }
}

std::vector<OpenCLRenderer::TextFn> OpenCLRenderer::args(const CallExpr *Call,
                                                         unsigned N) {
  std::vector<TextFn> Out;
  for (unsigned I = 0; I < N; ++I)
    Out.push_back(textFn(Call->getArg(I)));
  return Out;
}

/// The calls that move elements between host memory and the buffers. In
/// the whole program the host memory is a handle; at the boundary it is
/// the host's own array of T, converted through a staging copy (packing
/// sets its elements, unpacking gets them).
void OpenCLRenderer::transferUse(const ClUse &U, const HandleLayout &L) {
  const RecordDecl *RD = U.Record;
  const CallExpr *Call = U.Call;
  bool Boundary = State.Boundary.count(RD) > 0;
  constexpr uint64_t Staging = HandleLayout::Alloc | HandleLayout::Free;
  constexpr uint64_t MapAos = Staging | HandleLayout::Get | HandleLayout::Set |
                              HandleLayout::ClReadAos |
                              HandleLayout::ClWriteAos | HandleLayout::ClMapAos;
  bool Write = U.Kind == ClUseKind::Write;
  switch (U.Kind) {
  case ClUseKind::Create: {
    std::vector<TextFn> A = args(Call, 5);
    if (Boundary && !U.NoHostMemory)
      return callSite(RD, Call, L.clCreateAosName(), std::move(A),
                      Staging | HandleLayout::Set | HandleLayout::ClCreate |
                          HandleLayout::ClCreateAos);
    if (U.NoHostMemory) {
      std::string Null = L.nullValue();
      A[3] = [Null](const EditSet &) { return Null; };
    }
    return callSite(RD, Call, L.clCreateName(), std::move(A),
                    HandleLayout::ClCreate);
  }
  case ClUseKind::Write:
  case ClUseKind::Read:
    if (Boundary)
      return callSite(
          RD, Call, Write ? L.clWriteAosName() : L.clReadAosName(),
          args(Call, 9),
          Staging | (Write ? HandleLayout::Set | HandleLayout::ClWriteAos
                           : HandleLayout::Get | HandleLayout::ClReadAos));
    return callSite(RD, Call, Write ? L.clWriteName() : L.clReadName(),
                    args(Call, 9),
                    Write ? HandleLayout::ClWrite : HandleLayout::ClRead);
  case ClUseKind::Fill:
    // Strategy alike: the pattern is one element, not the host's array.
    return callSite(RD, Call, L.clFillName(), args(Call, 9),
                    Staging | HandleLayout::Set | HandleLayout::ClFill);
  case ClUseKind::Map:
    // Whole: the mapped pointer is a handle, its casts go.
    if (Boundary)
      return callSite(RD, Call, L.clMapAosName(), args(Call, 10), MapAos);
    return callSite(RD, Call, L.clMapName(), args(Call, 10),
                    HandleLayout::ClMap, U.Ref);
  case ClUseKind::Unmap:
    return callSite(RD, Call, Boundary ? L.clUnmapAosName() : L.clUnmapName(),
                    args(Call, 6), Boundary ? MapAos : HandleLayout::ClMap);
  default:
    return cannotRender(RD, Call->getBeginLoc(), "an OpenCL transfer");
  }
}

/// `cl_mem buf` -> `T_cl buf`. One initialized where it is declared is
/// reformatted whole, as its initializer moved with the longer type.
void OpenCLRenderer::bufferDeclaration(const RecordDecl *RD,
                                       const HandleLayout &L,
                                       const DeclaratorDecl *D) {
  // Only the type's name: specifiers and qualifiers spelled around it
  // (`cl_mem static buf;`, `const cl_mem buf`) stay where they are.
  TypeLoc TL = D->getTypeSourceInfo()->getTypeLoc().getUnqualifiedLoc();
  auto Range = rangeOf(TL.getSourceRange());
  if (!Range)
    return cannotRender(RD, D->getLocation(), "a buffer's type");
  textSite(RD, *Range, L.clName(),
           HandleLayout::HandleType | HandleLayout::ClBuffers);
  const auto *VD = dyn_cast<VarDecl>(D);
  // Alone in its declaration: `cl_mem a = ..., b = ...;` stays as it is.
  DynTypedNodeList Parents = Ctx.getParents(*D);
  const auto *DS = Parents.size() == 1 ? Parents[0].get<DeclStmt>() : nullptr;
  if (!DS || !DS->isSingleDecl())
    VD = nullptr;
  auto Whole = VD && VD->getInit()
                   ? rangeOf(SourceRange(VD->getBeginLoc(), VD->getEndLoc()))
                   : std::nullopt;
  if (!Whole)
    return;
  unsigned Column = SM.getSpellingColumnNumber(VD->getBeginLoc()) - 1;
  unsigned B = Whole->Begin, E = Whole->End;
  Sites.push_back(
      {Whole->File, B, E, RD,
       [this, B, E, Column](const EditSet &ES, const LaneContext *) {
         return format(ES.textOf(B, E) + ";", Column,
                       /*DropSemicolon=*/true);
       },
       /*Needs=*/0});
}

/// `cl_mem bodies, energies, forces;` in a function, bodies and forces the
/// record's: each run of declarators in order keeps a declaration of its
/// own, the record's with the handle's type (`T_cl bodies;\n cl_mem
/// energies;\n T_cl forces;`), so that an initializer still sees the
/// variables declared before it. \p First is the record's first.
void OpenCLRenderer::sharedDeclaration(
    const RecordDecl *RD, const HandleLayout &L, const VarDecl *First,
    const std::vector<const VarDecl *> &Others) {
  DynTypedNodeList Parents = Ctx.getParents(*First);
  const auto *DS = Parents.size() == 1 ? Parents[0].get<DeclStmt>() : nullptr;
  auto Whole = DS ? rangeOf(DS->getSourceRange()) : std::nullopt;
  const auto *VD0 = DS ? dyn_cast<VarDecl>(*DS->decl_begin()) : nullptr;
  // The analysis admitted only `cl_mem a, b[N] = ...;` (unsplittable()).
  auto Specifiers =
      VD0 ? rangeOf(baseTypeLoc(VD0).getSourceRange()) : std::nullopt;
  if (!Whole || !Specifiers || Specifiers->Begin != Whole->Begin)
    return cannotRender(RD, First->getLocation(), "a shared declaration");
  // Each declarator from its name (cl_mem is a pointer: no `*` before it)
  // to its end, array bounds and initializer included.
  std::vector<std::pair<FileRange, bool>> Declarators;
  for (const Decl *D : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(D);
    auto Range = VD ? rangeOf(SourceRange(VD->getLocation(), VD->getEndLoc()))
                    : std::nullopt;
    if (!Range)
      return cannotRender(RD, D->getLocation(), "a shared declaration");
    Declarators.push_back({*Range, !llvm::is_contained(Others, VD)});
  }
  unsigned Column = SM.getSpellingColumnNumber(DS->getBeginLoc()) - 1;
  unsigned SB = Specifiers->Begin, SE = Specifiers->End;
  std::string Handle = L.clName();
  Sites.push_back({Whole->File, Whole->Begin, Whole->End, RD,
                   [=](const EditSet &ES, const LaneContext *) {
                     std::string Kept = ES.textOf(SB, SE), Text;
                     for (size_t K = 0; K < Declarators.size(); ++K) {
                       auto [Range, Mine] = Declarators[K];
                       bool Starts =
                           K == 0 || Declarators[K - 1].second != Mine;
                       if (Starts && K > 0)
                         Text += ";\n" + std::string(Column, ' ');
                       Text += Starts ? (Mine ? Handle : Kept) + " " : ", ";
                       Text += ES.textOf(Range.Begin, Range.End);
                     }
                     return format(Text + ";", Column);
                   },
                   HandleLayout::HandleType | HandleLayout::ClBuffers});
}

/// The first index of a buffer's arguments: renumbered if written as a
/// constant; a counter (`a++`) steps past every array instead.
OpenCLRenderer::TextFn OpenCLRenderer::indexText(const ClUse &U,
                                                 const HandleLayout &L) {
  size_t Arrays = L.members().size();
  if (!U.Counter) {
    std::string Text = std::to_string(renumbered(U));
    return [Text](const EditSet &) { return Text; };
  }
  if (Arrays == 1)
    return textFn(U.Call->getArg(1));
  TextFn Counter = textFn(U.Counter);
  if (!Counter)
    return nullptr;
  std::string N = std::to_string(Arrays);
  return [Counter, N](const EditSet &ES) {
    return "(" + Counter(ES) + " += " + N + ") - " + N;
  };
}

std::vector<std::string> OpenCLRenderer::parameterNames(const HandleLayout &L,
                                                        const ParmVarDecl *P) {
  std::string Base = P->getName().empty()
                         ? "arg" + std::to_string(P->getFunctionScopeIndex())
                         : P->getNameAsString();
  std::vector<std::string> Names;
  for (const HandleMember &M : L.members()) {
    // A name nothing in the file spells, so it shadows nothing.
    std::string Name = Base + "_" + M.Name;
    while (Ctx.Idents.find(Name) != Ctx.Idents.end())
      Name += "_";
    Names.push_back(Name);
  }
  return Names;
}

/// Whether kernel parameter \p P points to const elements.
static bool constElements(const ParmVarDecl *P) {
  return P->getType()->isPointerType() &&
         P->getType()->getPointeeType().isConstQualified();
}

void OpenCLRenderer::kernelParameter(const RecordDecl *RD,
                                     const ParmVarDecl *P) {
  const HandleLayout *L = Layouts.lookup(RD);
  std::vector<std::string> Names = parameterNames(*L, P);
  // `__global const T *restrict p` keeps both on every array's pointer.
  std::vector<std::string> Decls;
  for (unsigned M = 0; M < Names.size(); ++M)
    Decls.push_back(L->pointerDecl(M, Names[M], constElements(P),
                                   P->getType().isRestrictQualified()));
  auto Range = rangeOf(P->getSourceRange());
  if (!Range)
    return cannotRender(RD, P->getLocation(), "a kernel parameter");
  textSite(RD, *Range, llvm::join(Decls, ", "));
  // The first parameter of the kernel that becomes arrays declares the
  // handles of all of them, and reformats the longer signature.
  const auto *Kernel = cast<FunctionDecl>(P->getDeclContext());
  for (const ParmVarDecl *Q : Kernel->parameters()) {
    if (Q == P)
      break;
    if (Layouts.count(handleRecord(Q->getType())))
      return;
  }
  kernelPrologue(Kernel);
  FunctionTypeLoc FTL = Kernel->getFunctionTypeLoc();
  auto Signature =
      FTL ? rangeOf(SourceRange(Kernel->getBeginLoc(), FTL.getRParenLoc()))
          : std::nullopt;
  if (!Signature)
    return cannotRender(RD, Kernel->getLocation(), "a kernel's signature");
  unsigned Column = SM.getSpellingColumnNumber(Kernel->getBeginLoc()) - 1;
  unsigned B = Signature->Begin, E = Signature->End;
  Sites.push_back(
      {Signature->File, B, E, RD,
       [this, B, E, Column](const EditSet &ES, const LaneContext *) {
         return format(ES.textOf(B, E), Column);
       },
       /*Needs=*/0});
}

void OpenCLRenderer::kernelPrologue(const FunctionDecl *Kernel) {
  const auto *Body = dyn_cast<CompoundStmt>(Kernel->getBody());
  const RecordDecl *First = nullptr;
  std::vector<const ParmVarDecl *> Params;
  for (const ParmVarDecl *P : Kernel->parameters())
    if (const RecordDecl *RD = handleRecord(P->getType());
        RD && Layouts.count(RD)) {
      First = First ? First : RD;
      Params.push_back(P);
    }
  auto Range = Body ? rangeOf(SourceRange(Body->getLBracLoc())) : std::nullopt;
  if (!Range)
    return cannotRender(First, Kernel->getLocation(), "a kernel's body");
  unsigned Indent = SM.getExpansionColumnNumber(Kernel->getBeginLoc()) - 1 +
                    State.Style.IndentWidth;
  addSite(
      First, SourceRange(Body->getLBracLoc()), Kernel->getLocation(),
      [this, Params, Indent](const EditSet &, const LaneContext *) {
        std::string Text = "{";
        for (const ParmVarDecl *P : Params) {
          // Read when applied: a record dropped since keeps its parameter.
          const HandleLayout *L = Layouts.lookup(handleRecord(P->getType()));
          if (!L)
            continue;
          // The handle's pointers are not const: a const parameter's are
          // cast, as the kernel reads through them only.
          std::vector<std::string> Names = parameterNames(*L, P);
          if (constElements(P))
            for (unsigned M = 0; M < Names.size(); ++M)
              Names[M] = "(" + L->pointerType(M) + ")" + Names[M];
          std::string Decl = L->handleName() + " " + P->getNameAsString() +
                             " = {" + llvm::join(Names, ", ") + "};";
          Text += "\n" + std::string(Indent, ' ') + format(Decl, Indent);
        }
        return Text;
      },
      "a kernel's body");
}

} // namespace dlopt::rewrite
