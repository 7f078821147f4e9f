//===- OuterLoops.cpp - Loops vectorized across an inner loop ------------===//
//
// See OuterLoops.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/OuterLoops.h"
#include "analysis/AstUtil.h"
#include "analysis/StackSpace.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace dlopt {
namespace {

/// Whether \p S branches: gcc vectorizes no outer loop whose inner loop
/// does (see the file comment).
bool containsBranch(const Stmt *S) {
  if (!S)
    return false;
  if (isa<IfStmt, SwitchStmt, AbstractConditionalOperator>(S))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
    return true;
  return llvm::any_of(subStatements(S), [](const Stmt *C) {
    return withStackSpace([&] { return containsBranch(C); });
  });
}

const VarDecl *referencedVar(const Stmt *S) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// Whether \p S names a variable \p Pred accepts.
bool names(const Stmt *S, llvm::function_ref<bool(const VarDecl *)> Pred) {
  if (!S)
    return false;
  if (const VarDecl *VD = referencedVar(S); VD && Pred(VD))
    return true;
  return llvm::any_of(subStatements(S), [&](const Stmt *C) {
    return withStackSpace([&] { return names(C, Pred); });
  });
}

/// `i` or `i + c`, `i - c`, `c + i`: a subscript consecutive in the outer
/// loop.
bool isConsecutiveIndex(const Expr *E, const VarDecl *IV) {
  E = E->IgnoreParenImpCasts();
  if (referencedVar(E) == IV)
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub))
    return false;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  auto IsConstant = [](const Expr *C) {
    return isa<IntegerLiteral>(C->IgnoreParenImpCasts());
  };
  return (isConsecutiveIndex(L, IV) && IsConstant(R)) ||
         (BO->getOpcode() == BO_Add && IsConstant(L) &&
          isConsecutiveIndex(R, IV));
}

/// Whether every subscript in \p S that names \p IV is consecutive in it.
bool subscriptsConsecutive(const Stmt *S, const VarDecl *IV) {
  if (!S)
    return true;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
    if (names(ASE->getIdx(), [&](const VarDecl *VD) { return VD == IV; }) &&
        !isConsecutiveIndex(ASE->getIdx(), IV))
      return false;
  return llvm::all_of(subStatements(S), [&](const Stmt *C) {
    return withStackSpace([&] { return subscriptsConsecutive(C, IV); });
  });
}

/// The one loop among the top-level statements of \p Body, if the others
/// hold none.
const ForStmt *onlyInnerLoop(const Stmt *Body) {
  if (const auto *For = dyn_cast<ForStmt>(Body))
    return For;
  const auto *Compound = dyn_cast<CompoundStmt>(Body);
  if (!Compound)
    return nullptr;
  const ForStmt *Inner = nullptr;
  for (const Stmt *S : Compound->body()) {
    if (const auto *For = dyn_cast<ForStmt>(S); For && !Inner)
      Inner = For;
    else if (containsLoop(S))
      return nullptr;
  }
  return Inner;
}

} // namespace

bool isOuterLoopVectorizable(
    const ForStmt *Outer, const VarDecl *InductionVar,
    const llvm::SmallPtrSetImpl<const VarDecl *> &Varying,
    llvm::function_ref<bool(const Stmt *)> Vectorizable) {
  if (!Outer || !InductionVar || !Outer->getBody())
    return false;
  const ForStmt *Inner = onlyInnerLoop(Outer->getBody());
  if (!Inner || containsLoop(Inner->getBody()) ||
      containsBranch(Inner->getBody()))
    return false;
  // The inner loop's own variables aside, its bounds name nothing the
  // outer loop changes: each lane runs the same number of trips.
  llvm::SmallPtrSet<const VarDecl *, 4> Own;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Inner->getInit()))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        Own.insert(VD);
  auto ChangesWithOuter = [&](const VarDecl *VD) {
    return !Own.contains(VD) && (VD == InductionVar || Varying.contains(VD));
  };
  if (names(Inner->getInit(), ChangesWithOuter) ||
      names(Inner->getCond(), ChangesWithOuter))
    return false;
  if (!subscriptsConsecutive(Outer->getBody(), InductionVar))
    return false;
  // Everything but the inner loop statement vectorizes as it would in an
  // innermost loop.
  const auto *Compound = dyn_cast<CompoundStmt>(Outer->getBody());
  if (Compound)
    for (const Stmt *S : Compound->body())
      if (S != Inner && !Vectorizable(S))
        return false;
  return Vectorizable(Inner->getInit()) && Vectorizable(Inner->getCond()) &&
         Vectorizable(Inner->getInc()) && Vectorizable(Inner->getBody()) &&
         Vectorizable(Outer->getInc());
}

} // namespace dlopt
