//===- VectorStores.h - Fields a loop stores as one vector ------*- C++ -*-===//
//
// Adjacent fields of one element that a loop stores by statements of one
// shape, in one block:
//
//   m[i].x += m[i].speed * cosf(m[i].heading);
//   m[i].y += m[i].speed * sinf(m[i].heading);
//
// A compiler's SLP vectorizer (gcc's basic-block vectorizer, LLVM's SLP
// pass) turns such statements into one vector operation and one vector
// store where the fields lie side by side in memory: in AoS, or in an AoS
// cluster holding them. In SoA or in tiles each field lies in an array of
// its own and each statement stays scalar. Where the loop vectorizes
// across iterations anyway this does not matter; where it does not (a
// call, a random-number generator, a branch the compiler cannot convert),
// it is the only vector code the loop gets. Measured on the mosquito
// example's movement loop with -ffast-math (gcc 12, Zen 4): {x,y} AoS ran
// 0.93 of the time of {x,y} Tiled(16), the model's choice; without
// -ffast-math the two tie.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_VECTORSTORES_H
#define DLOPT_ANALYSIS_VECTORSTORES_H

#include "analysis/HeldElements.h"

namespace dlopt {

/// The groups of fields the innermost loops of \p FD store as one vector
/// (each group at least two fields, adjacent in the record, of one type),
/// for the records \p IsCandidate accepts. ElementFields::Loc is the
/// group's first store.
std::vector<ElementFields> findVectorStores(
    clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
    llvm::function_ref<bool(const clang::RecordDecl *)> IsCandidate);

} // namespace dlopt

#endif
