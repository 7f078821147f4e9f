//===- Refactor.h - A program plan becomes edits of one TU ------*- C++ -*-===//
//
// The rewriter's entry points for a front door: force the plans the user
// asked for onto the program plan, then rewrite each translation unit by
// that plan. Every record whose plan changes its layout is rewritten where
// it is defined (a header too) and wherever it is used; a use the rewriter
// cannot handle refuses the record, which the caller then drops from the
// program plan everywhere.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_REFACTOR_H
#define DLOPT_REWRITER_REFACTOR_H

#include "analysis/LayoutPlan.h"
#include "rewriter/EditSet.h"
#include "rewriter/PlanOverride.h"
#include "clang/AST/ASTContext.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace dlopt {

/// What forcing plans did to the program plan.
struct ForcedPlans {
  /// A forced plan that cannot be applied: "file:line:col: reason" lines.
  std::vector<std::string> Errors;
  /// recordKey() of each record that took a forced plan.
  std::set<std::string> Records;
  /// Overrides that named a record of the plan.
  std::set<std::string> Used;
};

/// Replaces the plans of the records the overrides name (by tag or typedef).
ForcedPlans forcePlans(LayoutPlan &Program,
                       const std::vector<PlanOverride> &Forced);

/// The records of a program plan whose layout changes, by recordKey().
std::set<std::string> changingRecords(const LayoutPlan &Program);

struct RefactorResult {
  /// The translation unit (its main file, as the caller named it).
  std::string Unit;
  /// Edits per file (the main file and headers), ordered by path.
  std::vector<EditSet> Edits;
  /// What happened to each record here, for the user: rewritten, refused.
  std::vector<std::string> Notes;
  /// Records the rewriter refused here (recordKey() -> "file:line:col:
  /// reason" lines): they keep their layout in the whole program.
  std::map<std::string, std::vector<std::string>> Refused;
  /// Uses the analysis classified that the rewriter could not render
  /// ("file:line:col: what"): a bug, reported as an internal error.
  std::vector<std::string> Internal;
};

/// Rewrites the translation unit by \p Program: every record defined in it
/// whose key is in \p Changing.
RefactorResult rewriteTranslationUnit(clang::ASTContext &Ctx,
                                      const LayoutPlan &Program,
                                      const std::set<std::string> &Changing);

/// A unified diff of \p Edits against the original, with 3 lines of context,
/// naming the file "a/<Name>" and "b/<Name>" (git's prefixes: `patch -p1`
/// and `git apply` take it).
std::string unifiedDiff(const EditSet &Edits, llvm::StringRef Name);

} // namespace dlopt

#endif
