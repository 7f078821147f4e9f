//===- Analyzer.h - The analysis pipeline over one TU -----------*- C++ -*-===//
//
// Candidates -> legality -> accesses -> kernel summaries: the unit plan of
// one translation unit; then, as the program of that one unit (see
// WholeProgram.h), per-kernel KDLGs -> merged KDLG -> clusters -> layouts
// from the decision tree. Front doors call this and print; they add no logic
// of their own.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_ANALYZER_H
#define DLOPT_ANALYSIS_ANALYZER_H

#include "analysis/LayoutPlan.h"
#include "analysis/RecordPlanner.h"
#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"

namespace dlopt {

/// The plans plus the AST nodes behind them, for diagnostics at the right
/// place and for the rewriter.
struct AnalysisResult {
  /// The file's own facts, unplanned: what a whole-program merge combines.
  LayoutPlan Unit;
  /// Per record of Unit.Records.
  std::vector<const clang::RecordDecl *> UnitDecls;
  /// The plan of this file as a program of its own.
  LayoutPlan Plan;
  /// Per record of Plan.Records.
  std::vector<const clang::RecordDecl *> Decls;
  std::vector<std::vector<clang::SourceLocation>> BlockerLocs;
};

/// \p PP, where given, tells the branches the preprocessor skipped (if
/// keepSkippedRanges was asked before the parse): a record they name is
/// kept as it is (SkippedCode.h).
AnalysisResult analyzeTranslationUnit(clang::ASTContext &Ctx,
                                      const AnalysisOptions &Opts,
                                      const clang::Preprocessor *PP = nullptr);

} // namespace dlopt

#endif
