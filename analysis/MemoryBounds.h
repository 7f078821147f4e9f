//===- MemoryBounds.h - Loop bounds kept in memory --------------*- C++ -*-===//
//
// Real codes bound their loops by counts kept in memory: a global
// (`i < n_particles` in SPH codes), a member read in a member function
// (`p < nump` in mesh codes), a field of a structure (`i < sim->n`). A
// strip-mined loop reads its bound once per tile and once for the rest
// instead of once per iteration, which means the same only if the body
// cannot change that memory. This file decides that, conservatively: the
// body, and every function it calls that is defined in the translation
// unit, stores nothing that could be the count (by name, or through a
// pointer or reference of a type that may alias it), takes no address of
// it, and calls nothing unknown (another file's function, a function
// pointer, a virtual function, a library function given a pointer it could
// write the count through).
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_MEMORYBOUNDS_H
#define DLOPT_ANALYSIS_MEMORYBOUNDS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace dlopt {

/// Whether \p Bound, made of constants, variables (globals included),
/// members of `this` or of variables and integer arithmetic, reads the same
/// in every iteration of a loop with body \p Body (see the file comment).
bool isStableMemoryBound(const clang::Expr *Bound, const clang::Stmt *Body,
                         clang::ASTContext &Ctx);

} // namespace dlopt

#endif
