//===- TuneCandidates.h - The plans dl-refactor --tune measures -*- C++ -*-===//
//
// The automatic plan and its neighbours: for each record, each cluster in
// turn given each other layout (AoS, SoA, a tile size a factor of 4 either
// side of the model's), the whole record as SoA, and every cluster that
// loops read tiled by 16 (a loop over several clusters then streams fewer
// arrays than with some of them SoA). Whole-record AoS is
// the original, which is always measured. A plan that puts the same arrays
// in memory as one already listed, reached by the same loops (a one-field
// cluster in AoS rather than SoA), is left out. Each plan is a set of forced
// plans, spelled as the --layout options that reproduce it.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_TUNER_TUNECANDIDATES_H
#define DLOPT_TUNER_TUNECANDIDATES_H

#include "analysis/LayoutPlan.h"
#include "rewriter/PlanOverride.h"
#include <string>
#include <vector>

namespace dlopt {

struct TuneCandidate {
  /// "automatic", or the --layout options that force it.
  std::string Name;
  /// Empty for the automatic plan.
  std::vector<PlanOverride> Overrides;
};

/// --layout's spelling of \p R's plan with its clusters given \p Layouts
/// (one per cluster): "P=soa", "P=tiled:16", "P=split:{x,y}soa{m}aos".
std::string layoutOption(const RecordPlan &R,
                         const std::vector<Layout> &Layouts);

/// The automatic plan first, then the whole-record SoA of each record and
/// its clusters tiled by 16, then the neighbours cluster by cluster; at
/// most \p Max plans, no two with the same arrays in memory.
std::vector<TuneCandidate> tuneCandidates(const LayoutPlan &Plan, unsigned Max);

} // namespace dlopt

#endif
