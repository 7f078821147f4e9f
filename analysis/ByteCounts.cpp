//===- ByteCounts.cpp - Byte counts that are whole elements ---------------===//
//
// The part of UseClassifier that reads an allocation's or a memcpy's byte
// count as a number of elements of a record: n * sizeof(T) in any factor
// order, or a value that provably is one, kept in a local variable that is
// never assigned or in a struct field every write of which stores one
// (lavaMD's dim_cpu.space_mem = dim_cpu.space_elem * sizeof(FOUR_VECTOR)).
// A rewrite divides such a value by the element's size; its other uses
// keep it as it is.
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace dlopt;

namespace {
/// Every write of one field in a translation unit: the values assigned to
/// it, and whether it is also written another way (+=, ++, through its
/// address, or by an initializer list).
class FieldWrites : public RecursiveASTVisitor<FieldWrites> {
public:
  explicit FieldWrites(const FieldDecl *FD) : FD(FD) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && isField(BO->getLHS())) {
      if (BO->getOpcode() == BO_Assign)
        Values.push_back(BO->getRHS());
      else
        Other = true;
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        isField(UO->getSubExpr()))
      Other = true;
    return true;
  }
  bool VisitInitListExpr(InitListExpr *List) {
    const RecordDecl *RD = List->getType()->getAsRecordDecl();
    if (!RD || RD != FD->getParent() || !List->isSemanticForm())
      return true;
    unsigned I = FD->getFieldIndex();
    if (I < List->getNumInits() &&
        !isa<ImplicitValueInitExpr>(List->getInit(I)))
      Values.push_back(List->getInit(I));
    return true;
  }

  std::vector<const Expr *> Values;
  bool Other = false;

private:
  bool isField(const Expr *E) const {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    return ME && ME->getMemberDecl() == FD;
  }
  const FieldDecl *FD;
};
} // namespace

/// \p E without parentheses and the integer conversions that keep its
/// value ((long)sizeof(T)).
static const Expr *ignoreWidening(const Expr *E, const ASTContext &Ctx) {
  for (;;) {
    E = E->IgnoreParens();
    const auto *Cast = dyn_cast<CastExpr>(E);
    if (!Cast || !Cast->getType()->isIntegerType() ||
        !Cast->getSubExpr()->getType()->isIntegerType() ||
        Ctx.getTypeSize(Cast->getType()) <
            Ctx.getTypeSize(Cast->getSubExpr()->getType()))
      return E;
    E = Cast->getSubExpr();
  }
}

/// The factors of a product, in any grouping: (a * b) * c.
static void factorsOf(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Mul = dyn_cast<BinaryOperator>(E);
      Mul && Mul->getOpcode() == BO_Mul) {
    factorsOf(Mul->getLHS(), Out);
    factorsOf(Mul->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

bool UseClassifier::elementCount(const Expr *Size, const RecordDecl *RD,
                                 HandleUse &U) const {
  auto IsElementSize = [&](const Expr *E) {
    const auto *S = dyn_cast<UnaryExprOrTypeTraitExpr>(ignoreWidening(E, Ctx));
    return S && S->getKind() == UETT_SizeOf &&
           asRecord(S->getTypeOfArgument()) == RD;
  };
  llvm::SmallVector<const Expr *, 4> Factors;
  factorsOf(Size, Factors);
  if (llvm::count_if(Factors, IsElementSize) == 1) {
    U.Count.clear();
    for (const Expr *F : Factors)
      if (!IsElementSize(F))
        U.Count.push_back(F);
    U.CountInBytes = false;
    return true;
  }
  // sizeof b of an array T b[N]: N elements (the sizeof is rendered with
  // the array's type, its value unchanged).
  if (isFixedArrayOf(ignoreWidening(Size, Ctx), RD)) {
    U.Count = {Size};
    U.CountInBytes = true;
    return true;
  }
  // A byte count computed beforehand, kept as it is: its other uses keep
  // their value, and the count is that value over the element's size.
  if (const auto *ME = dyn_cast<MemberExpr>(Size->IgnoreParenImpCasts());
      ME && fieldHoldsElements(dyn_cast<FieldDecl>(ME->getMemberDecl()), RD)) {
    U.Count = {ME};
    U.CountInBytes = true;
    return true;
  }
  const auto *Bytes = dyn_cast<DeclRefExpr>(Size->IgnoreParenImpCasts());
  const auto *Var = Bytes ? dyn_cast<VarDecl>(Bytes->getDecl()) : nullptr;
  const auto *FD =
      Var ? dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod())
          : nullptr;
  HandleUse Init;
  if (!FD || !Var->hasLocalStorage() || !Var->getInit() ||
      !Var->getType()->isIntegerType() || assignsTo(FD->getBody(), Var) ||
      !elementCount(Var->getInit(), RD, Init) || Init.CountInBytes)
    return false;
  U.Count = {Bytes};
  U.CountInBytes = true;
  return true;
}

bool UseClassifier::isElementSize(const Expr *Size,
                                  const RecordDecl *RD) const {
  HandleUse One;
  return elementCount(Size, RD, One) && One.Count.empty();
}

bool UseClassifier::fieldHoldsElements(const FieldDecl *FD,
                                       const RecordDecl *RD) const {
  if (!FD || !FD->getType()->isIntegerType())
    return false;
  auto [It, New] = FieldCounts.try_emplace({FD, RD}, false);
  if (!New)
    return It->second;
  // Every value it is given is a whole number of elements, none included
  // (a field never written is zero or never read as a size).
  FieldWrites W(FD);
  W.TraverseAST(Ctx);
  HandleUse Each;
  auto Zero = [&](const Expr *V) {
    std::optional<llvm::APSInt> I = V->getIntegerConstantExpr(Ctx);
    return I && I->isZero();
  };
  bool Whole =
      !W.Other && !W.Values.empty() &&
      llvm::all_of(W.Values, [&](const Expr *V) {
        return Zero(V) || (elementCount(V, RD, Each) && !Each.CountInBytes);
      });
  FieldCounts[{FD, RD}] = Whole;
  return Whole;
}
