//===- UseRewriter.cpp - Every use of a handle, rewritten -----------------===//
//
// The renderers of the use kinds (docs/design.md, "The use kinds"): render
// dispatches on the kind analysis/UseClassifier gave a use, and each kind has
// one local rendering through the record's HandleLayout.
//
//===----------------------------------------------------------------------===//
#include "rewriter/LayoutRewriter.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

void LayoutRewriter::fieldSite(const RecordDecl *RD, const MemberExpr *ME,
                               const Expr *Handle, const Expr *Index) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  const HandleLayout *L = Layouts.lookup(RD);
  unsigned F = FD->getFieldIndex();
  auto HandleText = textFn(Handle);
  auto IndexText = Index ? textFn(Index) : nullptr;
  if (!HandleText || (Index && !IndexText))
    return cannotRender(RD, ME->getExprLoc(),
                        "access spelled inside a macro or a system header");
  const VarDecl *IndexVar = nullptr;
  if (Index)
    if (const auto *D = dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts()))
      IndexVar = dyn_cast<VarDecl>(D->getDecl());
  bool SideEffects = Index && Index->HasSideEffects(Ctx);
  if (L->isTiled(F))
    TiledIndexUses.push_back({Handle, IndexVar, L->tileOf(F), RD});
  addSite(
      RD, ME->getSourceRange(), ME->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *Lane) {
        std::string H = HandleText(ES);
        std::string I = Index ? IndexText(ES) : "0";
        if (Lane && IndexVar == Lane->InductionVar && L->isTiled(F) &&
            L->tileOf(F) == Lane->Tile)
          return L->laneAccess(H, Lane->TileVar, Lane->LaneVar, F);
        if (SideEffects && L->isTiled(F)) // Evaluate the index once.
          return L->fieldRef(H, I, F);
        return L->access(H, I, F);
      },
      "a field access");
}

void LayoutRewriter::elementSite(const RecordDecl *RD, const HandleUse &U) {
  const HandleLayout *L = Layouts.lookup(RD);
  auto HandleText = textFn(U.Handle);
  if (HandleText && U.Embedded) // An array field: make a handle onto it.
    HandleText = [L, Text = HandleText](const EditSet &ES) {
      return L->handleOf(Text(ES));
    };
  auto IndexText = textFn(U.Index);
  auto ValueText = U.Value ? textFn(U.Value) : nullptr;
  if (!HandleText || !IndexText || (U.Value && !ValueText))
    return cannotRender(RD, U.Site->getExprLoc(),
                        "element spelled inside a macro");
  bool Read = U.Kind == UseKind::ElementRead;
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(Read ? HandleLayout::Get : HandleLayout::Set);
        return (Read ? L->getName() : L->setName()) + "(" + HandleText(ES) +
               ", " + IndexText(ES) + (Read ? "" : ", " + ValueText(ES)) + ")";
      },
      Read ? "an element read" : "an element write");
}

/// The allocation the analysis classified, in the new layout's helpers.
void LayoutRewriter::allocationSite(const RecordDecl *RD, const HandleUse &U) {
  const HandleLayout *L = Layouts.lookup(RD);
  const Expr *Inner = U.Site->IgnoreParenCasts();
  HandleLayout::Helper Helper = HandleLayout::Alloc;
  if (const auto *New = dyn_cast<CXXNewExpr>(Inner)) {
    // new T[n]() and new T[n]{} zero the elements: calloc does too.
    if (New->getInitializationStyle() != CXXNewInitializationStyle::None)
      Helper = HandleLayout::Calloc;
  } else if (allocatorName(Inner) == "calloc") {
    Helper = HandleLayout::Calloc;
  } else if (allocatorName(Inner) == "realloc") {
    Helper = HandleLayout::Realloc;
  }
  std::string Fn = Helper == HandleLayout::Alloc    ? L->allocName()
                   : Helper == HandleLayout::Calloc ? L->callocName()
                                                    : L->reallocName();
  auto CountText = U.Index ? textFn(U.Index) : nullptr;
  auto OldText = U.Value ? textFn(U.Value->IgnoreParenCasts()) : nullptr;
  addSite(
      RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(Helper);
        std::string Args = OldText ? OldText(ES) + ", " : "";
        return Fn + "(" + Args + (CountText ? CountText(ES) : "1") + ")";
      },
      "an allocation");
}

