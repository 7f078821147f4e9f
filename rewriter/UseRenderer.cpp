//===- UseRenderer.cpp - Every use of a C handle, rendered ----------------===//
//
// See UseRenderer.h.
//
//===----------------------------------------------------------------------===//
#include "rewriter/UseRenderer.h"
#include "analysis/AllocatorFunctions.h"
#include "analysis/CallFrequencies.h"
#include "analysis/SpecialMembers.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

/// The text of the array a use reaches: its handle expression, or the
/// array of the element pointer it goes through.
std::function<std::string(const EditSet &)>
UseRenderer::arrayText(const HandleUse &U) {
  if (!U.Array)
    return handleTextFn(U.Handle);
  std::string Name = U.Array->getNameAsString();
  return [Name](const EditSet &) { return Name; };
}

/// The text of a use's index. A use through an element reference r is at
/// index r, spelled by its name: the use may be r's own text (`T c = r;`),
/// which the use's edit replaces.
std::function<std::string(const EditSet &)>
UseRenderer::indexText(const HandleUse &U) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(U.Index);
      DRE && Uses.elementReference(DRE->getDecl())) {
    std::string Name = DRE->getDecl()->getNameAsString();
    return [Name](const EditSet &) { return Name; };
  }
  return textFn(U.Index);
}

void UseRenderer::fieldSite(const RecordDecl *RD, const HandleUse &U) {
  const MemberExpr *ME = U.Field;
  const Expr *Handle = U.Handle, *Index = U.Index;
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  const HandleLayout *L = Layouts.lookup(RD);
  unsigned F = FD->getFieldIndex();
  auto HandleText = arrayText(U);
  auto IndexText = Index ? indexText(U) : nullptr;
  if (!HandleText || (Index && !IndexText))
    return cannotRender(RD, ME->getExprLoc(),
                        "access spelled inside a macro or a system header");
  const VarDecl *IndexVar = nullptr;
  if (Index)
    if (const auto *D = dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts()))
      IndexVar = dyn_cast<VarDecl>(D->getDecl());
  bool SideEffects = Index && Index->HasSideEffects(Ctx);
  if (L->isTiled(F))
    State.TiledIndexUses.push_back({Handle, IndexVar, L->tileOf(F), RD});
  addSite(
      RD, ME->getSourceRange(), ME->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *Lane) {
        std::string H = HandleText(ES);
        std::string I = Index ? IndexText(ES) : "0";
        if (Lane && IndexVar == Lane->InductionVar && L->isTiled(F) &&
            L->tileOf(F) == Lane->Tile)
          return L->laneAccess(H, Lane->TileVar, Lane->LaneVar, F, Lane->Peel,
                               Lane->aligned(Handle));
        if (SideEffects && L->isTiled(F)) // Evaluate the index once.
          return L->fieldRef(H, I, F);
        return L->access(H, I, F);
      },
      "a field access");
}

void UseRenderer::elementSite(const RecordDecl *RD, const HandleUse &U) {
  const HandleLayout *L = Layouts.lookup(RD);
  auto HandleText = arrayText(U);
  if (HandleText && U.Embedded) // An array field: make a handle onto it.
    HandleText = [L, Text = HandleText](const EditSet &ES) {
      return L->handleOf(Text(ES));
    };
  auto IndexText = indexText(U);
  auto ValueText = U.Value ? textFn(U.Value) : nullptr;
  if (!HandleText || !IndexText || (U.Value && !ValueText))
    return cannotRender(RD, U.Site->getExprLoc(),
                        "element spelled inside a macro");
  if (U.ByReference)
    return byReferenceSite(RD, U, HandleText, IndexText);
  bool Read = U.Kind == UseKind::ElementRead;
  // a[i] += v -> T_set(a, i, T_get(a, i) += v): the operator updates a
  // copy, which is written back.
  std::string Update;
  if (U.Updates)
    Update = std::string(
        getOperatorSpelling(cast<CXXOperatorCallExpr>(U.Site)->getOperator()));
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(Read ? HandleLayout::Get : HandleLayout::Set);
        std::string Value = Read ? "" : ValueText(ES);
        if (!Update.empty()) {
          L->use(HandleLayout::Get);
          Value = L->getName() + "(" + HandleText(ES) + ", " + IndexText(ES) +
                  ") " + Update + " " + Value;
        }
        return (Read ? L->getName() : L->setName()) + "(" + HandleText(ES) +
               ", " + IndexText(ES) + (Read ? "" : ", " + Value) + ")";
      },
      Read ? "an element read" : "an element write");
}

