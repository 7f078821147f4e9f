//===- UseRewriter.cpp - Every use of a handle, rewritten -----------------===//
#include "rewriter/LayoutRewriter.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

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
  case UseKind::AllocationPart:
  case UseKind::WalkingPointer:
  case UseKind::HandleFlow:
    return; // Rendered with the allocation, the loop or the declarations.
  }
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

/// A braced initializer of a record whose array member is regrouped.
void LayoutRewriter::initList(const InitListExpr *List) {
  const InitListExpr *Sem =
      List->isSemanticForm() ? List : List->getSemanticForm();
  const RecordDecl *Outer = Sem ? asRecord(Sem->getType()) : nullptr;
  if (Outer && isStdArray(Sem->getType()) && containerRecord(Sem->getType()))
    return arrayContainerInit(List, Sem);
  if (!Outer)
    return;
  for (const FieldDecl *FD : Outer->fields()) {
    const RecordDecl *RD = handleRecord(FD->getType());
    if (!RD || !Ctx.getAsConstantArrayType(FD->getType()) ||
        FD->getFieldIndex() >= Sem->getNumInits())
      continue;
    if (!isa<ImplicitValueInitExpr>(Sem->getInit(FD->getFieldIndex())))
      refuse(RD, List->getBeginLoc(),
             "initializer of '" + recordName(Outer) +
                 "' sets its array member '" + FD->getNameAsString() +
                 "' (not rewritten yet)");
  }
}

/// std::array<T, N> a = {{{1, 2}, {3, 4}}} (or with braces elided) ->
/// T_layout_array<N> a = {T{1, 2}, T{3, 4}}: the container's
/// initializer_list constructor, which value-initializes the elements not
/// given, as std::array's aggregate initialization does.
void LayoutRewriter::arrayContainerInit(const InitListExpr *List,
                                        const InitListExpr *Sem) {
  // The syntactic form only (the semantic one is visited too).
  if (List->getSyntacticForm() || Sem->getNumInits() != 1)
    return;
  const auto *Elements = dyn_cast<InitListExpr>(Sem->getInit(0));
  if (!Elements)
    return; // {} or a copy: nothing to spell (Legality refuses copies).
  const RecordDecl *RD = containerRecord(Sem->getType());
  std::string Type = Layouts.lookup(RD)->qualifiedRecordName();
  std::vector<std::function<std::string(const EditSet &)>> Parts;
  for (const Expr *E : Elements->inits()) {
    if (isa<ImplicitValueInitExpr>(E))
      break; // The rest is value-initialized.
    auto Text = isa<InitListExpr>(E) ? initializerText(E) : textFn(E);
    if (!Text)
      return refuse(RD, E->getExprLoc(),
                    "element initializer spelled inside a macro");
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

//===----------------------------------------------------------------------===//
// Strip-mining
//===----------------------------------------------------------------------===//

} // namespace dlopt::rewrite
