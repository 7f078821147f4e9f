//===- Analyzer.h - The analysis pipeline over one TU -----------*- C++ -*-===//
//
// Candidates -> accesses -> per-kernel KDLGs -> merged KDLG -> clusters ->
// layouts from the decision tree -> legality, as one call. Front doors call
// this and print; they add no logic of their own.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_ANALYZER_H
#define DLOPT_ANALYSIS_ANALYZER_H

#include "analysis/DecisionTree.h"
#include "analysis/LayoutPlan.h"
#include "clang/AST/ASTContext.h"

namespace dlopt {

struct AnalysisOptions {
  /// epsilon: fields closer than this many bytes share a cluster.
  unsigned CacheLine = 64;
  /// Null means DecisionTree::builtin().
  const DecisionTree *Model = nullptr;
};

/// The plan plus the AST nodes behind it, for diagnostics at the right place.
struct AnalysisResult {
  LayoutPlan Plan;
  /// Per record of Plan.Records.
  std::vector<const clang::RecordDecl *> Decls;
  std::vector<std::vector<clang::SourceLocation>> BlockerLocs;
};

AnalysisResult analyzeTranslationUnit(clang::ASTContext &Ctx,
                                      const AnalysisOptions &Opts);

} // namespace dlopt

#endif
