//===- MemoryBounds.cpp - Loop bounds read from memory the loop keeps -----===//
//
// See MemoryBounds.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/MemoryBounds.h"
#include "analysis/AstUtil.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace dlopt;

namespace {

/// What a bound is made of: the variables it names (locals, parameters,
/// globals, and the objects its members belong to), the fields it reads,
/// and the widths of the integers it reads from memory.
struct BoundRoots {
  llvm::SmallPtrSet<const VarDecl *, 4> Vars;
  llvm::SmallPtrSet<const FieldDecl *, 4> Fields;
  llvm::SmallVector<uint64_t, 2> Widths;
};

/// Whether a read of \p E could see a write this analysis does not follow.
bool isShared(const Expr *E) {
  QualType T = E->getType();
  return T.isVolatileQualified() || T->isAtomicType();
}

/// Collects the object a bound's member belongs to: `this`, a variable, or
/// a member of one (`sim->grid.n`: the field grid and the variable sim).
bool collectObject(const Expr *E, BoundRoots &R) {
  E = E->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(E))
    return true;
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    // A reference could name anything: not followed.
    if (!V || V->getType()->isReferenceType() || isShared(D))
      return false;
    R.Vars.insert(V);
    return true;
  }
  const auto *M = dyn_cast<MemberExpr>(E);
  const auto *F = M ? dyn_cast<FieldDecl>(M->getMemberDecl()) : nullptr;
  // A union's other members share the storage.
  if (!F || F->getType()->isReferenceType() || isShared(M) ||
      F->getParent()->isUnion())
    return false;
  R.Fields.insert(F);
  return collectObject(M->getBase(), R);
}

/// Collects what bound \p E is made of; false where it is anything else
/// than integer arithmetic (walkBoundArithmetic) on integer variables and
/// members.
bool collectRoots(const Expr *E, BoundRoots &R, const ASTContext &Ctx) {
  return walkBoundArithmetic(E, [&](const Expr *Operand) {
    // A local could be reached through a pointer taken before the loop:
    // every integer counts by its width.
    if (!Operand->getType()->isIntegerType() ||
        !isa<DeclRefExpr, MemberExpr>(Operand) || !collectObject(Operand, R))
      return false;
    R.Widths.push_back(Ctx.getTypeSize(Operand->getType()));
    return true;
  });
}

/// Walks a loop body and the functions it calls for anything that could
/// change what the bound reads.
class ChangeFinder {
public:
  ChangeFinder(const BoundRoots &R, ASTContext &Ctx) : R(R), Ctx(Ctx) {}

  /// Whether running \p Body may change the bound; \p Depth counts the
  /// calls followed to get there.
  bool mayChange(const Stmt *Body, unsigned Depth) {
    // A worklist, not recursion: a body may hold a sum of thousands of
    // terms.
    llvm::SmallVector<const Stmt *, 32> Todo{Body};
    while (!Todo.empty()) {
      const Stmt *S = Todo.pop_back_val();
      if (!S)
        continue;
      if (changesHere(S, Depth))
        return true;
      Todo.append(subStatements(S));
    }
    return false;
  }

private:
  const BoundRoots &R;
  ASTContext &Ctx;
  /// Functions already walked (or being walked further up).
  llvm::SmallPtrSet<const FunctionDecl *, 8> Walked;
  static constexpr unsigned MaxDepth = 4;

