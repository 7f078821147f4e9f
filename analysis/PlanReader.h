//===- PlanReader.h - A plan JSON read back into a LayoutPlan ---*- C++ -*-===//
//
// The inverse of planToJson() for what planning needs: records, fields,
// arrays, kernels with their accesses, blockers and external symbols. The
// plugin writes one unit plan per translation unit into a report directory;
// `dl-refactor --merge-reports DIR` reads them back and merges them into the
// whole-program plan. Clusters are not read: a merge plans again.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_PLANREADER_H
#define DLOPT_ANALYSIS_PLANREADER_H

#include "analysis/LayoutPlan.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace dlopt {

/// Errors name the JSON path of the offending value.
llvm::Expected<LayoutPlan> planFromJson(const llvm::json::Value &V);

/// Errors start with "FILE: ".
llvm::Expected<LayoutPlan> readPlanFile(llvm::StringRef Path);

} // namespace dlopt

#endif
