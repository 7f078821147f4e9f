//===- WholeProgram.h - Unit plans merged into one program plan -*- C++ -*-===//
//
// Each translation unit is analyzed on its own into a unit plan (every
// record it puts in arrays, its kernels, its blockers and the symbols
// through which its arrays cross file boundaries). mergeUnits() combines
// them per record, identified by its definition's file and name, so a header
// seen from many files is one record: the kernels of all files make one
// KDLG and one plan, a blocker in any file refuses the record everywhere,
// and cross-file symbols are resolved against the whole set of files. A
// single file is the program of one unit, planned by the same code.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_WHOLEPROGRAM_H
#define DLOPT_ANALYSIS_WHOLEPROGRAM_H

#include "analysis/LayoutPlan.h"
#include "analysis/RecordPlanner.h"

namespace dlopt {

/// The identity of a record across translation units: the file of its
/// definition and its name.
std::string recordKey(llvm::StringRef DefinedIn, llvm::StringRef Name);
inline std::string recordKey(const RecordPlan &R) {
  return recordKey(R.DefinedIn, R.Name);
}

/// Merges unit plans (or program plans, e.g. read back from reports) in the
/// given order, resolves cross-file symbols, keeps the records some loop
/// indexes, and plans those that are transformable.
LayoutPlan mergeUnits(std::vector<LayoutPlan> Units,
                      const AnalysisOptions &Opts);

/// Replaces the linkage blockers of \p Plan's records by those its external
/// symbols give over the plan's files: a use no file defines, or an
/// externally visible definition in a program without main().
void resolveExternals(LayoutPlan &Plan);

} // namespace dlopt

#endif
