//===- ElementReferences.cpp - T &r = a[i], an index by another name ------===//
//
// The part of UseClassifier that decides element references. C++ and CUDA
// code names the element a loop works on with a reference (`Particle &p =
// particles[i]; p.x += p.vx * dt;`). In the new layout there is no element
// to refer to, but such a reference is an element pointer that never moves
// (ElementPointers.cpp): bound once to element i of a handle, it becomes a
// `ptrdiff_t` index into that handle, `ptrdiff_t p = (i);`, and `p.x` is
// the field at index p. The element it names is fixed where it is bound, as
// the index is evaluated there once; reads and writes through it go to the
// arrays themselves, so it sees every write to the element, as the
// reference did. A reference named otherwise (its address taken, bound to
// another reference or pointer, returned, a non-const member function
// called on it, named by a lambda or an OpenMP clause) is not one: a const
// reference may still be bound to a copy (UseClassifier::constReference),
// anything else is refused.
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtOpenMP.h"

using namespace clang;
using namespace dlopt;

/// The element \p VD is bound to where its initializer is `a[i]` with a
/// named handle, or null.
static const ArraySubscriptExpr *boundElement(const VarDecl *VD) {
  const Expr *Init = VD->getInit();
  return Init ? dyn_cast<ArraySubscriptExpr>(Init->IgnoreParenImpCasts())
              : nullptr;
}

/// Whether a lambda in \p S names \p VD (in its captures or its body): a
/// capture by copy would copy the element, not the index, and one by name
/// would need the array too.
static bool inLambda(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  if (const auto *L = dyn_cast<LambdaExpr>(S))
    return refersTo(L, VD) ||
           llvm::any_of(L->captures(), [VD](const LambdaCapture &C) {
             return C.capturesVariable() && C.getCapturedVar() == VD;
           });
  return llvm::any_of(subStatements(S),
                      [VD](const Stmt *C) { return inLambda(C, VD); });
}

/// Whether \p E names one object, a variable or `this` (`s->parts`,
/// `sys.parts`, `parts` in a member function): what the rewrite can spell
/// again where the reference is used. (Deeper paths, `sim.sys->parts`,
/// would need each member on the way checked too.)
static bool objectPath(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(E))
    return true;
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE && isa<VarDecl>(DRE->getDecl());
}

/// Whether \p S may change the member \p FD of any object: assigns it,
/// steps it, takes its address or passes it to a call as an lvalue
/// (`s->parts = q;`, `++s->parts`, `std::swap(s->parts, t)`).
static bool changesMember(const Stmt *S, const ValueDecl *FD) {
  return changes(
      S,
      [FD](const Expr *E) {
        const auto *ME = dyn_cast<MemberExpr>(E);
        return ME && ME->getMemberDecl() == FD;
      },
      ChangeRules{/*ThroughCalls=*/true});
}

/// Whether the member array \p Member names stays the same from the
/// reference's declaration to the end of \p Scope: its object's variable
/// not assigned or hidden by another of its name, the member itself not
/// changed, and (reached through `this`) no local of the member's name.
static bool memberStays(const MemberExpr *Member, const Stmt *Scope,
                        const Stmt *Body) {
  if (changesMember(Scope, Member->getMemberDecl()))
    return false;
  const Expr *Object = Member->getBase()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Object)) {
    const auto *V = cast<VarDecl>(DRE->getDecl());
    return !assignsTo(Scope, V) && !declaresOtherNamed(Body, V);
  }
  // this: spelled `parts` again, which a local of that name would hide.
  return !Member->isImplicitAccess() ||
         !declaresOtherNamed(Body, Member->getMemberDecl());
}

std::optional<ElementPointer>
UseClassifier::elementReference(const ValueDecl *D) const {
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  if (!VD || !VD->getType()->isLValueReferenceType())
    return std::nullopt;
  if (auto It = ElementReferences.find(VD); It != ElementReferences.end())
    return It->second;
  // Deciding it may decide others (a call passing two references) and
  // grow the map: no iterator is held across.
  ElementReferences[VD] = std::nullopt;
  std::optional<ElementPointer> ER = findElementReference(VD);
  ElementReferences[VD] = ER;
  return ER;
}

