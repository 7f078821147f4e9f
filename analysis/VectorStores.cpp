//===- VectorStores.cpp - Fields a loop stores as one vector --------------===//
#include "analysis/VectorStores.h"
#include "analysis/AstUtil.h"
#include "analysis/StackSpace.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/FoldingSet.h"

using namespace clang;
using namespace dlopt;

namespace {
/// `E.f = v` or `E.f op= v`, E an element of an array of a candidate.
struct FieldStore {
  const BinaryOperator *Assign;
  const MemberExpr *Target;
  const FieldDecl *Field;
  llvm::FoldingSetNodeID Element;
};

/// Statements of one basic block whose stores may form groups.
class BlockScan {
public:
  BlockScan(ASTContext &Ctx,
            llvm::function_ref<bool(const RecordDecl *)> IsCandidate,
            std::vector<ElementFields> &Out)
      : Ctx(Ctx), IsCandidate(IsCandidate), Out(Out) {}

  /// The groups among \p Stores, one straight run of statements.
  void group(const std::vector<FieldStore> &Stores);
  std::optional<FieldStore> store(const Stmt *S) const;

private:
  bool sameShape(const FieldStore &A, const FieldStore &B) const;
  bool same(const Expr *A, const FieldStore &SA, const Expr *B,
            const FieldStore &SB) const;
  const FieldDecl *elementField(const Expr *E, const FieldStore &S) const;
  int64_t offset(const FieldDecl *FD) const {
    return Ctx.getFieldOffset(FD) / Ctx.getCharWidth();
  }
  void emitRuns(std::vector<const FieldStore *> Group);

  ASTContext &Ctx;
  llvm::function_ref<bool(const RecordDecl *)> IsCandidate;
  std::vector<ElementFields> &Out;
};
} // namespace

std::optional<FieldStore> BlockScan::store(const Stmt *S) const {
  const auto *E = dyn_cast<Expr>(S);
  const auto *Assign =
      E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
  if (!Assign || !Assign->isAssignmentOp())
    return std::nullopt;
  const auto *ME = dyn_cast<MemberExpr>(Assign->getLHS()->IgnoreParens());
  const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!FD || FD->isBitField() || !IsCandidate(FD->getParent()) ||
      !(FD->getType()->isIntegerType() || FD->getType()->isRealFloatingType()))
    return std::nullopt;
  // An element of an array the layout changes: a[i].f, p->f, v[i].f of a
  // container, or e.f through a reference (not a local variable of the
  // record, not a tile that keeps its layout).
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  if (!ME->isArrow()) {
    const auto *ASE = dyn_cast<ArraySubscriptExpr>(Base);
    const auto *OCE = dyn_cast<CXXOperatorCallExpr>(Base);
    const VarDecl *Ref = varOf(Base);
    if (ASE ? keptArray(ASE->getBase()) != nullptr
            : !(OCE && OCE->getOperator() == OO_Subscript) &&
                  !(Ref && Ref->getType()->isReferenceType()))
      return std::nullopt;
  }
  FieldStore Store{Assign, ME, FD, {}};
  Base->Profile(Store.Element, Ctx, /*Canonical=*/true);
  Store.Element.AddBoolean(ME->isArrow());
  return Store;
}

/// The field \p E reads of the element \p S stores to, if it reads one.
const FieldDecl *BlockScan::elementField(const Expr *E,
                                         const FieldStore &S) const {
  const auto *ME = dyn_cast<MemberExpr>(E);
  if (!ME || ME->isArrow() != S.Target->isArrow())
    return nullptr;
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD || FD->getParent() != S.Field->getParent())
    return nullptr;
  llvm::FoldingSetNodeID Element;
  ME->getBase()->IgnoreParenImpCasts()->Profile(Element, Ctx, true);
  Element.AddBoolean(ME->isArrow());
  return Element == S.Element ? FD : nullptr;
}

/// The operations a vector performs lane by lane; anything else is a value.
static bool isOperator(const Expr *E) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->isArithmeticOp();
  return isa<ConditionalOperator, ExplicitCastExpr>(E);
}

/// Lane by lane: the same operators, reads of the element's fields that
/// load as one vector (fields at the same distance from the fields stored)
/// or splat (one field for every lane), and any other values of one type,
/// which the compiler packs into a vector (a call's result, a variable).
bool BlockScan::same(const Expr *A, const FieldStore &SA, const Expr *B,
                     const FieldStore &SB) const {
  return withStackSpace([&] {
    A = A->IgnoreParenImpCasts();
    B = B->IgnoreParenImpCasts();
    const FieldDecl *FA = elementField(A, SA), *FB = elementField(B, SB);
    if (FA || FB)
      return FA && FB &&
             (FA == FB ||
              offset(FA) - offset(SA.Field) == offset(FB) - offset(SB.Field));
    if (isOperator(A) || isOperator(B)) {
      if (A->getStmtClass() != B->getStmtClass())
        return false;
      if (const auto *BA = dyn_cast<BinaryOperator>(A)) {
        const auto *BB = cast<BinaryOperator>(B);
        return BA->getOpcode() == BB->getOpcode() &&
               same(BA->getLHS(), SA, BB->getLHS(), SB) &&
               same(BA->getRHS(), SA, BB->getRHS(), SB);
      }
      if (const auto *UA = dyn_cast<UnaryOperator>(A)) {
        const auto *UB = cast<UnaryOperator>(B);
        return UA->getOpcode() == UB->getOpcode() &&
               same(UA->getSubExpr(), SA, UB->getSubExpr(), SB);
      }
      if (const auto *CA = dyn_cast<ConditionalOperator>(A)) {
        const auto *CB = cast<ConditionalOperator>(B);
        return same(CA->getCond(), SA, CB->getCond(), SB) &&
               same(CA->getTrueExpr(), SA, CB->getTrueExpr(), SB) &&
               same(CA->getFalseExpr(), SA, CB->getFalseExpr(), SB);
      }
      const auto *XA = cast<ExplicitCastExpr>(A);
      return Ctx.hasSameType(A->getType(), B->getType()) &&
             same(XA->getSubExpr(), SA, cast<ExplicitCastExpr>(B)->getSubExpr(),
                  SB);
    }
    return Ctx.hasSameType(A->getType(), B->getType());
  });
}

