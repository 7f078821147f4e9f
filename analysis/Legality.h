//===- Legality.h - Can a record's arrays be rewritten? ---------*- C++ -*-===//
//
// Step 6 of the pipeline. A record is transformable only if every use of its
// arrays is one the rewriter handles; otherwise the record stays as it is
// and each blocking construct is reported with its location. The checklist
// follows design.md (after GCC's struct-reorg escape analysis): casts of the
// array pointer, byte-wise library calls, unions, bit-fields, alignment and
// packing attributes, volatile and _Atomic, flexible array members, inline
// asm, varargs, external or indirect callees, pointer comparisons across
// arrays, offsetof, unknown allocators, arrays visible outside the file,
// arrays inside other records, uses spelled inside macro bodies.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_LEGALITY_H
#define DLOPT_ANALYSIS_LEGALITY_H

#include "analysis/Candidates.h"
#include "clang/AST/ASTContext.h"
#include <string>
#include <vector>

namespace dlopt {

struct LegalityIssue {
  std::string Reason;
  clang::SourceLocation Loc;
};

/// For each candidate (same order), the uses that block its rewrite, in
/// source order; empty when it is transformable.
std::vector<std::vector<LegalityIssue>>
checkLegality(clang::ASTContext &Ctx,
              llvm::ArrayRef<CandidateRecord> Candidates);

} // namespace dlopt

#endif