/// free(a) and delete[] a release every block of the handle.
void LayoutRewriter::freeSite(const RecordDecl *RD, const Expr *Release,
                              const Expr *Handle) {
  const HandleLayout *L = Layouts.lookup(RD);
  auto Arg = textFn(Handle);
  addSite(
      RD, Release->getSourceRange(), Release->getBeginLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(HandleLayout::Free);
        return L->freeName() + "(" + Arg(ES) + ")";
      },
      "a release");
}

void LayoutRewriter::nullTestSite(const RecordDecl *RD,
                                  const DeclRefExpr *DRE) {
  std::string Text =
      Layouts.lookup(RD)->nullTest(DRE->getDecl()->getNameAsString());
  addSite(
      RD, DRE->getSourceRange(), DRE->getLocation(),
      [Text](const EditSet &, const LaneContext *) { return Text; },
      "a null test");
}

void LayoutRewriter::nullSite(const RecordDecl *RD, const Expr *Null) {
  std::string Text = Layouts.lookup(RD)->nullValue();
  addSite(
      RD, Null->getSourceRange(), Null->getExprLoc(),
      [Text](const EditSet &, const LaneContext *) { return Text; },
      "a null pointer");
}

void LayoutRewriter::returnValue(const ReturnStmt *RS, const FunctionDecl *FD) {
  const RecordDecl *RD = FD ? handleRecord(FD->getReturnType()) : nullptr;
  const Expr *V = RS->getRetValue();
  if (RD && V &&
      V->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    nullSite(RD, V);
}

/// sizeof *p, sizeof p[0]: the element's size, spelled sizeof(T).
void LayoutRewriter::elementSizeSite(const RecordDecl *RD, const Expr *Size) {
  const HandleLayout *L = Layouts.lookup(RD);
  addSite(
      RD, Size->getSourceRange(), Size->getBeginLoc(),
      [L](const EditSet &, const LaneContext *) {
        return "sizeof(" + L->elementType() + ")";
      },
      "a sizeof");
}

/// Renders one use the analysis classified (UseClassifier.h). A use it
/// refused cannot reach here for a record being rewritten, since Legality
/// blocks the record on the same verdict: if one does, that is a bug.
void LayoutRewriter::render(const RecordDecl *RD, const UseVerdict &V) {
  if (!V.Use)
    return cannotRender(RD, V.Loc, V.Refusal);
  const HandleUse &U = *V.Use;
  switch (U.Kind) {
  case UseKind::FieldAccess:
    return fieldSite(RD, U.Field, U.Handle, U.Index);
  case UseKind::ElementRead:
  case UseKind::ElementWrite:
    return elementSite(RD, U);
  case UseKind::Allocation:
    return allocationSite(RD, U);
  case UseKind::Release:
    return freeSite(RD, U.Site, U.Handle);
  case UseKind::NullTest:
    return nullTestSite(RD, cast<DeclRefExpr>(U.Handle));
  case UseKind::NullValue:
    return nullSite(RD, U.Value);
  case UseKind::ElementSize:
    return elementSizeSite(RD, U.Site);
  case UseKind::ContainerCall:
    return sortSite(RD, U.Site);
  case UseKind::ElementBinding:
    return elementBinding(RD, U);
  case UseKind::ElementCall:
    return elementCallSite(RD, cast<CXXMemberCallExpr>(U.Site));
  case UseKind::ElementSwap:
    return swapSite(RD, U.Site);
  case UseKind::ArrayContainerInit:
    return arrayContainerInitSite(RD, cast<InitListExpr>(U.Site));
  case UseKind::AllocationPart:
  case UseKind::WalkingPointer:
  case UseKind::ProxyCall:
  case UseKind::HandleFlow:
    return; // Rendered with the allocation, the loop or the declarations.
  }
}

/// std::sort(v.begin(), v.end()) -> std::sort(v.begin(), v.end(),
/// std::less<T>()): T's operator< compares copies; the proxy has none.
void LayoutRewriter::sortSite(const RecordDecl *RD, const Expr *Last) {
  auto Text = textFn(Last);
  std::string Less =
      ", std::less<" + Layouts.lookup(RD)->qualifiedRecordName() + ">()";
  addSite(
      RD, Last->getSourceRange(), Last->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) { return Text(ES) + Less; },
      "an algorithm call", /*Needs=*/0); // The container's site has.
}

