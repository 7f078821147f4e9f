//===- HeldElements.cpp - Fields a loop keeps in registers ----------------===//
#include "analysis/HeldElements.h"
#include "analysis/AstUtil.h"
#include "analysis/StackSpace.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <map>

using namespace clang;
using namespace dlopt;

// scan() and invariantValue() recurse once per level of the AST, which a
// long sum makes as deep as it has terms: each step goes through
// withStackSpace().

namespace {
/// One innermost loop: the fields of candidate elements it reaches by an
/// element that stays the same, and whether it touches any other memory
/// that could alias them.
class LoopScan {
public:
  struct Use {
    unsigned Field;
    bool Write;
    SourceLocation Loc;
  };
  struct ElementUses {
    const RecordDecl *Record;
    std::vector<Use> Uses;
  };

  LoopScan(ASTContext &Ctx,
           llvm::function_ref<bool(const RecordDecl *)> IsCandidate,
           const Stmt *Loop)
      : Ctx(Ctx), IsCandidate(IsCandidate), Loop(Loop) {
    collectVarying(Loop, Varying);
  }

  void scan(const Stmt *S, bool Written = false);

  /// Memory other than private variables, tiles and the held elements.
  bool OtherMemory = false;
  std::map<unsigned, ElementUses> Elements; // by the element's profile

private:
  void scanOnStack(const Stmt *S, bool Written);
  bool invariant(const Expr *E) const;
  bool invariantValue(const Expr *E) const;
  bool privateArray(const Expr *Base) const;
  void member(const MemberExpr *ME, bool Written);
  unsigned key(const Expr *E);

  ASTContext &Ctx;
  llvm::function_ref<bool(const RecordDecl *)> IsCandidate;
  const Stmt *Loop;
  /// What the loop assigns, steps or declares (a new one each iteration).
  llvm::SmallPtrSet<const VarDecl *, 8> Varying;
  std::vector<llvm::FoldingSetNodeID> Profiles;
};
} // namespace

/// True if \p E names the same element on every iteration: made of
/// constants and of local variables the loop leaves alone, with no call
/// and no memory read in it (an index the loop may store to).
bool LoopScan::invariant(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  if (auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return invariantValue(ASE->getBase()) && invariantValue(ASE->getIdx());
  return invariantValue(E);
}

bool LoopScan::invariantValue(const Expr *E) const {
  if (isa<CallExpr, ArraySubscriptExpr, MemberExpr>(E))
    return false;
  if (auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref)
    return false;
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    auto *V = dyn_cast<VarDecl>(DR->getDecl());
    return isa<EnumConstantDecl>(DR->getDecl()) ||
           (V && V->hasLocalStorage() && !V->getType()->isReferenceType() &&
            !Varying.count(V) && !assignsTo(Loop, V));
  }
  for (const Stmt *C : E->children())
    if (auto *CE = dyn_cast_or_null<Expr>(C);
        CE && !withStackSpace([&] { return invariantValue(CE); }))
      return false;
  return true;
}

/// A local array, or a tile (__shared__, __local): memory no pointer of
/// the program's arrays reaches.
bool LoopScan::privateArray(const Expr *Base) const {
  if (keptArray(Base))
    return true;
  auto *DR = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return V && (V->hasAttr<CUDASharedAttr>() ||
               V->getType().getAddressSpace() == LangAS::opencl_local ||
               (V->hasLocalStorage() && V->getType()->isConstantArrayType()));
}

unsigned LoopScan::key(const Expr *E) {
  llvm::FoldingSetNodeID ID;
  E->Profile(ID, Ctx, /*Canonical=*/true);
  for (unsigned I = 0; I < Profiles.size(); ++I)
    if (Profiles[I] == ID)
      return I;
  Profiles.push_back(ID);
  return Profiles.size() - 1;
}

void LoopScan::member(const MemberExpr *ME, bool Written) {
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  const Expr *Element = ME->isArrow() ? Base : nullptr;
  if (auto *ASE = dyn_cast<ArraySubscriptExpr>(Base); ASE && !ME->isArrow())
    Element = privateArray(ASE->getBase()) ? nullptr : ASE;
  if (FD && Element && IsCandidate(FD->getParent()) && invariant(Element)) {
    ElementUses &E = Elements[key(Element)];
    E.Record = FD->getParent();
    E.Uses.push_back({FD->getFieldIndex(), Written, ME->getExprLoc()});
    return;
  }
  if (ME->isArrow())
    OtherMemory = true;
  scan(ME->getBase(), Written);
}

