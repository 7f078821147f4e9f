//===- HandleArithmetic.cpp - h - g, h < g, ++h on arrays of a record -----===//
//
// The part of UseClassifier that decides pointer arithmetic between arrays
// (handles) of one record, as real C code does it on sub-arrays: the index
// of a bsearch's result (`hit - grid`), a bound check (`p < a + n`, `lo <
// hi`), a pointer bumped through an array a function was given (`while
// (n--) { p->x = 0; ++p; }`). Element pointers are indices already
// (ElementPointers.cpp); these pointers are handles, which are passed on and
// indexed as arrays, so they stay handles, and their arithmetic becomes
// arithmetic on positions: a comparison or difference is the difference of
// the two positions in elements (T_soa_diff), a step moves the handle
// (T_soa_offset), as a sub-array does.
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"

using namespace clang;
using namespace dlopt;

std::optional<UseClassifier::Position>
UseClassifier::position(const Expr *E, const RecordDecl *RD) const {
  E = E->IgnoreParenImpCasts();
  auto HandleOf = [&](const Expr *H) -> const Expr * {
    H = H->IgnoreParenImpCasts();
    if (!isHandleExpr(H) || handleRecord(H->getType()) != RD)
      return nullptr;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(H);
        DRE && elementPointer(DRE->getDecl()))
      return nullptr;
    return H;
  };
  if (const Expr *H = HandleOf(E))
    return Position{H, nullptr};
  Position Sub = addressParts(E);
  if (const Expr *H = Sub.Handle ? HandleOf(Sub.Handle) : nullptr)
    return Position{H, Sub.Offset};
  return std::nullopt;
}

std::optional<UseVerdict>
UseClassifier::handleComparison(const RecordDecl *RD, const Expr *Operand,
                                const BinaryOperator *BO) const {
  if (!BO || !(BO->isComparisonOp() || BO->getOpcode() == BO_Sub))
    return std::nullopt;
  std::optional<Position> L = position(BO->getLHS(), RD);
  std::optional<Position> R = position(BO->getRHS(), RD);
  if (!L || !R)
    return std::nullopt;
  // Classified once, at its left operand; the right one is rendered with it.
  if (BO->getRHS()->IgnoreParenImpCasts() == Operand->IgnoreParenImpCasts())
    return UseVerdict::of({UseKind::HandleFlow, Operand, R->Handle});
  HandleUse U{UseKind::HandleComparison, BO, L->Handle, R->Offset};
  U.Offset = L->Offset;
  U.Value = R->Handle;
  return checked(UseVerdict::of(U), BO->getOpcode() == BO_Sub
                                        ? "a difference of arrays"
                                        : "a comparison of arrays");
}

/// Whether the value of \p E is discarded: a statement of its own, or a for
/// loop's increment.
static bool valueDiscarded(const Expr *E, const Stmt *P) {
  if (!P)
    return false;
  if (const auto *For = dyn_cast<ForStmt>(P))
    return For->getInc() == E || For->getBody() == E;
  if (const auto *Comma = dyn_cast<BinaryOperator>(P);
      Comma && Comma->getOpcode() == BO_Comma && Comma->getLHS() == E)
    return true;
  return isa<CompoundStmt, IfStmt, WhileStmt, DoStmt>(P) &&
         !(isa<IfStmt>(P) && cast<IfStmt>(P)->getCond() == E) &&
         !(isa<WhileStmt>(P) && cast<WhileStmt>(P)->getCond() == E) &&
         !(isa<DoStmt>(P) && cast<DoStmt>(P)->getCond() == E);
}

std::optional<UseVerdict> UseClassifier::handleStep(const RecordDecl *RD,
                                                    const Expr *Handle,
                                                    const Expr *Step) const {
  const auto *UO = dyn_cast<UnaryOperator>(Step);
  const auto *BO = dyn_cast<CompoundAssignOperator>(Step);
  if (!(UO && UO->isIncrementDecrementOp()) &&
      !(BO &&
        (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) &&
        BO->getLHS()->IgnoreParens() == Handle))
    return std::nullopt;
  // The rendering names the handle twice (h = T_soa_offset(h, 1)).
  if (Handle->HasSideEffects(Ctx))
    return std::nullopt;
  const Expr *Child = Step;
  const Stmt *P = semanticParent(Child);
  if (!valueDiscarded(Child, P))
    return UseVerdict::refused(Step->getExprLoc(),
                               "'" + recordName(RD) +
                                   "' array stepped inside an expression "
                                   "that uses its value (not rewritten yet)");
  HandleUse U{UseKind::HandleStep, Step, Handle, BO ? BO->getRHS() : nullptr};
  return checked(UseVerdict::of(U), "a step of an array");
}