/// The allocation the analysis classified, in the new layout's helpers.
void UseRenderer::allocationSite(const RecordDecl *RD, const HandleUse &U) {
  const HandleLayout *L = Layouts.lookup(RD);
  const Expr *Inner = U.Site->IgnoreParenCasts();
  HandleLayout::Helper Helper = HandleLayout::Alloc;
  // Asked once: for the program's own allocator it reads the function.
  StringRef Allocator = allocatorName(Inner);
  if (const auto *New = dyn_cast<CXXNewExpr>(Inner)) {
    // new T[n]() and new T[n]{} zero the elements, and so does new T[n] of
    // a class whose default constructor zeroes every field: calloc does
    // too.
    if (New->getInitializationStyle() != CXXNewInitializationStyle::None ||
        defaultConstructionZeroes(dyn_cast<CXXRecordDecl>(RD)))
      Helper = HandleLayout::Calloc;
  } else if (Allocator == "calloc") {
    Helper = HandleLayout::Calloc;
  } else if (Allocator == "realloc") {
    // realloc(NULL, bytes), which allocates (the analysis gives no array).
    Helper = U.Value ? HandleLayout::Realloc : HandleLayout::Alloc;
  } else if (reallocates(cast<CallExpr>(Inner))) {
    Helper = HandleLayout::ReallocBy; // The program's realloc-like one.
  } else if (Allocator != "malloc") {
    // The program's own allocator, or its calloc-like one (count, size).
    Helper = cast<CallExpr>(Inner)->getNumArgs() == 2 ? HandleLayout::CallocBy
                                                      : HandleLayout::AllocBy;
  }
  bool Program =
      Helper == HandleLayout::AllocBy || Helper == HandleLayout::CallocBy;
  std::string Fn = Helper == HandleLayout::Alloc       ? L->allocName()
                   : Helper == HandleLayout::Calloc    ? L->callocName()
                   : Helper == HandleLayout::AllocBy   ? L->allocByName()
                   : Helper == HandleLayout::CallocBy  ? L->callocByName()
                   : Helper == HandleLayout::ReallocBy ? L->reallocByName()
                                                       : L->reallocName();
  auto CountText = countText(RD, U);
  auto OldText = U.Value ? textFn(U.Value->IgnoreParenCasts()) : nullptr;
  auto ByText = Program || Helper == HandleLayout::ReallocBy
                    ? textFn(cast<CallExpr>(Inner)->getCallee())
                    : nullptr;
  // The C library's release of the blocks the allocator gets, for those
  // got before one that fails; a realloc-like function moves them instead.
  std::string Release =
      Program ? releaseOf(cast<CallExpr>(Inner)->getDirectCallee()) : "";
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(Helper);
        // realloc's array, a variable or a member, is updated in place
        // (HandlePrinter::reallocHelper).
        std::string Args = OldText ? "&" + OldText(ES) + ", " : "";
        std::string By = !ByText           ? ""
                         : Release.empty() ? ", " + ByText(ES)
                                           : ", " + ByText(ES) + ", " + Release;
        return Fn + "(" + Args + CountText(ES) + By + ")";
      },
      "an allocation");
}

/// The function releasing the blocks the program's allocator function
/// \p Callee returns ("free", "_mm_free"), or "0" where none is known.
std::string UseRenderer::releaseOf(const FunctionDecl *Callee) const {
  std::string Release = allocatorRelease(Callee);
  // One another file defines: as the program's merge found it, where this
  // file can name it (the generated code includes <stdlib.h>, which
  // declares free; _mm_free only if the file has it).
  if (isExternalAllocator(Callee) && State.ProgramAllocators)
    if (auto It = State.ProgramAllocators->find(callableName(Callee));
        It != State.ProgramAllocators->end())
      Release = It->second == "free" || declared(It->second) ? It->second : "";
  return Release.empty() ? "0" : Release;
}