  /// Whether \p S itself (not its children) may change the bound.
  bool changesHere(const Stmt *S, unsigned Depth) {
    if (isa<AsmStmt, BlockExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr>(S))
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      return BO->isAssignmentOp() && mayStoreTo(BO->getLHS());
    if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp())
        return mayStoreTo(UO->getSubExpr());
      // Its address could be written through later, out of sight.
      return UO->getOpcode() == UO_AddrOf && namesRoot(UO->getSubExpr());
    }
    if (const auto *Call = dyn_cast<CallExpr>(S))
      return callMayChange(Call, Depth);
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      if (Ctor->isTrivial())
        return false;
      if (isLibrary(Ctor))
        return argumentsEscape(Ctor, llvm::ArrayRef(Construct->getArgs(),
                                                    Construct->getNumArgs()));
      return functionMayChange(Ctor, Depth);
    }
    if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(S))
      return destructorMayChange(Bind->getTemporary()->getDestructor(), Depth);
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl();
              RD && RD->hasDefinition() && !RD->hasTrivialDestructor() &&
              destructorMayChange(RD->getDestructor(), Depth))
            return true;
    return false;
  }

  static bool isLibrary(const FunctionDecl *FD) {
    return FD->getBuiltinID() != 0 || isLibraryDecl(FD);
  }

  /// Whether \p E names the bound's own variables or fields.
  bool namesRoot(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E))
      return R.Vars.contains(dyn_cast<VarDecl>(D->getDecl()));
    if (const auto *M = dyn_cast<MemberExpr>(E))
      return R.Fields.contains(dyn_cast<FieldDecl>(M->getMemberDecl())) ||
             namesRoot(M->getBase());
    return false;
  }

  /// Whether an object of type \p T could hold one of the bound's integers:
  /// an integer (or enumeration) of the same width, a character type
  /// (which may alias anything), or an aggregate holding one of them.
  bool mayAlias(QualType T, unsigned Depth = 0) const {
    T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
    while (const ArrayType *AT = Ctx.getAsArrayType(T))
      T = AT->getElementType().getCanonicalType().getUnqualifiedType();
    if (T->isVoidType() || T->isCharType() || T->isStdByteType())
      return true;
    if (T->isIntegralOrEnumerationType())
      return llvm::is_contained(R.Widths, Ctx.getTypeSize(T));
    const RecordDecl *RD = T->getAsRecordDecl();
    if (!RD)
      return false;
    RD = RD->getDefinition();
    if (!RD || Depth > 8)
      return true;
    if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD))
      for (const CXXBaseSpecifier &B : CRD->bases())
        if (mayAlias(B.getType(), Depth + 1))
          return true;
    return llvm::any_of(RD->fields(), [&](const FieldDecl *F) {
      return F->getType()->isReferenceType() ||
             mayAlias(F->getType(), Depth + 1);
    });
  }

  /// Whether a store to lvalue \p E could change the bound.
  bool mayStoreTo(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    // An element of an array variable or field is part of that object.
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
      if (Base->getType()->isArrayType() && isa<DeclRefExpr, MemberExpr>(Base))
        return mayStoreTo(Base);
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      // A variable is its own storage, unless it is a reference.
      return !V || R.Vars.contains(V) ||
             (V->getType()->isReferenceType() && mayAlias(V->getType()));
    }
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
      // Another field of a structure is other storage.
      return !F || R.Fields.contains(F) ||
             (F->getType()->isReferenceType() && mayAlias(F->getType()));
    }
    return mayAlias(E->getType());
  }

  /// Whether library function \p FD, given \p Args, could write the bound:
  /// it gets a pointer or a non-const reference through which it could, or
  /// code of the program to call (a lambda, a function pointer).
  bool argumentsEscape(const FunctionDecl *FD,
                       llvm::ArrayRef<const Expr *> Args) const {
    unsigned I = 0;
    for (const Expr *Arg : Args) {
      QualType T = I < FD->getNumParams() ? FD->getParamDecl(I)->getType()
                                          : Arg->getType();
      ++I;
      QualType ArgType = Arg->IgnoreParenImpCasts()->getType();
      if (ArgType->isFunctionPointerType() || ArgType->isFunctionType())
        return true;
      if (const CXXRecordDecl *RD = ArgType->getAsCXXRecordDecl();
          RD && RD->isLambda())
        return true;
      if (T->isReferenceType() || T->isPointerType()) {
        QualType Pointee = T->getPointeeType();
        if (T->isReferenceType() && namesRoot(Arg) &&
            !Pointee.isConstQualified())
          return true;
        if (!Pointee.isConstQualified() && mayAlias(Pointee))
          return true;
      }
    }
    return false;
  }

  bool callMayChange(const CallExpr *Call, unsigned Depth) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return true;
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (MD && MD->isVirtual() && !MD->hasAttr<FinalAttr>() &&
        !MD->getParent()->hasAttr<FinalAttr>())
      return true;
    // `a = b` of a record with a trivial assignment: a store to a.
    if (MD && MD->isTrivial() &&
        (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator())) {
      const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
      if (!MC)
        return mayStoreTo(Call->getArg(0));
      const Expr *Object = MC->getImplicitObjectArgument();
      return Object->getType()->isPointerType() // p->operator=(b)
                 ? mayAlias(Object->getType()->getPointeeType())
                 : mayStoreTo(Object);
    }
    if (isLibrary(FD)) {
      const Expr *Object = nullptr;
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
        Object = MC->getImplicitObjectArgument();
      else if (MD && isa<CXXOperatorCallExpr>(Call))
        Object = Call->getArg(0);
      // (Through a pointer, p->f(), the object is what p points to.)
      QualType ObjectType = Object && Object->getType()->isPointerType()
                                ? Object->getType()->getPointeeType()
                                : (Object ? Object->getType() : QualType());
      if (Object && !MD->isConst() &&
          (namesRoot(Object) || mayAlias(ObjectType)))
        return true;
      llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
      if (Object && isa<CXXOperatorCallExpr>(Call))
        Args = Args.drop_front();
      return argumentsEscape(FD, Args);
    }
    return functionMayChange(FD, Depth);
  }

  /// Whether the body of \p FD (its member initializers too) may change the
  /// bound; a function defined elsewhere may.
  bool functionMayChange(const FunctionDecl *FD, unsigned Depth) {
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || Depth >= MaxDepth)
      return true;
    if (!Walked.insert(Def).second)
      return false;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (mayChange(Init->getInit(), Depth + 1))
          return true;
    return mayChange(Def->getBody(), Depth + 1);
  }

  bool destructorMayChange(const CXXDestructorDecl *Dtor, unsigned Depth) {
    if (!Dtor || Dtor->isTrivial() || isLibrary(Dtor))
      return false;
    // The members' and bases' destructors run after the body.
    const CXXRecordDecl *RD = Dtor->getParent();
    for (const FieldDecl *F : RD->fields())
      if (const CXXRecordDecl *FR = F->getType()->getAsCXXRecordDecl();
          FR && FR->hasDefinition() && !FR->hasTrivialDestructor() &&
          destructorMayChange(FR->getDestructor(), Depth + 1))
        return true;
    for (const CXXBaseSpecifier &B : RD->bases())
      if (const CXXRecordDecl *BR = B.getType()->getAsCXXRecordDecl();
          BR && BR->hasDefinition() && !BR->hasTrivialDestructor() &&
          destructorMayChange(BR->getDestructor(), Depth + 1))
        return true;
    return functionMayChange(Dtor, Depth);
  }
};

} // namespace

bool dlopt::isStableMemoryBound(const Expr *Bound, const Stmt *Body,
                                ASTContext &Ctx) {
  BoundRoots R;
  if (!Bound || !Body || !collectRoots(Bound, R, Ctx))
    return false;
  return !ChangeFinder(R, Ctx).mayChange(Body, 0);
}
