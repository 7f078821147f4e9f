//===- OutlinedLoops.cpp - What gcc vectorizes in OpenMP-outlined code ----===//
//
// gcc compiles the body of `#pragma omp parallel` (for, task, teams,
// target) into a function of its own, which reaches the variables the
// region shares through a pointer: the `restrict` of a layout handle's
// arrays does not reach it. A loop there vectorizes only where gcc can check
// at run time that its arrays do not overlap, and it versions a loop for at
// most 10 such checks (--param vect-max-version-for-alias-checks): one per
// pair of arrays of which one is written. In SoA a loop reads and writes
// one array per field of the record it touches, so a loop over many fields
// that writes several stays scalar there, while the original's fields
// share one base pointer and need none (Black-Scholes' pricing loop: seven
// fields, two written, 11 checks; its SoA plan ran 0.96x the original with
// -fopenmp at one thread, and with both clusters tiled, one base pointer
// each, 4.5x).
//
// The count is the loop's in SoA: each field of a candidate record reached
// through an array element (`a[i].f`, per array), and each other array
// indexed in the loop (per array; not a local array, which gcc sees whole),
// read or written. A simd loop (`omp simd`, `parallel for simd`) vectorizes
// whatever gcc can check, and is not counted. clang 19 vectorized the
// pricing loop as written; the default model's compiler is gcc 12.
//
//===----------------------------------------------------------------------===//
#include "analysis/AccessCollector.h"
#include "analysis/AstUtil.h"
#include "analysis/StackSpace.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include <map>
#include <utility>

using namespace clang;
using namespace dlopt;

namespace {

/// The arrays a loop body reaches, each with whether it writes one.
class LoopArrays {
public:
  explicit LoopArrays(llvm::function_ref<bool(const RecordDecl *)> IsCandidate)
      : IsCandidate(IsCandidate) {}

  void walk(const Stmt *S, bool Written = false) {
    if (!S)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp()) {
      walk(BO->getLHS(), /*Written=*/true);
      if (BO->isCompoundAssignmentOp())
        walk(BO->getLHS());
      return walk(BO->getRHS());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->isIncrementDecrementOp())
      return walk(UO->getSubExpr(), /*Written=*/true);
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (std::optional<Key> K = array(E)) {
        Arrays[*K] |= Written;
        if (const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParens()))
          return walk(indexOf(ME->getBase()));
        if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens()))
          return walk(AS->getIdx());
      }
    }
    for (const Stmt *Child : subStatements(S))
      withStackSpace([&] { walk(Child); });
  }

  /// Run-time alias checks gcc needs: one per pair with a write.
  unsigned checks() const {
    unsigned Written = 0;
    for (const auto &[K, W] : Arrays)
      Written += W;
    unsigned Read = Arrays.size() - Written;
    return Written * Read + Written * (Written - 1) / 2;
  }

private:
  /// An array: its root declaration, and the field for a record's.
  using Key = std::pair<const Decl *, const FieldDecl *>;

  /// The array \p E reaches: `a[i].f` (the record's field f of a), or
  /// `b[i]` of an array of anything else; none for anything else.
  std::optional<Key> array(const Expr *E) const {
    E = E->IgnoreParens();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
      const auto *Element =
          dyn_cast<ArraySubscriptExpr>(ME->getBase()->IgnoreParenImpCasts());
      if (!Field || ME->isArrow() || !Element ||
          !IsCandidate(Field->getParent()))
        return std::nullopt;
      return Key{root(Element->getBase()), Field};
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const Decl *Root = root(AS->getBase());
      // A local array gcc sees whole: it needs no check.
      if (const auto *VD = dyn_cast_or_null<VarDecl>(Root);
          VD && VD->hasLocalStorage() && VD->getType()->isConstantArrayType())
        return std::nullopt;
      if (!IsCandidate(elementRecord(AS->getBase()->getType())))
        return Key{Root, nullptr};
    }
    return std::nullopt;
  }

  /// The index of element \p Base (`i` of `a[i]`), to walk on.
  static const Expr *indexOf(const Expr *Base) {
    const auto *AS = dyn_cast<ArraySubscriptExpr>(Base->IgnoreParenImpCasts());
    return AS ? AS->getIdx() : Base;
  }

  /// The declaration an array expression names (a variable, a member), or
  /// null where it is computed.
  static const Decl *root(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->getMemberDecl();
    return nullptr;
  }

  llvm::function_ref<bool(const RecordDecl *)> IsCandidate;
  std::map<Key, bool> Arrays;
};

} // namespace

bool dlopt::outlinesRegion(const OMPExecutableDirective *Dir) {
  OpenMPDirectiveKind K = Dir->getDirectiveKind();
  return isOpenMPParallelDirective(K) || isOpenMPTaskingDirective(K) ||
         isOpenMPTeamsDirective(K) || isOpenMPTargetExecutionDirective(K);
}

unsigned dlopt::soaAliasChecks(
    const Stmt *Body,
    llvm::function_ref<bool(const RecordDecl *)> IsCandidate) {
  LoopArrays Arrays(IsCandidate);
  Arrays.walk(Body);
  return Arrays.checks();
}
