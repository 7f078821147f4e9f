//===- RecordPlanner.h - A record's kernels become its plan -----*- C++ -*-===//
//
// Steps 3-5 of the pipeline on one record, from its kernel summaries alone:
// which kernels are significant, the per-kernel and merged KDLGs, the
// clusters and a layout for each. It needs no AST, so a record merged from
// many translation units (or read back from JSON reports) is planned exactly
// as one seen in a single file.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_RECORDPLANNER_H
#define DLOPT_ANALYSIS_RECORDPLANNER_H

#include "analysis/DecisionTree.h"
#include "analysis/LayoutPlan.h"
#include <map>

namespace dlopt {

class ProfileCounts;

struct AnalysisOptions {
  /// epsilon: fields closer than this many bytes share a cluster.
  unsigned CacheLine = 64;
  /// The user named CacheLine (--cache-line); else a record takes the
  /// epsilon of the model that plans it, where the model says (a GPU's
  /// 32-byte sectors), and CacheLine where it does not.
  bool CacheLineGiven = false;
  /// Null means DecisionTree::builtin().
  const DecisionTree *Model = nullptr;
  /// Measured trip and call counts; null: estimated (AccessCollector.h).
  const ProfileCounts *Profile = nullptr;
  /// A branch the preprocessor skipped that names a record's arrays leaves
  /// it transformable, the branch as written (RecordPlan::LeftAsWritten):
  /// the user builds only the configuration analyzed (SkippedCode.h).
  bool ThisConfigurationOnly = false;
  /// Records with OpenCL buffers whose strategy the user forced, by name
  /// (--strategy=RECORD=whole|boundary); the others get the whole-program
  /// strategy where nothing blocks it, else the boundary where nothing
  /// blocks that (chooseStrategy in WholeProgram.cpp).
  std::map<std::string, Strategy> Strategies;
  /// The program's OpenCL buffer holders (LayoutPlan::BufferHolders), from
  /// a first analysis: each file knows the buffers others create.
  std::map<std::string, std::string> BufferHolders;
};

/// The KDLG of one kernel, from the positions of its field accesses.
Kdlg kernelGraph(const std::vector<Field> &Fields,
                 const std::vector<AccessInfo> &Accesses);

/// Fills the kernels' graphs and significance, the record's merged graph
/// and its clusters with a layout each. Previous results are replaced.
void planRecord(RecordPlan &R, const AnalysisOptions &Opts);

/// The features of cluster \p C of a planned record (planRecord has filled
/// its kernels' significance and merged graph): what the model decides on,
/// also for a cluster a user forced, so that reports and calibration see
/// the same values for the same fields. With \p Moved, as a tiled layout of
/// a record the program takes sub-arrays of meets them: loop-indexed only
/// where a strip-mined loop keeps the lanes (AccessInfo::LanesWhenMoved).
FeatureVector clusterFeatures(const RecordPlan &R, const Cluster &C,
                              bool Moved = false);

} // namespace dlopt

#endif