std::optional<ElementPointer>
UseClassifier::findElementReference(const VarDecl *VD, UseVerdict *Why,
                                    bool Alone) const {
  auto Not = [&](SourceLocation Loc, const std::string &Reason) {
    if (Why)
      *Why = UseVerdict::refused(Loc, "an element bound to the reference '" +
                                          VD->getNameAsString() +
                                          "', which the rewrite makes an "
                                          "index into its array: " +
                                          Reason);
    return std::nullopt;
  };
  const RecordDecl *RD = asRecord(VD->getType().getNonReferenceType());
  const ArraySubscriptExpr *Bound = boundElement(VD);
  const Stmt *Body = enclosingBody(VD);
  if (!RD || !Bound || !Body || isa<ParmVarDecl>(VD) ||
      !VD->hasLocalStorage() || VD->isCXXForRangeDecl() ||
      VD->getType().getNonReferenceType().isVolatileQualified())
    return std::nullopt;
  // A handle variable's element, or a member array's (`parts[i]` in a
  // member function, `s->parts[i]`).
  const Expr *Base = Bound->getBase()->IgnoreParenImpCasts();
  const VarDecl *Array = nullptr;
  const MemberExpr *Member = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Base)) {
    Array = dyn_cast<VarDecl>(DRE->getDecl());
    if (!isArrayHandle(Array) || handleVarRecord(Array) != RD)
      return std::nullopt;
  } else {
    Member = dyn_cast<MemberExpr>(Base);
    if (!Member || memberHandleRecord(Member->getMemberDecl()) != RD)
      return std::nullopt;
  }
  // One text serves every instantiation of a template.
  if (const auto *FD =
          dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
      FD && (FD->isTemplateInstantiation() || FD->isDependentContext()))
    return Not(VD->getLocation(), "it is declared in a template");
  if (Member && !objectPath(Member->getBase()))
    return Not(VD->getLocation(), "its array is reached through more than "
                                  "one member (not rewritten yet)");
  // The declaration is respelled from its first specifier to the name.
  const DeclStmt *DS = nullptr;
  for (const DynTypedNode &N : Ctx.getParents(*VD))
    DS = N.get<DeclStmt>();
  if (!DS)
    return Not(VD->getLocation(), "it is not declared by a statement");
  // Declarators share their specifiers, which are respelled once (`Body &bi
  // = b[i], &bj = b[j];` -> `ptrdiff_t bi = i, bj = j;`): each must be one.
  if (!Alone)
    for (const Decl *D : DS->decls())
      if (const auto *Other = dyn_cast<VarDecl>(D);
          Other != VD &&
          (!Other || !Other->getType()->isLValueReferenceType() ||
           !findElementReference(Other, nullptr, /*Alone=*/true)))
        return Not(VD->getLocation(),
                   "it is declared together with variables that are not "
                   "such references");
  // The array stays the one it names while the reference lives, and its
  // name is spelled at every use.
  if (Array ? assignsTo(scopeOf(VD), Array) || declaresOtherNamed(Body, Array)
            : !memberStays(Member, scopeOf(VD), Body))
    return Not(VD->getLocation(),
               "'" +
                   (Array ? Array->getNameAsString()
                          : Member->getMemberDecl()->getNameAsString()) +
                   "' is assigned while it lives, or another variable of "
                   "its name hides it");
  ElementPointer ER{VD, Array, Member};
  std::vector<const DeclRefExpr *> Refs;
  referencesTo(Body, VD, Refs);
  // A use refused as the element's (given to a template, say) leaves a
  // const reference to be bound to a copy instead.
  bool Const = isConstLValueReference(VD->getType());
  if (inLambda(Body, VD))
    return Not(VD->getLocation(), "it is used in a lambda");
  for (const DeclRefExpr *DRE : Refs)
    if (std::optional<UseVerdict> V = referenceUse(ER, DRE);
        !V || (Const && !V->Use))
      return Not(DRE->getLocation(),
                 "it is used other than to reach a field or as the element "
                 "(read, written, passed by value or reference): its "
                 "address taken, bound to another reference, returned, or "
                 "given to a template");
  return ER;
}

