//===- EditSet.cpp - Nested source edits, flattened to Replacements -------===//
#include "rewriter/EditSet.h"
#include <algorithm>
#include <cassert>

using namespace dlopt;
using namespace llvm;

std::string EditSet::textOf(unsigned Begin, unsigned End) const {
  assert(Begin <= End && End <= Original->size());
  std::string Out;
  unsigned Pos = Begin;
  for (const Edit &E : Edits) {
    // Inside means within [Begin, End); an insertion at End belongs to what
    // follows the range.
    bool Inside = E.Begin >= Begin && E.End <= End &&
                  !(E.isInsertion() && E.Begin == End && Begin != End);
    if (!Inside)
      continue;
    Out.append(*Original, Pos, E.Begin - Pos);
    Out += E.Text;
    Pos = E.End;
  }
  Out.append(*Original, Pos, End - Pos);
  return Out;
}

Error EditSet::replace(unsigned Begin, unsigned End, std::string Text) {
  assert(Begin < End && End <= Original->size());
  std::vector<Edit> Kept;
  for (Edit &E : Edits) {
    bool Disjoint = E.End <= Begin || E.Begin >= End;
    // Insertions at either boundary stay outside the new text.
    bool AtBoundary = E.isInsertion() && (E.Begin == Begin || E.Begin == End);
    if (Disjoint || AtBoundary) {
      Kept.push_back(std::move(E));
      continue;
    }
    if (E.Begin < Begin || E.End > End)
      return createStringError(inconvertibleErrorCode(),
                               "%s: overlapping rewrites at offsets %u-%u and "
                               "%u-%u",
                               FilePath.c_str(), E.Begin, E.End, Begin, End);
    // Strictly inside: absorbed, the caller built Text from textOf().
  }
  Kept.push_back(Edit{Begin, End, std::move(Text)});
  Edits = std::move(Kept);
  std::stable_sort(Edits.begin(), Edits.end(),
                   [](const Edit &A, const Edit &B) {
                     if (A.Begin != B.Begin)
                       return A.Begin < B.Begin;
                     return A.isInsertion() && !B.isInsertion();
                   });
  return Error::success();
}

void EditSet::insert(unsigned Offset, StringRef Text) {
  assert(Offset <= Original->size());
  for (Edit &E : Edits)
    if (E.isInsertion() && E.Begin == Offset) {
      E.Text += Text.str(); // After earlier insertions at the same place.
      return;
    }
  auto At = std::find_if(Edits.begin(), Edits.end(),
                         [&](const Edit &E) { return E.Begin >= Offset; });
  Edits.insert(At, Edit{Offset, Offset, Text.str()});
}

Expected<clang::tooling::Replacements> EditSet::toReplacements() const {
  clang::tooling::Replacements Result;
  for (size_t I = 0; I < Edits.size(); ++I) {
    Edit E = Edits[I];
    // An insertion followed by a replacement at the same offset is one
    // replacement for clang-apply-replacements.
    if (E.isInsertion() && I + 1 < Edits.size() &&
        Edits[I + 1].Begin == E.Begin) {
      E = Edit{E.Begin, Edits[I + 1].End, E.Text + Edits[I + 1].Text};
      ++I;
    }
    if (Error Err = Result.add(clang::tooling::Replacement(
            FilePath, E.Begin, E.End - E.Begin, E.Text)))
      return Err;
  }
  return Result;
}
