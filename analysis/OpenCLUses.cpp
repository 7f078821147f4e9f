//===- OpenCLUses.cpp - What the rewrite of OpenCL buffers edits ----------===//
//
// The whole-program strategy for a record's OpenCL buffers (OpenCLHost.h):
// the host array and the buffers both take the new layout, one buffer per
// array of the layout, and each kernel argument that was the record's
// buffer becomes one argument per array. This lists what that edits (the
// buffer's declaration, each call on it, the indices of later kernel
// arguments) and, as problems, what it cannot render yet: the rewriter
// renders exactly this list. At the boundary (the host keeps its arrays)
// the same uses are rendered, the transfers converting; problems say which
// strategy they block (ClProblem::Blocks).
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/OpenCLHost.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include <set>

using namespace clang;
using namespace dlopt;

/// The declarators that share \p D's specifiers (`cl_mem a, b;`), \p D
/// included, in order.
static std::vector<const DeclaratorDecl *>
sharingSpecifiers(ASTContext &Ctx, const DeclaratorDecl *D) {
  std::vector<const DeclaratorDecl *> Out;
  if (const auto *FD = dyn_cast<FieldDecl>(D)) {
    for (const FieldDecl *Other : FD->getParent()->fields())
      if (Other->getBeginLoc() == FD->getBeginLoc())
        Out.push_back(Other);
    return Out;
  }
  DynTypedNodeList Parents = Ctx.getParents(*D);
  if (const auto *DS =
          Parents.size() == 1 ? Parents[0].get<DeclStmt>() : nullptr) {
    for (const Decl *Other : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(Other))
        Out.push_back(VD);
    return Out;
  }
  for (const Decl *Other : D->getDeclContext()->decls())
    if (const auto *VD = dyn_cast<VarDecl>(Other);
        VD && VD->getBeginLoc() == D->getBeginLoc())
      Out.push_back(VD);
  return Out;
}

/// Whether the text from \p B to \p E (one file's) holds only whitespace
/// and, with \p Comma, one comma: no comment or directive that respelling
/// the declarators around it would lose.
static bool onlySeparator(const SourceManager &SM, SourceLocation B,
                          SourceLocation E, bool Comma) {
  if (B.isInvalid() || E.isInvalid() || B.isMacroID() || E.isMacroID() ||
      SM.getFileID(B) != SM.getFileID(E))
    return false;
  const char *P = SM.getCharacterData(B), *End = SM.getCharacterData(E);
  unsigned Commas = 0;
  for (; P < End; ++P)
    if (*P == ',')
      ++Commas;
    else if (!isWhitespace(*P))
      return false;
  return P == End && Commas == (Comma ? 1u : 0u);
}

/// The base type of \p VD as written (`cl_mem` of `cl_mem spare[2]`).
TypeLoc dlopt::baseTypeLoc(const VarDecl *VD) {
  TypeLoc TL = VD->getTypeSourceInfo()->getTypeLoc();
  if (auto ATL = TL.getAs<ConstantArrayTypeLoc>())
    return ATL.getElementLoc();
  return TL;
}

/// Why the local declaration \p DS, which declares a record's buffers beside
/// other cl_mem variables, cannot be respelled as runs of declarations
/// (OpenCLRenderer::sharedDeclaration), or "". It must be a statement of a
/// block, declare variables only, each `cl_mem name` or `cl_mem name[N]`,
/// initialized or not, without a storage class or qualifiers, and hold
/// nothing but whitespace and commas between its type and declarators.
std::string dlopt::unsplittable(ASTContext &Ctx, const DeclStmt *DS) {
  DynTypedNodeList Up = Ctx.getParents(*DS);
  if (Up.size() != 1 || !Up[0].get<CompoundStmt>())
    return "the declaration is not a statement of a block";
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation Last;
  for (const Decl *D : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      return "the declaration also declares something that is not a variable";
    std::string Name = "'" + VD->getNameAsString() + "'";
    QualType T = VD->getType();
    if (const ConstantArrayType *AT = Ctx.getAsConstantArrayType(T))
      T = AT->getElementType();
    if (!isClMem(T) || T.isLocalConstQualified() ||
        T.isLocalVolatileQualified())
      return Name + " is not a cl_mem or an array of cl_mem";
    if (VD->getStorageClass() != SC_None ||
        VD->getTSCSpec() != TSCS_unspecified)
      return Name + " has a storage class";
    if (!spelledInFile(Ctx, SourceRange(VD->getLocation(), VD->getEndLoc())))
      return Name + " is spelled by a macro";
    TypeLoc TL = baseTypeLoc(VD);
    if (Last.isInvalid()) {
      if (TL.getBeginLoc() != DS->getBeginLoc())
        return "specifiers come before its type";
      Last = Lexer::getLocForEndOfToken(TL.getEndLoc(), 0, SM, LO);
    }
    if (!onlySeparator(SM, Last, VD->getLocation(), D != *DS->decl_begin()))
      return "more than a comma comes before " + Name;
    Last = Lexer::getLocForEndOfToken(VD->getEndLoc(), 0, SM, LO);
  }
  if (!onlySeparator(SM, Last, DS->getEndLoc(), false))
    return "more than whitespace comes before its ';'";
  return "";
}

