//===- StripMining.h - Which loops the rewrite strip-mines ------*- C++ -*-===//
//
// A loop whose induction variable indexes a tiled array is split by the
// rewrite into tile, lane and remainder loops, so that the accesses in the
// lanes divide nothing; other loops keep the flat form `t[i / T].f[i % T]`
// (docs/design.md, "Rewriting principles"). Which loops can be split is
// decided here, once: the analysis gives the model's features the shape
// the rewrite will render, and the rewriter splits exactly these loops.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_STRIPMINING_H
#define DLOPT_ANALYSIS_STRIPMINING_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include <optional>

namespace dlopt {

/// `for (i = 0; i < n; ++i)` that can be strip-mined.
struct CountedLoop {
  const clang::VarDecl *InductionVar = nullptr;
  /// for (int i = 0; ...) rather than for (i = 0; ...).
  bool Declared = false;
  const clang::Expr *Bound = nullptr;
};

/// \p For as a loop from 0 up by one below a bound, if it can be split into
/// tile, lane and remainder loops with the same meaning: its body neither
/// leaves nor skips the loop, assigns the induction variable or holds
/// static locals; its bound is made of constants and locals the body
/// leaves alone, or of globals and members it cannot change
/// (isStableMemoryBound), or is the size of a container the body cannot
/// resize;
/// under OpenMP, only the loop of `omp parallel for` (no collapse, no
/// ordered) with the variable declared there.
std::optional<CountedLoop> stripMinableLoop(const clang::ForStmt *For,
                                            clang::ASTContext &Ctx);

/// A strip-mined loop reaches the tiled elements of Handle[i] in lanes also
/// when the handle counts the elements its tiles skip (a tiled layout of a
/// record the program takes sub-arrays of) if the loop peels() and the
/// handle holdsStill(): the rewrite then runs the iterations before the
/// first tile boundary on their own (a peel), which it computes once,
/// before the loop, from the handle.
///
/// Whether \p For, strip-minable as \p Loop, can peel: it is no OpenMP
/// directive's own loop (the directive must stay right before it), and
/// its variable is at least an int (it holds the peel).
bool peels(const clang::ForStmt *For, const CountedLoop &Loop,
           clang::ASTContext &Ctx);

/// Whether \p Handle holds still in \p For: made of local variables
/// declared before the loop that its body leaves alone (as a bound must).
bool holdsStill(const clang::Expr *Handle, const clang::ForStmt *For,
                const clang::SourceManager &SM);

/// Whether a range-for over a container can be split likewise: no init
/// statement, a range without side effects whose size the body keeps.
bool stripMinableRangeFor(const clang::CXXForRangeStmt *S,
                          clang::ASTContext &Ctx);

} // namespace dlopt

#endif
