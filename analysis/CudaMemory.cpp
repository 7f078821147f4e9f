//===- CudaMemory.cpp - Which arrays of a CUDA file are device memory -----===//
//
// The data flow of one CUDA translation unit, in classes of declarations
// that hold the same arrays (see CudaMemory.h).
//
//===----------------------------------------------------------------------===//
#include "analysis/CudaMemory.h"
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace clang;
using namespace dlopt;

/// Code that only the GPU runs: a kernel or a __device__ function.
static bool deviceOnly(const FunctionDecl *FD) {
  return FD &&
         (FD->hasAttr<CUDAGlobalAttr>() ||
          (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>()));
}

static bool holdsArray(QualType T) { return elementRecord(T) != nullptr; }

const ValueDecl *CudaMemory::arrayRoot(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    // &v[0] and v.data() are the host's vector v.
    if (const Expr *Container = containerStorage(E))
      E = Container;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->getMemberDecl();
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return Call->getDirectCallee();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAdditiveOp())
        E = holdsArray(BO->getLHS()->getType()) ? BO->getLHS() : BO->getRHS();
      else if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
        E = BO->getRHS();
      else
        return nullptr;
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      // &a[k] is a sub-array of a; ++p, p-- step p.
      const Expr *Sub = UO->getSubExpr()->IgnoreParens();
      if (UO->getOpcode() == UO_AddrOf && isa<ArraySubscriptExpr>(Sub))
        E = cast<ArraySubscriptExpr>(Sub)->getBase();
      else if (UO->isIncrementDecrementOp())
        E = Sub;
      else
        return nullptr;
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

namespace dlopt {

class CudaFlowCollector : public RecursiveASTVisitor<CudaFlowCollector> {
public:
  explicit CudaFlowCollector(CudaMemory &M) : M(M) {}

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    llvm::SaveAndRestore<const FunctionDecl *> Scoped(Function, FD);
    return RecursiveASTVisitor::TraverseFunctionDecl(FD);
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    llvm::SaveAndRestore<const FunctionDecl *> Scoped(Function, MD);
    return RecursiveASTVisitor::TraverseCXXMethodDecl(MD);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (deviceOnly(FD))
      for (const ParmVarDecl *P : FD->parameters())
        if (holdsArray(P->getType()))
          M.seed(P, CudaMemory::Device, P->getLocation());
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (!holdsArray(VD->getType()) || isa<ParmVarDecl>(VD))
      return true;
    // A fixed array lives where the code that declares it runs; one of a
    // memory space attribute (refused anyway) on the device.
    if (VD->getType()->isArrayType()) {
      const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
      bool Device = deviceOnly(FD) || VD->hasAttr<CUDADeviceAttr>() ||
                    VD->hasAttr<CUDASharedAttr>() ||
                    VD->hasAttr<CUDAConstantAttr>();
      if (Device || !FD || !FD->hasAttr<CUDADeviceAttr>())
        M.seed(VD, Device ? CudaMemory::Device : CudaMemory::Host,
               VD->getLocation());
    }
    if (const Expr *Init = VD->getInit())
      flow(VD, Init);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign && holdsArray(BO->getLHS()->getType()))
      if (const ValueDecl *To = CudaMemory::arrayRoot(BO->getLHS()))
        flow(To, BO->getRHS());
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (const CudaFunction *F = UseClassifier::cudaFunction(Call)) {
      // cudaMalloc(&d, ...) allocates device memory, cudaMallocHost host.
      const Expr *Allocated = UseClassifier::cudaAllocated(Call);
      if (const ValueDecl *D =
              Allocated ? CudaMemory::arrayRoot(Allocated) : nullptr)
        M.seed(D,
               F->Release == "cudaFree" ? CudaMemory::Device : CudaMemory::Host,
               Call->getExprLoc());
      return true;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    // A member operator's first argument is its object.
    unsigned Shift =
        isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee);
    for (unsigned I = Shift; I < Call->getNumArgs(); ++I)
      if (I - Shift < Callee->getNumParams()) {
        const ParmVarDecl *P = Callee->getParamDecl(I - Shift);
        if (holdsArray(P->getType()))
          flow(P, Call->getArg(I));
      }
    return true;
  }

  /// View v(d, n) and its constructor's `pts(p)`: as calls and
  /// assignments.
  bool VisitCXXConstructExpr(CXXConstructExpr *Make) {
    const CXXConstructorDecl *C = Make->getConstructor();
    for (unsigned I = 0; I < Make->getNumArgs() && I < C->getNumParams(); ++I)
      if (holdsArray(C->getParamDecl(I)->getType()))
        flow(C->getParamDecl(I), Make->getArg(I));
    return true;
  }
  bool TraverseConstructorInitializer(CXXCtorInitializer *Init) {
    if (Init->isMemberInitializer() && holdsArray(Init->getMember()->getType()))
      flow(Init->getMember(), Init->getInit());
    return RecursiveASTVisitor::TraverseConstructorInitializer(Init);
  }

  bool VisitReturnStmt(ReturnStmt *RS) {
    if (Function && RS->getRetValue() && holdsArray(Function->getReturnType()))
      flow(Function, RS->getRetValue());
    return true;
  }

