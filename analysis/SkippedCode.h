//===- SkippedCode.h - Branches the preprocessor skipped --------*- C++ -*-===//
//
// A rewrite sees one configuration of the program: the branches of #if,
// #ifdef and #else that the preprocessor skipped are never parsed, so a use
// of a record's arrays there would stay as written, and the program would
// no longer compile where that branch is enabled (`#ifdef GUI` drawing the
// particles). The analysis keeps such a record as it is and names the
// branch; a `#if 0` block, which no configuration builds, does not count,
// nor, in a CUDA file, a branch that only tests __CUDA_ARCH__: the file's
// other side (host or device) is analysed as a unit of its own; nor a
// branch that only tests the OpenCL compiler's __OPENCL_VERSION__ or
// __OPENCL_C_VERSION__, which the kernel files sharing the header with the
// host files build (the host files its #else): those are analysed with
// them, or the host's buffers are not connected to their kernels.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_SKIPPEDCODE_H
#define DLOPT_ANALYSIS_SKIPPEDCODE_H

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <string>
#include <vector>

namespace dlopt {

/// Asks \p PP to keep the ranges of the branches it skips (clang's
/// PreprocessingRecord). Front doors call it before the unit is parsed.
void keepSkippedRanges(clang::Preprocessor &PP);

/// A conditional branch of a user file that the preprocessor skipped.
struct SkippedBranch {
  /// The directive that opens it (#if, #ifdef, #elif, #else).
  clang::SourceLocation Directive;
  /// That directive's line, as written ("#ifdef GUI").
  std::string Condition;
  /// The identifiers of its code (comments and strings left out).
  llvm::StringSet<> Names;
};

/// The branches \p PP skipped in the unit's user files that some
/// configuration builds: not `#if 0`, nor those of a file the unit reads
/// more than once (whose guarded body a second inclusion skips). Empty
/// where keepSkippedRanges was not called.
std::vector<SkippedBranch> skippedBranches(const clang::Preprocessor &PP,
                                           const clang::ASTContext &Ctx);

/// The variables, parameters and members of one record that share a name,
/// and where code may name them: a local variable or parameter only in
/// the body of its function (a header's `void prk_free(void *p)` skipping
/// `_mm_free(p)` does not name `particle_t *p` of main), a global or a
/// member anywhere.
struct HolderScopes {
  /// The functions' bodies, as file ranges; none where one holder is
  /// global or a member.
  std::vector<clang::SourceRange> Bodies;
  bool Anywhere = false;
  /// Whether a branch opened at \p Directive can name them.
  bool reaches(clang::SourceLocation Directive,
               const clang::SourceManager &SM) const;
};

/// Which files of an OpenCL program build a place of a header they share.
enum class ProgramSide { Both, Kernels, Host };

/// Which side builds offset \p Offset of \p Text, a header's contents:
/// inside a branch of a conditional that only asks whether the OpenCL
/// compiler's macros (__OPENCL_VERSION__, __OPENCL_C_VERSION__) are
/// defined, the side whose compiler takes that branch; elsewhere both.
ProgramSide openCLSideAt(llvm::StringRef Text, unsigned Offset);

/// Per record (its canonical declaration), the names of the variables,
/// parameters and members of the unit that hold pointers to it or arrays
/// of it (handles, element pointers, sub-arrays), with their scopes: what a
/// skipped branch may use its arrays through.
llvm::DenseMap<const clang::RecordDecl *, llvm::StringMap<HolderScopes>>
holderNames(clang::ASTContext &Ctx);

} // namespace dlopt

#endif