void LoopScan::scan(const Stmt *S, bool Written) {
  withStackSpace([&] { scanOnStack(S, Written); });
}

void LoopScan::scanOnStack(const Stmt *S, bool Written) {
  if (!S)
    return;
  if (auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
    scan(BO->getLHS(), /*Written=*/true);
    scan(BO->getRHS());
    return;
  }
  if (auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      return scan(UO->getSubExpr(), /*Written=*/true);
    if (UO->getOpcode() == UO_Deref)
      OtherMemory = true;
  }
  if (auto *ME = dyn_cast<MemberExpr>(S))
    return member(ME, Written);
  if (auto *ASE = dyn_cast<ArraySubscriptExpr>(S);
      ASE && !privateArray(ASE->getBase()))
    OtherMemory = true;
  if (auto *CE = dyn_cast<CallExpr>(S)) {
    // Math from the system's headers (libm, CUDA's device functions)
    // touches no memory of the program's; any other call may.
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee ||
        (!Callee->getBuiltinID() &&
         !inSystemHeader(Ctx.getSourceManager(), Callee->getLocation())))
      OtherMemory = true;
  }
  // A global scalar may be stored to through any pointer; an array's
  // name is no load (its subscripts are classified above).
  if (auto *DR = dyn_cast<DeclRefExpr>(S))
    if (auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      if (V->getType()->isReferenceType() ||
          (!V->getType()->isArrayType() && !V->hasLocalStorage() &&
           !V->getType().isConstQualified() && !V->hasAttr<CUDAConstantAttr>()))
        OtherMemory = true;
  for (const Stmt *C : S->children())
    scan(C);
}

namespace {
class LoopFinder : public RecursiveASTVisitor<LoopFinder> {
public:
  LoopFinder(ASTContext &Ctx,
             llvm::function_ref<bool(const RecordDecl *)> IsCandidate,
             std::vector<ElementFields> &Out)
      : Ctx(Ctx), IsCandidate(IsCandidate), Out(Out) {}

  bool VisitForStmt(ForStmt *S) {
    return visitLoop(S, {S->getCond(), S->getInc(), S->getBody()});
  }
  bool VisitWhileStmt(WhileStmt *S) {
    return visitLoop(S, {S->getCond(), S->getBody()});
  }
  bool VisitDoStmt(DoStmt *S) {
    return visitLoop(S, {S->getCond(), S->getBody()});
  }

private:
  bool visitLoop(const Stmt *Loop, std::initializer_list<const Stmt *> Parts);

  ASTContext &Ctx;
  llvm::function_ref<bool(const RecordDecl *)> IsCandidate;
  std::vector<ElementFields> &Out;
};
} // namespace

bool LoopFinder::visitLoop(const Stmt *Loop,
                           std::initializer_list<const Stmt *> Parts) {
  if (llvm::any_of(subStatements(Loop), containsLoop))
    return true;
  LoopScan Scan(Ctx, IsCandidate, Loop);
  for (const Stmt *P : Parts)
    Scan.scan(P);
  // Two elements of the program's arrays may be one: a store to either
  // may change the other's fields, in AoS too.
  if (Scan.OtherMemory || Scan.Elements.size() > 1)
    return true;
  for (const auto &[Key, E] : Scan.Elements) {
    ElementFields H;
    H.Record = E.Record;
    for (const LoopScan::Use &U : E.Uses) {
      if (!llvm::is_contained(H.Fields, U.Field))
        H.Fields.push_back(U.Field);
      if (U.Write && H.Loc.isInvalid())
        H.Loc = U.Loc;
    }
    llvm::sort(H.Fields);
    if (H.Fields.size() >= 2 && H.Loc.isValid())
      Out.push_back(std::move(H));
  }
  return true;
}

std::vector<ElementFields> dlopt::findHeldElements(
    ASTContext &Ctx, const FunctionDecl *FD,
    llvm::function_ref<bool(const RecordDecl *)> IsCandidate) {
  std::vector<ElementFields> Out;
  if (FD->hasBody())
    LoopFinder(Ctx, IsCandidate, Out)
        .TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  return Out;
}