/// Whether the translation unit declares \p Name at file scope.
bool UseRenderer::declared(llvm::StringRef Name) const {
  auto It = Ctx.Idents.find(Name);
  return It != Ctx.Idents.end() &&
         !Ctx.getTranslationUnitDecl()
              ->lookup(DeclarationName(It->getValue()))
              .empty();
}

/// The element count of an allocation (HandleUse::Count): its factors
/// multiplied, a byte count over the element's size, or 1.
std::function<std::string(const EditSet &)>
UseRenderer::countText(const RecordDecl *RD, const HandleUse &U) {
  std::vector<std::function<std::string(const EditSet &)>> Factors;
  for (const Expr *F : U.Count)
    Factors.push_back(textFn(F));
  std::string ElementSize =
      U.CountInBytes ? " / sizeof(" + Layouts.lookup(RD)->elementType() + ")"
                     : "";
  return [Factors, ElementSize](const EditSet &ES) {
    if (Factors.empty())
      return std::string("1");
    if (Factors.size() == 1)
      return Factors[0](ES) + ElementSize;
    // The original multiplied in size_t (sizeof's type) as soon as the
    // sizeof came in; the product without it starts there.
    std::vector<std::string> Texts;
    for (const auto &F : Factors)
      Texts.push_back(parenthesize(F(ES)));
    return "(size_t)" + llvm::join(Texts, " * ");
  };
}

/// free(a) and delete[] a release every block of the handle; _mm_free(a)
/// and the program's own xfree(a) every block through themselves.
void UseRenderer::freeSite(const RecordDecl *RD, const Expr *Release,
                           const Expr *Handle) {
  const HandleLayout *L = Layouts.lookup(RD);
  auto Arg = textFn(Handle);
  const auto *Call = dyn_cast<CallExpr>(Release);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  auto ByText = Callee && Callee->getIdentifier() && Callee->getName() != "free"
                    ? textFn(Call->getCallee())
                    : nullptr;
  addSite(
      RD, Release->getSourceRange(), Release->getBeginLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        if (ByText) {
          L->use(HandleLayout::FreeBy);
          return L->freeByName() + "(" + Arg(ES) + ", " + ByText(ES) + ")";
        }
        L->use(HandleLayout::Free);
        return L->freeName() + "(" + Arg(ES) + ")";
      },
      "a release");
}

void UseRenderer::nullTestSite(const RecordDecl *RD, const Expr *Handle) {
  const HandleLayout *L = Layouts.lookup(RD);
  auto HandleText = textFn(Handle);
  addSite(
      RD, Handle->getSourceRange(), Handle->getExprLoc(),
      [L, HandleText](const EditSet &ES, const LaneContext *) {
        return L->nullTest(parenthesize(HandleText(ES)));
      },
      "a null test");
}

/// (T *)h passed on as a handle: h.
void UseRenderer::castSite(const RecordDecl *RD, const HandleUse &U) {
  auto HandleText = textFn(U.Handle);
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [HandleText](const EditSet &ES, const LaneContext *) {
        return HandleText(ES);
      },
      "a cast of an array", /*Needs=*/0);
}

void UseRenderer::nullSite(const RecordDecl *RD, const Expr *Null) {
  // In a braced initializer, a plain {0}: a compound literal is not a
  // constant in C.
  const Stmt *P = parent(Null);
  while (isa_and_nonnull<ImplicitCastExpr, ParenExpr>(P))
    P = parent(P);
  std::string Text = isa_and_nonnull<InitListExpr>(P)
                         ? std::string("{0}")
                         : Layouts.lookup(RD)->nullValue();
  addSite(
      RD, Null->getSourceRange(), Null->getExprLoc(),
      [Text](const EditSet &, const LaneContext *) { return Text; },
      "a null pointer");
}

void UseRenderer::returnValue(const ReturnStmt *RS, const FunctionDecl *FD) {
  const RecordDecl *RD = FD ? handleRecord(FD->getReturnType()) : nullptr;
  const Expr *V = RS->getRetValue();
  if (RD && V && !State.keptOnHost(FD) &&
      V->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    nullSite(RD, V);
}

/// &a[i], a + i -> i; a -> 0: an element pointer's value is an index.
void UseRenderer::elementAddressSite(const RecordDecl *RD, const HandleUse &U) {
  auto IndexText = U.Index ? textFn(U.Index) : nullptr;
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [IndexText](const EditSet &ES, const LaneContext *) {
        return IndexText ? parenthesize(IndexText(ES)) : std::string("0");
      },
      "an element's address", /*Needs=*/0);
}