void OpenCLHost::declarationUse(const ValueDecl *Holder, const ClBuffer &B) {
  const auto *D = dyn_cast<DeclaratorDecl>(Holder);
  std::string Buf = "OpenCL buffer '" + Holder->getNameAsString() + "' of '" +
                    recordName(B.Record) + "' elements";
  auto Problem = [&](const std::string &Why) {
    Problems.push_back({B.Record, Holder->getLocation(), Buf + " " + Why});
  };
  if (!D)
    return Problem("is not a variable, member or parameter");
  // A parameter (OpenCLParameters.cpp): in every declaration of its
  // function.
  if (const auto *P = dyn_cast<ParmVarDecl>(D)) {
    const auto *F = cast<FunctionDecl>(P->getDeclContext());
    unsigned I = P->getFunctionScopeIndex();
    for (const FunctionDecl *Decl : F->redecls()) {
      // A declaration without a prototype (`void f();`) names no type.
      if (I >= Decl->getNumParams())
        continue;
      const ParmVarDecl *Q = Decl->getParamDecl(I);
      if (!Q->getTypeSourceInfo() ||
          Q->getTypeSourceInfo()->getTypeLoc().getBeginLoc().isMacroID())
        return Problem("is declared inside a macro");
      ClUse U;
      U.Kind = ClUseKind::BufferDeclaration;
      U.Record = B.Record;
      U.Holder = Q;
      Uses.push_back(std::move(U));
    }
    return;
  }
  if (!isClMem(D->getType()))
    return Problem("is not declared as a cl_mem");
  TypeLoc TL = D->getTypeSourceInfo()->getTypeLoc();
  if (TL.getBeginLoc().isMacroID() || D->getLocation().isMacroID())
    return Problem("is declared inside a macro");
  DynTypedNodeList Parents = Ctx.getParents(*D);
  const auto *DS = Parents.size() == 1 ? Parents[0].get<DeclStmt>() : nullptr;
  if (DS) {
    DynTypedNodeList Up = Ctx.getParents(*DS);
    if (Up.size() == 1 && Up[0].get<ForStmt>())
      return Problem("is declared in a for statement");
  }
  // `cl_mem bodies, forces, energies[2];` in a function: the record's
  // buffers get a declaration of their own (OpenCLRenderer), the others
  // keep theirs. Elsewhere (a global, a member), or beside another record's
  // buffers, whose declaration would change too, not yet.
  std::vector<const DeclaratorDecl *> Mine;
  std::vector<const VarDecl *> Others;
  for (const DeclaratorDecl *Other : sharingSpecifiers(Ctx, D)) {
    const RecordDecl *Of = bufferRecord(Other);
    if (Of == B.Record) {
      Mine.push_back(Other);
      continue;
    }
    if (Of || !DS)
      return Problem("is declared together with '" + Other->getNameAsString() +
                     "', which is not a buffer of the same record (" +
                     (Of ? "another record's buffer" : "not in a function") +
                     ": not rewritten yet)");
    // A declaration statement declares variables only.
    Others.push_back(cast<VarDecl>(Other));
  }
  // The renderer respells such a declaration from its type and each
  // declarator's text (OpenCLRenderer::sharedDeclaration).
  if (!Others.empty())
    if (std::string Why = unsplittable(Ctx, DS); !Why.empty())
      return Problem("is declared together with other cl_mem variables, "
                     "and " +
                     Why + " (not rewritten yet)");
  // The specifiers are spelled once: the record's first declarator
  // respells them.
  if (!Mine.empty() && Mine.front() != D)
    return;
  ClUse U;
  U.Kind = ClUseKind::BufferDeclaration;
  U.Record = B.Record;
  U.Holder = D;
  U.Others = std::move(Others);
  Uses.push_back(std::move(U));
}

