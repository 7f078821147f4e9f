//===- AccessCollector.cpp - Kernels and their ordered field accesses -----===//
//
// A KernelWalker follows one function body in evaluation order: right-hand
// sides before the stores they feed, arguments before calls, both arms of a
// branch as alternatives. Lvalues are resolved to "field f of an element of
// an array of record R" where possible; other loads and stores through
// pointers and arrays are traced as anonymous memory, since they too move
// bytes between two field accesses. Scalars in variables are taken to live
// in registers.
//
// Every walk here recurses once per level of the AST, which a long sum makes
// as deep as it has terms: each recursive step goes through withStackSpace().
//
//===----------------------------------------------------------------------===//
#include "analysis/AccessCollector.h"
#include "analysis/AstUtil.h"
#include "analysis/CallFrequencies.h"
#include "analysis/OpenCLHost.h"
#include "analysis/OuterLoops.h"
#include "analysis/ProfileCounts.h"
#include "analysis/RunningIndices.h"
#include "analysis/StackSpace.h"
#include "analysis/StripMining.h"
#include "analysis/ThreadVariance.h"
#include "analysis/UseClassifier.h"
#include "analysis/VectorMath.h"
#include "analysis/VectorStores.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/SaveAndRestore.h"
#include <cmath>
#include <optional>

using namespace clang;
using namespace dlopt;

namespace {

/// What a loop tells the walker about its body.
struct LoopScope {
  const VarDecl *InductionVar = nullptr;
  bool Vectorizable = true;
  /// True if the body holds another loop (so it is not strip-mined).
  bool ContainsLoop = false;
  /// True for the loops the rewriter strip-mines (analysis/StripMining.h):
  /// `for (i = 0; i < n; ++i)`, or a range-for, with a body that stays in.
  bool FromZeroUpByOne = false;
  /// The loop itself, for a `for` loop, and whether its strip-mined form
  /// peels to a tile boundary (peels() in StripMining.h).
  const ForStmt *For = nullptr;
  bool Peels = false;
  /// The handles known to hold still in it, or not (holdsStill()).
  mutable llvm::DenseMap<const ValueDecl *, bool> StillHandles;
  /// The scalars the body accumulates into (see collectAccumulators()).
  unsigned Accumulators = 0;
  /// The variable of a range-for over a candidate's std::vector: its
  /// element at the loop's position.
  const VarDecl *RangeVar = nullptr;
  /// The iterator of `for (auto it = v.begin(); it != v.end(); ++it)` over
  /// a candidate's std::vector: *it is the element at the loop's position.
  const VarDecl *IteratorVar = nullptr;
  double Trips = 1;
  /// The implicit loop over a GPU kernel's work-items: its InductionVar
  /// holds get_global_id(0), and an index get_global_id(0) is it too.
  bool WorkItems = false;
  /// Variables assigned in the body (their values vary per iteration).
  llvm::SmallPtrSet<const VarDecl *, 8> Varying;
  /// The loop statement (null for a GPU kernel's work-items), and whether
  /// its trip count is a guess, not a constant, a length or a measure.
  const Stmt *Statement = nullptr;
  bool Guessed = false;
};

std::optional<int64_t> evaluateConstant(const Expr *E, const ASTContext &Ctx,
                                        unsigned Depth = 0) {
  if (!E || Depth > 4)
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().tryExtValue(); // None for __int128 beyond 64 bits.
  // C does not fold const variables; a `const int N = 100;` bound is as
  // constant to the programmer as a macro.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->getType().isConstQualified() && VD->getInit())
        return evaluateConstant(VD->getInit(), Ctx, Depth + 1);
  return std::nullopt;
}

/// The value of \p E, a floating loop's start, bound or step, if it is made
/// of literals, enumerators and const variables with such initializers,
/// with + - * /: `y < VIEW_HEIGHT - EPS`, which C does not fold.
std::optional<double> evaluateNumber(const Expr *E, const ASTContext &Ctx,
                                     unsigned Depth = 0) {
  if (!E || Depth > 8 || E->isValueDependent())
    return std::nullopt;
  E = E->IgnoreParens();
  Expr::EvalResult R;
  if (E->EvaluateAsRValue(R, Ctx)) {
    if (R.Val.isInt())
      return R.Val.getInt().isSigned() ? double(R.Val.getInt().getSExtValue())
                                       : double(R.Val.getInt().getZExtValue());
    if (R.Val.isFloat()) {
      llvm::APFloat F = R.Val.getFloat();
      bool Lost = false;
      F.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &Lost);
      return F.convertToDouble();
    }
  }
  auto Sub = [&](const Expr *S) { return evaluateNumber(S, Ctx, Depth + 1); };
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    std::optional<double> V = Sub(Cast->getSubExpr());
    if (V && Cast->getType()->isIntegerType())
      V = std::trunc(*V);
    return V;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->getType().isConstQualified() && VD->getInit())
      return Sub(VD->getInit());
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Minus)
    if (std::optional<double> V = Sub(UO->getSubExpr()))
      return -*V;
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return std::nullopt;
  std::optional<double> L = Sub(BO->getLHS()), Rt = Sub(BO->getRHS());
  if (!L || !Rt)
    return std::nullopt;
  switch (BO->getOpcode()) {
  case BO_Add:
    return *L + *Rt;
  case BO_Sub:
    return *L - *Rt;
  case BO_Mul:
    return *L * *Rt;
  case BO_Div:
    if (*Rt == 0)
      return std::nullopt;
    return BO->getType()->isIntegerType() ? std::trunc(*L / *Rt) : *L / *Rt;
  default:
    return std::nullopt;
  }
}

/// Variables a statement declares.
void collectDeclared(const Stmt *S,
                     llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        Out.insert(VD);
  for (const Stmt *Child : subStatements(S))
    withStackSpace([&] { collectDeclared(Child, Out); });
}

/// The variable \p BO accumulates into: `s += x` (any compound
/// assignment) or `s = s + x`, `s = x * s` (`m = m > x ? m : x` is not
/// counted).
const VarDecl *accumulator(const BinaryOperator *BO) {
  const VarDecl *Acc = varOf(BO->getLHS());
  if (!Acc)
    return nullptr;
  if (BO->isCompoundAssignmentOp())
    return Acc;
  if (BO->getOpcode() == BO_Assign)
    if (const auto *Op =
            dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts()))
      if ((Op->isAdditiveOp() || Op->isMultiplicativeOp()) &&
          (varOf(Op->getLHS()) == Acc || varOf(Op->getRHS()) == Acc))
        return Acc;
  return nullptr;
}

/// Collects the scalars \p S accumulates into that live across iterations:
/// each one a horizontal reduction at the end of the loop's vectorized form,
/// once per loop run (once per tile when the loop is strip-mined).
void collectAccumulators(const Stmt *S, const VarDecl *InductionVar,
                         const llvm::SmallPtrSetImpl<const VarDecl *> &Declared,
                         llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (const VarDecl *Acc = accumulator(BO))
      if (Acc != InductionVar && !Declared.count(Acc) &&
          Acc->getType()->isArithmeticType())
        Out.insert(Acc);
  for (const Stmt *C : subStatements(S))
    withStackSpace(
        [&] { collectAccumulators(C, InductionVar, Declared, Out); });
}

unsigned countAccumulators(const Stmt *Body, const VarDecl *InductionVar) {
  llvm::SmallPtrSet<const VarDecl *, 8> Declared, Accumulators;
  collectDeclared(Body, Declared);
  collectAccumulators(Body, InductionVar, Declared, Accumulators);
  return Accumulators.size();
}

/// How often the profile says the code at \p Loc ran.
std::optional<uint64_t> measuredCount(const ASTContext &Ctx,
                                      const ProfileCounts *Profile,
                                      SourceLocation Loc) {
  if (!Profile || Loc.isInvalid())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(Loc);
  std::string File = realPathOf(SM, SM.getFileID(At));
  if (File.empty())
    return std::nullopt;
  return Profile->countAt(File, SM.getExpansionLineNumber(At),
                          SM.getExpansionColumnNumber(At));
}

/// A loop's measured trip count: the runs of its body (its region starts
/// where the body does) over the times the loop was reached (the region in
/// effect at its first token); 0 for a loop the run never reached.
std::optional<double> measuredTrips(const ASTContext &Ctx,
                                    const ProfileCounts *Profile,
                                    SourceLocation Start, const Stmt *Body) {
  if (!Body)
    return std::nullopt;
  std::optional<uint64_t> Reached = measuredCount(Ctx, Profile, Start);
  std::optional<uint64_t> Runs =
      measuredCount(Ctx, Profile, Body->getBeginLoc());
  if (!Reached || !Runs)
    return std::nullopt;
  return *Reached ? double(*Runs) / double(*Reached) : 0.0;
}

class KernelWalker {
public:
  KernelWalker(ASTContext &Ctx, const AccessCollector &Ids,
               const llvm::DenseMap<const RecordDecl *, unsigned> &Records,
               const ProfileCounts *Profile, const ThreadVariance &Variance,
               KernelTrace &Out)
      : Ctx(Ctx), Ids(Ids), Records(Records), Profile(Profile),
        Variance(Variance), Out(Out),
        Uses(Ctx, [&Records](const RecordDecl *RD) {
          return Records.count(RD) > 0;
        }) {}