using TextFn = std::function<std::string(const EditSet &)>;

/// T_soa_offset(h, k): the handle with each of its arrays moved by k
/// elements.
static TextFn offsetText(const HandleLayout *L, TextFn HandleText,
                         TextFn OffsetText) {
  return [L, HandleText, OffsetText](const EditSet &ES) {
    L->use(HandleLayout::Offset);
    return L->offsetName() + "(" + HandleText(ES) + ", " + OffsetText(ES) + ")";
  };
}

/// Whether \p L can move a handle (T_soa_offset); a render error at \p U if
/// not: the analysis makes a tiled handle count skipped elements wherever
/// the program moves one (RecordPlan::SubArrayAt).
bool UseRenderer::canMove(const RecordDecl *RD, const HandleLayout *L,
                          const HandleUse &U) {
  if (L->canOffset())
    return true;
  cannotRender(RD, U.Site->getExprLoc(),
               "a sub-array of tiles without a count of skipped elements "
               "(RecordPlan::SubArrayAt)");
  return false;
}

/// &a[k], a + k passed on as an array -> T_soa_offset(a, k).
void UseRenderer::subArraySite(const RecordDecl *RD, const HandleUse &U) {
  const HandleLayout *L = Layouts.lookup(RD);
  if (!canMove(RD, L, U))
    return;
  TextFn Text = offsetText(L, textFn(U.Handle), textFn(U.Index));
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [Text](const EditSet &ES, const LaneContext *) { return Text(ES); },
      "a sub-array");
}

/// h - g -> T_soa_diff(h, g); h < g -> (T_soa_diff(h, g) < 0); a sub-array
/// operand (&a[k], a + k) is its handle moved, T_soa_offset(a, k).
void UseRenderer::comparisonSite(const RecordDecl *RD, const HandleUse &U) {
  const HandleLayout *L = Layouts.lookup(RD);
  if ((U.Offset || U.Index) && !canMove(RD, L, U))
    return;
  TextFn Left = arrayAt(L, textFn(U.Handle), U.Offset);
  TextFn Right = arrayAt(L, textFn(U.Value), U.Index);
  const auto *BO = cast<BinaryOperator>(U.Site);
  std::string Op = BO->getOpcode() == BO_Sub ? "" : BO->getOpcodeStr().str();
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(HandleLayout::Diff);
        std::string Diff =
            L->diffName() + "(" + Left(ES) + ", " + Right(ES) + ")";
        return Op.empty() ? Diff : "(" + Diff + " " + Op + " 0)";
      },
      "a comparison of arrays");
}

/// ++h, h -= k -> h = T_soa_offset(h, 1), h = T_soa_offset(h, -(k)).
void UseRenderer::stepSite(const RecordDecl *RD, const HandleUse &U) {
  const HandleLayout *L = Layouts.lookup(RD);
  if (!canMove(RD, L, U))
    return;
  bool Back = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(U.Site))
    Back = UO->isDecrementOp();
  else
    Back = cast<BinaryOperator>(U.Site)->getOpcode() == BO_SubAssign;
  TextFn Handle = textFn(U.Handle);
  TextFn By = U.Index ? textFn(U.Index) : nullptr;
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        std::string K = By ? By(ES) : "1";
        if (Back)
          K = By ? "-" + parenthesize(K) : "-1";
        L->use(HandleLayout::Offset);
        std::string H = Handle(ES);
        return H + " = " + L->offsetName() + "(" + H + ", " + K + ")";
      },
      "a step of an array");
}

/// The array a use works on: the handle, or, given the offset k of &a[k]
/// or a + k, the sub-array T_soa_offset(a, k).
TextFn UseRenderer::arrayAt(const HandleLayout *L, TextFn HandleText,
                            const Expr *Offset) {
  return Offset ? offsetText(L, HandleText, textFn(Offset)) : HandleText;
}