/// Whether the call \p Call and each of its arguments are spelled in a
/// file (a macro's arguments are; its body is not), so that it can be
/// respelled as a helper's call with the same arguments.
bool OpenCLHost::respellable(const CallExpr *Call) const {
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isMacroBodyExpansion(Call->getBeginLoc()) ||
      !spelledInFile(Ctx, Call->getSourceRange()))
    return false;
  return llvm::all_of(Call->arguments(), [&](const Expr *Arg) {
    return spelledInFile(Ctx, Arg->getSourceRange());
  });
}

/// (Blocks the whole-program strategy only: at the boundary the host's
/// pointer is packed from as it is.)
bool OpenCLHost::wholeArray(const RecordDecl *RD, const Expr *Host,
                            const std::string &What) {
  // A variable or a pointer member (s->items) holding the array: its
  // other uses are judged as any handle's.
  const ValueDecl *D = holder(Host->IgnoreParenCasts());
  if (D && isa<VarDecl, FieldDecl>(D) && elementRecord(D->getType()) == RD)
    return true;
  Problems.push_back({RD, Host->getExprLoc(),
                      What + " is not a whole '" + recordName(RD) +
                          "' array held in a variable or member (a "
                          "sub-array is not rewritten yet)",
                      Blocker::WholeOnly});
  return false;
}

/// At the boundary a buffer's host memory is packed into a staging copy:
/// a buffer that uses the host's memory in place (CL_MEM_USE_HOST_PTR)
/// would see the staging copy, not the host's array.
void OpenCLHost::copiedHostMemory(const RecordDecl *RD, const Expr *Flags) {
  constexpr uint64_t UseHostPtr = 1 << 3; // CL_MEM_USE_HOST_PTR
  Expr::EvalResult R;
  if (Flags->EvaluateAsInt(R, Ctx) &&
      !(R.Val.getInt().getZExtValue() & UseHostPtr))
    return;
  Problems.push_back({RD, Flags->getExprLoc(),
                      "OpenCL buffer of '" + recordName(RD) +
                          "' elements created on host memory with flags that "
                          "are not a constant without CL_MEM_USE_HOST_PTR "
                          "(at the boundary it is a staging copy)",
                      Blocker::BoundaryOnly});
}

bool OpenCLHost::wholeElements(const RecordDecl *RD, const Expr *Bytes,
                               const std::string &What) {
  Expr::EvalResult R;
  if (CountsElements(Bytes, RD) ||
      (Bytes->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0))
    return true;
  Problems.push_back({RD, Bytes->getExprLoc(),
                      What + " is not a count of whole '" + recordName(RD) +
                          "' elements (n * sizeof(" + recordName(RD) + "))"});
  return false;
}

/// clEnqueueFillBuffer's pattern is one element of \p RD: a pointer to
/// one, and its size.
bool OpenCLHost::onePattern(const RecordDecl *RD, const CallExpr *Fill) {
  Expr::EvalResult R;
  uint64_t Size = Ctx.getTypeSizeInChars(Ctx.getRecordType(RD)).getQuantity();
  if (hostArrayRecord(Fill->getArg(2)) == RD &&
      Fill->getArg(3)->EvaluateAsInt(R, Ctx) &&
      R.Val.getInt().getZExtValue() == Size)
    return true;
  Problems.push_back({RD, Fill->getArg(2)->getExprLoc(),
                      "the pattern of clEnqueueFillBuffer on a buffer of '" +
                          recordName(RD) + "' elements is not one '" +
                          recordName(RD) + "' (&value, sizeof(" +
                          recordName(RD) + "))"});
  return false;
}

