//===- SharedArrays.h - Whether two pointers may reach one array -*- C++
//-*-===//
//
// The handle of a new layout holds one pointer per array. Declared restrict,
// they tell the compiler that a store through one array never changes
// another, so a loop over many arrays vectorizes without run-time overlap
// checks (gcc gives up past ten pairs, and a split of a 14-field record has
// more). That promise is the program's to keep: C11 6.7.3.1 lets a copy of
// a handle pass into a function it calls and out as a return value, but
// not two handles reach one array while either is in use. The analysis
// makes the promise only where it holds by construction: in C, every
// function reaches the record's arrays through at most one pointer
// variable, a parameter or a local (element pointers, which become
// indices, do not count), never through a global variable, a struct member
// or an array of pointers, and nothing memmoves them within one array.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_SHAREDARRAYS_H
#define DLOPT_ANALYSIS_SHAREDARRAYS_H

#include "analysis/Candidates.h"
#include "analysis/Legality.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/ASTContext.h"

namespace dlopt {

/// Sets RecordLegality::SharedArrays (and SharedArraysAt) of each of
/// \p Cands' entries in \p Out, in the same order: why two pointers may
/// reach one array of the record in one function, or "" where none can;
/// or NotChecked, in a unit that is not C.
void findSharedArrays(clang::ASTContext &Ctx,
                      llvm::ArrayRef<CandidateRecord> Cands,
                      const UseClassifier &Uses,
                      std::vector<RecordLegality> &Out);

} // namespace dlopt

#endif
