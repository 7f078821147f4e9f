//===- ThreadVariance.h - What differs between work-items ----*- C++ -*-===//
//
// Which values of GPU code (OpenCL kernels, CUDA __global__ and __device__
// functions) are the same for every work-item of a warp (uniform), the
// work-item's own position (threadIdx.x, get_global_id(0), and uniform
// offsets and multiples of it), or differ between work-items otherwise
// (divergent: what a work-item loaded at its own index, a number of its own
// drawn at random, a value computed from those).
//
// An element reached at a divergent index is a gather across the warp, also
// where each work-item walks consecutive elements from a start of its own
// (RSBench's poles of a window): a load of one field by the warp scatters
// over as many memory lines as it has work-items, the way a[idx[i]] does.
// On CPUs such a walk streams; on GPUs it does not.
//
// Data dependence only, propagated through assignments, initializations and
// the arguments of calls between functions of the unit (to a fixed point): a
// variable assigned under a condition that differs between work-items is
// not divergent for that alone. Blocks are taken to be at least a warp wide
// in x, so threadIdx.y and threadIdx.z are uniform within a warp.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_THREADVARIANCE_H
#define DLOPT_ANALYSIS_THREADVARIANCE_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

namespace dlopt {

/// Ordered: a value combining two has the larger of their variances (but
/// see ThreadVariance::of for products of two work-item positions).
enum class Variance { Uniform, Own, Divergent };

class ThreadVariance {
public:
  /// Classifies the variables of the GPU functions among \p Functions
  /// (OpenCL kernels and the functions of an OpenCL unit; CUDA __global__
  /// and __device__ functions).
  ThreadVariance(clang::ASTContext &Ctx,
                 llvm::ArrayRef<const clang::FunctionDecl *> Functions);

  /// The variance of \p E, an expression of GPU code. Variables of host
  /// code and globals are uniform.
  Variance of(const clang::Expr *E) const;
  /// The variance of a variable of GPU code: the largest of the values
  /// it is given.
  Variance of(const clang::VarDecl *VD) const;

private:
  /// One pass over \p Body: raises the variables its definitions and
  /// calls reach; true if any changed.
  bool propagate(const clang::Stmt *Body);
  bool raise(const clang::VarDecl *VD, Variance V);
  Variance ofOnStack(const clang::Expr *E) const;
  Variance ofBinary(const clang::BinaryOperator *BO) const;

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::VarDecl *, Variance> Vars;
};

} // namespace dlopt

#endif
