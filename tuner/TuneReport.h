//===- TuneReport.h - What dl-refactor --tune measured ----------*- C++ -*-===//
//
// The tuner's table on the terminal (plan, median, spread, speedup, output),
// the same as JSON, and a bar chart of the speedups beside the JSON (drawn
// by python3 with matplotlib, when there is one).
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_TUNER_TUNEREPORT_H
#define DLOPT_TUNER_TUNEREPORT_H

#include "tuner/Tuner.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace dlopt {

void printTuneTable(llvm::raw_ostream &OS, const TuneResult &R);

llvm::json::Value tuneJson(const TuneResult &R);

/// Writes tuneJson(R) to \p Path and the chart to \p Path with ".png" for
/// its extension. The JSON must be written; the chart is skipped, with
/// \p Warning saying why, where python3 or matplotlib is missing.
llvm::Error writeTuneReport(llvm::StringRef Path, const TuneResult &R,
                            std::string &Warning);

} // namespace dlopt

#endif
