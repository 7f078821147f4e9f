//===- HalvingLoops.cpp - Loops that halve a range each time round --------===//
//
// A binary search (`while (upper - lower > 1) { mid = lower + (upper -
// lower) / 2; if (...) upper = mid; else lower = mid; }`), a bisection, or a
// loop that halves its counter (`for (len = n; len > 1; len /= 2)`) runs
// about log2 of its range, not the range: guessed as a loop over an array
// of unknown length (UnknownLoopTrips), a search inside a lookup loop
// outweighed everything else of the program.
//
// A loop is taken for one when every variable its condition reads that the
// loop changes is given a value halved from the condition's variables
// (`lower + (upper - lower) / 2`, `length >> 1`, or a variable of the loop
// given one: mid, mid + 1), halved in place (`/= 2`, `>>= 1`), moved by
// such a value (`base += half`, half = length / 2), or set from the
// condition's other variables (`length = upper - lower`), and one of them
// is halved so. Anything else (++, --, a step by a constant half, `t += dt
// / 2`) makes it an ordinary loop.
//
//===----------------------------------------------------------------------===//
#include "analysis/AccessCollector.h"
#include "analysis/AstUtil.h"
#include "analysis/StackSpace.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>

using namespace clang;
using namespace dlopt;

namespace {

using VarSet = llvm::SmallPtrSet<const VarDecl *, 8>;

/// The halvings in \p S: `x / 2` and `x >> 1` (also in place, `/= 2`,
/// `>>= 1`), each with the operand it halves.
void halvings(const Stmt *S, std::vector<const Expr *> &Out) {
  if (!S)
    return;
  withStackSpace([&] {
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (const auto *Lit =
              dyn_cast<IntegerLiteral>(BO->getRHS()->IgnoreParenImpCasts())) {
        uint64_t V = Lit->getValue().getZExtValue();
        BinaryOperatorKind Op = BO->getOpcode();
        if (((Op == BO_Div || Op == BO_DivAssign) && V == 2) ||
            ((Op == BO_Shr || Op == BO_ShrAssign) && V == 1))
          Out.push_back(BO->getLHS());
      }
    for (const Stmt *C : S->children())
      halvings(C, Out);
  });
}

/// The variables \p S reads.
void readVars(const Stmt *S, VarSet &Out) {
  if (!S)
    return;
  withStackSpace([&] {
    if (const auto *V = varOf(dyn_cast<Expr>(S)))
      Out.insert(V);
    for (const Stmt *C : S->children())
      readVars(C, Out);
  });
}

bool readsAny(const Stmt *S, const VarSet &Vars) {
  VarSet Read;
  readVars(S, Read);
  return llvm::any_of(Read, [&](const VarDecl *V) { return Vars.count(V); });
}

/// Whether \p E halves a value of the loop: one of \p Vars (the
/// condition's variables and the values halved from them) halved (`(lower +
/// upper) / 2`, `length >> 1`; not `dt / 2`, a constant step), or such a
/// value itself (`upper = mid`).
bool halvesLoopValue(const Expr *E, const VarSet &Vars) {
  std::vector<const Expr *> Halved;
  halvings(E, Halved);
  return llvm::any_of(Halved, [&](const Expr *H) { return readsAny(H, Vars); });
}

/// Whether \p E reads variables, all of them in \p Vars.
bool readsOnly(const Expr *E, const VarSet &Vars) {
  VarSet Read;
  readVars(E, Read);
  return !Read.empty() &&
         llvm::all_of(Read, [&](const VarDecl *V) { return Vars.count(V); });
}

/// A change the loop makes to a variable: an assignment, compound
/// assignment or step.
struct Change {
  const VarDecl *Var;
  const Expr *Op;
};
void collectChanges(const Stmt *S, std::vector<Change> &Out) {
  if (!S)
    return;
  withStackSpace([&] {
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp())
      if (const VarDecl *V = varOf(BO->getLHS()))
        Out.push_back({V, BO});
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->isIncrementDecrementOp())
      if (const VarDecl *V = varOf(UO->getSubExpr()))
        Out.push_back({V, UO});
    for (const Stmt *C : S->children())
      collectChanges(C, Out);
  });
}

/// The variables the loop sets each time round to a value halved from
/// the condition's (`long mid = lower + (upper - lower) / 2;`, `half =
/// length >> 1`) or to another such (`upper = mid;`), to a fixed point (the
/// set only grows).
VarSet halvedValues(const Stmt *Body, const VarSet &CondVars,
                    const std::vector<Change> &Changes) {
  VarSet Mids;
  std::vector<std::pair<const VarDecl *, const Expr *>> Sets;
  std::function<void(const Stmt *)> Decls = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
          Sets.push_back({VD, VD->getInit()});
    for (const Stmt *C : S->children())
      Decls(C);
  };
  Decls(Body);
  for (const Change &C : Changes)
    if (const auto *BO = dyn_cast<BinaryOperator>(C.Op);
        BO && BO->getOpcode() == BO_Assign)
      Sets.push_back({C.Var, BO->getRHS()});
  for (bool Grew = true; Grew;) {
    Grew = false;
    VarSet Known = CondVars;
    Known.insert(Mids.begin(), Mids.end());
    for (const auto &[V, Value] : Sets)
      if (!Mids.count(V) &&
          (halvesLoopValue(Value, Known) || readsAny(Value, Mids)))
        Grew |= Mids.insert(V).second;
  }
  return Mids;
}

} // namespace

bool dlopt::isHalvingLoop(const Expr *Cond, const Stmt *Body, const Expr *Inc) {
  if (!Cond || !Body)
    return false;
  // Most loops halve nothing: done without looking further.
  std::vector<const Expr *> Any;
  halvings(Body, Any);
  halvings(Inc, Any);
  if (Any.empty())
    return false;
  VarSet CondVars;
  readVars(Cond, CondVars);
  std::vector<Change> Changes;
  collectChanges(Body, Changes);
  collectChanges(Inc, Changes);
  VarSet Mids = halvedValues(Body, CondVars, Changes);
  bool Halves = false;
  for (const Change &C : Changes) {
    if (!CondVars.count(C.Var))
      continue;
    const auto *BO = dyn_cast<BinaryOperator>(C.Op);
    if (!BO)
      return false; // ++lower: a step, not a halving.
    switch (BO->getOpcode()) {
    case BO_Assign:
      if (Mids.count(C.Var) || readsAny(BO->getRHS(), Mids)) {
        Halves = true;
        break;
      }
      // length = upper - lower: the range the others halve (not lo = lo +
      // 1, a step).
      if (!readsOnly(BO->getRHS(), CondVars) || refersTo(BO->getRHS(), C.Var))
        return false;
      break;
    case BO_DivAssign: // len /= 2, len >>= 1
    case BO_ShrAssign: {
      std::vector<const Expr *> Halved;
      halvings(BO, Halved);
      if (Halved.empty())
        return false;
      Halves = true;
      break;
    }
    case BO_AddAssign: // lower += half, where half is halved each time
    case BO_SubAssign:
      if (!readsAny(BO->getRHS(), Mids))
        return false;
      Halves = true;
      break;
    default:
      return false;
    }
  }
  return Halves;
}
