//===- VoidHandles.cpp - void * variables that hold an array -------------===//
//
// The careful realloc idiom through a void pointer (Parboil's cutcp):
//
//   void *tmp = realloc(atoms, 2 * len * sizeof(Atom));
//   if (NULL == tmp) { ...; return NULL; }
//   atoms = (Atom *)tmp;
//
// Such a variable holds nothing but the array realloc moved, and is only
// tested for null and converted back: it becomes a handle of the record
// (its declaration respelled, the cast dropped).
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"

using namespace clang;
using namespace dlopt;

/// The record of the array \p E reallocates (realloc(a, ...) with a an
/// array of a wanted record), else null.
static const RecordDecl *reallocRecord(const Expr *E, const UseClassifier &U) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenCasts());
  if (!Call || Call->getNumArgs() != 2 || allocatorName(Call) != "realloc")
    return nullptr;
  return U.handleRecord(ignoreVoidPointerCasts(Call->getArg(0))->getType());
}

/// Whether reference \p Ref of a void * variable holding arrays of \p RD
/// is one such a variable allows: assigned a realloc of one, tested for
/// null, or converted to a pointer to the record.
bool UseClassifier::voidHandleUse(const DeclRefExpr *Ref,
                                  const RecordDecl *RD) const {
  const Expr *Child = Ref;
  const Stmt *P = parent(Child);
  while (isa_and_nonnull<ParenExpr>(P) ||
         (isa_and_nonnull<ImplicitCastExpr>(P) &&
          cast<ImplicitCastExpr>(P)->getCastKind() == CK_LValueToRValue)) {
    Child = cast<Expr>(P);
    P = parent(P);
  }
  if (testsForNull(P, Child, Ctx)) // if (tmp), !tmp, tmp == NULL, tmp && q
    return true;
  if (const auto *Cast = dyn_cast_or_null<CastExpr>(P))
    return Cast->getCastKind() == CK_PointerToBoolean ||
           handleRecord(Cast->getType()) == RD;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
    return BO->getOpcode() == BO_Assign && BO->getLHS() == Child &&
           reallocRecord(BO->getRHS(), *this) == RD;
  return false;
}

const RecordDecl *UseClassifier::voidHandleRecord(const ValueDecl *D) const {
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
      !VD->getType()->isVoidPointerType())
    return nullptr;
  auto [It, New] = VoidHandles.try_emplace(VD, nullptr);
  if (!New)
    return It->second;
  const Stmt *Body = enclosingBody(VD);
  if (!Body)
    return nullptr;
  std::vector<const DeclRefExpr *> Refs;
  referencesTo(Body, VD, Refs);
  // The record of its initializer, or of the first realloc assigned to it
  // (void *tmp = NULL; ... tmp = realloc(a, ...)).
  const Expr *First = VD->getInit();
  if (First &&
      First->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    First = nullptr;
  for (const DeclRefExpr *Ref : Refs) {
    const auto *Assign = dyn_cast_or_null<BinaryOperator>(parent(Ref));
    if (!First && Assign && Assign->getOpcode() == BO_Assign &&
        Assign->getLHS() == Ref)
      First = Assign->getRHS();
  }
  const RecordDecl *RD = First ? reallocRecord(First, *this) : nullptr;
  if (!RD)
    return nullptr;
  for (const DeclRefExpr *Ref : Refs)
    if (!voidHandleUse(Ref, RD))
      return nullptr;
  return VoidHandles[VD] = RD;
}
