//===- ReusedKernelHolders.cpp - One cl_kernel variable, kernel by kernel -===//
//
// Host code often keeps one cl_kernel variable and creates kernel after
// kernel into it: create, set the arguments, enqueue, release, and the
// next. Such a holder names no single kernel, so each reading of a local
// one is resolved to the creation that reaches it: the last one before it
// in its function, provided that creation runs whenever the reading does
// (it lies in no branch or loop the reading is outside of, nor a switch;
// the function has no goto or try) and no creation later in a loop around
// the reading can reach it on the loop's next turn. Anything else stays
// unknown, and a buffer bound through it is refused as before.
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/OpenCLHost.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace dlopt;

namespace {
/// What decides whether a statement runs: the branches and loops around
/// it up to its function.
struct Guards {
  /// The function (or other declaration) whose body holds it; null where
  /// a node on the way has several parents.
  const Decl *Function = nullptr;
  /// Every statement around it, itself included.
  llvm::SmallPtrSet<const Stmt *, 16> Ancestors;
  /// The children of branches and loops it lies in that may not run (an
  /// if's arm, a ?: alternative, a && or || right side, a loop's body or
  /// condition, a do-while's body that breaks or continues).
  std::vector<const Stmt *> Branches;
  /// The loops it lies in (not in their for-init), which may run it again
  /// after what follows it there; `do ... while (0)` is no loop.
  std::vector<const Stmt *> Loops;
  /// Whether it lies in a switch's body, whose case labels jump past
  /// statements the body's structure does not show.
  bool InSwitch = false;
};
} // namespace

/// Whether \p S holds a break or continue (which may leave a do-while's
/// body before its end).
static bool leavesEarly(const Stmt *S) {
  return containsAny(
      S, [](const Stmt *Next) { return isa<BreakStmt, ContinueStmt>(Next); });
}

/// Whether \p S jumps where its structure does not show: a goto, or a try
/// whose handlers an exception reaches from anywhere in its block.
static bool jumps(const Stmt *S) {
  return containsAny(S, [](const Stmt *Next) {
    return isa<GotoStmt, IndirectGotoStmt, CXXTryStmt>(Next);
  });
}

/// Adds to \p G what \p Parent says of its child \p Child.
static void addGuard(ASTContext &Ctx, const Stmt *Parent, const Stmt *Child,
                     Guards &G) {
  if (const auto *If = dyn_cast<IfStmt>(Parent)) {
    if (Child == If->getThen() || Child == If->getElse())
      G.Branches.push_back(Child);
  } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(Parent)) {
    if (Child == CO->getTrueExpr() || Child == CO->getFalseExpr())
      G.Branches.push_back(Child);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
    if (BO->isLogicalOp() && Child == BO->getRHS())
      G.Branches.push_back(Child);
  } else if (isa<SwitchStmt>(Parent)) {
    G.InSwitch = true;
  } else if (const auto *Do = dyn_cast<DoStmt>(Parent)) {
    // The body runs at least once, to its end unless it breaks or
    // continues: then it runs whenever what follows does.
    if (Child != Do->getBody() || leavesEarly(Child))
      G.Branches.push_back(Child);
    if (!runsOnce(Ctx, Do))
      G.Loops.push_back(Parent);
  } else if (isa<ForStmt, WhileStmt, CXXForRangeStmt>(Parent)) {
    const auto *For = dyn_cast<ForStmt>(Parent);
    if (!For || Child != For->getInit()) {
      G.Branches.push_back(Child);
      G.Loops.push_back(Parent);
    }
  }
}

static Guards guardsOf(ASTContext &Ctx, const Stmt *S) {
  Guards G;
  G.Ancestors.insert(S);
  DynTypedNode Node = DynTypedNode::create(*S);
  for (;;) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.size() != 1)
      return G;
    if (const Decl *D = Parents[0].get<Decl>()) {
      // A local declaration's initializer: go on through its DeclStmt.
      if (isa<VarDecl>(D) && D->getDeclContext()->isFunctionOrMethod()) {
        Node = Parents[0];
        continue;
      }
      G.Function = D;
      return G;
    }
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent)
      return G;
    if (const Stmt *Child = Node.get<Stmt>())
      addGuard(Ctx, Parent, Child, G);
    G.Ancestors.insert(Parent);
    Node = Parents[0];
  }
}