void LayoutRewriter::reference(const DeclRefExpr *DRE) {
  if (const RecordDecl *RD = Uses.handleVarRecord(DRE->getDecl()))
    render(RD, Uses.reference(DRE));
}

/// `s.items[i].f` and `s.items[i]` where items is an array member of another
/// record.
void LayoutRewriter::memberReference(const MemberExpr *ME) {
  if (std::optional<UseVerdict> V = Uses.arrayMember(ME))
    render(handleRecord(ME->getType()), *V);
}

/// A braced initializer of a record whose array member is regrouped, or
/// the elements of a std::array.
void LayoutRewriter::initList(const InitListExpr *List) {
  if (std::optional<ElementUse> E = Uses.arrayContainerInit(List))
    return render(E->Record, E->Verdict);
  for (const auto &[RD, V] : Uses.memberArrayInitializers(List))
    render(RD, V);
}

/// std::array<T, N> a = {{{1, 2}, {3, 4}}} (or with braces elided) ->
/// T_layout_array<N> a = {T{1, 2}, T{3, 4}}: the container's
/// initializer_list constructor, which value-initializes the elements not
/// given, as std::array's aggregate initialization does.
void LayoutRewriter::arrayContainerInitSite(const RecordDecl *RD,
                                            const InitListExpr *List) {
  const InitListExpr *Sem =
      List->isSemanticForm() ? List : List->getSemanticForm();
  const auto *Elements = cast<InitListExpr>(Sem->getInit(0));
  std::string Type = Layouts.lookup(RD)->qualifiedRecordName();
  std::vector<std::function<std::string(const EditSet &)>> Parts;
  for (const Expr *E : Elements->inits()) {
    if (isa<ImplicitValueInitExpr>(E))
      break; // The rest is value-initialized.
    auto Text = isa<InitListExpr>(E) ? initializerText(E) : textFn(E);
    if (!Text)
      return cannotRender(RD, E->getExprLoc(), "a std::array element");
    if (isa<InitListExpr>(E))
      Text = [Type, Text](const EditSet &ES) { return Type + Text(ES); };
    Parts.push_back(Text);
  }
  addSite(
      RD, List->getSourceRange(), List->getBeginLoc(),
      [Parts](const EditSet &ES, const LaneContext *) {
        std::string S = "{";
        for (size_t I = 0; I < Parts.size(); ++I)
          S += (I ? ", " : "") + Parts[I](ES);
        return S + "}";
      },
      "a std::array initializer", /*Needs=*/0);
}

/// Array expressions of a rewritten record that no handle variable explains
/// (s.items[i], f()[i]): the analysis refuses them.
void LayoutRewriter::arrayExpression(const Expr *E) {
  if (std::optional<UseVerdict> V = Uses.unnamedArray(E))
    render(handleRecord(isa<ArraySubscriptExpr>(E)
                            ? cast<ArraySubscriptExpr>(E)->getBase()->getType()
                            : cast<MemberExpr>(E)->getBase()->getType()),
           *V);
}

} // namespace dlopt::rewrite
