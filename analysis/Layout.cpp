//===- Layout.cpp - The layout algebra ------------------------------------===//
#include "analysis/Layout.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include <cassert>

using namespace dlopt;

std::string Layout::str() const {
  switch (Kind) {
  case LayoutKind::AoS:
    return "AoS";
  case LayoutKind::SoA:
    return "SoA";
  case LayoutKind::Tiled:
    return "Tiled(" + std::to_string(Tile) + ")";
  }
  return "?";
}

std::string Layout::dims() const {
  switch (Kind) {
  case LayoutKind::AoS:
    return "[i, f]";
  case LayoutKind::SoA:
    return "[f, i]";
  case LayoutKind::Tiled:
    return "[i/" + std::to_string(Tile) + ", f, i%" + std::to_string(Tile) +
           "]";
  }
  return "?";
}

std::optional<Layout> Layout::parse(llvm::StringRef Text, std::string *Why) {
  std::string Lower = Text.trim().lower();
  llvm::StringRef S(Lower);
  if (S == "aos")
    return aos();
  if (S == "soa")
    return soa();
  std::optional<llvm::StringRef> Digits;
  if (S.consume_front("tiled:") ||
      (S.consume_front("tiled(") && S.consume_back(")")))
    Digits = S;
  uint64_t T = 0;
  if (Digits && !Digits->getAsInteger(10, T) && T >= 2 &&
      llvm::isPowerOf2_64(T)) {
    if (T <= MaxTile)
      return tiled(T);
    if (Why)
      *Why = ("layout '" + Text.trim() + "': tile " + llvm::Twine(T) +
              " is above " + llvm::Twine(MaxTile) +
              " (2^15, the largest tile class)")
                 .str();
    return std::nullopt;
  }
  if (Why)
    *Why = ("unknown layout '" + Text.trim() + "'").str();
  return std::nullopt;
}

uint64_t dlopt::elementOffset(const Layout &L, const RecordShape &Shape,
                              uint64_t I, unsigned F, uint64_t N) {
  assert(F < Shape.Offsets.size() && I < N && "element out of range");
  switch (L.Kind) {
  case LayoutKind::AoS:
    return I * Shape.Size + Shape.Offsets[F];
  case LayoutKind::SoA:
    return N * Shape.Offsets[F] + I * Shape.Sizes[F];
  case LayoutKind::Tiled:
    return (I / L.Tile) * L.Tile * Shape.Size + L.Tile * Shape.Offsets[F] +
           (I % L.Tile) * Shape.Sizes[F];
  }
  return 0;
}