/// (T *)clEnqueueMapBuffer(q, buf, ...) stored in a T * variable or
/// member: in the whole program the pointer becomes a handle of the
/// buffers' arrays, mapped from their start (a tiled array cannot start a
/// handle inside a tile); at the boundary a staging array of T.
bool OpenCLHost::mapping(const CallExpr *Call, ClUse &U) {
  U.Record = bufferRecord(holder(Call->getArg(1)));
  U.Kind = ClUseKind::Map;
  const Expr *Value = nullptr;
  DynTypedNode Parent = parentPast(Ctx, Call, Value, [](const Expr *E) {
    return isa<ParenExpr, ImplicitCastExpr, CStyleCastExpr>(E);
  });
  const ValueDecl *To = Parent.get<VarDecl>();
  if (const auto *BO = Parent.get<BinaryOperator>();
      BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Value)
    To = holder(BO->getLHS());
  if (!U.Record) {
    // A handle would hold the memory of a buffer that does not change.
    QualType Type = To ? To->getType() : Value->getType();
    const RecordDecl *Held =
        Type->isPointerType() ? elementRecord(Type) : nullptr;
    if (Held && IsCandidate(Held))
      Problems.push_back({Held, Call->getBeginLoc(),
                          "'" + recordName(Held) +
                              " *' holding what clEnqueueMapBuffer maps of a "
                              "buffer not known to hold '" +
                              recordName(Held) + "' elements",
                          Blocker::WholeOnly});
    return false;
  }
  if (!To || !isa<VarDecl, FieldDecl>(To) || !To->getType()->isPointerType() ||
      elementRecord(To->getType()) != U.Record) {
    Problems.push_back({U.Record, Call->getBeginLoc(),
                        "the memory clEnqueueMapBuffer maps of a buffer of '" +
                            recordName(U.Record) +
                            "' elements is not stored in a '" +
                            recordName(U.Record) + " *' variable or member"});
    return false;
  }
  U.Ref = Value;
  waitsAsync(Call, 2, 6, U.Record, "clEnqueueMapBuffer", Blocker::BoundaryOnly);
  std::string Of = " of clEnqueueMapBuffer";
  if (!wholeElements(U.Record, Call->getArg(4), "the offset" + Of) ||
      !wholeElements(U.Record, Call->getArg(5), "the size" + Of))
    return false;
  Expr::EvalResult R;
  if (!Call->getArg(4)->EvaluateAsInt(R, Ctx) || R.Val.getInt() != 0)
    Problems.push_back({U.Record, Call->getArg(4)->getExprLoc(),
                        "a buffer of '" + recordName(U.Record) +
                            "' elements mapped from an offset (only the "
                            "boundary strategy maps one)",
                        Blocker::WholeOnly});
  return true;
}

/// clEnqueueUnmapMemObject(q, buf, p, ...) of a buffer of the record and
/// a T * that held its mapping.
bool OpenCLHost::unmapping(const CallExpr *Call, ClUse &U) {
  U.Record = bufferRecord(holder(Call->getArg(1)));
  if (!U.Record) {
    if (const RecordDecl *Held = hostArrayRecord(Call->getArg(2)))
      Problems.push_back({Held, Call->getArg(2)->getExprLoc(),
                          "'" + recordName(Held) +
                              "' memory unmapped from a buffer not known to "
                              "hold '" +
                              recordName(Held) + "' elements",
                          Blocker::WholeOnly});
    return false;
  }
  U.Kind = ClUseKind::Unmap;
  if (hostArrayRecord(Call->getArg(2)) == U.Record)
    return true;
  Problems.push_back({U.Record, Call->getArg(2)->getExprLoc(),
                      "clEnqueueUnmapMemObject of a buffer of '" +
                          recordName(U.Record) +
                          "' elements given memory that is not a '" +
                          recordName(U.Record) + " *'"});
  return false;
}

/// A command that does not block (\p Blocking: its blocking argument, or
/// -1 for one that never does) and waits for events (\p NWait) in a file
/// that creates user events: done through a staging copy it blocks, and
/// would wait forever for a user event the host sets only after the call
/// returns. (Events of enqueued commands complete by themselves.)
bool OpenCLHost::waitsAsync(const CallExpr *Call, int Blocking, unsigned NWait,
                            const RecordDecl *RD, const std::string &What,
                            Blocker::Scope Scope) {
  Expr::EvalResult R;
  bool NoWait =
      Call->getArg(NWait)->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
  bool Blocks = Blocking >= 0 &&
                Call->getArg(Blocking)->EvaluateAsInt(R, Ctx) &&
                R.Val.getInt() != 0;
  if (!UserEvents || NoWait || Blocks)
    return false;
  Problems.push_back({RD, Call->getArg(NWait)->getExprLoc(),
                      What + " on a buffer of '" + recordName(RD) +
                          "' elements that does not block and waits for "
                          "events (through a staging copy it would block, "
                          "maybe on an event set later)",
                      Scope});
  return true;
}