/// qsort(a, n, sizeof(T), cmp) -> T_soa_qsort(a, n, cmp): sorts copies of
/// the elements with the comparator as it is written.
void UseRenderer::sortSite(const RecordDecl *RD, const HandleUse &U) {
  const HandleLayout *L = Layouts.lookup(RD);
  auto HandleText = arrayAt(L, textFn(U.Handle), U.Offset);
  auto CountText = textFn(U.Index);
  auto CompareText = textFn(U.Value);
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(HandleLayout::Sort);
        return L->sortName() + "(" + HandleText(ES) + ", " + CountText(ES) +
               ", " + CompareText(ES) + ")";
      },
      "a qsort");
}

/// bsearch(&key, a, n, sizeof(T), cmp) (with its casts) ->
/// T_soa_bsearch(&key, a, n, cmp); a sub-array a is rendered inside;
/// lfind(&key, a, &n, ...) and lsearch alike.
void UseRenderer::searchSite(const RecordDecl *RD, const HandleUse &U) {
  const HandleLayout *L = Layouts.lookup(RD);
  const auto *Call = cast<CallExpr>(U.Site->IgnoreParenCasts());
  auto KeyText = textFn(U.Value);
  auto ArrayText = textFn(Call->getArg(1)->IgnoreParenImpCasts());
  auto CountText = textFn(U.Index);
  auto CompareText = textFn(Call->getArg(4));
  StringRef Fn = Call->getDirectCallee()->getName();
  HandleLayout::Helper Helper = Fn == "lfind"     ? HandleLayout::Find
                                : Fn == "lsearch" ? HandleLayout::Insert
                                                  : HandleLayout::Search;
  std::string Name = Helper == HandleLayout::Find     ? L->findName()
                     : Helper == HandleLayout::Insert ? L->insertName()
                                                      : L->searchName();
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(Helper);
        return Name + "(" + KeyText(ES) + ", " + ArrayText(ES) + ", " +
               CountText(ES) + ", " + CompareText(ES) + ")";
      },
      "a search");
}

/// memcpy(b, a, n * sizeof(T)) -> T_soa_copy(b, a, n); memmove -> _move;
/// memset(a, c, n * sizeof(T)) -> T_soa_fill(a, c, n).
void UseRenderer::arrayCopySite(const RecordDecl *RD, const HandleUse &U) {
  const HandleLayout *L = Layouts.lookup(RD);
  StringRef Fn = cast<CallExpr>(U.Site)->getDirectCallee()->getName();
  HandleLayout::Helper Helper = Fn == "memset"    ? HandleLayout::Fill
                                : Fn == "memmove" ? HandleLayout::Move
                                                  : HandleLayout::Copy;
  std::string Name = Helper == HandleLayout::Fill   ? L->fillName()
                     : Helper == HandleLayout::Move ? L->moveName()
                                                    : L->copyName();
  auto To = arrayAt(L, textFn(U.Handle->IgnoreParenImpCasts()), U.Offset);
  auto From = textFn(U.Value->IgnoreParenImpCasts());
  auto Count = countText(RD, U);
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(Helper);
        return Name + "(" + To(ES) + ", " + From(ES) + ", " + Count(ES) + ")";
      },
      "a memcpy");
}

