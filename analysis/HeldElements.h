//===- HeldElements.h - Fields a loop keeps in registers --------*- C++ -*-===//
//
// A loop that writes fields of one element on every iteration, the element
// the same throughout (`fA[wtx].v += ...` inside a loop over j), and
// touches no other memory than private variables and __shared__/__local
// tiles, has those fields kept in registers by the compiler: loaded before
// the loop, stored after it. That holds while the fields share one base
// pointer (AoS, or one tile of a tiled layout). Split into clusters, or
// SoA, each field is reached through a pointer of its own, which may alias
// the others: every iteration then loads and stores every field. Rodinia's
// CUDA lavaMD accumulates a particle's four force components so; in SoA
// its kernel ran 2.3x slower on an H100 (nvcc's PTX: the four loads and
// stores moved into the inner loop).
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_HELDELEMENTS_H
#define DLOPT_ANALYSIS_HELDELEMENTS_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <vector>

namespace dlopt {

/// Fields of one element of a record that one loop treats as a group: holds
/// in registers (here), or stores as one vector (VectorStores.h).
struct ElementFields {
  const clang::RecordDecl *Record = nullptr;
  /// Field indices, ascending; at least two, at least one written.
  std::vector<unsigned> Fields;
  /// The first write among them.
  clang::SourceLocation Loc;
};

/// The held elements of the innermost loops of \p FD, for the records
/// \p IsCandidate accepts.
std::vector<ElementFields> findHeldElements(
    clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
    llvm::function_ref<bool(const clang::RecordDecl *)> IsCandidate);

} // namespace dlopt

#endif
