//===- RunningIndices.cpp - Indices that run through an array -------------===//
//
// See RunningIndices.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/RunningIndices.h"
#include "analysis/AstUtil.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;
using namespace dlopt;

namespace {

/// How a loop changes index \p K: the direction of its steps (+1, -1, 0
/// for none), or Other for anything but steps of one direction.
struct Changes {
  int Direction = 0;
  bool Other = false;
};

/// +1 or -1 if \p E steps \p K by a nonzero constant (k++, --k, k += 2,
/// k = k + 1), else 0.
int stepOf(const Expr *E, const VarDecl *K) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Set = dyn_cast<BinaryOperator>(E);
      Set && Set->getOpcode() == BO_Assign && varOf(Set->getLHS()) == K)
    if (const auto *Sum =
            dyn_cast<BinaryOperator>(Set->getRHS()->IgnoreParenImpCasts());
        Sum && Sum->isAdditiveOp()) {
      bool Add = Sum->getOpcode() == BO_Add;
      const Expr *By = varOf(Sum->getLHS()) == K          ? Sum->getRHS()
                       : Add && varOf(Sum->getRHS()) == K ? Sum->getLHS()
                                                          : nullptr;
      std::optional<llvm::APSInt> C =
          By ? By->getIntegerConstantExpr(K->getASTContext()) : std::nullopt;
      if (C && !C->isZero())
        return (C->isNegative() ? -1 : 1) * (Add ? 1 : -1);
    }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->isIncrementDecrementOp() && varOf(UO->getSubExpr()) == K)
      return UO->isIncrementOp() ? 1 : -1;
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(E))
    if ((CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign) &&
        varOf(CA->getLHS()) == K)
      if (std::optional<llvm::APSInt> By =
              CA->getRHS()->getIntegerConstantExpr(K->getASTContext());
          By && !By->isZero()) {
        int Sign = By->isNegative() ? -1 : 1;
        return CA->getOpcode() == BO_AddAssign ? Sign : -Sign;
      }
  return 0;
}

/// What \p S does to \p K.
void scan(const Stmt *S, const VarDecl *K, Changes &C) {
  llvm::SmallVector<const Stmt *, 32> Todo{S};
  while (!Todo.empty()) {
    const Stmt *Next = Todo.pop_back_val();
    if (!Next)
      continue;
    if (const auto *E = dyn_cast<Expr>(Next)) {
      if (int Step = stepOf(E, K)) {
        C.Other |= C.Direction && C.Direction != Step;
        C.Direction = Step;
      } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
                 UO && UO->getOpcode() == UO_AddrOf &&
                 varOf(UO->getSubExpr()) == K) {
        C.Other = true;
      } else if (const auto *BO = dyn_cast<BinaryOperator>(E);
                 BO && BO->isAssignmentOp() && varOf(BO->getLHS()) == K) {
        C.Other = true;
      }
    }
    // Declared in the loop: a new index each iteration.
    if (const auto *DS = dyn_cast<DeclStmt>(Next))
      for (const Decl *D : DS->decls())
        C.Other |= D == K;
    // subStatements: the code of an OpenMP region in the loop counts too.
    llvm::append_range(Todo, subStatements(Next));
  }
}

/// What loop \p Loop does to \p K in its iterations (a for loop's
/// initialization runs before them).
Changes changesIn(const Stmt *Loop, const VarDecl *K) {
  Changes C;
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    scan(For->getCond(), K, C);
    scan(For->getInc(), K, C);
    scan(For->getBody(), K, C);
  } else {
    scan(Loop, K, C);
  }
  return C;
}

/// Whether \p E steps \p K, directly or as one operand of a comma
/// (`p++, pi++`).
bool stepsAtTop(const Expr *E, const VarDecl *K) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
    E = Cleanups->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Comma = dyn_cast<BinaryOperator>(E);
      Comma && Comma->getOpcode() == BO_Comma)
    return stepsAtTop(Comma->getLHS(), K) || stepsAtTop(Comma->getRHS(), K);
  return stepOf(E, K) != 0;
}

/// Whether every iteration of \p Loop steps \p K: in its increment, or as
/// a statement of its body.
bool stepsEveryIteration(const Stmt *Loop, const VarDecl *K) {
  const Stmt *Body = nullptr;
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    if (stepsAtTop(For->getInc(), K))
      return true;
    Body = For->getBody();
  } else if (const auto *While = dyn_cast<WhileStmt>(Loop)) {
    Body = While->getBody();
  } else if (const auto *Do = dyn_cast<DoStmt>(Loop)) {
    Body = Do->getBody();
  } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop)) {
    Body = Range->getBody();
  }
  if (!Body)
    return false;
  if (const auto *Block = dyn_cast<CompoundStmt>(Body))
    return llvm::any_of(Block->body(), [&](const Stmt *S) {
      const auto *E = dyn_cast<Expr>(S);
      return E && stepsAtTop(E, K);
    });
  const auto *E = dyn_cast<Expr>(Body);
  return E && stepsAtTop(E, K);
}

} // namespace

bool dlopt::changesInLoop(const Stmt *Loop, const VarDecl *V) {
  Changes C = changesIn(Loop, V);
  return C.Other || C.Direction;
}

std::optional<unsigned>
dlopt::runningIndexLoop(const ArraySubscriptExpr *Element,
                        llvm::ArrayRef<const Stmt *> Loops) {
  if (!Element || Loops.empty() || !Loops.back())
    return std::nullopt;
  // a[k], or a[k++], which steps on every access itself.
  const Expr *Index = Element->getIdx()->IgnoreParenImpCasts();
  bool StepsHere = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(Index);
      UO && UO->isIncrementDecrementOp()) {
    Index = UO->getSubExpr();
    StepsHere = true;
  }
  const VarDecl *K = varOf(Index);
  if (!K || !K->isLocalVarDeclOrParm() || !K->getType()->isIntegerType())
    return std::nullopt;
  if (!StepsHere && !stepsEveryIteration(Loops.back(), K))
    return std::nullopt;
  std::optional<unsigned> Outermost;
  int Direction = 0;
  for (unsigned I = Loops.size(); I-- > 0;) {
    if (!Loops[I])
      break;
    Changes C = changesIn(Loops[I], K);
    if (C.Other || !C.Direction || (Direction && C.Direction != Direction))
      break;
    Direction = C.Direction;
    Outermost = I;
  }
  return Outermost;
}
