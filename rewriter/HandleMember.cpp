//===- HandleMember.cpp - How a generated layout reaches an element -------===//
#include "rewriter/HandleMember.h"
#include "llvm/ADT/StringExtras.h"

using namespace dlopt;
using llvm::StringRef;

std::string dlopt::parenthesize(StringRef E) {
  // Names, member accesses and one call without arguments (v.size()) bind
  // tighter than any operator put next to them.
  StringRef Name = E;
  Name.consume_back("()");
  bool Simple = !Name.empty();
  for (size_t I = 0; I < Name.size() && Simple; ++I)
    Simple = llvm::isAlnum(Name[I]) || Name[I] == '_' || Name[I] == '.' ||
             (Name[I] == '-' && Name.substr(I + 1).starts_with(">") && ++I);
  return Simple ? E.str() : "(" + E.str() + ")";
}

/// Field \p Field of \p M's element \p Index; \p Operand is the index as
/// the operand of the tile division, which the callers parenthesize as its
/// origin requires.
static std::string spell(const HandleMember &M, StringRef Base, StringRef Index,
                         StringRef Operand, StringRef Field, StringRef Shift) {
  std::string Array = Base.str() + "." + M.Name;
  std::string Shifted;
  if (M.K == HandleMember::Tiles && !Shift.empty()) {
    // p->f of a sub-array p: the element its tiles skip to.
    Shifted = Index == "0" ? Base.str() + "." + Shift.str()
                           : "(" + Base.str() + "." + Shift.str() + " + " +
                                 Operand.str() + ")";
    Operand = Shifted;
  }
  switch (M.K) {
  case HandleMember::FieldArray:
    return Array + "[" + Index.str() + "]";
  case HandleMember::Group:
    return Array + "[" + Index.str() + "]." + Field.str();
  case HandleMember::Tiles:
    return Array + "[" + Operand.str() + " / " + std::to_string(M.Tile) + "]." +
           Field.str() + "[" + Operand.str() + " % " + std::to_string(M.Tile) +
           "]";
  }
  return Array;
}

/// Field \p Field at lane \p Lane of tile \p Tile of a Tiles member.
static std::string tileLane(const HandleMember &M, StringRef Base,
                            StringRef Tile, StringRef Lane, StringRef Field) {
  return Base.str() + "." + M.Name + "[" + Tile.str() + "]." + Field.str() +
         "[" + Lane.str() + "]";
}

std::string HandleMember::element(StringRef Base, StringRef Index,
                                  StringRef Field, StringRef Shift) const {
  if (uint64_t I = 0; K == Tiles && Shift.empty() && !Index.getAsInteger(10, I))
    return tileLane(*this, Base, std::to_string(I / Tile),
                    std::to_string(I % Tile), Field);
  return spell(*this, Base, Index, parenthesize(Index), Field, Shift);
}

std::string HandleMember::lane(StringRef Base, StringRef TileIndex,
                               StringRef Lane, uint64_t TileSize,
                               StringRef Field, StringRef Shift, StringRef Peel,
                               bool Aligned) const {
  std::string T = std::to_string(TileSize);
  if (K == Tiles && Tile == TileSize && Shift.empty())
    return tileLane(*this, Base, TileIndex, Lane, Field);
  if (K == Tiles && Tile == TileSize && Aligned && !Peel.empty())
    return tileLane(*this, Base,
                    "(" + Base.str() + "." + Shift.str() + " + " + Peel.str() +
                        ") / " + T + " + " + TileIndex.str(),
                    Lane, Field);
  // Other members index the element itself. The sum is parenthesized here,
  // for brackets and division alike.
  std::string Index = "(" + (Peel.empty() ? "" : Peel.str() + " + ") +
                      TileIndex.str() + " * " + T + " + " + Lane.str() + ")";
  return spell(*this, Base, Index, Index, Field, Shift);
}

std::string HandleMember::length(StringRef N) const {
  if (K != Tiles)
    return N.str();
  return "(" + parenthesize(N) + " + " + std::to_string(Tile - 1) + ") / " +
         std::to_string(Tile);
}
