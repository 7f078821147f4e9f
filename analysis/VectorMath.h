//===- VectorMath.h - Math functions a vectorized loop can call --*- C++
//-*-===//
//
// With -fno-math-errno (-ffast-math) gcc vectorizes a loop that calls a
// math function only if the function has a vector form: an instruction
// (sqrt, fma, floor, ...) or a variant in glibc's libmvec (sin, cos, exp,
// log, pow, ...; math-vector.h declares them `omp declare simd`). fmodf,
// for one, has none, and a loop calling it stays scalar in every layout.
// And gcc's sincos pass turns sinf(a) and cosf(a) of one argument into one
// complex cexpif(a) (C++'s std::sin and std::cos of a float too: <cmath>
// returns the builtins) before the vectorizer runs, which no vector form has
// (checked with -fopt-info-vec on gcc 12, glibc 2.36: "unsupported
// data-type complex float"). The default model is calibrated with gcc 12
// on glibc, so the analysis asks this file which calls a vectorizable loop
// may make; a GPU kernel's math functions are the device compiler's and
// are not judged here.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_VECTORMATH_H
#define DLOPT_ANALYSIS_VECTORMATH_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

namespace dlopt {

/// Whether a call of builtin \p BuiltinID (a math function that may set
/// errno, under -fno-math-errno) keeps a loop vectorizable.
bool hasVectorForm(unsigned BuiltinID, const clang::ASTContext &Ctx);

/// Whether \p Body calls both sin and cos (of one precision) of the same
/// argument, which gcc combines into a call without a vector form.
bool callsSinAndCosOfOneValue(const clang::Stmt *Body,
                              const clang::ASTContext &Ctx);

} // namespace dlopt

#endif
