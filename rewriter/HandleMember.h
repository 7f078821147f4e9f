//===- HandleMember.h - One member of a layout and its spelling -*- C++ -*-===//
//
// A record's plan stores each cluster in one or more members, of one of
// three kinds. Every text that reaches an element's field or sizes a
// member's array is spelled here, for the C handle (HandleLayout.cpp, from
// the handle "h") and the C++ containers (VectorContainer.cpp, from their
// storage "fields") alike:
//
//   kind         element i, field x        array length for n elements
//   FieldArray   h.x[i]                    n
//   Group        h.g[i].x                  n
//   Tiles(T)     h.t[i / T].x[i % T]       (n + T - 1) / T
//
// A strip-mined loop over tiles of T elements reaches its element as
// h.t[tile].x[lane] in a member tiled by T, which divides nothing, and as
// element (tile * T + lane) in any other member.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_HANDLEMEMBER_H
#define DLOPT_REWRITER_HANDLEMEMBER_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dlopt {

/// \p E in parentheses unless it is one identifier or literal.
std::string parenthesize(llvm::StringRef E);

struct HandleMember {
  enum Kind { FieldArray, Group, Tiles } K;
  std::string Name;
  std::vector<unsigned> Fields;
  uint64_t Tile = 0;      // Tiles only.
  std::string RecordName; // Group and Tiles: the generated record's tag.

  /// Field \p Field of element \p Index of this member of \p Base:
  /// Base.x[i], Base.g[i].x or Base.t[i / T].x[i % T]. A constant index
  /// into tiles is divided here (Base.t[1].x[2]). \p Shift, if not empty,
  /// names Base's count of elements the tiles skip (a sub-array of tiles,
  /// see HandleLayout::shiftName): Base.t[(Base.s + i) / T].x[(...) % T].
  std::string element(llvm::StringRef Base, llvm::StringRef Index,
                      llvm::StringRef Field,
                      llvm::StringRef Shift = llvm::StringRef()) const;
  /// Field \p Field of element Peel + TileIndex * TileSize + Lane (\p Peel
  /// empty: 0), as a strip-mined loop reaches it: Base.t[tile].x[lane] when
  /// this member's tiles hold \p TileSize elements, which divides nothing;
  /// with a \p Shift, the same from the tile the lanes start in where the
  /// loop peels to it (\p Aligned), Base.t[(Base.s + Peel) / T + tile]; else
  /// the element at that index.
  std::string lane(llvm::StringRef Base, llvm::StringRef TileIndex,
                   llvm::StringRef Lane, uint64_t TileSize,
                   llvm::StringRef Field,
                   llvm::StringRef Shift = llvm::StringRef(),
                   llvm::StringRef Peel = llvm::StringRef(),
                   bool Aligned = false) const;
  /// The length of this member's array for \p N elements: N, or the number
  /// of tiles that hold them.
  std::string length(llvm::StringRef N) const;
};

} // namespace dlopt

#endif
