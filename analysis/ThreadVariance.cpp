//===- ThreadVariance.cpp - What differs between a kernel's work-items ---===//
#include "analysis/ThreadVariance.h"
#include "analysis/AstUtil.h"
#include "analysis/StackSpace.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace dlopt;

static bool isGpuFunction(const FunctionDecl *FD, const ASTContext &Ctx) {
  return Ctx.getLangOpts().OpenCL || isGpuKernel(FD) ||
         FD->hasAttr<CUDADeviceAttr>();
}

ThreadVariance::ThreadVariance(ASTContext &Ctx,
                               ArrayRef<const FunctionDecl *> Functions)
    : Ctx(Ctx) {
  std::vector<const Stmt *> Bodies;
  for (const FunctionDecl *FD : Functions)
    if (FD->hasBody() && isGpuFunction(FD, Ctx))
      Bodies.push_back(FD->getBody());
  // Each pass can only raise a variable (three values), so this ends; the
  // bound is for a unit whose chains of calls are long.
  for (unsigned Pass = 0; Pass < 16; ++Pass) {
    bool Changed = false;
    for (const Stmt *Body : Bodies)
      Changed |= propagate(Body);
    if (!Changed)
      break;
  }
}

bool ThreadVariance::raise(const VarDecl *VD, Variance V) {
  if (!VD || V == Variance::Uniform)
    return false;
  Variance &Old = Vars[VD];
  if (V <= Old)
    return false;
  Old = V;
  return true;
}

/// The variable an assignment's left-hand side writes (x, x.f, x[i] of a
/// local array), or null.
static const VarDecl *writtenVar(const Expr *LHS) {
  LHS = LHS->IgnoreParenImpCasts();
  while (true) {
    if (const auto *ME = dyn_cast<MemberExpr>(LHS); ME && !ME->isArrow())
      LHS = ME->getBase()->IgnoreParenImpCasts();
    else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LHS);
             ASE && ASE->getBase()
                        ->IgnoreParenImpCasts()
                        ->getType()
                        ->isConstantArrayType())
      LHS = ASE->getBase()->IgnoreParenImpCasts();
    else
      break;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(LHS);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

bool ThreadVariance::propagate(const Stmt *Body) {
  bool Changed = false;
  std::vector<const Stmt *> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit()) {
          Changed |= raise(VD, of(VD->getInit()));
          Work.push_back(VD->getInit());
        }
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp())
      Changed |=
          raise(writtenVar(BO->getLHS()),
                BO->getOpcode() == BO_Assign ? of(BO->getRHS()) : of(BO));
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (const FunctionDecl *Def = Callee->getDefinition();
            Def && isGpuFunction(Def, Ctx))
          for (unsigned I = 0;
               I < Call->getNumArgs() && I < Def->getNumParams(); ++I)
            Changed |= raise(Def->getParamDecl(I), of(Call->getArg(I)));
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return Changed;
}

Variance ThreadVariance::of(const Expr *E) const {
  return withStackSpace([&] { return ofOnStack(E); });
}

Variance ThreadVariance::of(const VarDecl *VD) const {
  auto It = Vars.find(VD);
  return It == Vars.end() ? Variance::Uniform : It->second;
}

/// The larger of two variances.
static Variance join(Variance A, Variance B) { return std::max(A, B); }

/// A load at an address of variance \p V: uniform where every work-item
/// loads the same, else what each loads is its own.
static Variance loaded(Variance V) {
  return V == Variance::Uniform ? Variance::Uniform : Variance::Divergent;
}

Variance ThreadVariance::ofOnStack(const Expr *E) const {
  if (!E)
    return Variance::Uniform;
  E = E->IgnoreParenCasts();
  if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          UnaryExprOrTypeTraitExpr, StringLiteral>(E))
    return Variance::Uniform;
  if (std::string Index = cudaBuiltinIndex(E); !Index.empty())
    return Index == "threadIdx.x" ? Variance::Own : Variance::Uniform;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD ? of(VD) : Variance::Uniform;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return loaded(join(of(ASE->getBase()), of(ASE->getIdx())));
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? loaded(of(ME->getBase())) : of(ME->getBase());
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref)
      return loaded(of(UO->getSubExpr()));
    if (UO->getOpcode() == UO_AddrOf) {
      const Expr *Sub = UO->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sub))
        return join(of(ASE->getBase()), of(ASE->getIdx())); // &a[i]: a + i
      // The address of a variable of the work-item's own (a random
      // generator's state) is its own, in private memory.
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
            VD && VD->hasLocalStorage())
          return Variance::Divergent;
      return of(Sub);
    }
    return of(UO->getSubExpr());
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return ofBinary(BO);
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    if (of(CO->getCond()) != Variance::Uniform)
      return Variance::Divergent;
    return join(of(CO->getTrueExpr()), of(CO->getFalseExpr()));
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (FD && FD->getIdentifier() && Call->getNumArgs() == 1 &&
        llvm::is_contained({"get_global_id", "get_local_id"}, FD->getName())) {
      Expr::EvalResult R;
      bool First =
          Call->getArg(0)->EvaluateAsInt(R, Ctx) && R.Val.getInt().isZero();
      return First ? Variance::Own : Variance::Uniform;
    }
    // A call's result differs between work-items when an argument does.
    Variance V = Variance::Uniform;
    for (const Expr *Arg : Call->arguments())
      if (of(Arg) != Variance::Uniform)
        V = Variance::Divergent;
    return V;
  }
  Variance V = Variance::Uniform;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      V = join(V, of(CE));
  return V;
}

Variance ThreadVariance::ofBinary(const BinaryOperator *BO) const {
  if (BO->getOpcode() == BO_Comma || BO->getOpcode() == BO_Assign)
    return of(BO->getRHS());
  Variance L = of(BO->getLHS()), R = of(BO->getRHS());
  if (L == Variance::Divergent || R == Variance::Divergent)
    return Variance::Divergent;
  if (L == Variance::Uniform && R == Variance::Uniform)
    return Variance::Uniform;
  switch (BO->getOpcode()) {
  case BO_Add:
  case BO_Sub:
  case BO_AddAssign:
  case BO_SubAssign:
    return Variance::Own; // i + base, i - 1
  case BO_Mul:
  case BO_Div:
  case BO_Shl:
  case BO_Shr:
  case BO_Rem:
  case BO_MulAssign:
  case BO_DivAssign:
  case BO_ShlAssign:
  case BO_ShrAssign:
    // i * stride, i / 2, i % 8: strided or repeated, each work-item's own
    // still; a product of two positions is not.
    return L == Variance::Own && R == Variance::Own ? Variance::Divergent
                                                    : Variance::Own;
  default: // Comparisons, bits of a position: no position.
    return Variance::Divergent;
  }
}
