//===- Layout.h - The layout algebra: AoS, SoA, Tiled(T) --------*- C++ -*-===//
//
// A Layout says how the logical 2-D array (element index i x field f) of a
// record, or of one cluster of its fields, is laid out in memory. Reports,
// the plan JSON and the rewriter all speak this one vocabulary.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_LAYOUT_H
#define DLOPT_ANALYSIS_LAYOUT_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlopt {

enum class LayoutKind { AoS, SoA, Tiled };

struct Layout {
  LayoutKind Kind = LayoutKind::AoS;
  /// Elements per tile; a power of two from 2 to MaxTile for Tiled, 0
  /// otherwise.
  uint64_t Tile = 0;

  /// The largest tile: 2^15 elements, the largest tile class the calibration
  /// measures (docs/calibration.md). No model was trained on a larger one,
  /// and each of its tiles would hold hundreds of kilobytes per field.
  static constexpr uint64_t MaxTile = uint64_t(1) << 15;

  static Layout aos() { return {LayoutKind::AoS, 0}; }
  static Layout soa() { return {LayoutKind::SoA, 0}; }
  static Layout tiled(uint64_t T) { return {LayoutKind::Tiled, T}; }

  /// "AoS", "SoA" or "Tiled(16)".
  std::string str() const;
  /// The physical dimensions, slowest first: "[i, f]", "[f, i]",
  /// "[i/16, f, i%16]".
  std::string dims() const;

  /// Accepts what str() prints and the command-line spellings "aos", "soa",
  /// "tiled:T" (case-insensitive). Rejects tiles that are not powers of two
  /// from 2 to MaxTile; then \p Why, if given, receives the reason,
  /// "unknown layout 'TEXT'" or "layout 'TEXT': tile T is above ...", for the
  /// caller to prefix with where the text came from.
  static std::optional<Layout> parse(llvm::StringRef Text,
                                     std::string *Why = nullptr);

  bool operator==(const Layout &O) const {
    return Kind == O.Kind && Tile == O.Tile;
  }
  bool operator!=(const Layout &O) const { return !(*this == O); }
};

/// The shape of a record as the C compiler lays it out: field offsets and
/// sizes in bytes, and the padded size of one element.
struct RecordShape {
  std::vector<uint64_t> Offsets;
  std::vector<uint64_t> Sizes;
  uint64_t Size = 0;
};

/// Byte offset of field F of element I in an array of N elements stored with
/// layout L (docs/design.md, "Layouts as one algebra"):
///   AoS       i*size + off(f)
///   SoA       base(f) + i*size(f),  base(f) = N*off(f)
///   Tiled(T)  (i/T)*T*size + T*off(f) + (i%T)*size(f)
uint64_t elementOffset(const Layout &L, const RecordShape &Shape, uint64_t I,
                       unsigned F, uint64_t N);

} // namespace dlopt

#endif
