//===- LaunchGrids.cpp - Work-items of CUDA launches of constant size -----===//
//
// A kernel's body runs once per work-item; without more to go on, the
// work-items are guessed as a loop over a whole array (WholeArrayTrips).
// A launch whose grid and block are constants says how many there are:
// `reduce_final<<<1, 256>>>(...)` runs 256 work-items, not a million, and
// must not weigh as much as the kernels that run over the array. The sizes
// are integers or dim3 values built from them (`dim3 block(16, 16)`), each
// a constant expression, a const variable, or a local variable initialized
// with one and never written afterwards (`int threads = 256;`).
//
// A kernel that reads gridDim shares its work out over the grid itself (a
// grid-stride loop, a per-block slice): its launch size says nothing of
// how much it does, and its work-items stay guessed. So does a kernel
// launched anywhere with a size that is not constant (the usual `(n + 127)
// / 128`), or through anything but the triple-chevron syntax.
//
//===----------------------------------------------------------------------===//
#include "analysis/AccessCollector.h"
#include "analysis/AstUtil.h"
#include "analysis/StackSpace.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <cmath>
#include <functional>

using namespace clang;
using namespace dlopt;

namespace {

/// Whether \p Body may write \p VD or one of its members: an assignment,
/// a step, its address, or a call given it as an lvalue (a reference that
/// may write it; dim3's operator= among them).
bool mayWrite(const Stmt *Body, const VarDecl *VD) {
  return changes(
      Body,
      [VD](const Expr *E) {
        E = E->IgnoreParenImpCasts();
        while (const auto *M = dyn_cast<MemberExpr>(E))
          E = M->getBase()->IgnoreParenImpCasts();
        const auto *DRE = dyn_cast<DeclRefExpr>(E);
        return DRE && DRE->getDecl() == VD;
      },
      /*ThroughCalls=*/true);
}

class GridSizes {
public:
  GridSizes(const ASTContext &Ctx, const FunctionDecl *In) : Ctx(Ctx), In(In) {}

  /// The value of integer expression \p E when it is a constant.
  std::optional<double> integer(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > 4 || E->isValueDependent())
      return std::nullopt;
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      return double(R.Val.getInt().getLimitedValue());
    if (const VarDecl *VD = unchanged(E))
      return integer(VD->getInit(), Depth + 1);
    return std::nullopt;
  }

  /// x * y * z of dim3 expression \p E (or of an integer, converted to
  /// one) when every component is a constant.
  std::optional<double> dims(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > 4)
      return std::nullopt;
    E = E->IgnoreImplicit();
    if (const auto *Tmp = dyn_cast<CXXFunctionalCastExpr>(E))
      return dims(Tmp->getSubExpr(), Depth + 1);
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() == 1 &&
          Construct->getArg(0)->getType()->isRecordType())
        return dims(Construct->getArg(0), Depth + 1); // A copy.
      double Product = 1;
      for (const Expr *Arg : Construct->arguments()) {
        const Expr *Value = Arg;
        if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
          Value = Default->getExpr();
        std::optional<double> N = integer(Value);
        if (!N)
          return std::nullopt;
        Product *= *N;
      }
      return Product;
    }
    if (E->getType()->isIntegerType())
      return integer(E);
    if (const VarDecl *VD = unchanged(E))
      return dims(VD->getInit(), Depth + 1);
    return std::nullopt;
  }

private:
  /// The local (or const) variable \p E names when its initializer is its
  /// value wherever it is read: const, or never written in the function.
  const VarDecl *unchanged(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->getInit())
      return nullptr;
    if (VD->getType().isConstQualified())
      return VD;
    if (!VD->isLocalVarDecl() || VD->isStaticLocal() ||
        VD->getDeclContext() != In || mayWrite(In->getBody(), VD))
      return nullptr;
    return VD;
  }

  const ASTContext &Ctx;
  const FunctionDecl *In;
};

/// Launches `k<<<grid, block, ...>>>(...)` in a function body.
class Launches : public RecursiveASTVisitor<Launches> {
public:
  explicit Launches(std::function<void(const CUDAKernelCallExpr *)> Each)
      : Each(std::move(Each)) {}
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Call) {
    Each(Call);
    return true;
  }

private:
  std::function<void(const CUDAKernelCallExpr *)> Each;
};

/// Whether \p S reads gridDim.
bool readsGridDim(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S);
      E && StringRef(cudaBuiltinIndex(E)).starts_with("gridDim."))
    return true;
  return llvm::any_of(S->children(), [](const Stmt *Child) {
    return withStackSpace([&] { return readsGridDim(Child); });
  });
}

} // namespace

std::map<const FunctionDecl *, double>
dlopt::launchedWorkItems(const ASTContext &Ctx,
                         llvm::ArrayRef<const FunctionDecl *> Functions) {
  // Per kernel: the launches' work-items summed, and how many; NaN once a
  // launch of it is not constant.
  std::map<const FunctionDecl *, std::pair<double, unsigned>> Sizes;
  for (const FunctionDecl *FD : Functions) {
    GridSizes Sizer(Ctx, FD);
    Launches([&](const CUDAKernelCallExpr *Call) {
      const FunctionDecl *Kernel = Call->getDirectCallee();
      const CallExpr *Config = Call->getConfig();
      if (!Kernel)
        return;
      auto &[Items, Count] = Sizes[Kernel->getCanonicalDecl()];
      std::optional<double> Grid, Block;
      if (Config && Config->getNumArgs() >= 2) {
        Grid = Sizer.dims(Config->getArg(0));
        Block = Sizer.dims(Config->getArg(1));
      }
      Items += Grid && Block ? *Grid * *Block : std::nan("");
      ++Count;
    }).TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  }
  std::map<const FunctionDecl *, double> Out;
  for (const FunctionDecl *FD : Functions) {
    auto It = Sizes.find(FD->getCanonicalDecl());
    if (It == Sizes.end() || std::isnan(It->second.first) ||
        !FD->hasAttr<CUDAGlobalAttr>() || readsGridDim(FD->getBody()))
      continue;
    Out[FD->getCanonicalDecl()] = It->second.first / It->second.second;
  }
  return Out;
}
