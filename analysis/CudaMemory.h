//===- CudaMemory.h - Which arrays of a CUDA file are device memory -*- C++
//-*-===//
//
// In a CUDA file host and device arrays of a record are both `T *`. The
// boundary strategy (docs/cuda.md) gives only the device arrays the new
// layout and converts at the copies between them and the host's arrays,
// so it must know which is which. This answers it from the data flow of
// one translation unit: every variable, parameter, pointer member and
// function result that holds an array of a record is in one class with
// those it is assigned to, initialized from, passed to or returned as.
// A class holds device memory when cudaMalloc or cudaMallocManaged
// allocates one of its members or a kernel (or __device__ function) takes
// one as a parameter; host memory when malloc, calloc, realloc, new[],
// cudaMallocHost or cudaHostAlloc allocates one or it is a fixed array of
// host code. A class with both is mixed: the boundary cannot split it.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_CUDAMEMORY_H
#define DLOPT_ANALYSIS_CUDAMEMORY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include <vector>

namespace dlopt {

class CudaMemory {
public:
  /// Where a class's arrays live. Unknown: no allocation or kernel says;
  /// such arrays are the host's own (the boundary leaves them as written).
  enum Side { Unknown = 0, Host = 1, Device = 2, Mixed = 3 };

  /// Builds the classes of \p Ctx's translation unit (a CUDA unit; any
  /// other has none).
  explicit CudaMemory(clang::ASTContext &Ctx);

  /// The side of the array \p D holds (a variable, parameter, pointer
  /// member or function).
  Side sideOf(const clang::ValueDecl *D) const;

  /// Where the class of \p D first became host and device memory (valid
  /// for a Mixed one).
  std::pair<clang::SourceLocation, clang::SourceLocation>
  evidence(const clang::ValueDecl *D) const;

  /// One declaration of each mixed class, in the order of the unit.
  const std::vector<const clang::ValueDecl *> &mixed() const {
    return MixedDecls;
  }

  /// The declaration whose array \p E is, or a sub-array of (a + k, &a[k]):
  /// a variable, a pointer member, a function's result; else null.
  static const clang::ValueDecl *arrayRoot(const clang::Expr *E);

  /// One key per declaration: the canonical declaration, and a parameter
  /// as the same parameter of the canonical function (a prototype's and
  /// the definition's are one).
  static const clang::ValueDecl *key(const clang::ValueDecl *D);

private:
  friend class CudaFlowCollector;
  struct Seeds {
    clang::SourceLocation HostAt, DeviceAt;
  };
  void join(const clang::ValueDecl *A, const clang::ValueDecl *B);
  void seed(const clang::ValueDecl *D, Side S, clang::SourceLocation At);
  /// The seeds of D's class.
  Seeds seedsOf(const clang::ValueDecl *D) const;

  llvm::EquivalenceClasses<const clang::ValueDecl *> Classes;
  llvm::DenseMap<const clang::ValueDecl *, Seeds> Seeded;
  std::vector<const clang::ValueDecl *> MixedDecls;
};

} // namespace dlopt

#endif
