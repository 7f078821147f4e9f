//===- Refactor.h - Analysis, forced plans and rewriting of one TU -*- C++ -*-//
//
// The rewriter's entry point for a front door: analyse the translation unit,
// replace plans the user forced, and rewrite every record whose plan changes
// its layout and whose uses can all be rewritten.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_REFACTOR_H
#define DLOPT_REWRITER_REFACTOR_H

#include "analysis/Analyzer.h"
#include "rewriter/EditSet.h"
#include "rewriter/PlanOverride.h"
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dlopt {

struct RefactorResult {
  /// Edits of the main file, if anything changes.
  std::optional<EditSet> Edits;
  /// A forced plan that cannot be applied: "file:line:col: reason" lines.
  std::vector<std::string> Errors;
  /// What happened to each record, for the user: rewritten, kept, refused.
  std::vector<std::string> Notes;
  /// Overrides that named a record of this translation unit.
  std::set<std::string> UsedOverrides;
};

RefactorResult refactorTranslationUnit(clang::ASTContext &Ctx,
                                       const AnalysisOptions &Opts,
                                       const std::vector<PlanOverride> &Forced);

/// A unified diff of \p Edits against the original, with 3 lines of context.
std::string unifiedDiff(const EditSet &Edits);

} // namespace dlopt

#endif