void OpenCLHost::callUse(const CallExpr *Call, ClCall K) {
  ClUse U;
  U.Call = Call;
  // Its text becomes a helper's call: spelled in a macro's body, it is not
  // this call's alone.
  auto Spelled = [&] {
    if (respellable(Call))
      return true;
    Problems.push_back({U.Record, Call->getBeginLoc(),
                        Call->getDirectCallee()->getNameAsString() +
                            " on an OpenCL buffer of '" + recordName(U.Record) +
                            "' elements is spelled inside a macro"});
    return false;
  };
  std::string Of = " of " + Call->getDirectCallee()->getNameAsString();
  switch (K) {
  case ClCall::CreateBuffer: {
    auto It = CreatedIn.find(Call);
    U.Record = It == CreatedIn.end() ? nullptr : bufferRecord(It->second);
    if (!U.Record)
      return;
    U.Kind = ClUseKind::Create;
    U.NoHostMemory = Call->getArg(3)->isNullPointerConstant(
        Ctx, Expr::NPC_ValueDependentIsNotNull);
    if (!Spelled() ||
        !wholeElements(U.Record, Call->getArg(2), "the size" + Of))
      return;
    if (!U.NoHostMemory) {
      if (hostArrayRecord(Call->getArg(3)) != U.Record) {
        Problems.push_back({U.Record, Call->getArg(3)->getExprLoc(),
                            "OpenCL buffer of '" + recordName(U.Record) +
                                "' elements created on memory that is not "
                                "an array of them"});
        return;
      }
      wholeArray(U.Record, Call->getArg(3), "the host memory" + Of);
      copiedHostMemory(U.Record, Call->getArg(1));
    }
    break;
  }
  case ClCall::WriteBuffer:
  case ClCall::ReadBuffer: {
    if (Call->getNumArgs() != 9)
      return;
    U.Record = bufferRecord(holder(Call->getArg(1)));
    if (!U.Record)
      return;
    U.Kind = K == ClCall::WriteBuffer ? ClUseKind::Write : ClUseKind::Read;
    waitsAsync(Call, 2, 6, U.Record, Call->getDirectCallee()->getNameAsString(),
               Blocker::BoundaryOnly);
    if (hostArrayRecord(Call->getArg(5)) != U.Record) {
      Problems.push_back({U.Record, Call->getArg(5)->getExprLoc(),
                          "OpenCL buffer of '" + recordName(U.Record) +
                              "' elements copied to or from memory that is "
                              "not an array of them"});
      return;
    }
    if (!Spelled() ||
        !wholeElements(U.Record, Call->getArg(3), "the offset" + Of) ||
        !wholeElements(U.Record, Call->getArg(4), "the size" + Of))
      return;
    wholeArray(U.Record, Call->getArg(5), "the host memory" + Of);
    break;
  }
  case ClCall::CopyBuffer: {
    if (Call->getNumArgs() != 9)
      return;
    const ValueDecl *Src = holder(Call->getArg(1));
    const ValueDecl *Dst = holder(Call->getArg(2));
    U.Record = bufferRecord(Src);
    if (!U.Record)
      U.Record = bufferRecord(Dst);
    if (!U.Record)
      return;
    U.Kind = ClUseKind::Copy;
    if (!Src || !Dst || bufferRecord(Src) != bufferRecord(Dst)) {
      Problems.push_back({U.Record, Call->getBeginLoc(),
                          "OpenCL buffer of '" + recordName(U.Record) +
                              "' elements copied to or from a buffer that "
                              "does not hold them"});
      return;
    }
    if (!Spelled() ||
        !wholeElements(U.Record, Call->getArg(3), "the source offset" + Of) ||
        !wholeElements(U.Record, Call->getArg(4),
                       "the destination offset" + Of) ||
        !wholeElements(U.Record, Call->getArg(5), "the size" + Of))
      return;
    break;
  }
  case ClCall::FillBuffer: {
    if (Call->getNumArgs() != 9)
      return;
    U.Record = bufferRecord(holder(Call->getArg(1)));
    if (!U.Record)
      return;
    U.Kind = ClUseKind::Fill;
    waitsAsync(Call, -1, 6, U.Record, "clEnqueueFillBuffer", Blocker::Both);
    if (!Spelled() || !onePattern(U.Record, Call) ||
        !wholeElements(U.Record, Call->getArg(4), "the offset" + Of) ||
        !wholeElements(U.Record, Call->getArg(5), "the size" + Of))
      return;
    break;
  }
  case ClCall::MapBuffer:
    if (Call->getNumArgs() != 10 || !mapping(Call, U) || !Spelled())
      return;
    break;
  case ClCall::UnmapBuffer:
    if (Call->getNumArgs() != 6 || !unmapping(Call, U) || !Spelled())
      return;
    break;
  case ClCall::ReleaseBuffer: {
    U.Record = bufferRecord(holder(Call->getArg(0)));
    if (!U.Record)
      return;
    const FunctionDecl *FD = Call->getDirectCallee();
    U.Kind = FD->getName() == "clRetainMemObject" ? ClUseKind::Retain
                                                  : ClUseKind::Release;
    if (!Spelled())
      return;
    break;
  }
  default:
    return;
  }
  Uses.push_back(std::move(U));
}

