//===- PlanPrinter.h - LayoutPlan as text, JSON and DOT ---------*- C++ -*-===//
//
// One rendering of the plan per audience: a human report, JSON for scripts
// and the rewriter (--plan), DOT of the KDLG for graphviz, and the one-line
// summaries the plugin's remarks carry.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_PLANPRINTER_H
#define DLOPT_ANALYSIS_PLANPRINTER_H

#include "analysis/LayoutPlan.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace dlopt {

/// "4", "252", "1.2e+09" or "inf".
std::string formatDistance(double D);

void printPlanText(llvm::raw_ostream &OS, const LayoutPlan &Plan);
llvm::json::Value planToJson(const LayoutPlan &Plan);
void printPlanDot(llvm::raw_ostream &OS, const LayoutPlan &Plan);

/// Writes \p Path through a temporary file and a rename, so a reader never
/// sees it half-written.
llvm::Error
writeOutputFile(llvm::StringRef Path,
                llvm::function_ref<void(llvm::raw_ostream &)> Print);

/// The remark text for one record: its plan and the reason in brief.
std::string summarizeRecord(const RecordPlan &R, unsigned CacheLine);
/// One line per cluster: fields, sigma, max delta, layout and the tests.
std::string describeCluster(const RecordPlan &R, const ClusterPlan &C);

/// The KDLG's pairs of fields as the pictures and remarks show them: those
/// closer than \p Epsilon (which bind clusters), with their delta; the
/// others only counted, farther apart or never accessed together.
struct KdlgEdges {
  struct Edge {
    unsigned From, To;
    double Delta;
  };
  std::vector<Edge> Near;
  unsigned Far = 0, Never = 0;
};
KdlgEdges edgesWithin(const RecordPlan &R, double Epsilon);

} // namespace dlopt

#endif