bool BlockScan::sameShape(const FieldStore &A, const FieldStore &B) const {
  return A.Element == B.Element && A.Field != B.Field &&
         A.Assign->getOpcode() == B.Assign->getOpcode() &&
         Ctx.hasSameType(A.Field->getType(), B.Field->getType()) &&
         same(A.Assign->getRHS(), A, B.Assign->getRHS(), B);
}

/// The runs of fields side by side in memory among one group's stores.
void BlockScan::emitRuns(std::vector<const FieldStore *> Group) {
  llvm::sort(Group, [&](const FieldStore *A, const FieldStore *B) {
    return offset(A->Field) < offset(B->Field);
  });
  int64_t Size =
      Ctx.getTypeSizeInChars(Group.front()->Field->getType()).getQuantity();
  for (size_t Begin = 0, End; Begin < Group.size(); Begin = End) {
    for (End = Begin + 1;
         End < Group.size() &&
         offset(Group[End]->Field) == offset(Group[End - 1]->Field) + Size;
         ++End) {
    }
    if (End - Begin < 2)
      continue;
    ElementFields Run;
    Run.Record = Group.front()->Field->getParent();
    const FieldStore *First = Group[Begin];
    for (size_t I = Begin; I < End; ++I) {
      Run.Fields.push_back(Group[I]->Field->getFieldIndex());
      if (Group[I]->Assign->getBeginLoc() < First->Assign->getBeginLoc())
        First = Group[I];
    }
    llvm::sort(Run.Fields);
    Run.Loc = First->Target->getExprLoc();
    Out.push_back(std::move(Run));
  }
}

void BlockScan::group(const std::vector<FieldStore> &Stores) {
  // Each group is led by its first store; a field stored twice in a run
  // joins the first group that matches and lacks it.
  std::vector<std::vector<const FieldStore *>> Groups;
  for (const FieldStore &S : Stores) {
    auto It = llvm::find_if(Groups, [&](const auto &G) {
      return sameShape(*G.front(), S) &&
             llvm::none_of(
                 G, [&](const FieldStore *In) { return In->Field == S.Field; });
    });
    if (It != Groups.end())
      It->push_back(&S);
    else
      Groups.push_back({&S});
  }
  for (auto &G : Groups)
    if (G.size() >= 2)
      emitRuns(std::move(G));
}

namespace {
/// Visits the innermost loops and, in each, every block of statements.
class LoopFinder : public RecursiveASTVisitor<LoopFinder> {
public:
  LoopFinder(BlockScan &Scan) : Scan(Scan) {}

  bool VisitForStmt(ForStmt *S) { return visitLoop(S->getBody()); }
  bool VisitWhileStmt(WhileStmt *S) { return visitLoop(S->getBody()); }
  bool VisitDoStmt(DoStmt *S) { return visitLoop(S->getBody()); }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    return visitLoop(S->getBody());
  }

private:
  bool visitLoop(const Stmt *Body) {
    if (Body && !containsLoop(Body))
      blocks(Body);
    return true;
  }
  void blocks(const Stmt *S);

  BlockScan &Scan;
};
} // namespace

/// Splits each compound statement under \p S into straight runs: a branch,
/// a jump or a label ends a basic block, and a group with it.
void LoopFinder::blocks(const Stmt *S) {
  withStackSpace([&] {
    if (isa<Expr>(S))
      return;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      std::vector<FieldStore> Run;
      for (const Stmt *Child : CS->body()) {
        if (isa<Expr, DeclStmt, NullStmt>(Child)) {
          if (std::optional<FieldStore> St = Scan.store(Child))
            Run.push_back(std::move(*St));
          continue;
        }
        Scan.group(Run);
        Run.clear();
        blocks(Child);
      }
      Scan.group(Run);
      return;
    }
    for (const Stmt *Child : subStatements(S))
      if (Child)
        blocks(Child);
  });
}

std::vector<ElementFields> dlopt::findVectorStores(
    ASTContext &Ctx, const FunctionDecl *FD,
    llvm::function_ref<bool(const RecordDecl *)> IsCandidate) {
  std::vector<ElementFields> Out;
  if (!FD->hasBody())
    return Out;
  BlockScan Scan(Ctx, IsCandidate, Out);
  LoopFinder(Scan).TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  return Out;
}
