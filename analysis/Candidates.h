//===- Candidates.h - Records whose objects live in arrays ------*- C++ -*-===//
//
// Step 1 of the pipeline: find record types whose objects live in arrays
// (fixed-size arrays, malloc/calloc/realloc and new[] results, pointer
// parameters); those indexed in loops are the ones worth planning. Records
// from system headers never qualify. Every record defined at file scope is a
// candidate too, without arrays if the file makes none: another file of the
// program may index arrays of the same type, and this file's uses of them
// must be checked and rewritten with it.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_CANDIDATES_H
#define DLOPT_ANALYSIS_CANDIDATES_H

#include "analysis/LayoutPlan.h"
#include "clang/AST/ASTContext.h"
#include <vector>

namespace dlopt {

struct CandidateRecord {
  const clang::RecordDecl *Decl = nullptr;
  std::vector<ArrayRoot> Arrays;
  /// The variable behind each entry of Arrays.
  std::vector<const clang::ValueDecl *> Roots;
  /// Some loop indexes the arrays. Records that are only passed around are
  /// candidates too, so that the whole program's legality sees their uses.
  bool Indexed = false;
};

/// Candidates in declaration order of their records.
std::vector<CandidateRecord> findCandidates(clang::ASTContext &Ctx);

} // namespace dlopt

#endif
