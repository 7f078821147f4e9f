//===- RunningIndices.h - Indices that run through an array -----*- C++ -*-===//
//
// Initialization code often fills an array through a counter of its own
// rather than a loop's induction variable:
//
//   for (pi = 0, x = 0; x < L; x++)
//     for (y = 0; y < L; y++)
//       for (p = 0; p < count(x, y); p++, pi++)
//         particles[pi].x = x + 0.5;
//
// Three loops of unknown bounds are guessed as 512e3^3 iterations, which
// outweighs any kernel of the program; but `pi` only ever steps forward, so
// in all the iterations of the outer loop particles[pi] visits each element
// once: the access runs at most the array's length times there. Such an
// index is a running index: stepped by a constant (k++, k--, k += 2) in
// the innermost loop on every iteration that reaches the access (in the
// loop's increment, as a statement of its body, or in the subscript
// itself, a[k++]), only stepped, in one direction, in the loops around it
// that the bound covers, and its address never taken there.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_RUNNINGINDICES_H
#define DLOPT_ANALYSIS_RUNNINGINDICES_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>

namespace dlopt {

/// For the element \p Element (a[k]) inside the loops \p Loops (outermost
/// first; null for a loop that is no statement, a GPU kernel's work-items),
/// the position in \p Loops of the outermost loop in all of whose
/// iterations a[k] reaches each element at most once; none where k is no
/// running index.
std::optional<unsigned>
runningIndexLoop(const clang::ArraySubscriptExpr *Element,
                 llvm::ArrayRef<const clang::Stmt *> Loops);

/// Whether an iteration of loop \p Loop (its condition, increment or
/// body) may change variable \p V: assigns or steps it, declares it, or
/// takes its address.
bool changesInLoop(const clang::Stmt *Loop, const clang::VarDecl *V);

} // namespace dlopt

#endif