  void walkFunction(const FunctionDecl *FD) {
    if (isGpuKernel(FD)) {
      // The body runs once per work-item: an implicit loop over the NDRange,
      // from 0 up by 1, which the device vectorizes across work-items
      // (lanes of a GPU's warp, PoCL's vectorized work-item loops) whatever
      // loops the body holds; a return ends the work-item, not the loop.
      LoopScope Scope;
      collectVarying(FD->getBody(), Scope.Varying);
      Scope.Vectorizable = scanVectorizable(FD->getBody(), /*InCallee=*/true);
      Scope.WorkItems = true;
      Scope.FromZeroUpByOne = true;
      Scope.InductionVar = workItemVariable(FD->getBody());
      if (std::optional<double> Items = Ids.workItems(FD))
        enterLoop(FD->getBeginLoc(), *Items, "grid", Scope);
      else if (FD->hasAttr<OpenCLKernelAttr>() &&
               readsGlobalSize(FD->getBody()))
        // Host launches of constant size will not scale it (WholeProgram).
        enterLoop(FD->getBeginLoc(), WholeArrayTrips, "NDRange (shared out)",
                  Scope);
      else
        enterLoop(FD->getBeginLoc(), WholeArrayTrips, "NDRange", Scope);
      stmt(FD->getBody());
      leaveLoop();
      return;
    }
    if (FD->hasAttr<CUDADeviceAttr>()) {
      // A CUDA __device__ function runs within its callers' work-items: its
      // body is one trip per call (the calls count how often).
      LoopScope Scope;
      collectVarying(FD->getBody(), Scope.Varying);
      Scope.Vectorizable = scanVectorizable(FD->getBody(), /*InCallee=*/true);
      Scope.WorkItems = true;
      enterLoop(FD->getBeginLoc(), 1, "call", Scope);
      stmt(FD->getBody());
      leaveLoop();
      return;
    }
    // A function without loops of its own runs in its callers' loops.
    LooplessBody = containsLoop(FD->getBody()) ? nullptr : FD->getBody();
    stmt(FD->getBody());
    LooplessBody = nullptr;
  }

  bool foundFieldInLoop() const { return FieldInLoop; }

  /// The direct calls of functions defined here, counted by how often the
  /// loops around each call run.
  const CallCounts &calls() const { return Calls; }
  /// The direct calls of functions declared here and defined elsewhere,
  /// by their linkage name, counted alike.
  const std::map<std::string, double> &externalCalls() const {
    return ExternalCalls;
  }
  /// The OpenCL kernels launched here, by their holder, counted alike.
  const llvm::DenseMap<const ValueDecl *, double> &launches() const {
    return Launches;
  }
  /// The work-items of those launches, by holder (noteKernelWorkItems).
  const llvm::DenseMap<const ValueDecl *, double> &launchSizes() const {
    return LaunchSizes;
  }

private:
  // --- Statements ---

  void stmt(const Stmt *S) {
    withStackSpace([&] { stmtOnStack(S); });
  }

