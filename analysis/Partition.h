//===- Partition.h - Clustering a KDLG at a threshold -----------*- C++ -*-===//
//
// A clustering is good when every edge inside a cluster has delta < epsilon
// (the L1 cache line of the target). Fields are joined by complete-linkage
// agglomeration: the two clusters whose farthest pair is closest merge first,
// and only while that farthest pair is below epsilon, so the invariant holds
// by construction. Fields no kernel accesses form one cold cluster.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_PARTITION_H
#define DLOPT_ANALYSIS_PARTITION_H

#include "analysis/Kdlg.h"
#include <vector>

namespace dlopt {

struct Cluster {
  /// Field indices, ascending (declaration order).
  std::vector<unsigned> Fields;
  /// The largest delta between two of its fields (0 for a single field).
  double MaxDelta = 0;
  /// No kernel accesses these fields.
  bool Cold = false;
};

/// Clusters of \p G at threshold \p Epsilon, ordered by their first field.
std::vector<Cluster> partitionKdlg(const Kdlg &G, double Epsilon);

} // namespace dlopt

#endif