/// r.f, or r itself read or written (T c = r; r = c; f(r) by value or
/// const reference; a const member function): the use at index r. None for
/// any other use, which makes r no element reference.
std::optional<UseVerdict>
UseClassifier::referenceUse(const ElementPointer &ER,
                            const DeclRefExpr *DRE) const {
  const Expr *Child = DRE;
  const Stmt *P = semanticParent(Child, /*SkipLoads=*/false);
  // Through a member's array, its member expression is the handle, spelled
  // again here.
  HandleUse U{UseKind::FieldAccess, DRE,
              ER.Array ? static_cast<const Expr *>(DRE) : ER.Member, DRE};
  U.Array = ER.Array;
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(P);
      ME && !ME->isArrow() && ME->getBase() == Child &&
      isa<FieldDecl>(ME->getMemberDecl())) {
    U.Site = ME;
    U.Field = ME;
    return checked(UseVerdict::of(U), "a field access");
  }
  // Captured by an OpenMP region (shared, as the reference was). Named in
  // a clause (firstprivate(p) copies the element, not the index): none.
  if (isa_and_nonnull<OMPExecutableDirective>(P))
    return std::nullopt;
  if (isa_and_nonnull<CapturedStmt>(P)) {
    HandleUse Same{UseKind::ElementPointer, DRE, DRE};
    Same.Var = ER.Var;
    return UseVerdict::of(Same);
  }
  U.Kind = UseKind::ElementRead;
  return readOrWrite(U, Child, P);
}

std::optional<ElementUse>
UseClassifier::elementReferenceUse(const DeclRefExpr *DRE) const {
  std::optional<ElementPointer> ER = elementReference(DRE->getDecl());
  if (!ER)
    return std::nullopt;
  const RecordDecl *RD = asRecord(ER->Var->getType().getNonReferenceType());
  // Its uses decided it, but an OpenMP clause is no statement they saw
  // (firstprivate(r) would copy the element, not the index).
  std::optional<UseVerdict> V = referenceUse(*ER, DRE);
  if (!V)
    return ElementUse{
        RD, UseVerdict::refused(DRE->getLocation(),
                                "the reference '" + ER->Var->getNameAsString() +
                                    "' to an element is named by an OpenMP "
                                    "clause, which would copy the index the "
                                    "rewrite makes of it, not the element")};
  return ElementUse{RD, *V};
}

std::optional<ElementUse>
UseClassifier::elementReferenceDeclaration(const VarDecl *VD) const {
  std::optional<ElementPointer> ER = elementReference(VD);
  if (!ER)
    return std::nullopt;
  const RecordDecl *RD = asRecord(VD->getType().getNonReferenceType());
  const VarDecl *Previous = previousDeclarator(VD);
  if (!spelledInFile(
          SourceRange(Previous ? Previous->getEndLoc() : VD->getBeginLoc(),
                      VD->getLocation())))
    return ElementUse{
        RD, UseVerdict::refused(VD->getLocation(),
                                "the declaration of '" + VD->getNameAsString() +
                                    "' is spelled inside a macro")};
  HandleUse U{UseKind::ElementPointer};
  U.Var = VD;
  U.Array = ER->Array;
  return ElementUse{RD, UseVerdict::of(U)};
}

/// `T &r = a[i];`: a[i] becomes r's index, `(i)`, as the address an
/// element pointer is given does.
std::optional<UseVerdict>
UseClassifier::referenceBinding(HandleUse U,
                                const ArraySubscriptExpr *ASE) const {
  const Expr *Init = nullptr;
  const auto *VD =
      parentPast(Ctx, ASE, Init, isParenOrImplicitCast).get<VarDecl>();
  if (!VD || VD->getInit() != Init || !VD->getType()->isLValueReferenceType())
    return std::nullopt;
  if (elementReference(VD)) {
    U.Kind = UseKind::ElementAddress;
    return checked(UseVerdict::of(U), "an element bound to a reference");
  }
  // A const reference may still be bound to a copy (constReference).
  UseVerdict Why;
  findElementReference(VD, &Why);
  if (isConstLValueReference(VD->getType()) || Why.Refusal.empty())
    return std::nullopt;
  return Why;
}
