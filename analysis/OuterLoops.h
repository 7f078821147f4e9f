//===- OuterLoops.h - Loops vectorized at the outer loop --------*- C++ -*-===//
//
// gcc vectorizes some loop nests at the outer loop: each vector lane runs
// one outer iteration through the whole inner loop (n-body's force loop,
// `for i { a = 0; for j a += f(b[j], b[i]); b[i].v += a; }`, runs 16
// bodies i at once under AVX-512 and broadcasts b[j]). The outer loop's
// own accesses (b[i].v) then are vector loads and stores, as in an
// innermost vectorized loop, and a layout that makes them contiguous pays
// as it does there. This file recognizes such nests, conservatively, in
// the shape gcc 12 (the compiler the default model is calibrated with)
// vectorizes them in: the body is straight-line code around exactly one
// innermost counted loop whose trip count does not change with the outer
// loop, without branches in it, and whose subscripts that name the outer
// loop's variable are that variable itself (plus or minus a constant).
// Checked with -fopt-info-vec: gcc reports "outer-loop already vectorized"
// on such inner loops; a triangular inner loop ("inner-loop count not
// invariant"), one with an `if`, or a row access a[i * n + j] keep the
// inner loop as the vectorized one or nothing. GPU kernels' loops are not
// judged by it: their compilers vectorize across work-items.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_OUTERLOOPS_H
#define DLOPT_ANALYSIS_OUTERLOOPS_H

#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang {
class VarDecl;
}

namespace dlopt {

/// Whether gcc vectorizes \p Outer, a counted loop over \p InductionVar, at
/// the outer loop (see the file comment). \p Varying holds the variables
/// its body declares or assigns; \p Vectorizable tells whether a
/// statement without loops vectorizes on its own (calls, reductions).
bool isOuterLoopVectorizable(
    const clang::ForStmt *Outer, const clang::VarDecl *InductionVar,
    const llvm::SmallPtrSetImpl<const clang::VarDecl *> &Varying,
    llvm::function_ref<bool(const clang::Stmt *)> Vectorizable);

} // namespace dlopt

#endif