/// Whether \p Call (a clSetKernelArg) binds a record's buffer.
bool OpenCLHost::bindsBuffer(const CallExpr *Call) const {
  const Expr *Value = addressedValue(Call);
  return Value && bufferRecord(holder(Value));
}

/// Every clSetKernelArg of a kernel that takes a record's buffer: the
/// binding itself becomes one argument per array, and a later argument's
/// constant index counts them. A counter index counts them by itself when
/// it stepped over the bindings below it.
void OpenCLHost::argumentUses() {
  std::vector<StringRef> Names;
  for (const auto &Entry : KernelCalls)
    Names.push_back(Entry.getKey());
  llvm::sort(Names);
  // A call through a kernel parameter sets the arguments of each kernel
  // passed there: one use, if all of them renumber it alike.
  llvm::DenseMap<const CallExpr *, size_t> UseOf;
  for (StringRef Kernel : Names) {
    const std::vector<const CallExpr *> &Calls = KernelCalls[Kernel];
    std::vector<const ClKernelArgument *> Bound;
    for (const ClKernelArgument &A : Arguments)
      if (A.Kernel == Kernel && A.IndexKnown)
        Bound.push_back(&A);
    if (Bound.empty())
      continue;
    auto Problem = [&](SourceLocation At, const std::string &Why) {
      for (const ClKernelArgument *A : Bound)
        Problems.push_back({A->Record, At,
                            "argument of kernel '" + Kernel.str() +
                                "', which takes a buffer of '" +
                                recordName(A->Record) + "', " + Why});
    };
    bool Constant = false, Counted = false;
    for (const CallExpr *Call : Calls) {
      const Expr *IndexExpr = Call->getArg(1);
      int64_t Base = 0;
      std::optional<int64_t> Index = argumentIndex(Ctx, IndexExpr, &Base);
      if (!Index) {
        if (bindsBuffer(Call))
          continue; // setKernelArg said so.
        Problem(IndexExpr->getExprLoc(),
                "set at an index that is neither a constant nor a counter "
                "stepped in straight-line code");
        continue;
      }
      ClUse U;
      U.Call = Call;
      U.Index = *Index;
      bool IsCounter = !IndexExpr->isIntegerConstantExpr(Ctx);
      (IsCounter ? Counted : Constant) = true;
      const ClKernelArgument *This = nullptr;
      // A buffer argument set more than once (bound again each step, or
      // before each launch) counts once.
      std::set<unsigned> BelowIndices;
      for (const ClKernelArgument *A : Bound) {
        if (A->Call == Call)
          This = A;
        else if (A->Index < *Index && BelowIndices.insert(A->Index).second)
          U.Before.push_back(A->Record);
        if (IsCounter && A->Index < *Index && A->Index < Base)
          Problem(IndexExpr->getExprLoc(),
                  "set with a counter started at " + std::to_string(Base) +
                      ", past the buffer at argument " +
                      std::to_string(A->Index) +
                      " (its arrays would not be counted)");
      }
      U.Kind = This ? ClUseKind::SetArgument : ClUseKind::ArgumentIndex;
      U.Record =
          This ? This->Record : (U.Before.empty() ? nullptr : U.Before.front());
      if (!U.Record || (!This && IsCounter))
        continue;
      // The helper's call steps the counter past every array: `a++` in
      // the call itself, not a counter stepped in a statement of its own.
      const auto *Step =
          dyn_cast<UnaryOperator>(IndexExpr->IgnoreParenImpCasts());
      if (This && IsCounter && (!Step || Step->getOpcode() != UO_PostInc)) {
        Problem(IndexExpr->getExprLoc(),
                "set at a counter's value that the call does not step "
                "(a++ in the call is followed, a++ after it is not)");
        continue;
      }
      // The call, or the index, is respelled.
      if (This ? !respellable(Call)
               : !spelledInFile(Ctx, IndexExpr->getSourceRange())) {
        Problem(IndexExpr->getExprLoc(), "set in a macro's body (its index "
                                         "cannot be renumbered there)");
        continue;
      }
      if (This) {
        U.Buffer = addressedValue(Call);
        U.Counter = IsCounter ? Step->getSubExpr() : nullptr;
      }
      // sharedCallsAgree() checked that the other kernels agree.
      if (!UseOf.try_emplace(Call, Uses.size()).second)
        continue;
      Uses.push_back(std::move(U));
    }
    if (Constant && Counted)
      Problem(Calls.front()->getBeginLoc(),
              "set both at constant indices and with a counter (the "
              "renumbering needs one or the other)");
  }
}

