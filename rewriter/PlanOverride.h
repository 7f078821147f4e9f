//===- PlanOverride.h - Plans the user forces on records ---------*- C++
//-*-===//
//
// `--layout RECORD=soa|aos|tiled:T|split:{f1,f2}{f3}` and `--plan=FILE.json`
// replace the automatic plan of a record. In split, each group may name its
// layout after it (`split:{x,y,z,m}tiled:16{vx,vy,vz}soa`); the default is a
// small AoS record.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_PLANOVERRIDE_H
#define DLOPT_REWRITER_PLANOVERRIDE_H

#include "analysis/LayoutPlan.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace dlopt {

struct PlanOverride {
  std::string Record;
  /// Field names per cluster; empty means "all fields, one cluster".
  std::vector<std::vector<std::string>> Groups;
  std::vector<Layout> Layouts;
  /// Where it came from, for messages: "--layout Body=soa".
  std::string Origin;
};

llvm::Expected<PlanOverride> parseLayoutOption(llvm::StringRef Text);
llvm::Expected<std::vector<PlanOverride>> parsePlanFile(llvm::StringRef Path);

/// Replaces R's clusters by the override; errors name unknown, missing or
/// repeated fields.
llvm::Error applyOverride(RecordPlan &R, const PlanOverride &O);

} // namespace dlopt

#endif