  void stmtOnStack(const Stmt *S) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<Expr>(S))
      return expr(E);
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit()) {
          // const T &r = a[i]: the rewrite binds r to a copy of the
          // element, read whole where r is bound, as T r = a[i] is.
          const Expr *Bound = VD->getInit()->IgnoreParenImpCasts();
          // (T &r = a[i], used only as the element, becomes an index: its
          // fields are read where r.f is.)
          if (isConstLValueReference(VD->getType()) &&
              isa<ArraySubscriptExpr>(Bound) && isElement(Bound) &&
              !Uses.elementReference(VD))
            lvalue(Bound, /*IsWrite=*/false);
          else
            expr(VD->getInit());
        }
      return;
    }
    if (const auto *For = dyn_cast<ForStmt>(S))
      return forLoop(For, /*OpenMP=*/false);
    if (const auto *While = dyn_cast<WhileStmt>(S))
      return otherLoop(While, While->getCond(), While->getBody());
    if (const auto *Do = dyn_cast<DoStmt>(S))
      return otherLoop(Do, Do->getCond(), Do->getBody());
    if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
      return rangeLoop(Range);
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      stmt(If->getInit());
      expr(If->getCond());
      return branch(If->getThen(), If->getElse());
    }
    if (const auto *Loop = dyn_cast<OMPLoopDirective>(S)) {
      // The loop under `#pragma omp (parallel) for`: its trip count is the
      // extent of the array it walks.
      const Stmt *Body = Loop->getInnermostCapturedStmt()->getCapturedStmt();
      // A simd loop vectorizes whatever gcc could check at run time.
      llvm::SaveAndRestore InRegion(
          Outlined, !isOpenMPSimdDirective(Loop->getDirectiveKind()) &&
                        (Outlined || outlinesRegion(Loop)));
      if (const auto *For = dyn_cast<ForStmt>(Body->IgnoreContainers()))
        return forLoop(For, /*OpenMP=*/true);
      return stmt(Body);
    }
    if (const auto *Dir = dyn_cast<OMPExecutableDirective>(S)) {
      // Not every directive outlines its block (critical, master, single
      // keep it as it is): the captured statement, if any, is handled below.
      llvm::SaveAndRestore InRegion(Outlined, Outlined || outlinesRegion(Dir));
      if (Dir->hasAssociatedStmt())
        stmt(Dir->getAssociatedStmt());
      return;
    }
    if (const auto *Captured = dyn_cast<CapturedStmt>(S))
      return stmt(Captured->getCapturedStmt());
    // Compound, switch, return, labels, ...: children in order.
    for (const Stmt *Child : subStatements(S))
      stmt(Child);
  }

  /// Two alternatives; either may be null (nothing happens on that path).
  void branch(const Stmt *First, const Stmt *Second) {
    Out.Trace.beginBranch();
    Out.Trace.beginAlternative();
    stmt(First);
    Out.Trace.beginAlternative();
    stmt(Second);
    Out.Trace.endBranch();
  }

  // --- Loops ---

  struct ForShape {
    const VarDecl *InductionVar = nullptr;
    std::optional<double> ConstantTrips;
    /// `for (i = 0; i < n; ++i)`: the shape the rewriter strip-mines.
    bool FromZeroUpByOne = false;
    /// Its strip-mined form peels to a tile boundary.
    bool Peels = false;
  };

  /// Recognizes `for (i = a; i < b; i += s)` and its usual variations.
  ForShape analyzeFor(const ForStmt *For) const {
    ForShape Shape;
    const Expr *StartE = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
      if (DS->isSingleDecl())
        if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl())) {
          Shape.InductionVar = VD;
          StartE = VD->getInit();
        }
    } else if (const auto *BO =
                   dyn_cast_or_null<BinaryOperator>(For->getInit())) {
      if (BO->getOpcode() == BO_Assign) {
        Shape.InductionVar = varOf(BO->getLHS());
        StartE = BO->getRHS();
      }
    }
    // Without an init statement, the condition names the variable.
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!Shape.InductionVar && Cond)
      Shape.InductionVar = varOf(Cond->getLHS());
    if (!Shape.InductionVar || !Cond)
      return Shape;

    // Normalize the condition to "IV op Bound".
    BinaryOperatorKind Op = Cond->getOpcode();
    const Expr *Bound = nullptr;
    if (varOf(Cond->getLHS()) == Shape.InductionVar) {
      Bound = Cond->getRHS();
    } else if (varOf(Cond->getRHS()) == Shape.InductionVar) {
      Bound = Cond->getLHS();
      Op = BinaryOperator::reverseComparisonOp(Op);
    } else {
      return Shape;
    }

    // A floating variable (`for (float y = EPS; y < H - EPS; y += DY)`)
    // steps by constants of its own kind.
    std::optional<double> Step, Start, End;
    auto Number = [](std::optional<int64_t> V) -> std::optional<double> {
      return V ? std::optional<double>(*V) : std::nullopt;
    };
    if (Shape.InductionVar->getType()->isRealFloatingType()) {
      Step = floatStepOf(For->getInc(), Shape.InductionVar);
      Start = evaluateNumber(StartE, Ctx);
      End = evaluateNumber(Bound, Ctx);
    } else {
      Step = Number(stepOf(For->getInc(), Shape.InductionVar));
      Start = Number(evaluateConstant(StartE, Ctx));
      End = Number(evaluateConstant(Bound, Ctx));
    }
    // A loop the rewrite cannot split keeps its flat form (a tiled access
    // then pays a division and a remainder): not the strip-mined shape.
    std::optional<CountedLoop> Counted = stripMinableLoop(For, Ctx);
    Shape.FromZeroUpByOne = Counted.has_value();
    Shape.Peels = Counted && peels(For, *Counted, Ctx);
    Shape.ConstantTrips = constantTrips(Op, Start, End, Step);
    return Shape;
  }

  /// The trips of `for (i = Start; i Op End; i += Step)`, if its constants
  /// are known and make a finite count (a floating loop up to INFINITY, or
  /// by steps too small to move it, has none).
  static std::optional<double> constantTrips(BinaryOperatorKind Op,
                                             std::optional<double> Start,
                                             std::optional<double> End,
                                             std::optional<double> Step) {
    if (!Step || *Step == 0 || !Start || !End)
      return std::nullopt;
    double S = *Start, E = *End, D = *Step;
    double Trips = -1;
    switch (Op) {
    case BO_LT:
      Trips = D > 0 ? std::ceil((E - S) / D) : -1;
      break;
    case BO_LE:
      Trips = D > 0 ? std::floor((E - S) / D) + 1 : -1;
      break;
    case BO_GT:
      Trips = D < 0 ? std::ceil((S - E) / -D) : -1;
      break;
    case BO_GE:
      Trips = D < 0 ? std::floor((S - E) / -D) + 1 : -1;
      break;
    case BO_NE:
      Trips = (E - S) / D;
      break;
    default:
      break;
    }
    if (!std::isfinite(Trips) || Trips > MaxConstantTrips)
      return std::nullopt;
    if (Trips >= 0 || Op == BO_LT || Op == BO_LE || Op == BO_GT || Op == BO_GE)
      return std::max(Trips, 0.0);
    return std::nullopt;
  }

  std::optional<int64_t> stepOf(const Expr *Inc, const VarDecl *IV) const {
    if (!Inc)
      return std::nullopt;
    Inc = Inc->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
      if (varOf(UO->getSubExpr()) != IV)
        return std::nullopt;
      if (UO->isIncrementOp())
        return 1;
      if (UO->isDecrementOp())
        return -1;
      return std::nullopt;
    }
    const auto *BO = dyn_cast<BinaryOperator>(Inc);
    if (!BO || varOf(BO->getLHS()) != IV)
      return std::nullopt;
    if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) {
      std::optional<int64_t> C = evaluateConstant(BO->getRHS(), Ctx);
      if (!C)
        return std::nullopt;
      return BO->getOpcode() == BO_AddAssign ? *C : -*C;
    }
    if (BO->getOpcode() == BO_Assign) { // i = i + c, i = i - c
      const auto *Sum =
          dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
      if (!Sum || !Sum->isAdditiveOp() || varOf(Sum->getLHS()) != IV)
        return std::nullopt;
      std::optional<int64_t> C = evaluateConstant(Sum->getRHS(), Ctx);
      if (!C)
        return std::nullopt;
      return Sum->getOpcode() == BO_Add ? *C : -*C;
    }
    return std::nullopt;
  }

  /// stepOf for a floating induction variable: `y += c`, `y -= c`,
  /// `y = y + c`, `y = y - c`.
  std::optional<double> floatStepOf(const Expr *Inc, const VarDecl *IV) const {
    const auto *BO = dyn_cast_or_null<BinaryOperator>(
        Inc ? Inc->IgnoreParenImpCasts() : nullptr);
    if (!BO || varOf(BO->getLHS()) != IV)
      return std::nullopt;
    const Expr *By = nullptr;
    bool Add = BO->getOpcode() == BO_AddAssign;
    if (Add || BO->getOpcode() == BO_SubAssign) {
      By = BO->getRHS();
    } else if (const auto *Sum = dyn_cast<BinaryOperator>(
                   BO->getRHS()->IgnoreParenImpCasts());
               BO->getOpcode() == BO_Assign && Sum && Sum->isAdditiveOp() &&
               varOf(Sum->getLHS()) == IV) {
      By = Sum->getRHS();
      Add = Sum->getOpcode() == BO_Add;
    }
    std::optional<double> C = evaluateNumber(By, Ctx);
    if (!C)
      return std::nullopt;
    return Add ? *C : -*C;
  }

  /// Length of a fixed-size array of records the loop indexes with its
  /// induction variable, or 0.
  uint64_t indexedArrayLength(const Stmt *S, const VarDecl *IV) const {
    if (!S || !IV)
      return 0;
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
      if (varOf(ASE->getIdx()) == IV)
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts()))
          if (const auto *CAT =
                  Ctx.getAsConstantArrayType(DRE->getDecl()->getType()))
            if (elementRecord(DRE->getDecl()->getType()))
              return CAT->getSize().getZExtValue();
    for (const Stmt *Child : subStatements(S))
      if (uint64_t N =
              withStackSpace([&] { return indexedArrayLength(Child, IV); }))
        return N;
    return 0;
  }

  void forLoop(const ForStmt *For, bool OpenMP) {
    stmt(For->getInit());
    ForShape Shape = analyzeFor(For);
    double Trips;
    std::string Source;
    if (std::optional<double> Measured =
            measuredTrips(Ctx, Profile, For->getBeginLoc(), For->getBody())) {
      Trips = *Measured;
      Source = "profile";
    } else if (isGridStride(For)) {
      // The kernel's work-items share the iterations out: the NDRange
      // counts them all (a grid sized to the array), one trip each.
      Trips = 1;
      Source = "grid-stride";
    } else if (Shape.ConstantTrips) {
      Trips = *Shape.ConstantTrips;
      Source = "constant";
    } else if (uint64_t N =
                   indexedArrayLength(For->getBody(), Shape.InductionVar)) {
      Trips = N;
      Source = OpenMP ? "openmp over array" : "array length";
    } else if (OpenMP) {
      Trips = WholeArrayTrips;
      Source = "openmp over array";
    } else if (isHalvingLoop(For->getCond(), For->getBody(), For->getInc())) {
      Trips = HalvingLoopTrips;
      Source = "halving";
    } else {
      Trips = UnknownLoopTrips;
      Source = "heuristic";
    }
    LoopScope Scope;
    Scope.InductionVar = Shape.InductionVar;
    Scope.IteratorVar = loopIterator(For);
    Scope.ContainsLoop = containsLoop(For->getBody());
    Scope.FromZeroUpByOne = Shape.FromZeroUpByOne;
    Scope.For = For;
    Scope.Statement = For;
    Scope.Peels = Shape.Peels;
    Scope.Accumulators = countAccumulators(For->getBody(), Shape.InductionVar);
    collectVarying(For->getBody(), Scope.Varying);
    collectVarying(For->getInc(), Scope.Varying);
    Scope.Vectorizable = vectorizableFor(For, Shape.InductionVar, Scope) &&
                         !scalarWhenOutlined(For->getBody());
    enterLoop(For->getForLoc(), Trips, Source, Scope);
    expr(For->getCond());
    stmt(For->getBody());
    expr(For->getInc());
    leaveLoop();
  }

  /// A CUDA grid-stride loop of a kernel's work-items: `for (i = ...; i <
  /// n; i += blockDim.x * gridDim.x)`, a step that names gridDim.
  bool isGridStride(const ForStmt *For) const {
    const auto *Step = dyn_cast_or_null<CompoundAssignOperator>(For->getInc());
    if (!Step || Step->getOpcode() != BO_AddAssign || Loops.empty() ||
        !Loops.front().WorkItems)
      return false;
    // CUDA's gridDim, OpenCL's get_global_size() or get_num_groups().
    return readsGlobalSize(Step->getRHS());
  }

  /// `it` of `for (auto it = v.begin(); ...; ++it)` (or it++) over a
  /// candidate's std::vector; null for any other loop.
  const VarDecl *loopIterator(const ForStmt *For) const {
    const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
    const auto *It = DS && DS->isSingleDecl()
                         ? dyn_cast<VarDecl>(DS->getSingleDecl())
                         : nullptr;
    QualType Container = It ? iteratorContainer(It->getType()) : QualType();
    if (Container.isNull() || !isCandidate(containerElementRecord(Container)))
      return nullptr;
    const auto *Inc = dyn_cast_or_null<CXXOperatorCallExpr>(For->getInc());
    if (!Inc || Inc->getOperator() != OO_PlusPlus ||
        varOf(Inc->getArg(0)) != It)
      return nullptr;
    return It;
  }

  /// What the body of a loop without an induction variable tells.
  LoopScope scopeOf(const Stmt *Body) const {
    LoopScope Scope;
    Scope.Vectorizable = vectorizableBody(Body, nullptr);
    Scope.ContainsLoop = containsLoop(Body);
    Scope.Accumulators = countAccumulators(Body, nullptr);
    collectVarying(Body, Scope.Varying);
    return Scope;
  }

  void otherLoop(const Stmt *Loop, const Expr *Cond, const Stmt *Body) {
    // `do { ... } while (0)`, as statement-like macros write: no loop.
    Expr::EvalResult R;
    if (isa<DoStmt>(Loop) && Cond->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0)
      return stmt(Body);
    std::optional<double> Measured =
        measuredTrips(Ctx, Profile, Loop->getBeginLoc(), Body);
    bool Halving = !Measured && isHalvingLoop(Cond, Body, nullptr);
    LoopScope Scope = scopeOf(Body);
    Scope.Statement = Loop;
    enterLoop(Loop->getBeginLoc(),
              Measured  ? *Measured
              : Halving ? HalvingLoopTrips
                        : UnknownLoopTrips,
              Measured  ? "profile"
              : Halving ? "halving"
                        : "heuristic",
              std::move(Scope));
    expr(Cond);
    stmt(Body);
    leaveLoop();
  }

  /// for (decl : range). Over a candidate's std::vector the variable is
  /// the element the loop is at, a[i] of a counted loop; a copy of it
  /// (`for (T e : v)`) reads every field per iteration.
  void rangeLoop(const CXXForRangeStmt *Range) {
    expr(Range->getRangeInit());
    const Stmt *Body = Range->getBody();
    LoopScope Scope = scopeOf(Body);
    const VarDecl *Var = Range->getLoopVariable();
    const RecordDecl *RD =
        containerElementRecord(Range->getRangeInit()->getType());
    if (isCandidate(RD) && asRecord(Var->getType().getNonReferenceType()) == RD)
      Scope.RangeVar = Var;
    Scope.FromZeroUpByOne = stripMinableRangeFor(Range, Ctx);
    Scope.Statement = Range;
    std::optional<double> Measured =
        measuredTrips(Ctx, Profile, Range->getBeginLoc(), Body);
    enterLoop(Range->getBeginLoc(), Measured.value_or(UnknownLoopTrips),
              Measured ? "profile" : "heuristic", Scope);
    if (Scope.RangeVar && !Var->getType()->isReferenceType())
      for (const FieldDecl *FD : RD->fields())
        emitField(RD, FD->getFieldIndex(), Range->getRangeInit(),
                  /*IsWrite=*/false, /*IsGather=*/false, !Scope.ContainsLoop,
                  /*LanesWhenMoved=*/false,
                  Ctx.getTypeSizeInChars(FD->getType()).getQuantity());
    stmt(Body);
    leaveLoop();
  }

  /// std::sort(v.begin(), v.end()) and its kin move whole elements inside
  /// the library: a loop, not vectorized, that reads and writes every field
  /// of elements the data picks.
  void containerAlgorithm(const CallExpr *Call, const RecordDecl *RD,
                          bool OnlyReads) {
    for (const Expr *Arg : Call->arguments())
      expr(Arg);
    LoopScope Scope;
    Scope.Vectorizable = false;
    enterLoop(Call->getBeginLoc(), UnknownLoopTrips, "heuristic", Scope);
    // std::count_if and its kin stream through the elements, handing a copy
    // (or a const reference to one) of each to the function.
    for (bool IsWrite : {false, true})
      if (!IsWrite || !OnlyReads)
        for (const FieldDecl *FD : RD->fields())
          emitField(RD, FD->getFieldIndex(), Call, IsWrite,
                    /*IsGather=*/!OnlyReads, /*IsLoopIndexed=*/OnlyReads,
                    /*LanesWhenMoved=*/false,
                    Ctx.getTypeSizeInChars(FD->getType()).getQuantity());
    leaveLoop();
  }

  void enterLoop(SourceLocation Loc, double Trips, StringRef Source,
                 LoopScope Scope) {
    Scope.Trips = Trips;
    Scope.Guessed = Source == "heuristic" || Source == "openmp over array";
    Loops.push_back(std::move(Scope));
    Out.Loops.push_back(LoopInfo{formatLoc(Ctx.getSourceManager(), Loc),
                                 static_cast<unsigned>(Loops.size()), Trips,
                                 Source.str()});
    Out.Trace.beginLoop(Trips);
  }

  void leaveLoop() {
    Out.Trace.endLoop();
    Loops.pop_back();
  }

  /// Whether the compiler can vectorize a loop with this body under the
  /// translation unit's flags: an innermost loop without early exits,
  /// opaque calls, or floating-point reductions that need reassociation.
  bool vectorizableBody(const Stmt *Body, const Expr *Inc) const {
    return Body && scanVectorizable(Body) && (!Inc || scanVectorizable(Inc)) &&
           (onDevice() || !callsSinAndCosOfOneValue(Body, Ctx));
  }

  /// Whether the compiler vectorizes counted loop \p For over \p IV: as an
  /// innermost loop, or across its inner loop (OuterLoops.h; a CPU loop).
  bool vectorizableFor(const ForStmt *For, const VarDecl *IV,
                       const LoopScope &Scope) const {
    if (vectorizableBody(For->getBody(), For->getInc()))
      return true;
    // sinf and cosf of one value are one scalar call across the nest too.
    return !onDevice() && !callsSinAndCosOfOneValue(For->getBody(), Ctx) &&
           isOuterLoopVectorizable(For, IV, Scope.Varying, [&](const Stmt *S) {
             return scanVectorizable(S);
           });
  }

  /// Whether gcc keeps a loop of body \p Body scalar in SoA because it is
  /// in a function OpenMP outlined, which the handle's `restrict` does not
  /// reach, and needs more run-time alias checks than gcc makes
  /// (OutlinedLoops.cpp). A device compiler decides by its own rules.
  bool scalarWhenOutlined(const Stmt *Body) const {
    return Outlined && !onDevice() &&
           soaAliasChecks(Body, [this](const RecordDecl *RD) {
             return isCandidate(RD);
           }) > GccAliasCheckLimit;
  }

  /// Whether the code is a GPU kernel's (OpenCL C, CUDA's device side),
  /// which its device compiler vectorizes by its own rules; a CPU loop's,
  /// CUDA host code's included, are gcc's and glibc's (VectorMath.h,
  /// OuterLoops.h).
  bool onDevice() const {
    const LangOptions &LO = Ctx.getLangOpts();
    return LO.OpenCL || LO.CUDAIsDevice;
  }

  /// \p InCallee: \p S is the body of a function the loop calls, where a
  /// return ends the call, not the loop. A `continue` keeps the loop scalar
  /// too: gcc 12, the compiler the default model is calibrated with, does
  /// not vectorize such a loop (`if (pi == pj) continue;` in SPH's pair
  /// loop, in every layout; checked with -fopt-info-vec, AVX-512 and
  /// -ffast-math on), where it does vectorize the same body written with
  /// an if around it. (clang 19 vectorizes both.)
  bool scanVectorizable(const Stmt *S, bool InCallee = false) const {
    if (!S)
      return true;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, BreakStmt, GotoStmt,
            IndirectGotoStmt, ContinueStmt>(S) ||
        (isa<ReturnStmt>(S) && !InCallee))
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (!vectorizableCall(Call))
        return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (isFloatReduction(BO))
        return false;
    for (const Stmt *Child : subStatements(S))
      if (!withStackSpace([&] { return scanVectorizable(Child, InCallee); }))
        return false;
    return true;
  }

  bool vectorizableCall(const CallExpr *Call) const {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return false;
    if (unsigned ID = FD->getBuiltinID()) {
      if (Ctx.BuiltinInfo.isConst(ID))
        return true;
      if (Ctx.getLangOpts().MathErrno)
        return false;
      return onDevice() || hasVectorForm(ID, Ctx);
    }
    // OpenCL C's built-in functions (opencl-c.h) have vector forms the
    // device's compiler uses across work-items.
    if (Ctx.getLangOpts().OpenCL && !FD->hasBody() &&
        inSystemHeader(Ctx.getSourceManager(), FD->getLocation()))
      return true;
    const FunctionDecl *Definition = nullptr;
    if (!FD->hasBody(Definition))
      return false; // An external function is opaque.
    // A function defined here can be inlined. A library one is judged by
    // what it inlines to: C++'s std::sqrt(float) is __builtin_sqrtf, which
    // sets errno, not a call the vectorizer can ignore.
    if (!inSystemHeader(Ctx.getSourceManager(), Definition->getLocation()) ||
        LibraryCallDepth >= MaxLibraryCallDepth)
      return true;
    ++LibraryCallDepth;
    bool Vectorizable =
        scanVectorizable(Definition->getBody(), /*InCallee=*/true);
    --LibraryCallDepth;
    return Vectorizable;
  }

  bool isFloatReduction(const BinaryOperator *BO) const {
    const LangOptions &LO = Ctx.getLangOpts();
    if (LO.FastMath || LO.AllowFPReassoc)
      return false;
    const VarDecl *Acc = accumulator(BO);
    return Acc && Acc->getType()->isRealFloatingType() &&
           Acc->hasLocalStorage();
  }

  // --- Expressions ---

  void expr(const Expr *E) {
    withStackSpace([&] { exprOnStack(E); });
  }

  void exprOnStack(const Expr *E) {
    if (!E)
      return;
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        return lvalue(Cast->getSubExpr(), /*IsWrite=*/false);
      return expr(Cast->getSubExpr());
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp()) {
        // Compound assignments are one read-modify-write of the location.
        expr(BO->getRHS());
        return lvalue(BO->getLHS(), /*IsWrite=*/true);
      }
      if (BO->isLogicalOp()) { // The right operand may not run.
        expr(BO->getLHS());
        return branch(BO->getRHS(), nullptr);
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp())
        return lvalue(UO->getSubExpr(), /*IsWrite=*/true);
      if (UO->getOpcode() == UO_AddrOf)
        return address(UO->getSubExpr());
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      expr(CO->getCond());
      return branch(CO->getTrueExpr(), CO->getFalseExpr());
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op && Op->getOperator() == OO_Equal && isElement(Op->getArg(0))) {
      // a[i] = b on a C++ record: the (trivial) assignment operator.
      expr(Op->getArg(1));
      return lvalue(Op->getArg(0), /*IsWrite=*/true);
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
      if (Construct->getConstructor()->isCopyOrMoveConstructor() &&
          Construct->getNumArgs() == 1 &&
          isElement(Construct->getArg(0)->IgnoreImpCasts()))
        return lvalue(Construct->getArg(0)->IgnoreImpCasts(),
                      /*IsWrite=*/false); // T b = a[i]; (a const T&: NoOp)
    // e.norm() on an element: the rewrite calls it on a copy, which reads
    // every field; a non-const function's copy is assigned back, which
    // writes every field.
    // (A const function's object is a[i] behind a NoOp cast to const T.)
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E);
        Member && Member->getImplicitObjectArgument() &&
        isElement(Member->getImplicitObjectArgument()->IgnoreImpCasts()) &&
        !isRangeCopy(Member->getImplicitObjectArgument())) {
      const Expr *Object =
          Member->getImplicitObjectArgument()->IgnoreImpCasts();
      lvalue(Object, /*IsWrite=*/false);
      if (const CXXMethodDecl *MD = Member->getMethodDecl();
          MD && !MD->isConst())
        lvalue(Object, /*IsWrite=*/true);
      for (const Expr *Arg : Member->arguments())
        expr(Arg);
      return noteCall(Member);
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E);
        Member && Member->getImplicitObjectArgument() &&
        Member->getImplicitObjectArgument()->getType()->isPointerType() &&
        !isa<CXXThisExpr>(
            Member->getImplicitObjectArgument()->IgnoreParenImpCasts()) &&
        isCandidate(
            elementRecord(Member->getImplicitObjectArgument()->getType()))) {
      const CXXMethodDecl *MD = Member->getMethodDecl();
      wholeElementThroughPointer(Member->getImplicitObjectArgument(),
                                 MD && !MD->isConst());
      for (const Expr *Arg : Member->arguments())
        expr(Arg);
      return noteCall(Member);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (ContainerAlgorithm VA = asContainerAlgorithm(Call);
          isCandidate(VA.Record))
        return containerAlgorithm(Call, VA.Record, VA.OnlyReads);
      // std::swap(v[i], v[j]): every field of both read and written.
      if (isStdSwap(Call) && isElement(Call->getArg(0)) &&
          isElement(Call->getArg(1))) {
        for (const Expr *Arg : Call->arguments())
          for (bool IsWrite : {false, true})
            lvalue(Arg, IsWrite);
        return;
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(E); Call && passesElements(Call))
      return callPassingElements(Call);
    if (const auto *Call = dyn_cast<CallExpr>(E);
        Call && !isa<CXXOperatorCallExpr>(Call) && passesFields(Call))
      return callPassingFields(Call);
    if (!isVectorElementExpr(E))
      if (const auto *Call = dyn_cast<CallExpr>(E))
        noteCall(Call);
    if (isa<UnaryExprOrTypeTraitExpr>(E))
      return; // sizeof/alignof evaluate nothing.
    if (const auto *SE = dyn_cast<StmtExpr>(E))
      return stmt(SE->getSubStmt());
    if (E->isGLValue() &&
        (isa<ArraySubscriptExpr, MemberExpr>(E) || isVectorElementExpr(E)))
      return address(E); // An lvalue used without loading it (e.g. decay).
    for (const Stmt *Child : E->children())
      stmt(Child);
  }

  /// An element of a plain array (a[i], *p, a reference r = a[i]) given to
  /// a function or operator of the program by reference: a[i] + b[j], dot(a[i],
  /// b), a[i] += v (C++ value classes).
  const Expr *plainElement(const Expr *Arg) const {
    Arg = Arg->IgnoreImpCasts();
    const Expr *E = Arg->IgnoreParens();
    bool Reference = isa<DeclRefExpr>(E) &&
                     Uses.elementReference(cast<DeclRefExpr>(E)->getDecl());
    return (isa<ArraySubscriptExpr, UnaryOperator>(E) || Reference) &&
                   Arg->isGLValue()
               ? Arg
               : nullptr;
  }
  bool passesElements(const CallExpr *Call) const {
    return Call->getDirectCallee() &&
           llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
             const Expr *Elem = plainElement(Arg);
             return Elem && isElement(Elem);
           });
  }
  /// Every field of such an element is read; a non-const member
  /// operator's object (a[i] += v) and an element passed to a non-const
  /// reference (move(a[i])) are written too.
  void callPassingElements(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
    bool Object = isa<CXXOperatorCallExpr>(Call) && MD && !MD->isStatic();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Elem = plainElement(Call->getArg(I));
      if (!Elem || !isElement(Elem)) {
        expr(Call->getArg(I));
        continue;
      }
      lvalue(Elem, /*IsWrite=*/false);
      unsigned P = I - Object;
      QualType T = (!Object || I > 0) && P < Callee->getNumParams()
                       ? Callee->getParamDecl(P)->getType()
                       : QualType();
      if ((I == 0 && Object && !MD->isConst()) ||
          (!T.isNull() && T->isLValueReferenceType() &&
           !T.getNonReferenceType().isConstQualified()))
        lvalue(Elem, /*IsWrite=*/true);
    }
    noteCall(Call);
  }

  /// The field of a candidate record that \p E (an lvalue) denotes through
  /// an array element, and the expression of that element.
  struct FieldAccess {
    const RecordDecl *Record = nullptr;
    unsigned Index = 0;
    const Expr *Element = nullptr; // a[i], *p or the pointer of p->f.
    bool ViaArrow = false;
  };

  bool isCandidate(const RecordDecl *RD) const {
    return RD && Records.count(RD);
  }

  std::optional<FieldAccess> resolveField(const Expr *E) const {
    for (const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParens()); ME;) {
      const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
      if (const Expr *Bound = boundContainerElement(Base))
        Base = Bound;
      // x or this->x in the record's own member function: the object is
      // the caller's, and a caller holding an element counted every field
      // of it at the call (the rewrite calls the function on a copy).
      if (ME->isArrow() && isa<CXXThisExpr>(Base))
        break;
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (FD) {
        const RecordDecl *RD = FD->getParent();
        // it->f: the element *it, as v[i].f.
        if (ME->isArrow() && isCandidate(RD) &&
            asContainerElement(ME->getBase()).ViaIterator)
          return FieldAccess{RD, FD->getFieldIndex(), ME->getBase(), false};
        if (ME->isArrow() && isCandidate(RD) &&
            elementRecord(ME->getBase()->getType()) == RD)
          return FieldAccess{RD, FD->getFieldIndex(), ME->getBase(), true};
        if (!ME->isArrow() && isCandidate(RD) && isElement(Base))
          return FieldAccess{RD, FD->getFieldIndex(), Base, false};
      }
      if (ME->isArrow())
        break;
      ME = dyn_cast<MemberExpr>(Base); // a[i].pos.x: try a[i].pos.
    }
    return std::nullopt;
  }

  /// v[i] or v.at(i) on a candidate's std::vector.
  bool isVectorElementExpr(const Expr *E) const {
    return isCandidate(asContainerElement(E).Record);
  }

  /// The element a local reference \p E names was bound to where that is
  /// an element of a candidate's container (`auto &q = v[i];`, not a
  /// range-for's variable): q.f is read as v[i].f. Null otherwise.
  const Expr *boundContainerElement(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->getType()->isLValueReferenceType() ||
        VD->isCXXForRangeDecl() || !VD->hasLocalStorage() ||
        isa<ParmVarDecl>(VD) || !VD->getInit())
      return nullptr;
    const Expr *Init = VD->getInit()->IgnoreParenImpCasts();
    return isVectorElementExpr(Init) ? Init : nullptr;
  }

  /// The variable of an enclosing range-for over a candidate's vector that
  /// \p E names, or null.
  const VarDecl *rangeElement(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    if (!DRE)
      return nullptr;
    for (const LoopScope &L : Loops)
      if (L.RangeVar && L.RangeVar == DRE->getDecl())
        return L.RangeVar;
    return nullptr;
  }

  /// The variable of a range-for by value: a copy, read when the loop
  /// makes it.
  bool isRangeCopy(const Expr *E) const {
    const VarDecl *Var = rangeElement(E);
    return Var && !Var->getType()->isReferenceType();
  }

  /// a[i] or *p where the array or pointer is of a candidate record, or a
  /// reference bound to such an a[i]; v[i], v.at(i) or a range-for's
  /// element on a candidate's std::vector.
  bool isElement(const Expr *E) const {
    if (isVectorElementExpr(E) || rangeElement(E))
      return true;
    E = E->IgnoreParens();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) // r, r = a[i]
      return Uses.elementReference(DRE->getDecl()).has_value();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      return isCandidate(elementRecordOf(ASE->getBase()));
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return UO->getOpcode() == UO_Deref &&
             isCandidate(elementRecord(UO->getSubExpr()->getType()));
    return false;
  }

  void lvalue(const Expr *E, bool IsWrite) {
    E = E->IgnoreParens();
    if (const Expr *Bound = boundContainerElement(E))
      E = Bound;
    if (std::optional<FieldAccess> FA = resolveField(E)) {
      elementAddress(FA->Element, FA->ViaArrow);
      bool LoopIndexed = !FA->ViaArrow && isLoopIndexed(FA->Element);
      emitField(FA->Record, FA->Index, E, IsWrite,
                isGather(FA->Element, FA->ViaArrow), LoopIndexed,
                LoopIndexed && lanesWhenMoved(FA->Element),
                Ctx.getTypeSizeInChars(E->getType()).getQuantity());
      return;
    }
    if (isElement(E)) { // A whole element: every field moves.
      elementAddress(E, false);
      const RecordDecl *RD = asRecord(E->getType());
      if (!RD) // it-> of an iterator: a pointer to the element.
        RD = asContainerElement(E).Record;
      // A whole element of an array, a[i], is read and written through the
      // layout's get and set (with a division where tiled) also in a
      // strip-mined loop's lanes; a container's element has lanes.
      bool Gather = isGather(E, false);
      bool LoopIndexed = !isa<ArraySubscriptExpr>(E->IgnoreParenImpCasts()) &&
                         isLoopIndexed(E);
      bool Moved = LoopIndexed && lanesWhenMoved(E);
      WholeElement = true;
      for (const FieldDecl *FD : RD->fields())
        emitField(RD, FD->getFieldIndex(), E, IsWrite, Gather, LoopIndexed,
                  Moved, Ctx.getTypeSizeInChars(FD->getType()).getQuantity());
      WholeElement = false;
      return;
    }
    address(E);
    QualType T = E->getType();
    if (isa<ArraySubscriptExpr, MemberExpr, UnaryOperator>(E) &&
        !T->isIncompleteType() && !T->isFunctionType() &&
        !T->isDependentType() && T->isConstantSizeType())
      emitOther(E, IsWrite);
  }

  /// p->f() on a pointer \p Ptr to a candidate's element: every field of
  /// *p is read, and written where \p Writes (a non-const function), as for
  /// a[i].f().
  void wholeElementThroughPointer(const Expr *Ptr, bool Writes) {
    const RecordDecl *RD = elementRecord(Ptr->getType());
    elementAddress(Ptr, /*ViaArrow=*/true);
    bool Gather = isGather(Ptr, /*ViaArrow=*/true);
    for (bool IsWrite : {false, true}) {
      if (IsWrite && !Writes)
        break;
      for (const FieldDecl *FD : RD->fields())
        emitField(RD, FD->getFieldIndex(), Ptr, IsWrite, Gather,
                  /*LoopIndexed=*/false, /*LanesWhenMoved=*/false,
                  Ctx.getTypeSizeInChars(FD->getType()).getQuantity());
    }
  }

  /// Evaluates what computing the address of \p E needs, without loading E.
  void address(const Expr *E) {
    E = E->IgnoreParens();
    if (ContainerElement VE = asContainerElement(E); isCandidate(VE.Record)) {
      expr(VE.Container);
      if (VE.Index)
        expr(VE.Index);
      return;
    }
    if (rangeElement(E))
      return;
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      expr(ASE->getBase());
      expr(ASE->getIdx());
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        expr(ME->getBase());
      else
        address(ME->getBase());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
               UO && UO->getOpcode() == UO_Deref) {
      expr(UO->getSubExpr());
    } else if (!isa<DeclRefExpr>(E)) {
      expr(E);
    }
  }

  void elementAddress(const Expr *Element, bool ViaArrow) {
    if (ViaArrow)
      expr(Element);
    else
      address(Element);
  }

  // --- Index patterns ---

  /// True if the element is not at an affine function of loop variables:
  /// a gather or scatter such as a[idx[i]] or a[rand() % n].
  bool isGather(const Expr *Element, bool ViaArrow) const {
    if (rangeElement(Element))
      return false;
    if (Loops.empty())
      return LooplessBody && positionFromData(Element, ViaArrow);
    if (Loops.front().WorkItems && divergentElement(Element, ViaArrow))
      return true;
    if (ContainerElement VE = asContainerElement(Element);
        isCandidate(VE.Record)) {
      if (VE.ViaIterator) // Streamed by the loop that steps it, or not.
        return !llvm::any_of(Loops, [&](const LoopScope &L) {
          return L.IteratorVar && L.IteratorVar == varOf(VE.Container);
        });
      return !isAffine(VE.Index, 0);
    }
    Element = Element->IgnoreParenImpCasts();
    if (const Expr *Index = pointerIndex(Element)) // pi->f, pi = &a[i]
      return !isAffine(Index, 0);
    if (ViaArrow) { // p->f or (a + i)->f
      if (const auto *BO = dyn_cast<BinaryOperator>(Element))
        return !isAffine(BO->getLHS(), 0) || !isAffine(BO->getRHS(), 0);
      return !isAffine(Element, 0);
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Element))
      return !isAffine(ASE->getIdx(), 0);
    if (const auto *UO = dyn_cast<UnaryOperator>(Element))
      return !isAffine(UO->getSubExpr(), 0);
    return true;
  }

  /// In a function without loops (called from its callers' loops): whether
  /// \p Element is at a position computed from data (a call's result, a
  /// value loaded from an array: xslookup's grid search, then the points
  /// at its index), a gather across the calls, rather than one the
  /// function's arguments give (what a caller's loop steps).
  bool positionFromData(const Expr *Element, bool ViaArrow) const {
    Element = Element->IgnoreParenImpCasts();
    if (ViaArrow)
      return pointerFromData(Element, 0);
    // v[i], v.at(i) of a container the arguments name; front(), back().
    if (ContainerElement VE = asContainerElement(Element);
        isCandidate(VE.Record))
      return !fromArguments(VE.Container, 0) ||
             (VE.Index && !fromArguments(VE.Index, 0));
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Element)) // r = a[i]
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->getInit() && Uses.elementReference(VD))
        Element = VD->getInit()->IgnoreParenImpCasts();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Element))
      return pointerFromData(ASE->getBase(), 0) ||
             !fromArguments(ASE->getIdx(), 0);
    if (const auto *UO = dyn_cast<UnaryOperator>(Element);
        UO && UO->getOpcode() == UO_Deref)
      return pointerFromData(UO->getSubExpr(), 0);
    return true;
  }

  /// Whether the pointer \p P points where data says (see
  /// positionFromData): not a parameter, a global, &a[i] or p + k with the
  /// index from the arguments, or a local set once to one of those.
  bool pointerFromData(const Expr *P, unsigned Depth) const {
    P = P->IgnoreParenCasts();
    if (Depth > 4)
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(P)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage())
        return false;
      return !VD->getInit() || assignsTo(LooplessBody, VD) ||
             pointerFromData(VD->getInit(), Depth + 1);
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(P);
        UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *ASE =
              dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
        return pointerFromData(ASE->getBase(), Depth + 1) ||
               !fromArguments(ASE->getIdx(), 0);
    if (const auto *BO = dyn_cast<BinaryOperator>(P);
        BO && BO->isAdditiveOp()) {
      bool LeftPointer = BO->getLHS()->getType()->isPointerType();
      const Expr *Ptr = LeftPointer ? BO->getLHS() : BO->getRHS();
      const Expr *Offset = LeftPointer ? BO->getRHS() : BO->getLHS();
      return pointerFromData(Ptr, Depth + 1) || !fromArguments(Offset, 0);
    }
    if (isa<MemberExpr>(P))
      return !fromArguments(P, 0);
    return true;
  }

  /// Whether \p E is computed from the function's parameters, constants
  /// and the members of objects they name (sizes: `nuc *
  /// sd->n_gridpoints`), through locals set once.
  bool fromArguments(const Expr *E, unsigned Depth) const {
    if (!E || Depth > 4)
      return false;
    E = E->IgnoreParenCasts();
    if (evaluateConstant(E, Ctx) || isa<CXXThisExpr>(E))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return isa<EnumConstantDecl>(DRE->getDecl());
      // A parameter, a global, or a local object (`struct system s;`,
      // whose members are what is read).
      if (isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
          VD->getType()->isRecordType())
        return true;
      return VD->getInit() && !assignsTo(LooplessBody, VD) &&
             fromArguments(VD->getInit(), Depth + 1);
    }
    // A member of an object the arguments name (sd->n_gridpoints), not of
    // an element data picks (a[k].next).
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return fromArguments(ME->getBase(), Depth + 1);
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus ||
              UO->getOpcode() == UO_AddrOf) &&
             fromArguments(UO->getSubExpr(), Depth + 1);
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return (BO->isAdditiveOp() || BO->isMultiplicativeOp() ||
              BO->isShiftOp()) &&
             fromArguments(BO->getLHS(), Depth + 1) &&
             fromArguments(BO->getRHS(), Depth + 1);
    return false;
  }

  /// In GPU code: whether the work-items of a warp reach \p Element at
  /// positions that are neither the same nor their own (ThreadVariance),
  /// a gather across the warp however each work-item's loop walks.
  bool divergentElement(const Expr *Element, bool ViaArrow) const {
    Element = Element->IgnoreParenImpCasts();
    const Expr *Position = Element; // p->f, (a + i)->f
    if (const Expr *Index = pointerIndex(Element))
      Position = Index;
    else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Element))
      return std::max(Variance.of(ASE->getBase()),
                      Variance.of(ASE->getIdx())) == dlopt::Variance::Divergent;
    else if (const auto *UO = dyn_cast<UnaryOperator>(Element);
             !ViaArrow && UO && UO->getOpcode() == UO_Deref)
      Position = UO->getSubExpr();
    return Variance.of(Position) == dlopt::Variance::Divergent;
  }

  /// True for a[i] with i the induction variable of the innermost loop,
  /// when that loop runs `for (i = 0; i < n; ++i)` and holds no other loop.
  bool isLoopIndexed(const Expr *Element) const {
    if (Loops.empty() || Loops.back().ContainsLoop)
      return false;
    if (Loops.back().WorkItems)
      if (const auto *ASE =
              dyn_cast<ArraySubscriptExpr>(Element->IgnoreParenImpCasts());
          ASE && isGlobalId(ASE->getIdx()))
        return true;
    if (const VarDecl *Var = rangeElement(Element))
      return Var == Loops.back().RangeVar && Loops.back().FromZeroUpByOne;
    if (ContainerElement VE = asContainerElement(Element); VE.ViaIterator)
      return Loops.back().IteratorVar &&
             varOf(VE.Container) == Loops.back().IteratorVar;
    if (!Loops.back().InductionVar || !Loops.back().FromZeroUpByOne)
      return false;
    if (ContainerElement VE = asContainerElement(Element);
        isCandidate(VE.Record))
      return varOf(VE.Index) == Loops.back().InductionVar;
    // pi->f, pi = &a[i]: the rewrite reaches it through pi, flat, also in
    // a strip-mined loop's lanes.
    if (pointerIndex(Element))
      return false;
    const auto *ASE =
        dyn_cast<ArraySubscriptExpr>(Element->IgnoreParenImpCasts());
    return ASE && varOf(ASE->getIdx()) == Loops.back().InductionVar;
  }

  /// Whether loop-indexed \p Element keeps its lanes also where its
  /// record's tiled handles count the elements their tiles skip: a[i] in a
  /// loop that peels, through a handle that holds still in it (asked once
  /// per handle and loop: it walks the body).
  bool lanesWhenMoved(const Expr *Element) const {
    const auto *ASE =
        dyn_cast<ArraySubscriptExpr>(Element->IgnoreParenImpCasts());
    if (!ASE || Loops.empty() || !Loops.back().Peels)
      return false;
    const LoopScope &L = Loops.back();
    const Expr *Handle = ASE->getBase();
    const auto *D = dyn_cast<DeclRefExpr>(Handle->IgnoreParenImpCasts());
    if (!D)
      return holdsStill(Handle, L.For, Ctx.getSourceManager());
    auto [It, New] = L.StillHandles.try_emplace(D->getDecl(), false);
    if (New)
      It->second = holdsStill(Handle, L.For, Ctx.getSourceManager());
    return It->second;
  }

  /// The index of the element an element pointer stands for, if \p Element
  /// names one that holds one element all its life.
  const Expr *pointerIndex(const Expr *Element) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(Element->IgnoreParenImpCasts());
    return DRE ? Uses.elementPointerIndex(DRE->getDecl()) : nullptr;
  }

  bool isAffine(const Expr *E, unsigned Depth) const {
    return withStackSpace([&] { return isAffineOnStack(E, Depth); });
  }

  bool isAffineOnStack(const Expr *E, unsigned Depth) const {
    if (!E || Depth > 4)
      return false;
    E = E->IgnoreParenCasts();
    if (evaluateConstant(E, Ctx))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return isa<EnumConstantDecl>(DRE->getDecl());
      for (const LoopScope &L : Loops)
        if (L.InductionVar == VD)
          return true;
      if (!Loops.back().Varying.count(VD))
        return true; // Invariant in the innermost loop.
      // Defined per iteration: affine if its definition is.
      return VD->getInit() && isAffine(VD->getInit(), Depth + 1);
    }
    if (isWorkItemIndex(E))
      return true;
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) &&
             isAffine(UO->getSubExpr(), Depth);
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      switch (BO->getOpcode()) {
      case BO_Add:
      case BO_Sub:
      case BO_Mul:
        return isAffine(BO->getLHS(), Depth) && isAffine(BO->getRHS(), Depth);
      case BO_Div:
      case BO_Rem:
      case BO_Shl:
      case BO_Shr: // i / 2, i % n: regular enough to stream.
        return isAffine(BO->getLHS(), Depth) &&
               evaluateConstant(BO->getRHS(), Ctx).has_value();
      default:
        return false;
      }
    }
    return false;
  }

  /// get_global_id(0), the position of a work-item in the NDRange's first
  /// dimension (through casts); in CUDA, blockIdx.x * blockDim.x +
  /// threadIdx.x in any order, or threadIdx.x alone.
  static bool isGlobalId(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (cudaBuiltinIndex(E) == "threadIdx.x")
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Add) {
      const Expr *L = BO->getLHS()->IgnoreParenCasts();
      const Expr *R = BO->getRHS()->IgnoreParenCasts();
      if (cudaBuiltinIndex(L) == "threadIdx.x")
        std::swap(L, R);
      const auto *Mul = dyn_cast<BinaryOperator>(L);
      if (cudaBuiltinIndex(R) != "threadIdx.x" || !Mul ||
          Mul->getOpcode() != BO_Mul)
        return false;
      std::string A = cudaBuiltinIndex(Mul->getLHS()->IgnoreParenCasts());
      std::string B = cudaBuiltinIndex(Mul->getRHS()->IgnoreParenCasts());
      return (A == "blockIdx.x" && B == "blockDim.x") ||
             (A == "blockDim.x" && B == "blockIdx.x");
    }
    const auto *Call = dyn_cast<CallExpr>(E);
    const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
    return FD && FD->getIdentifier() && FD->getName() == "get_global_id" &&
           Call->getNumArgs() == 1 &&
           evaluateConstant(Call->getArg(0), FD->getASTContext()) == 0;
  }

  /// The variable a kernel's body keeps get_global_id(0) in (`int i =
  /// get_global_id(0);`, never assigned again), or null.
  static const VarDecl *workItemVariable(const Stmt *Body) {
    const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
    if (!Block)
      return nullptr;
    for (const Stmt *S : Block->body())
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D);
              VD && VD->getInit() && isGlobalId(VD->getInit()) &&
              !assignsTo(Body, VD))
            return VD;
    return nullptr;
  }

  /// The GPU equivalents of a loop variable: OpenCL's get_global_id(d) and
  /// friends, CUDA's threadIdx/blockIdx/blockDim/gridDim components.
  static bool isWorkItemIndex(const Expr *E) {
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      return FD && FD->getIdentifier() &&
             llvm::is_contained({"get_global_id", "get_local_id",
                                 "get_group_id", "get_global_size",
                                 "get_local_size"},
                                FD->getName());
    }
    return !cudaBuiltinIndex(E).empty();
  }

  // --- Calls ---

  /// The field an argument hands its parameter by reference (`f(a[i].s)`
  /// to `T &`) or by address (`f(&a[i].s)` to `T *`), and whether the
  /// callee may write it; nullopt for any other argument.
  std::optional<std::pair<const Expr *, bool>>
  fieldByReference(const ParmVarDecl *Param, const Expr *Arg) const {
    QualType T = Param->getType();
    const Expr *Target = nullptr;
    QualType Pointee;
    if (T->isReferenceType()) {
      Pointee = T->getPointeeType();
      Target = Arg->IgnoreParenNoopCasts(Ctx);
      if (!Target->isGLValue())
        return std::nullopt; // A temporary: the field was read by value.
    } else if (T->isPointerType()) {
      Pointee = T->getPointeeType();
      const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
      if (!UO || UO->getOpcode() != UO_AddrOf)
        return std::nullopt;
      Target = UO->getSubExpr()->IgnoreParens();
    } else {
      return std::nullopt;
    }
    if (!resolveField(Target))
      return std::nullopt;
    return std::make_pair(Target, !Pointee.isConstQualified());
  }

  bool passesFields(const CallExpr *Call) const {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return false;
    for (unsigned I = 0,
                  N = std::min(Call->getNumArgs(), Callee->getNumParams());
         I < N; ++I)
      if (fieldByReference(Callee->getParamDecl(I), Call->getArg(I)))
        return true;
    return false;
  }

  /// A call that passes fields by reference or address: the callee reads
  /// each such field where the call is (`uniform(&a[i].seed)` draws from
  /// and advances the seed), and writes it unless the parameter is const.
  /// Counting them only as addresses would leave them out of the KDLG.
  void callPassingFields(const CallExpr *Call) {
    noteCall(Call);
    expr(Call->getCallee());
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      auto Field = I < Callee->getNumParams()
                       ? fieldByReference(Callee->getParamDecl(I), Arg)
                       : std::nullopt;
      if (!Field) {
        expr(Arg);
        continue;
      }
      lvalue(Field->first, /*IsWrite=*/false);
      if (Field->second)
        lvalue(Field->first, /*IsWrite=*/true);
    }
  }

  /// Counts a direct call of a function defined here by how often the
  /// loops around it run, for the callee's frequency.
  void noteCall(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return;
    double Executions = 1;
    for (const LoopScope &L : Loops)
      Executions *= L.Trips;
    if (Callee->hasBody())
      Calls[Callee->getCanonicalDecl()] += Executions;
    else if (Callee->getName() == "clEnqueueNDRangeKernel" &&
             Call->getNumArgs() > 1)
      noteLaunch(Call->getArg(1), Executions,
                 ndrangeWorkItems(Ctx, Call, Out.Function));
    else if (!Callee->getBuiltinID() &&
             !inSystemHeader(Ctx.getSourceManager(), Callee->getLocation()))
      // Perhaps defined in another file of the program (WholeProgram.cpp).
      if (std::string Name = callableName(Callee); !Name.empty())
        ExternalCalls[Name] += Executions;
  }

  /// A launch of the kernel \p Kernel names: a variable or member, or an
  /// element of an array of them initialized with a list of such (`cl_kernel
  /// all[] = {a, b}; ... all[k]`), each of which it launches in turn.
  /// \p Items are its work-items where its global sizes are constant.
  void noteLaunch(const Expr *Kernel, double Executions,
                  std::optional<double> Items) {
    auto Note = [&](const ValueDecl *Holder, double Share) {
      Launches[Holder] += Executions * Share;
      noteKernelWorkItems(LaunchSizes, Holder, Items ? *Items : -1);
    };
    if (const ValueDecl *Holder = OpenCLHost::holder(Kernel)) {
      Note(Holder, 1);
      return;
    }
    const auto *Element =
        dyn_cast<ArraySubscriptExpr>(Kernel->IgnoreParenImpCasts());
    const auto *Array =
        Element
            ? dyn_cast<DeclRefExpr>(Element->getBase()->IgnoreParenImpCasts())
            : nullptr;
    const auto *VD = Array ? dyn_cast<VarDecl>(Array->getDecl()) : nullptr;
    const auto *List =
        VD ? dyn_cast_or_null<InitListExpr>(VD->getInit()) : nullptr;
    if (!List || List->getNumInits() == 0)
      return;
    for (const Expr *Init : List->inits())
      if (const ValueDecl *Holder = OpenCLHost::holder(Init))
        Note(Holder, 1.0 / List->getNumInits());
  }

  // --- Emission ---

  void emitField(const RecordDecl *RD, unsigned Index, const Expr *At,
                 bool IsWrite, bool IsGather, bool IsLoopIndexed,
                 bool LanesWhenMoved, int64_t Bytes) {
    MemoryAccess A{Ids.fieldId(RD, Index), static_cast<double>(Bytes)};
    A.IsWrite = IsWrite;
    A.IsGather = IsGather;
    A.IsLoopIndexed = IsLoopIndexed;
    A.LanesWhenMoved = LanesWhenMoved;
    A.WholeElement = WholeElement;
    A.Accumulators = Loops.empty() ? 0 : Loops.back().Accumulators;
    // A store through an index the compiler cannot follow (a[idx[i]],
    // a[i ^ j]) may hit an element another iteration reads or writes: the
    // loop stays scalar, with AoS as with SoA (bitonic's swaps; measured
    // with gcc -fopt-info-vec). Work-items are not ordered, so a device
    // vectorizes across them all the same.
    if (IsWrite && IsGather && !Loops.empty() && Loops.back().Vectorizable &&
        !Loops.back().WorkItems) {
      Loops.back().Vectorizable = false;
      Out.Trace.markOpenLoopScalar();
    }
    A.InVectorizableLoop = !Loops.empty() && Loops.back().Vectorizable;
    boundExecutions(At, A);
    Out.Trace.addAccess(A);
    Out.AccessLocs.push_back(At->getExprLoc());
    if (!Loops.empty())
      FieldInLoop = true;
  }

  /// Bounds how often the element access \p At moves memory, below the
  /// product of its loops' trip counts: an element the inner loops leave
  /// in place (boundInvariant), and a[k] with a running index k
  /// (RunningIndices.h) in the loops that move it, whose trip counts are
  /// guessed, at most the array's length executions in all the iterations
  /// of the outermost loop it runs through.
  void boundExecutions(const Expr *At, MemoryAccess &A) const {
    const Expr *E = At->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
      E = ME->getBase()->IgnoreParenImpCasts();
    const auto *Element = dyn_cast<ArraySubscriptExpr>(E);
    if (!Element)
      return;
    // The loops that move the element: up to the innermost one changing it
    // (lavaMD's set-up reads box[nh] in constant loops inside the loop that
    // steps nh).
    unsigned Moving = boundInvariant(Element, A) ? A.CapDepth : Loops.size();
    auto MovingLoops = llvm::ArrayRef(Loops).take_front(Moving);
    // An induction variable is the loop's own count.
    const VarDecl *K = varOf(Element->getIdx());
    if (K && llvm::any_of(MovingLoops, [&](const LoopScope &L) {
          return L.InductionVar == K;
        }))
      return;
    llvm::SmallVector<const Stmt *, 8> Statements;
    for (const LoopScope &L : MovingLoops)
      Statements.push_back(L.Statement);
    std::optional<unsigned> From = runningIndexLoop(Element, Statements);
    if (!From || llvm::none_of(llvm::drop_begin(MovingLoops, *From),
                               [](const LoopScope &L) { return L.Guessed; }))
      return;
    uint64_t Length = 0;
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(Element->getBase()->IgnoreParenImpCasts()))
      if (const auto *CAT =
              Ctx.getAsConstantArrayType(DRE->getDecl()->getType()))
        Length = CAT->getSize().getZExtValue();
    A.Cap = Length ? double(Length) : UnknownLoopTrips;
    A.CapDepth = *From;
  }

  /// a[i].f inside loops that do not change i or a (the j loop of
  /// `for (i...) for (j...) s += a[i].f * b[j]`): the element stays where
  /// it is, held in a register or its cache line, so it moves memory once
  /// per iteration of the innermost loop that changes it. Only for an
  /// element named by local variables, constants and arithmetic; not on a
  /// device, whose caches and registers the model does not follow.
  bool boundInvariant(const ArraySubscriptExpr *Element,
                      MemoryAccess &A) const {
    if (onDevice() || Loops.empty())
      return false;
    llvm::SmallPtrSet<const VarDecl *, 4> Vars;
    if (!namedBy(Element, Vars))
      return false;
    unsigned Depth = 0; // Loops that change it: 0..Depth-1.
    for (unsigned I = Loops.size(); I-- > 0;)
      if (!Loops[I].Statement || llvm::any_of(Vars, [&](const VarDecl *V) {
            return changesInLoop(Loops[I].Statement, V);
          })) {
        Depth = I + 1;
        break;
      }
    if (Depth == Loops.size())
      return false;
    A.Cap = 1;
    A.CapDepth = Depth;
    return true;
  }

  /// Adds to \p Vars the variables \p E names, if it is made of local
  /// variables, constants and arithmetic only.
  static bool namedBy(const Expr *E,
                      llvm::SmallPtrSetImpl<const VarDecl *> &Vars) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || !VD->isLocalVarDeclOrParm() || VD->isStaticLocal())
        return false;
      Vars.insert(VD);
      return true;
    }
    if (isa<IntegerLiteral>(E))
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return BO->isAdditiveOp() || BO->isMultiplicativeOp()
                 ? namedBy(BO->getLHS(), Vars) && namedBy(BO->getRHS(), Vars)
                 : false;
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      return namedBy(ASE->getBase(), Vars) && namedBy(ASE->getIdx(), Vars);
    return false;
  }

  void emitOther(const Expr *At, bool IsWrite) {
    MemoryAccess A{MemoryAccess::NoField,
                   static_cast<double>(
                       Ctx.getTypeSizeInChars(At->getType()).getQuantity())};
    A.IsWrite = IsWrite;
    Out.Trace.addAccess(A);
    Out.AccessLocs.push_back(At->getExprLoc());
  }

  /// Set while the fields of an element copied whole are emitted.
  bool WholeElement = false;
  ASTContext &Ctx;
  const AccessCollector &Ids;
  const llvm::DenseMap<const RecordDecl *, unsigned> &Records;
  const ProfileCounts *Profile;
  const ThreadVariance &Variance;
  KernelTrace &Out;
  /// Element pointers (pi = &a[i]) stand for their element.
  UseClassifier Uses;
  /// The body of the function without loops being walked (else null).
  const Stmt *LooplessBody = nullptr;
  std::vector<LoopScope> Loops;
  /// Inside an OpenMP region gcc outlines (outlinesRegion).
  bool Outlined = false;
  /// How deep vectorizableCall looks into library wrappers (and a bound
  /// for recursive ones).
  static constexpr unsigned MaxLibraryCallDepth = 3;
  mutable unsigned LibraryCallDepth = 0;
  bool FieldInLoop = false;
  CallCounts Calls;
  std::map<std::string, double> ExternalCalls;
  llvm::DenseMap<const ValueDecl *, double> Launches;
  llvm::DenseMap<const ValueDecl *, double> LaunchSizes;
};

} // namespace

