//===- PlanPicture.h - A picture of each record's layout, as DOT -*- C++
//-*-===//
//
// What `dl-refactor --report --picture=FILE.svg|png` draws (graphviz renders
// it): one panel per record with
//   - the bytes of one cache line (epsilon bytes) before the rewrite, fields
//     as coloured cells in the order an array of structs stores them, as a
//     struct layout viewer shows one struct;
//   - the same line in each array of the new layout: an AoS group's
//     elements, one field of a SoA cluster, the start of a tile;
//   - the KDLG: fields (in their colours) grouped by cluster, labelled with
//     the cluster's layout, edges with their delta in bytes where it is under
//     epsilon, and a legend saying how many pairs are farther apart or never
//     together (those bind no cluster and are not drawn).
// A record the analysis keeps shows its line and the reason.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_PLANPICTURE_H
#define DLOPT_ANALYSIS_PLANPICTURE_H

#include "analysis/LayoutPlan.h"
#include "llvm/Support/raw_ostream.h"

namespace dlopt {

void printPlanPicture(llvm::raw_ostream &OS, const LayoutPlan &Plan);

} // namespace dlopt

#endif
