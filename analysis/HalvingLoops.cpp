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
// loop changes is given a halved value (`x / 2` or `x >> 1` in it, or a
// variable of the loop given one: mid, mid + 1), halved in place (`/= 2`,
// `>>= 1`), moved by such a value (`lower += half`), or set from the
// condition's other variables (`length = upper - lower`), and one of them
// is halved so. Anything else (++, --, another value) makes it an ordinary
// loop.
//
//===----------------------------------------------------------------------===//
#include "analysis/AccessCollector.h"
#include "analysis/AstUtil.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace dlopt;

namespace {

using VarSet = llvm::SmallPtrSet<const VarDecl *, 8>;

/// Whether \p S divides by 2 or shifts right by 1 anywhere (also in
/// place: `/= 2`, `>>= 1`).
bool containsHalving(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (const auto *Lit =
            dyn_cast<IntegerLiteral>(BO->getRHS()->IgnoreParenImpCasts())) {
      uint64_t V = Lit->getValue().getZExtValue();
      BinaryOperatorKind Op = BO->getOpcode();
      if (((Op == BO_Div || Op == BO_DivAssign) && V == 2) ||
          ((Op == BO_Shr || Op == BO_ShrAssign) && V == 1))
        return true;
    }
  for (const Stmt *C : S->children())
    if (containsHalving(C))
      return true;
  return false;
}

/// The variables \p S reads.
void readVars(const Stmt *S, VarSet &Out) {
  if (!S)
    return;
  if (const auto *V = varOf(dyn_cast<Expr>(S)))
    Out.insert(V);
  for (const Stmt *C : S->children())
    readVars(C, Out);
}

/// Whether every variable \p E reads is in \p Vars (a value made of them).
bool onlyReads(const Expr *E, const VarSet &Vars) {
  VarSet Read;
  readVars(E, Read);
  return !Read.empty() &&
         llvm::all_of(Read, [&](const VarDecl *V) { return Vars.count(V); });
}

/// The loop's changes to variables: each assignment, compound assignment
/// and step, with the variable changed.
struct Change {
  const VarDecl *Var;
  const Expr *Op;
};
void changes(const Stmt *S, std::vector<Change> &Out) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    if (const VarDecl *V = varOf(BO->getLHS()))
      Out.push_back({V, BO});
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp())
    if (const VarDecl *V = varOf(UO->getSubExpr()))
      Out.push_back({V, UO});
  for (const Stmt *C : S->children())
    changes(C, Out);
}

/// Variables the loop gives a halved value: declared or assigned with one
/// (`long mid = lower + (upper - lower) / 2;`, `half = length >> 1`), or
/// with another such variable (`upper = mid;` makes upper one), to a fixed
/// point.
VarSet halvedValues(const Stmt *Body) {
  VarSet Mids;
  auto Halved = [&](const Expr *E) {
    VarSet Read;
    readVars(E, Read);
    return containsHalving(E) ||
           llvm::any_of(Read, [&](const VarDecl *V) { return Mids.count(V); });
  };
  bool Grew = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    const VarDecl *Set = nullptr;
    const Expr *Value = nullptr;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
          if (!Mids.count(VD) && Halved(VD->getInit()))
            Grew |= Mids.insert(VD).second;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign) {
      Set = varOf(BO->getLHS());
      Value = BO->getRHS();
    }
    if (Set && !Mids.count(Set) && Halved(Value))
      Grew |= Mids.insert(Set).second;
    for (const Stmt *C : S->children())
      Walk(C);
  };
  while (Grew) {
    Grew = false;
    Walk(Body);
  }
  return Mids;
}

} // namespace

bool dlopt::isHalvingLoop(const Expr *Cond, const Stmt *Body, const Expr *Inc) {
  if (!Cond || !Body)
    return false;
  VarSet CondVars;
  readVars(Cond, CondVars);
  VarSet Mids = halvedValues(Body);
  std::vector<Change> Changes;
  changes(Body, Changes);
  changes(Inc, Changes);
  // A value halved, or made of halved values: mid, mid + 1, lower + half.
  auto Halved = [&](const Expr *E) {
    VarSet Read;
    readVars(E, Read);
    return containsHalving(E) ||
           llvm::any_of(Read, [&](const VarDecl *V) { return Mids.count(V); });
  };
  bool Halves = false;
  for (const Change &C : Changes) {
    if (!CondVars.count(C.Var))
      continue;
    const auto *BO = dyn_cast<BinaryOperator>(C.Op);
    if (!BO)
      return false; // ++lower: a step, not a halving.
    switch (BO->getOpcode()) {
    case BO_Assign:
      if (Halved(BO->getRHS())) {
        Halves = true;
        break;
      }
      // length = upper - lower: the range the others halve (not lo = lo +
      // 1, a step).
      if (!onlyReads(BO->getRHS(), CondVars) || refersTo(BO->getRHS(), C.Var))
        return false;
      break;
    case BO_DivAssign:
    case BO_ShrAssign:
      if (!containsHalving(BO))
        return false;
      Halves = true;
      break;
    case BO_AddAssign:
    case BO_SubAssign:
      if (!Halved(BO->getRHS()))
        return false;
      Halves = true;
      break;
    default:
      return false;
    }
  }
  return Halves;
}
