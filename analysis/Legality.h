//===- Legality.h - Can a record's arrays be rewritten? ---------*- C++ -*-===//
//
// Step 6 of the pipeline. A record is transformable only if every use of its
// arrays has a use kind the rewriter renders (UseClassifier.h; see
// docs/design.md, "One truth for what can be rewritten"); otherwise the
// record stays as it is and each blocking construct is reported with its
// location. The record-wide checklist (after GCC's struct-reorg escape
// analysis): casts of the
// array pointer, byte-wise library calls, unions, bit-fields, alignment and
// packing attributes, volatile and _Atomic, flexible array members, inline
// asm, varargs, indirect callees, pointer comparisons across arrays,
// offsetof, unknown allocators, arrays inside other records, uses spelled
// inside macro bodies. Uses that cross the file boundary (an extern array,
// a call of a function defined elsewhere, an externally visible definition)
// are not decided here but listed as ExternalSymbols for the whole program.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_LEGALITY_H
#define DLOPT_ANALYSIS_LEGALITY_H

#include "analysis/Candidates.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/ASTContext.h"
#include <string>
#include <vector>

namespace dlopt {

struct LegalityIssue {
  std::string Reason;
  clang::SourceLocation Loc;
  /// See Blocker::Shadowed.
  bool Shadowed = false;
  /// See Blocker::InMacro: the invocation's range in its file.
  clang::CharSourceRange Invocation;
  /// See Blocker::Blocks.
  Blocker::Scope Blocks = Blocker::Both;
  /// See Blocker::Bytes.
  bool Bytes = false;
};

struct RecordLegality {
  /// The uses that block the rewrite, in source order.
  std::vector<LegalityIssue> Issues;
  /// Symbols through which the arrays cross the file boundary.
  std::vector<ExternalSymbol> Externals;
  std::vector<clang::SourceLocation> ExternalLocs;
  /// Every use given a kind, where it is: a header rewritten alike from
  /// every file that includes it needs each to see the same (HeaderView).
  std::vector<std::pair<clang::SourceLocation, UseKind>> Uses;
  /// The first sub-array passed on (see RecordPlan::SubArrayAt).
  clang::SourceLocation SubArrayAt;
  /// The first CUDA runtime call on the record's arrays (see
  /// RecordPlan::CudaCallAt).
  clang::SourceLocation CudaCallAt;
  /// The first fwrite or fread of the record's arrays (see
  /// RecordPlan::FileIOAt).
  clang::SourceLocation FileIOAt;
  /// Why two pointers may reach one array of the record in one function
  /// (SharedArrays.h), where; empty if none can.
  std::string SharedArrays;
  clang::SourceLocation SharedArraysAt;
  /// The code is not C: SharedArrays is not checked.
  bool NotChecked = false;
  /// OpenCL host code: the holders of its buffers other files can name
  /// (LayoutPlan::BufferHolders).
  std::vector<std::string> BufferHolders;
};

/// For each candidate (same order).
/// \p KnownBuffers: the program's OpenCL buffer holders, if known.
std::vector<RecordLegality>
checkLegality(clang::ASTContext &Ctx,
              llvm::ArrayRef<CandidateRecord> Candidates,
              const std::map<std::string, std::string> *KnownBuffers = nullptr);

/// True if the translation unit defines main().
bool definesMain(clang::ASTContext &Ctx);

} // namespace dlopt

#endif
