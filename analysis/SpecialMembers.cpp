//===- SpecialMembers.cpp - Special members that act as the implicit ones -===//
//
// See SpecialMembers.h: the bodies are matched field by field.
//
//===----------------------------------------------------------------------===//
#include "analysis/SpecialMembers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace dlopt;

/// \p E without the implicit nodes and parentheses around it.
static const Expr *bare(const Expr *E) {
  const Expr *Before = nullptr;
  while (E != Before) {
    Before = E;
    E = E->IgnoreImplicit()->IgnoreParens();
  }
  return E;
}

static bool emptyBody(const FunctionDecl *FD) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  return Body && Body->body_empty();
}

/// The field \p E reads from parameter \p P (`o.f`, through the implicit
/// casts and the copy of a field of class type), else null.
static const FieldDecl *fieldOf(const Expr *E, const ParmVarDecl *P) {
  E = bare(E);
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
      Copy && Copy->getNumArgs() == 1)
    E = bare(Copy->getArg(0));
  const auto *ME = dyn_cast<MemberExpr>(E);
  const auto *Base = ME ? dyn_cast<DeclRefExpr>(bare(ME->getBase())) : nullptr;
  return Base && Base->getDecl() == P ? dyn_cast<FieldDecl>(ME->getMemberDecl())
                                      : nullptr;
}

/// Whether \p Seen holds every field of \p RD, each once.
static bool everyField(const CXXRecordDecl *RD,
                       const llvm::SmallPtrSetImpl<const FieldDecl *> &Seen,
                       unsigned Count) {
  unsigned Fields = std::distance(RD->field_begin(), RD->field_end());
  return Count == Fields && Seen.size() == Fields;
}

static bool copiesFields(const CXXConstructorDecl *C) {
  if (!emptyBody(C) || C->getNumParams() != 1)
    return false;
  const ParmVarDecl *P = C->getParamDecl(0);
  llvm::SmallPtrSet<const FieldDecl *, 8> Seen;
  unsigned Count = 0;
  for (const CXXCtorInitializer *Init : C->inits()) {
    if (!Init->isWritten())
      continue;
    if (!Init->isMemberInitializer() ||
        fieldOf(Init->getInit(), P) != Init->getMember())
      return false;
    Seen.insert(Init->getMember());
    ++Count;
  }
  return everyField(C->getParent(), Seen, Count);
}

/// `return *this;`
static bool returnsThis(const Stmt *S) {
  const auto *Return = dyn_cast<ReturnStmt>(S);
  const auto *Deref = Return && Return->getRetValue()
                          ? dyn_cast<UnaryOperator>(bare(Return->getRetValue()))
                          : nullptr;
  return Deref && Deref->getOpcode() == UO_Deref &&
         isa<CXXThisExpr>(bare(Deref->getSubExpr()));
}

static bool assignsFields(const CXXMethodDecl *M) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(M->getBody());
  if (!Body || Body->body_empty() || M->getNumParams() != 1 ||
      !returnsThis(Body->body_back()))
    return false;
  const ParmVarDecl *P = M->getParamDecl(0);
  llvm::SmallPtrSet<const FieldDecl *, 8> Seen;
  unsigned Count = 0;
  for (const Stmt *S : Body->body()) {
    if (S == Body->body_back())
      break;
    // this->f = o.f (a field of class type through its own operator=).
    const Expr *LHS = nullptr, *RHS = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign) {
      LHS = BO->getLHS();
      RHS = BO->getRHS();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
               Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      LHS = Op->getArg(0);
      RHS = Op->getArg(1);
    } else {
      return false;
    }
    const auto *Target = dyn_cast<MemberExpr>(bare(LHS));
    if (!Target || !isa<CXXThisExpr>(bare(Target->getBase())))
      return false;
    const FieldDecl *F = fieldOf(RHS, P);
    if (!F || F != Target->getMemberDecl())
      return false;
    Seen.insert(F);
    ++Count;
  }
  return everyField(M->getParent(), Seen, Count);
}

bool dlopt::actsAsImplicit(const CXXMethodDecl *M) {
  if (M->isImplicit() || !M->isUserProvided() || M->isTrivial())
    return true;
  if (isa<CXXDestructorDecl>(M))
    return emptyBody(M);
  if (const auto *C = dyn_cast<CXXConstructorDecl>(M)) {
    if (C->isCopyOrMoveConstructor())
      return copiesFields(C);
    return C->isDefaultConstructor() && C->getNumParams() == 0 &&
           emptyBody(C) &&
           llvm::none_of(C->inits(), [](const CXXCtorInitializer *I) {
             return I->isWritten();
           });
  }
  if (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator())
    return assignsFields(M);
  return false;
}