private:
  /// The arrays of \p From flow into \p To.
  void flow(const ValueDecl *To, const Expr *From) {
    From = From->IgnoreParenCasts();
    if (const auto *C = dyn_cast<ConditionalOperator>(From)) {
      flow(To, C->getTrueExpr());
      flow(To, C->getFalseExpr());
      return;
    }
    if (!allocatorName(From).empty() || isa<CXXNewExpr>(From)) {
      M.seed(To, CudaMemory::Host, From->getExprLoc());
      return;
    }
    if (const ValueDecl *D = CudaMemory::arrayRoot(From))
      if (holdsArray(D->getType()) ||
          (isa<FunctionDecl>(D) &&
           holdsArray(cast<FunctionDecl>(D)->getReturnType())))
        M.join(To, D);
  }

  CudaMemory &M;
  const FunctionDecl *Function = nullptr;
};

} // namespace dlopt

const ValueDecl *CudaMemory::key(const ValueDecl *D) {
  if (const auto *P = dyn_cast<ParmVarDecl>(D))
    if (const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
        FD &&
        P->getFunctionScopeIndex() < FD->getCanonicalDecl()->getNumParams())
      return FD->getCanonicalDecl()->getParamDecl(P->getFunctionScopeIndex());
  return cast<ValueDecl>(D->getCanonicalDecl());
}

CudaMemory::CudaMemory(ASTContext &Ctx) {
  if (!Ctx.getLangOpts().CUDA)
    return;
  CudaFlowCollector(*this).TraverseAST(Ctx);
  // Each member gets its class's seeds.
  llvm::DenseMap<const ValueDecl *, Seeds> Merged;
  for (auto It = Classes.begin(); It != Classes.end(); ++It) {
    if (!It->isLeader())
      continue;
    Seeds S;
    for (auto M = Classes.member_begin(It); M != Classes.member_end(); ++M) {
      Seeds One = Seeded.lookup(*M);
      if (S.HostAt.isInvalid())
        S.HostAt = One.HostAt;
      if (S.DeviceAt.isInvalid())
        S.DeviceAt = One.DeviceAt;
    }
    for (auto M = Classes.member_begin(It); M != Classes.member_end(); ++M)
      Merged[*M] = S;
    if (S.HostAt.isValid() && S.DeviceAt.isValid())
      MixedDecls.push_back(It->getData());
  }
  Seeded = std::move(Merged);
}

void CudaMemory::join(const ValueDecl *A, const ValueDecl *B) {
  Classes.unionSets(key(A), key(B));
}

void CudaMemory::seed(const ValueDecl *D, Side S, SourceLocation At) {
  Classes.insert(key(D));
  Seeds &Of = Seeded[key(D)];
  SourceLocation &Loc = S == Host ? Of.HostAt : Of.DeviceAt;
  if (Loc.isInvalid())
    Loc = At;
}

CudaMemory::Seeds CudaMemory::seedsOf(const ValueDecl *D) const {
  return D ? Seeded.lookup(key(D)) : Seeds();
}

CudaMemory::Side CudaMemory::sideOf(const ValueDecl *D) const {
  Seeds S = seedsOf(D);
  return Side((S.HostAt.isValid() ? Host : Unknown) |
              (S.DeviceAt.isValid() ? Device : Unknown));
}

std::pair<SourceLocation, SourceLocation>
CudaMemory::evidence(const ValueDecl *D) const {
  Seeds S = seedsOf(D);
  return {S.HostAt, S.DeviceAt};
}