/// A CUDA runtime call on the array (CudaHelpers.cpp): the handle where it
/// took the pointer (its address for an allocation), the element count
/// where it took bytes, its other arguments as written.
void UseRenderer::cudaSite(const RecordDecl *RD, const HandleUse &U) {
  const HandleLayout *L = Layouts.lookup(RD);
  const auto *Call = cast<CallExpr>(U.Site);
  const CudaFunction &F = *UseClassifier::cudaFunction(Call);
  using TextFn = std::function<std::string(const EditSet &)>;
  std::vector<TextFn> Args;
  TextFn Handle = textFn(U.Handle->IgnoreParenImpCasts());
  if (F.Kind == CudaCall::Allocation)
    Args.push_back([Handle](const EditSet &ES) { return "&" + Handle(ES); });
  else
    Args.push_back(Handle);
  if (F.Kind == CudaCall::Copy)
    Args.push_back(textFn(U.Value->IgnoreParenImpCasts()));
  else if (F.Kind == CudaCall::Fill)
    Args.push_back(textFn(Call->getArg(1)));
  if (F.Kind != CudaCall::Release)
    Args.push_back(countText(RD, U));
  if (F.Kind == CudaCall::Copy)
    Args.push_back(textFn(Call->getArg(3))); // The direction.
  // The extra argument as written, or its default, which the helper does
  // not have.
  unsigned Extra = F.kindArgs();
  if (!F.Extra.empty() && Extra < Call->getNumArgs() &&
      !isa<CXXDefaultArgExpr>(Call->getArg(Extra)))
    Args.push_back(textFn(Call->getArg(Extra)));
  else if (!F.Extra.empty())
    Args.push_back([D = F.ExtraDefault.str()](const EditSet &) { return D; });
  std::string Name = L->cudaName(F.Name);
  uint64_t Helper = HandleLayout::cudaHelper(F);
  // At the boundary, a copy to or from the host's own array of T converts
  // through a staging copy.
  if (State.convertsAtBoundary(UseVerdict::of(U))) {
    bool ToAos = State.keptOnHost(CudaMemory::arrayRoot(U.Handle));
    Name = L->cudaAosName(F.Name, ToAos);
    Helper |= HandleLayout::cudaAosHelper(F, ToAos) | HandleLayout::Alloc |
              HandleLayout::Free |
              (ToAos ? HandleLayout::Get : HandleLayout::Set);
  }
  addSite(
      RD, Call->getSourceRange(), Call->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(HandleLayout::Helper(Helper));
        std::vector<std::string> Texts;
        for (const auto &A : Args)
          Texts.push_back(A(ES));
        return Name + "(" + llvm::join(Texts, ", ") + ")";
      },
      "a CUDA runtime call");
}

/// fwrite(a, sizeof(T), n, f) -> T_soa_fwrite(a, n, f); fread alike.
void UseRenderer::fileSite(const RecordDecl *RD, const HandleUse &U) {
  const HandleLayout *L = Layouts.lookup(RD);
  bool Reads = cast<CallExpr>(U.Site)->getDirectCallee()->getName() == "fread";
  std::string Name = Reads ? L->freadName() : L->fwriteName();
  auto Array = arrayAt(L, textFn(U.Handle->IgnoreParenImpCasts()), U.Offset);
  auto Count = textFn(U.Index);
  auto Stream = textFn(U.Value);
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(Reads ? HandleLayout::Read : HandleLayout::Write);
        return Name + "(" + Array(ES) + ", " + Count(ES) + ", " + Stream(ES) +
               ")";
      },
      "an fwrite or fread");
}

/// sizeof *p, sizeof p[0]: the element's size, spelled sizeof(T); sizeof a
/// of an array T a[N]: sizeof(T[N]).
void UseRenderer::elementSizeSite(const RecordDecl *RD, const Expr *Size) {
  std::string Length;
  if (UseClassifier::isFixedArrayOf(Size, RD))
    Length = "[" +
             llvm::toString(
                 cast<ConstantArrayType>(cast<UnaryExprOrTypeTraitExpr>(Size)
                                             ->getArgumentExpr()
                                             ->IgnoreParens()
                                             ->getType()
                                             .getTypePtr())
                     ->getSize(),
                 10, /*Signed=*/false) +
             "]";
  // In C a tag names the record wherever the code stands: a local variable
  // may hide its typedef (int node; sizeof(node)), never `struct node`.
  std::string Type = Layouts.lookup(RD)->elementType();
  if (!Ctx.getLangOpts().CPlusPlus && RD->getIdentifier() && RD->isStruct())
    Type = "struct " + RD->getName().str();
  addSite(
      RD, Size->getSourceRange(), Size->getBeginLoc(),
      [Type, Length](const EditSet &, const LaneContext *) {
        return "sizeof(" + Type + Length + ")";
      },
      "a sizeof");
}

