//===- OpenMPPragmas.h - OpenMP clauses read as text ------------*- C++ -*-===//
//
// Without -fopenmp clang skips `#pragma omp` lines, so the analysis would
// not see that `private(tmp)` gives each thread its own copy of the array
// tmp, which after a rewrite would be the copy of its handle only, the
// storage shared: a data race the original program does not have. The
// pragmas' text is read instead, for the variables their data-sharing and
// mapping clauses name (Legality.cpp refuses such arrays, asking for
// -fopenmp, under which it reads the clauses themselves).
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_OPENMPPRAGMAS_H
#define DLOPT_ANALYSIS_OPENMPPRAGMAS_H

#include "clang/Basic/SourceManager.h"
#include "llvm/Frontend/OpenMP/OMP.h"
#include <optional>
#include <string>
#include <vector>

namespace dlopt {

/// What an OpenMP clause does to the variables it lists, as far as an
/// array's rewrite goes: gives each thread a copy (private, firstprivate,
/// lastprivate, reduction, linear, copyin, copyprivate, ...), maps it to a
/// device (map, to, from, ...), or neither (shared, ...).
enum class OpenMPEffect { None, Copies, Maps };
OpenMPEffect clauseEffect(llvm::omp::Clause K);

/// A variable named in a clause of a `#pragma omp` line.
struct OpenMPName {
  std::string Name;
  /// The clause (or directive, "threadprivate") that names it.
  std::string Clause;
  /// Whether the clause maps it to a device (map, to, from, ...) rather
  /// than giving each thread a copy (private, reduction, ...).
  bool Mapped = false;
  /// The pragma's line (1-based).
  unsigned Line = 0;
};

/// The text after `omp` of a `#pragma omp` line (\p Line), if it is one.
std::optional<llvm::StringRef> openMPPragmaText(llvm::StringRef Line);

/// The variables that the copying and mapping clauses of the `#pragma omp`
/// lines of \p File name, read from its text.
std::vector<OpenMPName> openMPPragmaNames(const clang::SourceManager &SM,
                                          clang::FileID File);

/// The OpenMP directives spelled right before the statement at \p Loc, read
/// from the text (without -fopenmp clang skips them): for each `#pragma omp`
/// line (or `_Pragma("omp ...")`) among the directives, comments and blank
/// lines just above it, its words after `omp` ("for schedule(static)"); "?"
/// for a lone identifier there (`OMP_FOR`, `PARALLEL_FOR(dynamic)`), which
/// may be a macro spelling one, or another `_Pragma`.
std::vector<std::string> openMPDirectivesBefore(const clang::SourceManager &SM,
                                                clang::SourceLocation Loc);

} // namespace dlopt

#endif
