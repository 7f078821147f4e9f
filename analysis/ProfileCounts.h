//===- ProfileCounts.h - Measured execution counts --------------*- C++ -*-===//
//
// The counts of one run of the program, from Clang's instrumentation
// profile: the program built with -fprofile-instr-generate
// -fcoverage-mapping, run, and its raw profile merged with llvm-profdata.
// The coverage mapping in the binary ties each counter to a source region;
// this reads it with LLVM's coverage library and answers "how often did the
// code at file:line:col run". AccessCollector turns two such counts into a
// loop's trip count (its body's count over the count where the loop starts)
// and one into a function's call count (its body's).
//
// It knows nothing of Clang's AST: files are named by their real paths.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_PROFILECOUNTS_H
#define DLOPT_ANALYSIS_PROFILECOUNTS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlopt {

class ProfileCounts {
public:
  /// Reads \p ProfData (an indexed .profdata) against the coverage mapping of
  /// \p Binary. Fails with a message naming the file at fault.
  static llvm::Expected<std::unique_ptr<ProfileCounts>>
  load(llvm::StringRef ProfData, llvm::StringRef Binary);

  /// How often the code at \p Line:\p Col of \p File ran (the region in
  /// effect there); none if the profile does not cover it. \p File is a
  /// real path; a file compiled elsewhere is found by its name if that name
  /// is unique in the profile.
  std::optional<uint64_t> countAt(llvm::StringRef File, unsigned Line,
                                  unsigned Col) const;

  /// Whether the profile has counts for \p File (a real path, or a name
  /// unique in the profile), as countAt finds them.
  bool covers(llvm::StringRef File) const {
    return segmentsOf(File) != nullptr;
  }

  /// Functions whose counters do not match the binary's source (the
  /// profile is older than the build): their code has no counts.
  unsigned mismatchedFunctions() const { return Mismatched; }

private:
  struct Segment {
    unsigned Line, Col;
    uint64_t Count;
    bool HasCount;
  };
  const std::vector<Segment> *segmentsOf(llvm::StringRef File) const;

  llvm::StringMap<std::vector<Segment>> ByPath;
  /// File name -> real path, "" where two files share the name.
  llvm::StringMap<std::string> ByName;
  unsigned Mismatched = 0;
};

} // namespace dlopt

#endif
