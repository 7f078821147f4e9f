//===- ClusterFeatures.h - What the tree sees of a cluster ------*- C++ -*-===//
//
// The attributes a layout decision depends on (docs/analysis.md, "Features
// and the decision tree"): the cluster's size (the paper's only attribute), how
// many fields it holds, how much of the record the kernels touch, whether it
// is streamed or gathered, the read/write mix, how often it is executed and
// whether its loops can vectorize under the compile flags. Calibration and
// the analysis compute these the same way, so the tree sees what it learned.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_CLUSTERFEATURES_H
#define DLOPT_ANALYSIS_CLUSTERFEATURES_H

#include "analysis/Kdlg.h"
#include "analysis/Partition.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>

namespace dlopt {

/// Named feature values, ordered by name for stable reports.
using FeatureVector = std::map<std::string, double>;

/// Every feature name a model may test, with what it means.
struct FeatureInfo {
  const char *Name;
  const char *Meaning;
};
llvm::ArrayRef<FeatureInfo> knownFeatures();
bool isKnownFeature(llvm::StringRef Name);

/// The accesses of one kernel, as the features need them: the placed trace
/// and the identifiers of the record's fields in it.
struct KernelAccesses {
  std::vector<PlacedAccess> Placed;
  std::vector<unsigned> FieldIds; // Field index -> id in Placed.
};

/// The features of cluster \p C over the kernels that speak for it: those
/// whose accesses to the cluster run at least DefaultSignificance x as often
/// as the busiest kernel's (whatever their weight for the whole record).
FeatureVector computeFeatures(const Kdlg &G, const Cluster &C,
                              uint64_t RecordBytes,
                              llvm::ArrayRef<KernelAccesses> Kernels);

} // namespace dlopt

#endif
