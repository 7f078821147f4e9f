//===- WholeProgram.h - Unit plans merged into one program plan -*- C++ -*-===//
//
// Each translation unit is analyzed on its own into a unit plan (every
// record it defines or puts in arrays, its kernels, its blockers and the
// symbols through which its arrays cross file boundaries). mergeUnits()
// combines them per record, identified by its name: C makes compatible
// definitions of a tag in different translation units one type (C11 6.2.7)
// and C++ one class (the ODR), so a header seen from many files and the same
// struct written out in two .c files are both one record. The kernels of all
// files make one KDLG and one plan, a blocker in any file refuses the record
// everywhere, definitions that differ refuse it too, and cross-file symbols
// are resolved against the whole set of files. A single file is the program
// of one unit, planned by the same code.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_WHOLEPROGRAM_H
#define DLOPT_ANALYSIS_WHOLEPROGRAM_H

#include "analysis/LayoutPlan.h"
#include "analysis/RecordPlanner.h"

namespace dlopt {

/// The identity of a record across translation units: its name, wherever
/// it is defined (records are compared field by field when merged).
std::string recordKey(llvm::StringRef Name);
inline std::string recordKey(const RecordPlan &R) { return recordKey(R.Name); }

/// Why \p A and \p B, two definitions of a record, are not one type (a
/// field's name, type, size or position, or the record's size differs), or
/// "" if they are.
std::string definitionDifference(const RecordPlan &A, const RecordPlan &B);

/// Merges unit plans (or program plans, e.g. read back from reports) in the
/// given order, resolves cross-file symbols, keeps the records some loop
/// indexes, and plans those that are transformable.
LayoutPlan mergeUnits(std::vector<LayoutPlan> Units,
                      const AnalysisOptions &Opts);

/// Replaces the linkage blockers of \p Plan's records by those its external
/// symbols give over the plan's files: a use no file defines, or an
/// externally visible definition in a program without main().
void resolveExternals(LayoutPlan &Plan);

/// Blocks each record of \p Plan whose elements a member of a record that
/// keeps its layout holds, directly or through the records holding that one
/// (KeptHolders.cpp): the member would change that record's representation.
void blockRecordsOfKeptHolders(LayoutPlan &Plan);

} // namespace dlopt

#endif