/// Renders one use of a C handle kind the analysis classified
/// (UseClassifier.h).
void UseRenderer::renderUse(const RecordDecl *RD, const HandleUse &U) {
  switch (U.Kind) {
  case UseKind::FieldAccess:
    return fieldSite(RD, U);
  case UseKind::ElementRead:
  case UseKind::ElementWrite:
    return elementSite(RD, U);
  case UseKind::Allocation:
    return allocationSite(RD, U);
  case UseKind::Release:
    return freeSite(RD, U.Site, U.Handle);
  case UseKind::NullTest:
    return nullTestSite(RD, U.Handle);
  case UseKind::NullValue:
    return nullSite(RD, U.Value);
  case UseKind::ElementSize:
    return elementSizeSite(RD, U.Site);
  case UseKind::ElementAddress:
    return elementAddressSite(RD, U);
  case UseKind::SubArray:
    return subArraySite(RD, U);
  case UseKind::LibrarySort:
    return sortSite(RD, U);
  case UseKind::LibrarySearch:
    return searchSite(RD, U);
  case UseKind::ArrayCopy:
    return arrayCopySite(RD, U);
  case UseKind::FileIO:
    return fileSite(RD, U);
  case UseKind::CudaCall:
    return cudaSite(RD, U);
  case UseKind::HandleComparison:
    return comparisonSite(RD, U);
  case UseKind::HandleStep:
    return stepSite(RD, U);
  case UseKind::TemplateCall:
    return templateCallSite(RD, U);
  case UseKind::HandleCast:
    return castSite(RD, U);
  default:
    llvm_unreachable("not a use of a C handle");
  }
}

/// At the CUDA boundary the host's own arrays keep their layout: of their
/// uses only a copy to or from the layout is rendered (converting).
void UseRenderer::reference(const DeclRefExpr *DRE) {
  if (std::optional<ElementUse> E = Uses.elementReferenceUse(DRE)) {
    if (!State.keptOnHost(Uses.elementReference(DRE->getDecl())->arrayDecl()))
      render(E->Record, E->Verdict);
    return;
  }
  const RecordDecl *RD = Uses.handleVarRecord(DRE->getDecl());
  if (!RD)
    return;
  UseVerdict V = Uses.reference(DRE);
  if (!State.keptOnHost(DRE->getDecl()) || State.convertsAtBoundary(V))
    render(RD, V);
}

/// `s.items[i].f` and `s.items[i]` where items is an array member of another
/// record.
void UseRenderer::memberReference(const MemberExpr *ME) {
  if (std::optional<UseVerdict> V = Uses.arrayMember(ME))
    render(handleRecord(ME->getType()), *V);
  if (std::optional<UseVerdict> V = Uses.memberHandle(ME);
      V &&
      (!State.keptOnHost(ME->getMemberDecl()) || State.convertsAtBoundary(*V)))
    render(Uses.memberHandleRecord(ME->getMemberDecl()), *V);
}

void UseRenderer::dereference(const UnaryOperator *UO) {
  std::optional<UseVerdict> V = Uses.derefHandle(UO);
  if (!V)
    return;
  const auto *Ref = cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
  if (!State.keptOnHost(Ref->getDecl()) || State.convertsAtBoundary(*V))
    render(Uses.handlePointerRecord(Ref->getDecl()), *V);
}

/// A braced initializer of a record whose array member is regrouped.
void UseRenderer::memberInitializer(const CXXCtorInitializer *Init) {
  if (Init->isMemberInitializer() && State.keptOnHost(Init->getMember()))
    return;
  if (auto V = Uses.memberInitializer(Init))
    render(V->first, V->second);
}

void UseRenderer::memberArrayInitializers(const InitListExpr *List) {
  for (const auto &[RD, V] : Uses.memberArrayInitializers(List))
    render(RD, V);
}

/// Array expressions of a rewritten record that no handle variable explains
/// (s.items[i], f()[i]): the analysis refuses them.
void UseRenderer::arrayExpression(const Expr *E) {
  const Expr *Base = isa<ArraySubscriptExpr>(E)
                         ? cast<ArraySubscriptExpr>(E)->getBase()
                         : cast<MemberExpr>(E)->getBase();
  if (State.keptOnHost(CudaMemory::arrayRoot(Base)))
    return;
  if (std::optional<UseVerdict> V = Uses.unnamedArray(E))
    render(handleRecord(isa<ArraySubscriptExpr>(E)
                            ? cast<ArraySubscriptExpr>(E)->getBase()->getType()
                            : cast<MemberExpr>(E)->getBase()->getType()),
           *V);
}

