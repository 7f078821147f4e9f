//===- HandlePointers.cpp - T ** out-parameters that store an array ------===//
//
// The loader idiom of real C programs: a function allocates the array and
// hands it back through a pointer to the caller's variable,
//
//   int read_particles(const char *path, particle_t **out, size_t *n) {
//     particle_t *p = malloc(k * sizeof *p);
//     ...
//     *out = p;
//   }
//   particle_t *ps;
//   read_particles(argv[1], &ps, &n);
//
// Such a parameter points to a handle: `particle_t **out` becomes
// `particle_t_soa *out`, each `*out` is a use of the handle it points to
// (classified as a handle variable's are), and `&ps` passes the caller's
// handle variable as written, as `out` passes it on to another such
// parameter. Any other use of `out` (an index, pointer arithmetic, a copy
// into a variable) is refused with its place.
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/Attr.h"

using namespace clang;
using namespace dlopt;

const RecordDecl *UseClassifier::handlePointerRecord(const ValueDecl *D) const {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(D);
  if (!P || keepsRecord(P) || !P->getType()->isPointerType())
    return nullptr;
  QualType Pointee = P->getType()->getPointeeType();
  if (!Pointee->isPointerType() || Pointee.isConstQualified() ||
      Pointee.isVolatileQualified())
    return nullptr;
  // An OpenCL kernel's parameters come from buffers (KernelParameter). In
  // CUDA the boundary strategy keeps the host's arrays, which a pointer to
  // one does not follow yet: refused as a pointer to a pointer there.
  const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!FD || FD->hasAttr<OpenCLKernelAttr>() || Ctx.getLangOpts().CUDA)
    return nullptr;
  return handleRecord(Pointee);
}

/// The reference `out` if \p E, ignoring parentheses and implicit casts,
/// is `*out` of a variable `out`; else null.
static const DeclRefExpr *dereferenced(const Expr *E) {
  const auto *UO = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
  if (!UO || UO->getOpcode() != UO_Deref)
    return nullptr;
  return dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
}

bool UseClassifier::isHandlePointerDeref(const Expr *E) const {
  const DeclRefExpr *Ref = dereferenced(E);
  return Ref && handlePointerRecord(Ref->getDecl());
}

std::optional<UseVerdict>
UseClassifier::derefHandle(const UnaryOperator *UO) const {
  if (UO->getOpcode() != UO_Deref)
    return std::nullopt;
  const DeclRefExpr *Ref = dereferenced(UO);
  const RecordDecl *RD = Ref ? handlePointerRecord(Ref->getDecl()) : nullptr;
  if (!RD)
    return std::nullopt;
  return handleUse(RD, UO);
}

UseVerdict UseClassifier::handlePointerReference(const DeclRefExpr *DRE) const {
  const Expr *Child = DRE;
  const Stmt *P = semanticParent(Child);
  // *out: the handle it points to, classified there (derefHandle).
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
      UO && UO->getOpcode() == UO_Deref)
    return UseVerdict::of({UseKind::HandleFlow, DRE, DRE});
  // Passed on to another function's handle pointer (a loader calling the
  // parser that fills the array): both types change alike.
  if (const auto *Call = dyn_cast_or_null<CallExpr>(P))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      for (unsigned I = 0; I < Call->getNumArgs(); ++I)
        if (Call->getArg(I) == Child && I < Callee->getNumParams() &&
            handlePointerRecord(Callee->getParamDecl(I)) ==
                handlePointerRecord(DRE->getDecl()) &&
            !isa<CXXMethodDecl>(Callee) && !fixedTypes(Callee))
          return UseVerdict::of({UseKind::HandleFlow, DRE, DRE});
  // if (out), !out, out == NULL: the pointer stays a pointer.
  if (testsForNull(P, Child, Ctx))
    return UseVerdict::of({UseKind::HandleFlow, DRE, DRE});
  return UseVerdict::refused(
      DRE->getExprLoc(), "use of '" + DRE->getDecl()->getNameAsString() +
                             "', a pointer to an array of '" +
                             recordName(handlePointerRecord(DRE->getDecl())) +
                             "', other than *" +
                             DRE->getDecl()->getNameAsString() +
                             ", null tests and passing it on to such a "
                             "parameter (not rewritten yet)");
}

const ParmVarDecl *
UseClassifier::handlePointerParameter(const UnaryOperator *AddrOf) const {
  if (AddrOf->getOpcode() != UO_AddrOf)
    return nullptr;
  const Expr *Child = AddrOf;
  const auto *Call = dyn_cast_or_null<CallExpr>(semanticParent(Child));
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || isa<CXXMethodDecl>(Callee) || fixedTypes(Callee))
    return nullptr;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    if (Call->getArg(I) == Child && I < Callee->getNumParams() &&
        handlePointerRecord(Callee->getParamDecl(I)))
      return Callee->getParamDecl(I);
  return nullptr;
}
