//===- Kdlg.h - Kernel data layout graph ------------------------*- C++ -*-===//
//
// The KDLG of one record: vertices are its fields (weighted by size), edges
// carry delta, the memory distance in bytes between accesses of two fields.
// One graph is built per kernel from its AccessTrace; the per-kernel graphs
// are merged into the record's graph by mergeKernelGraphs().
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_KDLG_H
#define DLOPT_ANALYSIS_KDLG_H

#include "analysis/AccessTrace.h"
#include <string>
#include <vector>

namespace dlopt {

struct Field {
  std::string Name;
  uint64_t Size = 0;
  uint64_t Offset = 0;
  /// The field's type as written after typedefs are resolved ("float",
  /// "int : 3" for a bit-field): two definitions of a record in different
  /// translation units are the same type only if their fields agree.
  std::string Type = "";
};

class Kdlg {
public:
  Kdlg() = default;
  explicit Kdlg(std::vector<Field> Fields);

  /// The graph of one kernel. \p FieldIds maps field index -> the field
  /// identifier used in \p Placed.
  static Kdlg forKernel(std::vector<Field> Fields,
                        const std::vector<unsigned> &FieldIds,
                        const std::vector<PlacedAccess> &Placed);

  unsigned size() const { return Fields.size(); }
  const std::vector<Field> &fields() const { return Fields; }
  double delta(unsigned F1, unsigned F2) const;
  void setDelta(unsigned F1, unsigned F2, double D);
  bool accessed(unsigned F) const { return Accessed[F]; }
  void setAccessed(unsigned F, bool A = true) { Accessed[F] = A; }
  bool anyAccessed() const;

private:
  std::vector<Field> Fields;
  std::vector<bool> Accessed;
  std::vector<double> Delta; // size() x size(), symmetric.
};

/// One kernel's graph for a record, with the weight the merge uses.
struct KernelGraph {
  Kdlg Graph;
  /// Estimated bytes of the record moved by one run of the kernel.
  double Weight = 0;
};

/// Kernels lighter than this fraction of the heaviest kernel touching the
/// record are ignored by the merge: a set-up loop that runs once must not
/// split what the hot loops keep together.
constexpr double DefaultSignificance = 0.01;

/// Which kernels the merge and the features take into account: those that
/// access the record and weigh at least \p Significance x the heaviest.
std::vector<bool> significantKernels(const std::vector<KernelGraph> &Kernels,
                                     double Significance = DefaultSignificance);

/// Merges per-kernel graphs into the record's graph. For each pair of
/// fields, over the significant kernels that access at least one of the two:
/// delta = the maximum of the per-kernel deltas, where a kernel that accesses
/// only one of the two counts as infinite (grouping them would drag an unused
/// field through its cache lines). Pairs no such kernel accesses stay
/// infinite. A field is accessed if a significant kernel accesses it.
Kdlg mergeKernelGraphs(const std::vector<Field> &Fields,
                       const std::vector<KernelGraph> &Kernels,
                       double Significance = DefaultSignificance);

} // namespace dlopt

#endif
