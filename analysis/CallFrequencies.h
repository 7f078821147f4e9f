//===- CallFrequencies.h - How often functions run, from their calls -*- C++
//-*-===//
//
// A function's frequency is the sum over its call sites of the caller's
// frequency times the executions of the site (the loops around it). Within
// a translation unit the functions no function of the unit calls are its
// entry points and run once per run. Across files, an entry point with
// external linkage may be called from another file's loop: each unit
// therefore also says how much of a function's frequency comes from each
// such entry point (entryShares), and how often it calls functions other
// files define (externalCalls), so that the program's merge can scale a
// kernel that main() calls through a time-step loop in another file
// (WholeProgram.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_CALLFREQUENCIES_H
#define DLOPT_ANALYSIS_CALLFREQUENCIES_H

#include "analysis/LayoutPlan.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <string>
#include <vector>

namespace dlopt {

/// Callee -> executions of its call sites in one function.
using CallCounts = llvm::DenseMap<const clang::FunctionDecl *, double>;

/// The name by which other translation units call \p FD (its mangled name
/// in C++), or "" if they cannot (internal linkage, main).
std::string callableName(const clang::FunctionDecl *FD);

class CallFrequencies {
public:
  /// Records the calls \p Caller makes of functions defined in the unit.
  void addCaller(const clang::FunctionDecl *Caller, const CallCounts &Calls);

  /// Whether some function of the unit calls \p FD.
  bool called(const clang::FunctionDecl *FD) const;

  /// How often \p FD runs per run of the unit's entry points. A call that
  /// closes a cycle adds nothing (recursion depth is not known
  /// statically); a function called only from its own cycle runs once.
  double of(const clang::FunctionDecl *FD);

  /// The part of of(\p FD) due to each entry point of the unit, keyed as
  /// EntryShares says.
  EntryShares entryShares(const clang::FunctionDecl *FD);

private:
  using Shares = std::vector<std::pair<const clang::FunctionDecl *, double>>;
  Shares sharesOf(const clang::FunctionDecl *FD);

  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<std::pair<const clang::FunctionDecl *, double>>>
      Callers;
  llvm::DenseMap<const clang::FunctionDecl *, Shares> Done;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 16> InProgress;
};

} // namespace dlopt

#endif
