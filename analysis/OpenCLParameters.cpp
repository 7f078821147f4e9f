//===- OpenCLParameters.cpp - Buffers passed to the program's functions ---===//
//
// Host code keeps its OpenCL calls in functions of its own: an upload, a
// kernel launch, a clean-up that takes the buffer as a cl_mem parameter.
// Such a parameter holds the buffers of the record its callers pass, and
// the calls on it inside the function are followed like any other buffer's
// (OpenCLHost.cpp); its type becomes the record's T_cl in every declaration
// of the function (OpenCLUses.cpp). Only a static function's: a function
// other files may call could receive other buffers there.
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/OpenCLHost.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace dlopt;

/// The call whose argument \p E is (through parentheses and implicit
/// casts), and its index there.
static std::pair<const CallExpr *, unsigned> callArgument(ASTContext &Ctx,
                                                          const Expr *E) {
  const Expr *Child;
  const auto *Call =
      parentPast(Ctx, E, Child, isParenOrImplicitCast).get<CallExpr>();
  for (unsigned I = 0; Call && I < Call->getNumArgs(); ++I)
    if (Call->getArg(I) == Child)
      return {Call, I};
  return {nullptr, 0};
}

/// The parameter of a function defined in this file that \p E is passed
/// to, or null.
static const ParmVarDecl *passedTo(ASTContext &Ctx, const Expr *E) {
  auto [Call, I] = callArgument(Ctx, E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || classifyClCall(Call) != ClCall::None ||
      I >= Def->getNumParams() ||
      inSystemHeader(Ctx.getSourceManager(), Def->getLocation()))
    return nullptr;
  return Def->getParamDecl(I);
}

/// The cl_mem parameter of a function of this file that \p E is passed to,
/// or null.
static const ParmVarDecl *bufferParameter(ASTContext &Ctx, const Expr *E) {
  const ParmVarDecl *P = passedTo(Ctx, E);
  return P && isClMem(P->getType()) ? P : nullptr;
}

void OpenCLHost::passedBuffers(const std::vector<const Expr *> &References) {
  // A parameter passed on to another function gets its record in turn.
  // (One used in a transfer inside has it already, and so its references
  // are followed from the first pass on.)
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Expr *E : References) {
      const RecordDecl *RD = bufferRecord(holder(E));
      const ParmVarDecl *P = RD ? bufferParameter(Ctx, E) : nullptr;
      if (!P || Connected.count(E))
        continue;
      if (const RecordDecl *Held = bufferRecord(P); Held && Held != RD)
        continue; // checkParameter says why.
      Connected.insert(E);
      Changed |= Buffers.try_emplace(P, ClBuffer{RD, P->getLocation()}).second;
    }
  }
  // Every parameter holding buffers, also one that only a transfer inside
  // the function gave a record: each of its callers must pass one.
  std::vector<const ParmVarDecl *> Sorted;
  for (const auto &[Holder, B] : Buffers)
    if (const auto *P = dyn_cast<ParmVarDecl>(Holder))
      Sorted.push_back(P);
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Sorted, [&](const ParmVarDecl *A, const ParmVarDecl *B) {
    return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
  });
  for (const ParmVarDecl *P : Sorted)
    checkParameter(P, References);
}

/// Kernels passed to a cl_kernel parameter of a static function of this
/// file: the parameter holds each kernel its calls pass (also one passed on
/// from a parameter of another such function). A call passing a kernel
/// whose name is not known, or a function other files may call, leaves an
/// empty name: buffers bound through the parameter are then refused.
void OpenCLHost::passedKernels(const std::vector<const Expr *> &References) {
  auto PassedTo = [&](const Expr *E, const ValueDecl *From) {
    const ParmVarDecl *P =
        From && isClKernel(From->getType()) ? passedTo(Ctx, E) : nullptr;
    return P && isClKernel(P->getType()) ? P : nullptr;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Expr *E : References) {
      const ValueDecl *From = holder(E);
      const ParmVarDecl *P = PassedTo(E, From);
      // A parameter passed on gives its kernels once its own function's
      // calls have (a forwarding function may come before its callers).
      if (!P || (isa<ParmVarDecl>(From) && !KernelParameters.count(From)))
        continue;
      std::vector<std::string> Names = kernelNamesAt(From, E);
      if (Names.empty())
        Names = {std::string()};
      const auto *F = cast<FunctionDecl>(P->getDeclContext());
      if (F->isExternallyVisible())
        Names.push_back(std::string());
      std::vector<std::string> &Held = KernelParameters[P];
      for (std::string &Name : Names)
        if (!llvm::is_contained(Held, Name)) {
          Held.push_back(std::move(Name));
          Changed = true;
        }
    }
  }
  // Passed on from a parameter that no call gives a kernel: not known.
  for (const Expr *E : References) {
    const ValueDecl *From = holder(E);
    if (const ParmVarDecl *P = PassedTo(E, From);
        P && isa<ParmVarDecl>(From) && !KernelParameters.count(From) &&
        !llvm::is_contained(KernelParameters[P], std::string()))
      KernelParameters[P].push_back(std::string());
  }
}

/// The call that \p Ref names the callee of, or null.
static const CallExpr *callOf(ASTContext &Ctx, const DeclRefExpr *Ref) {
  const Expr *Child;
  const auto *Call =
      parentPast(Ctx, Ref, Child, isParenOrImplicitCast).get<CallExpr>();
  return Call && Call->getCallee() == Child ? Call : nullptr;
}

/// Every call of the function of \p P passes a buffer of its record there,
/// and nothing else reaches the function.
void OpenCLHost::checkParameter(const ParmVarDecl *P,
                                const std::vector<const Expr *> &References) {
  const auto *F = cast<FunctionDecl>(P->getDeclContext());
  const RecordDecl *RD = bufferRecord(P);
  std::string Of = "OpenCL buffer parameter '" + P->getNameAsString() +
                   "' of '" + F->getNameAsString() + "' takes '" +
                   recordName(RD) + "' buffers, but ";
  if (F->isExternallyVisible())
    Problems.push_back({RD, P->getLocation(),
                        Of + "other files may call it with others (only a "
                             "static function's is rewritten)"});
  unsigned Index = P->getFunctionScopeIndex();
  for (const Expr *E : References) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    if (!Ref || Ref->getDecl()->getCanonicalDecl() != F->getCanonicalDecl())
      continue;
    const CallExpr *Call = callOf(Ctx, Ref);
    if (!Call)
      Problems.push_back({RD, Ref->getLocation(),
                          Of + "the function is used other than by calling "
                               "it"});
    else if (Index >= Call->getNumArgs() ||
             bufferRecord(holder(Call->getArg(Index))) != RD)
      Problems.push_back(
          {RD, Call->getBeginLoc(), Of + "this call passes something else"});
  }
}