/// Whether \p E is a zero of its type, as calloc leaves memory: 0, +0.0,
/// a null pointer, `{}`, `T()`.
static bool isZero(const Expr *E, const ASTContext &Ctx) {
  E = bare(E);
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return List->getNumInits() == 0 ||
           (List->getNumInits() == 1 && isZero(List->getInit(0), Ctx));
  if (isa<ImplicitValueInitExpr, CXXScalarValueInitExpr>(E))
    return true;
  // (A null pointer's nullptr has its own type once its conversion is
  // stripped.)
  if (E->getType()->isPointerType() || E->getType()->isNullPtrType())
    return E->isNullPointerConstant(const_cast<ASTContext &>(Ctx),
                                    Expr::NPC_ValueDependentIsNotNull) !=
           Expr::NPCK_NotNull;
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsRValue(R, Ctx))
    return false;
  if (R.Val.isInt())
    return R.Val.getInt().isZero();
  if (R.Val.isFloat())
    return R.Val.getFloat().isPosZero();
  return false;
}

/// Whether field \p F, of scalar type, is set to zero by initializer
/// \p Init (or its default member initializer, where Init uses it).
static bool zeroesField(const FieldDecl *F, const Expr *Init,
                        const ASTContext &Ctx) {
  if (!F->getType()->isScalarType() || !Init)
    return false;
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(bare(Init)))
    Init = Default->getExpr();
  return isZero(Init, Ctx);
}

bool dlopt::defaultMemberInitializerZeroes(const FieldDecl *F) {
  return zeroesField(F, F->getInClassInitializer(), F->getASTContext());
}

/// Whether every field's default member initializer zeroes it: what the
/// implicit default constructor of \p RD then does.
static bool memberInitializersZero(const CXXRecordDecl *RD) {
  return llvm::all_of(RD->fields(), defaultMemberInitializerZeroes);
}

bool dlopt::zeroFills(const CXXConstructorDecl *C) {
  const CXXRecordDecl *RD = C->getParent();
  const ASTContext &Ctx = C->getASTContext();
  if (!C->isDefaultConstructor() || C->getNumParams() != 0 ||
      RD->getNumBases() || RD->field_empty())
    return false;
  // The implicit one (or `= default`) runs the default member initializers.
  if (!C->isUserProvided())
    return memberInitializersZero(RD);
  if (!emptyBody(C))
    return false;
  return llvm::all_of(RD->fields(), [&](const FieldDecl *F) {
    for (const CXXCtorInitializer *I : C->inits())
      if (I->isMemberInitializer() && I->getMember() == F)
        return zeroesField(F, I->getInit(), Ctx);
    return false;
  });
}

bool dlopt::defaultConstructionZeroes(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return false;
  for (const CXXConstructorDecl *C : RD->ctors())
    if (C->isDefaultConstructor())
      return zeroFills(C);
  // Not declared yet: the implicit one, if the class would have it.
  return RD->hasDefaultConstructor() &&
         !RD->hasUserProvidedDefaultConstructor() && memberInitializersZero(RD);
}

const CXXConstructorDecl *dlopt::fieldwiseConstructor(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition() || RD->hasDefaultConstructor())
    return nullptr;
  unsigned Fields = std::distance(RD->field_begin(), RD->field_end());
  for (const CXXConstructorDecl *C : RD->ctors()) {
    if (C->isCopyOrMoveConstructor() || C->getNumParams() != Fields ||
        Fields == 0 || !C->hasBody() || !emptyBody(C) || C->isVariadic() ||
        C->getAccess() != AS_public)
      continue;
    bool Each = llvm::all_of(RD->fields(), [&](const FieldDecl *F) {
      if (!F->getType()->isScalarType())
        return false;
      for (const CXXCtorInitializer *I : C->inits()) {
        if (!I->isMemberInitializer() || I->getMember() != F)
          continue;
        const Expr *Init = I->getInit()->IgnoreImplicit();
        if (const auto *Paren = dyn_cast<ParenListExpr>(Init);
            Paren && Paren->getNumExprs() == 1)
          Init = Paren->getExpr(0)->IgnoreImplicit();
        const auto *DRE = dyn_cast<DeclRefExpr>(Init->IgnoreParenImpCasts());
        const ParmVarDecl *P = C->getParamDecl(F->getFieldIndex());
        return DRE && DRE->getDecl() == P &&
               P->getType().getNonReferenceType().getUnqualifiedType() ==
                   F->getType().getUnqualifiedType();
      }
      return false;
    });
    if (Each)
      return C;
  }
  return nullptr;
}