/// The calls of template instantiations given an overload, spelled with
/// template arguments: those arguments dropped (UseKind::TemplateCall).
void UseRenderer::templateCall(const CallExpr *Call) {
  const Expr *Ref = Call->getCallee()->IgnoreParenImpCasts();
  if (!isa<DeclRefExpr, MemberExpr>(Ref))
    return;
  std::optional<UseVerdict> V = Uses.cloneReference(Ref, Call);
  if (!V || !V->Use || V->Use->Kind != UseKind::TemplateCall)
    return;
  llvm::SmallVector<const RecordDecl *, 2> Records =
      Uses.cloneRecords(UseClassifier::namedFunction(Ref));
  if (!Records.empty())
    render(Records.front(), *V);
}

void UseRenderer::templateCallSite(const RecordDecl *RD, const HandleUse &U) {
  if (std::optional<FileRange> Range =
          rangeOf(UseClassifier::templateArgumentAngles(U.Site)))
    textSite(RD, *Range, "", /*Needs=*/0);
  else
    cannotRender(RD, U.Site->getExprLoc(),
                 "template arguments of a call spelled in a macro");
}

/// move(a[i], dt); -> [&] { T dlopt_element = T_get(a, i);
/// move(dlopt_element, dt); T_set(a, i, dlopt_element); }(): the call made
/// on a copy of the element, written back (HandleUse::ByReference); a[i].f()
/// of a non-const member function alike, the copy its object.
void UseRenderer::byReferenceSite(
    const RecordDecl *RD, const HandleUse &U,
    std::function<std::string(const EditSet &)> HandleText,
    std::function<std::string(const EditSet &)> IndexText) {
  const HandleLayout *L = Layouts.lookup(RD);
  std::optional<FileRange> Call = rangeOf(U.Site->getSourceRange());
  // The element's own range: the subscript around the handle and index,
  // *pi of an element pointer, or r of an element reference.
  const Expr *Element = nullptr;
  std::vector<const Expr *> Args(cast<CallExpr>(U.Site)->arguments().begin(),
                                 cast<CallExpr>(U.Site)->arguments().end());
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(U.Site)) // a[i].f()
    Args.push_back(Member->getImplicitObjectArgument());
  for (const Expr *Arg : Args) {
    const Expr *A = Arg->IgnoreParenImpCasts();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(A);
        ASE && ASE->getIdx() == U.Index)
      Element = A;
    if (const auto *Deref = dyn_cast<UnaryOperator>(A);
        Deref && Deref->getOpcode() == UO_Deref &&
        Deref->getSubExpr()->IgnoreParenImpCasts() ==
            U.Index->IgnoreParenImpCasts())
      Element = A;
    if (A == U.Index)
      Element = A;
  }
  std::optional<FileRange> ElemRange =
      Element ? rangeOf(Element->getSourceRange()) : std::nullopt;
  if (!Call || !ElemRange || ElemRange->File != Call->File)
    return cannotRender(RD, U.Site->getExprLoc(),
                        "a call spelled inside a macro");
  unsigned CB = Call->Begin, CE = Call->End, EB = ElemRange->Begin,
           EE = ElemRange->End;
  std::string Type = L->qualifiedRecordName();
  if (U.Kind == UseKind::ElementRead) // Read only: the call's value.
    return addSite(
        RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
        [=](const EditSet &ES, const LaneContext *) {
          L->use(HandleLayout::Get);
          return "[&] { " + Type + " dlopt_element = " + L->getName() + "(" +
                 HandleText(ES) + ", " + IndexText(ES) + "); return " +
                 ES.textOf(CB, EB) + "dlopt_element" + ES.textOf(EE, CE) +
                 "; }()";
        },
        "an element passed by reference");
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(HandleLayout::Get);
        L->use(HandleLayout::Set);
        // The index evaluated once: the call may change what it names
        // (an index passed by reference, a global).
        std::string H = HandleText(ES);
        return "[&] { auto dlopt_index = " + IndexText(ES) + "; " + Type +
               " dlopt_element = " + L->getName() + "(" + H +
               ", dlopt_index); " + ES.textOf(CB, EB) + "dlopt_element" +
               ES.textOf(EE, CE) + "; " + L->setName() + "(" + H +
               ", dlopt_index, dlopt_element); }()";
      },
      "an element passed by reference");
}

} // namespace dlopt::rewrite
