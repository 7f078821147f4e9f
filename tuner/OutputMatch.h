//===- OutputMatch.h - Does a plan's run print what the original did? -----===//
//
// A plan is kept only if its run prints exactly the original's output, or,
// with a tolerance, the same words with every number within that relative
// tolerance (reassociated floating-point sums may move the last digits).
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_TUNER_OUTPUTMATCH_H
#define DLOPT_TUNER_OUTPUTMATCH_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace dlopt {

/// Empty if \p Got matches \p Want: byte for byte when \p Tolerance is 0;
/// else piece by piece, numbers (also inside words: "x=1.5,") within
/// \p Tolerance of each other relative to the larger, the text between
/// them equal up to white space. Otherwise the first difference,
/// "line 3: '1.25' where the original printed '1.5'".
std::string outputDifference(llvm::StringRef Want, llvm::StringRef Got,
                             double Tolerance);

} // namespace dlopt

#endif