AccessCollector::AccessCollector(ASTContext &Ctx,
                                 llvm::ArrayRef<const RecordDecl *> Records,
                                 const ProfileCounts *Profile)
    : Ctx(Ctx), Profile(Profile) {
  unsigned Next = 0;
  for (const RecordDecl *RD : Records) {
    FirstId[RD] = Next;
    Next += std::distance(RD->field_begin(), RD->field_end());
  }
}

/// Function definitions in source order, through namespaces, extern "C"
/// blocks and classes, with the instantiations of function templates.
static void collectFunctions(const DeclContext *DC,
                             std::vector<const FunctionDecl *> &Out) {
  for (const Decl *D : DC->decls()) {
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      for (const FunctionDecl *Spec : FT->specializations())
        Out.push_back(Spec);
    else if (const auto *FD = dyn_cast<FunctionDecl>(D))
      Out.push_back(FD);
    else if (isa<NamespaceDecl, LinkageSpecDecl, CXXRecordDecl>(D))
      collectFunctions(cast<DeclContext>(D), Out);
  }
}

std::vector<KernelTrace> AccessCollector::collect() {
  std::vector<KernelTrace> Kernels, LoopFree;
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const FunctionDecl *> Functions;
  collectFunctions(Ctx.getTranslationUnitDecl(), Functions);
  CallFrequencies Frequencies;
  std::vector<std::pair<const FunctionDecl *,
                        llvm::DenseMap<const ValueDecl *, double>>>
      LaunchesIn;
  std::vector<std::pair<const FunctionDecl *, std::map<std::string, double>>>
      CallsOut;
  // An implicit member (a defaulted copy assignment a library instantiated)
  // is no code of the program's.
  llvm::erase_if(Functions, [&](const FunctionDecl *FD) {
    return !FD->doesThisDeclarationHaveABody() || FD->isDependentContext() ||
           FD->isImplicit() || inSystemHeader(SM, FD->getLocation());
  });
  ThreadVariance Variance(Ctx, Functions);
  WorkItems = launchedWorkItems(Ctx, Functions);
  for (const FunctionDecl *FD : Functions) {
    KernelTrace K;
    K.Function = FD;
    KernelWalker Walker(Ctx, *this, FirstId, Profile, Variance, K);
    Walker.walkFunction(FD);
    auto IsCandidate = [this](const RecordDecl *RD) {
      return FirstId.count(RD) > 0;
    };
    K.Held = findHeldElements(Ctx, FD, IsCandidate);
    K.VectorStores = findVectorStores(Ctx, FD, IsCandidate);
    Frequencies.addCaller(FD, Walker.calls());
    if (!Walker.externalCalls().empty())
      CallsOut.push_back({FD, Walker.externalCalls()});
    if (!Walker.launches().empty())
      LaunchesIn.push_back({FD, Walker.launches()});
    for (const auto &[Holder, Items] : Walker.launchSizes())
      noteKernelWorkItems(LaunchWorkItems, Holder, Items);
    // A CUDA __device__ function runs inside the kernels that call it: its
    // accesses count as often as the calls, loops or not.
    bool DeviceCode = isGpuKernel(FD) || FD->hasAttr<CUDADeviceAttr>();
    if (Walker.foundFieldInLoop() || (DeviceCode && !K.Trace.empty()))
      Kernels.push_back(std::move(K));
    else if (!K.Trace.empty())
      LoopFree.push_back(std::move(K));
  }
  // A function without loops whose accesses a loop repeats through its
  // calls (XSBench's calculate_micro_xs, called per nuclide per lookup) is
  // a kernel as a loop's body is; one that runs once is set-up code.
  // One that runs once here but that another file may call, in a loop, is
  // kept for the program's merge to decide (KernelSummary::LoopFree).
  for (KernelTrace &K : LoopFree) {
    if (Frequencies.of(K.Function) > 1) {
      Kernels.push_back(std::move(K));
      continue;
    }
    EntryShares Shares = Frequencies.entryShares(K.Function);
    if (llvm::any_of(Shares, [](const auto &E) { return !E.first.empty(); })) {
      K.LoopFree = true;
      Kernels.push_back(std::move(K));
    }
  }
  llvm::stable_sort(Kernels, [&](const KernelTrace &A, const KernelTrace &B) {
    return SM.isBeforeInTranslationUnit(A.Function->getLocation(),
                                        B.Function->getLocation());
  });
  for (KernelTrace &K : Kernels) {
    std::optional<uint64_t> Calls =
        measuredCount(Ctx, Profile, K.Function->getBody()->getBeginLoc());
    K.FrequencyMeasured = Calls.has_value();
    K.Frequency = Calls ? double(*Calls) : Frequencies.of(K.Function);
    K.FrequencyKnown =
        Calls || Frequencies.called(K.Function) || K.Function->isMain();
    // A measured count is the program's; an OpenCL kernel's launches scale
    // it instead (LayoutPlan::KernelLaunches).
    if (!Calls && !K.Function->hasAttr<OpenCLKernelAttr>())
      K.Entries = Frequencies.entryShares(K.Function);
  }
  for (const auto &[FD, Counts] : LaunchesIn)
    for (const auto &[Kernel, Count] : Counts)
      Launches[Kernel] += Frequencies.of(FD) * Count;
  for (const auto &[FD, Callees] : CallsOut) {
    EntryShares Shares = Frequencies.entryShares(FD);
    for (const auto &[Callee, Executions] : Callees)
      for (const auto &[Entry, Runs] : Shares)
        ExternalCalls[Callee][Entry] += Runs * Executions;
  }
  return Kernels;
}