/// Whether every reference to the local variable \p VD reads its value or
/// stores one of \p Creations into it: nothing else (an address taken, an
/// assignment from elsewhere) changes which kernel it holds.
static bool onlyCreatedInto(ASTContext &Ctx, const VarDecl *VD,
                            const std::vector<KernelCreation> &Creations) {
  const Stmt *Body = enclosingBody(VD);
  if (!Body)
    return false;
  std::vector<const DeclRefExpr *> Refs;
  referencesTo(Body, VD, Refs);
  for (const DeclRefExpr *Ref : Refs) {
    const Expr *Child;
    DynTypedNode Parent = parentPast(
        Ctx, Ref, Child, [](const Expr *E) { return isa<ParenExpr>(E); });
    if (const auto *Cast = Parent.get<ImplicitCastExpr>();
        Cast && Cast->getCastKind() == CK_LValueToRValue)
      continue;
    const auto *BO = Parent.get<BinaryOperator>();
    if (!BO || BO->getOpcode() != BO_Assign || BO->getLHS() != Child ||
        llvm::none_of(Creations, [&](const KernelCreation &C) {
          return C.Call == BO->getRHS()->IgnoreParenCasts();
        }))
      return false;
  }
  return true;
}

std::vector<std::string> OpenCLHost::kernelNamesAt(const ValueDecl *D,
                                                   const Expr *Use) const {
  auto It = Creations.find(D);
  if (It == Creations.end() || It->second.size() < 2)
    return kernelNames(D);
  // Created again under the same name (in each branch of an if): that one.
  const std::vector<KernelCreation> &All = It->second;
  if (llvm::all_of(All, [&](const KernelCreation &C) {
        return !C.Name.empty() && C.Name == All.front().Name;
      }))
    return kernelNames(D);
  // A local variable only: a member or a global may be written through
  // another name, or by another function in between.
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD || !VD->hasLocalStorage() || jumps(enclosingBody(VD)) ||
      !onlyCreatedInto(Ctx, VD, All))
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  auto Before = [&](const Stmt *A, const Stmt *B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A->getBeginLoc()),
                                        SM.getExpansionLoc(B->getBeginLoc()));
  };
  Guards AtUse = guardsOf(Ctx, Use);
  if (!AtUse.Function)
    return {};
  // Creations are in source order: the last one before the use.
  const KernelCreation *Reaching = nullptr;
  Guards AtReaching;
  std::vector<Guards> Later;
  for (const KernelCreation &C : All) {
    Guards At = guardsOf(Ctx, C.Call);
    // In another function (a block), or in one macro expansion with the
    // use: which runs first is not known.
    bool First = Before(C.Call, Use);
    if (At.Function != AtUse.Function || (!First && !Before(Use, C.Call)))
      return {};
    if (First) {
      Reaching = &C;
      AtReaching = std::move(At);
    } else {
      Later.push_back(std::move(At));
    }
  }
  if (!Reaching || Reaching->Name.empty())
    return {};
  // It must run whenever the use does...
  if (AtReaching.InSwitch)
    return {};
  for (const Stmt *Branch : AtReaching.Branches)
    if (!AtUse.Ancestors.count(Branch))
      return {};
  // ...and a later one in a loop around the use must not reach it on the
  // loop's next turn, unless the reaching one, in that loop too, comes
  // between on every turn.
  for (const Guards &AtCreation : Later)
    for (const Stmt *Loop : AtUse.Loops)
      if (AtCreation.Ancestors.count(Loop) &&
          !llvm::is_contained(AtReaching.Loops, Loop))
        return {};
  return {Reaching->Name};
}

std::vector<std::string>
OpenCLHost::createdKernelNames(const ValueDecl *D) const {
  auto It = Creations.find(D);
  if (It == Creations.end() || It->second.size() < 2)
    return kernelNames(D);
  std::vector<std::string> Names;
  for (const KernelCreation &C : It->second) {
    if (C.Name.empty())
      return {};
    if (!llvm::is_contained(Names, C.Name))
      Names.push_back(C.Name);
  }
  return Names;
}