/// A clSetKernelArg through a kernel parameter sets the argument of every
/// kernel passed there, in one text: its index is renumbered alike for all
/// only if the same records' buffers come before it in each.
void OpenCLHost::sharedCallsAgree() {
  llvm::DenseMap<const CallExpr *, std::vector<StringRef>> KernelsOf;
  for (const auto &Entry : KernelCalls)
    for (const CallExpr *Call : Entry.getValue())
      KernelsOf[Call].push_back(Entry.getKey());
  for (auto &[Call, Names] : KernelsOf) {
    std::optional<int64_t> Index = argumentIndex(Ctx, Call->getArg(1));
    if (Names.size() < 2 || !Index)
      continue;
    llvm::sort(Names);
    auto Before = [&](StringRef Kernel) {
      std::vector<std::pair<unsigned, const RecordDecl *>> Out;
      for (const ClKernelArgument &A : Arguments)
        if (A.Kernel == Kernel && A.IndexKnown && A.Call != Call &&
            A.Index < *Index)
          Out.push_back({A.Index, A.Record});
      llvm::sort(Out);
      // An argument bound again (each step) counts once.
      Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
      return Out;
    };
    auto First = Before(Names.front());
    for (StringRef Other : llvm::drop_begin(Names)) {
      auto These = Before(Other);
      if (These == First)
        continue;
      llvm::SmallPtrSet<const RecordDecl *, 4> Records;
      for (const auto &[I, RD] : First)
        Records.insert(RD);
      for (const auto &[I, RD] : These)
        Records.insert(RD);
      for (const RecordDecl *RD : Records)
        Problems.push_back(
            {RD, Call->getArg(1)->getExprLoc(),
             "argument set through a kernel parameter for kernels '" +
                 Names.front().str() + "' and '" + Other.str() +
                 "', whose buffers before it differ (its index cannot be "
                 "renumbered for both)"});
      break;
    }
  }
}

void OpenCLHost::collectUses() {
  std::vector<std::pair<const ValueDecl *, ClBuffer>> Holders(Buffers.begin(),
                                                              Buffers.end());
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Holders, [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(A.first->getLocation(),
                                        B.first->getLocation());
  });
  for (const auto &[Holder, B] : Holders)
    declarationUse(Holder, B);
  for (const CallExpr *Call : Calls)
    callUse(Call, classifyClCall(Call));
  sharedCallsAgree();
  argumentUses();
}
