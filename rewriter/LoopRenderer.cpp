//===- LoopRenderer.cpp - Tile/lane loops, walking pointers ---------------===//
//
// See LoopRenderer.h.
//
//===----------------------------------------------------------------------===//
#include "rewriter/LoopRenderer.h"
#include "analysis/StripMining.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

/// Whether the code \p Text names the identifier \p Name (as a token: not
/// in a comment or a string).
static bool namesIdentifier(StringRef Text, StringRef Name,
                            const LangOptions &LO) {
  std::string Buffer = Text.str(); // The lexer wants a terminating null.
  Lexer Raw(SourceLocation(), LO, Buffer.data(), Buffer.data(),
            Buffer.data() + Buffer.size());
  Token Tok;
  while (true) {
    bool Last = Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == Name)
      return true;
    if (Last || Tok.is(tok::eof))
      return false;
  }
}

/// The statements of a block without its braces, to share the scope of
/// what a strip-mined loop declares before them (the variable a loop
/// declares cannot be declared again in its body's block); any other
/// statement as it is.
static std::string blockContents(StringRef Body) {
  Body = Body.trim();
  if (Body.starts_with("{") && Body.ends_with("}"))
    return Body.drop_front().drop_back().trim().str();
  return Body.str();
}

//===----------------------------------------------------------------------===//
// Where strip-mined loops go
//===----------------------------------------------------------------------===//

std::optional<LoopRenderer::LoopPlace>
LoopRenderer::loopPlace(const Stmt *S, const FileRange &Range) {
  unsigned Column = SM.getExpansionColumnNumber(S->getBeginLoc()) - 1;
  const Stmt *P = parent(S);
  if (!P || isa<CompoundStmt>(P))
    return LoopPlace{Range, Column, LoopPlace::Plain};
  // The end of the parent's token just before S.
  SourceLocation Before;
  unsigned Length = 1;
  if (const auto *For = dyn_cast<ForStmt>(P))
    Before = For->getRParenLoc();
  else if (const auto *While = dyn_cast<WhileStmt>(P))
    Before = While->getRParenLoc();
  else if (const auto *Range = dyn_cast<CXXForRangeStmt>(P))
    Before = Range->getRParenLoc();
  else if (const auto *If = dyn_cast<IfStmt>(P)) {
    Before = If->getThen() == S ? If->getRParenLoc() : If->getElseLoc();
    Length = If->getThen() == S ? 1 : 4;
  }
  if (Before.isValid() && Before.isFileID()) {
    auto [File, Offset] = SM.getDecomposedLoc(Before);
    Offset += Length;
    if (File == Range.File && Offset <= Range.Begin &&
        SM.getBufferData(File).slice(Offset, Range.Begin).trim().empty())
      return LoopPlace{{File, Offset, Range.End},
                       SM.getExpansionColumnNumber(P->getBeginLoc()) - 1,
                       LoopPlace::BlockAfterParent};
  }
  return LoopPlace{Range, Column, LoopPlace::Block};
}

std::string LoopRenderer::placeLoops(const LoopPlace &Place,
                                     const std::string &Code) {
  if (Place.Braces == LoopPlace::Plain)
    return format(Code, Place.Indent);
  std::string Block = format("{\n" + Code + "\n}", Place.Indent);
  return Place.Braces == LoopPlace::Block ? Block : " " + Block;
}

/// `for (auto &&p : v) body` over a container with tiles becomes a loop
/// over whole tiles, whose lane loop binds p to v.element(p_tile, p_lane)
/// (no division; it vectorizes), and a loop over the last, partial tile:
///
///   for (std::size_t p_tile = 0; p_tile < v.size() / 16; ++p_tile) {
///     for (std::size_t p_lane = 0; p_lane < 16; ++p_lane) {
///       auto &&p = v.element(p_tile, p_lane);
///       body
///     }
///   }
///   for (std::size_t p_i = v.size() / 16 * 16; p_i < v.size(); ++p_i) {
///     auto &&p = v[p_i];
///     body
///   }
void LoopRenderer::rangeForLoop(const CXXForRangeStmt *S, const RecordDecl *RD,
                                bool Unused) {
  uint64_t Tile = Layouts.lookup(RD)->containerTile();
  const Expr *Range = S->getRangeInit();
  const VarDecl *Var = S->getLoopVariable();
  if (!Tile || instantiation() || clone() || !stripMinableRangeFor(S, Ctx))
    return;
  // A body that never names the variable gains nothing.
  std::optional<SourceRange> BodySR = statementRange(S->getBody());
  if (Unused || !BodySR)
    return;
  auto ForRange = rangeOf(SourceRange(S->getBeginLoc(), BodySR->getEnd()));
  auto BodyRange = rangeOf(*BodySR);
  // The variable's own range runs on to the range (its initializer).
  auto VarRange = rangeOf(SourceRange(Var->getBeginLoc(), Var->getLocation()));
  auto RangeRange = rangeOf(Range->getSourceRange());
  std::optional<LoopPlace> Place =
      ForRange ? loopPlace(S, *ForRange) : std::nullopt;
  if (!Place || !BodyRange || !VarRange || !RangeRange ||
      !LoopSiteStarts.insert({ForRange->File.getHashValue(), ForRange->Begin})
           .second)
    return;
  std::string Name = Var->getNameAsString();
  std::string TileVar = Name + "_tile", LaneVar = Name + "_lane",
              IndexVar = Name + "_i";
  unsigned BodyB = BodyRange->Begin, BodyE = BodyRange->End;
  unsigned VarB = VarRange->Begin, VarE = VarRange->End;
  unsigned RangeB = RangeRange->Begin, RangeE = RangeRange->End;
  unsigned SiteIndex = State.LoopSites.size();
  Site Loop{Place->Range.File, Place->Range.Begin, Place->Range.End, RD,
            nullptr,           /*Needs=*/0};
  Loop.Render = [=](const EditSet &ES, const LaneContext *) {
    const Site *Self = &State.LoopSites[SiteIndex];
    // Nothing inside the loop is edited yet: its sites are this loop's.
    auto Edited = [&](unsigned B, unsigned E) {
      EditSet Part = ES.emptyCopy();
      applySites(Part, B, E, nullptr, Self);
      return Part.textOf(B, E);
    };
    std::string Decl = Edited(VarB, VarE);
    std::string Body = blockContents(Edited(BodyB, BodyE));
    std::string V = parenthesize(Edited(RangeB, RangeE));
    std::string T = std::to_string(Tile);
    std::string Tiles = V + ".size() / " + T;
    std::string Code =
        "for (std::size_t " + TileVar + " = 0; " + TileVar + " < " + Tiles +
        "; ++" + TileVar + ") {\n" + "for (std::size_t " + LaneVar + " = 0; " +
        LaneVar + " < " + T + "; ++" + LaneVar + ") {\n" + Decl + " = " + V +
        ".element(" + TileVar + ", " + LaneVar + ");\n" + Body + "\n}\n}\n" +
        "for (std::size_t " + IndexVar + " = " + Tiles + " * " + T + "; " +
        IndexVar + " < " + V + ".size(); ++" + IndexVar + ") {\n" + Decl +
        " = " + V + "[" + IndexVar + "];\n" + Body + "\n}";
    return placeLoops(*Place, Code);
  };
  State.LoopSites.push_back(std::move(Loop));
}

/// `for (T *p = a; p < a + n; ++p) ... p->f ...` becomes an index loop:
/// `for (int p_i = 0; p_i < n; ++p_i) ... a.f[p_i] ...`.
/// A walking-pointer loop (UseClassifier::walkingLoop) becomes a counted
/// loop over the array: `for (T *p = a; p < a + n; ++p) p->x` ->
/// `for (int p_i = 0; p_i < n; ++p_i) <a's x at p_i>`.
bool LoopRenderer::walkingPointerLoop(const ForStmt *For) {
  std::optional<WalkingLoop> W = Uses.walkingLoop(For);
  if (!W || State.keptOnHost(W->Array->getDecl()))
    return false;
  const RecordDecl *RD = handleRecord(W->Pointer->getType());
  const HandleLayout *L = Layouts.lookup(RD);
  std::string Index = W->Pointer->getNameAsString() + "_i";
  std::string Type = W->Count->IgnoreImpCasts()->getType().getAsString(
      Ctx.getPrintingPolicy());
  std::string Array = W->Array->getDecl()->getNameAsString();
  auto CountText = textFn(W->Count);
  auto Header =
      charRangeOf(For->getForLoc(), For->getRParenLoc().getLocWithOffset(1));
  if (!CountText || !Header) {
    cannotRender(RD, For->getForLoc(), "walking-pointer loop header");
    return true;
  }
  State.WalkingPointers.insert(W->Pointer);
  Sites.push_back({Header->File, Header->Begin, Header->End, RD,
                   [=](const EditSet &ES, const LaneContext *) {
                     return "for (" + Type + " " + Index + " = 0; " + Index +
                            " < " + CountText(ES) + "; ++" + Index + ")";
                   }});
  for (const MemberExpr *ME : W->Accesses) {
    unsigned F = cast<FieldDecl>(ME->getMemberDecl())->getFieldIndex();
    addSite(
        RD, ME->getSourceRange(), ME->getExprLoc(),
        [=](const EditSet &, const LaneContext *) {
          return L->access(Array, Index, F);
        },
        "a field access through a walking pointer");
  }
  return true;
}

void LoopRenderer::loop(const ForStmt *For) {
  if (instantiation()) // One text for every instantiation.
    return;
  if (walkingPointerLoop(For) || clone())
    return;
  if (std::optional<CountedLoop> L = stripMinableLoop(For, Ctx))
    PendingLoops.push_back({For, L->InductionVar, L->Declared, L->Bound});
}

void LoopRenderer::stripMineLoops() {
  for (const CandidateLoop &L : PendingLoops)
    loopSite(L);
}

void LoopRenderer::loopSite(const CandidateLoop &Loop) {
  const ForStmt *For = Loop.For;
  std::optional<SourceRange> BodySR = statementRange(For->getBody());
  if (!BodySR)
    return;
  auto ForRange = rangeOf(SourceRange(For->getBeginLoc(), BodySR->getEnd()));
  auto BodyRange = rangeOf(*BodySR);
  auto BoundRange = rangeOf(Loop.Bound->getSourceRange());
  if (!ForRange || !BodyRange || !BoundRange)
    return;
  // The tile size of the first tiled array the loop indexes with its
  // induction variable; arrays with other tile sizes use the flat form.
  const TiledUse *Use = nullptr;
  for (const TiledUse &U : State.TiledIndexUses) {
    auto [File, At] =
        SM.getDecomposedLoc(SM.getExpansionLoc(U.Handle->getExprLoc()));
    if (U.IndexVar == Loop.InductionVar && File == BodyRange->File &&
        At >= BodyRange->Begin && At < BodyRange->End) {
      Use = &U;
      break;
    }
  }
  std::optional<LoopPlace> Place = loopPlace(For, *ForRange);
  if (!Use || !Place ||
      !LoopSiteStarts.insert({ForRange->File.getHashValue(), ForRange->Begin})
           .second)
    return;
  const RecordDecl *RD = Use->Record;
  std::string IV = Loop.InductionVar->getNameAsString();
  LaneContext Lane{Loop.InductionVar, IV + "_tile",  IV + "_lane", Use->Tile,
                   /*Peel=*/"",       /*Aligned=*/{}};
  auto Residues = peelResidues(Loop, *BodyRange, Lane);
  std::string Spelled =
      Loop.InductionVar->getType().getAsString(Ctx.getPrintingPolicy());
  // The declared type as the rewrite spells it (a container's
  // `std::array<T, N>::size_type` names the new container).
  std::optional<FileRange> TypeRange;
  if (const TypeSourceInfo *TSI = Loop.InductionVar->getTypeSourceInfo();
      TSI && Loop.Declared)
    TypeRange = rangeOf(TSI->getTypeLoc().getSourceRange());
  unsigned BodyB = BodyRange->Begin, BodyE = BodyRange->End;
  unsigned BoundB = BoundRange->Begin, BoundE = BoundRange->End;
  bool Declared = Loop.Declared;
  // The loop names nothing new itself; the sites in its body do.
  Site S{Place->Range.File, Place->Range.Begin, Place->Range.End, RD, nullptr,
         /*Needs=*/0};
  unsigned SiteIndex = State.LoopSites.size();
  S.Render = [=](const EditSet &ES, const LaneContext *) {
    const Site *Self = &State.LoopSites[SiteIndex];
    // Nothing inside the body is edited yet: its sites are this loop's.
    // Nor is the bound (sizeof a / sizeof a[0] of an array a[N]).
    EditSet LaneEdits = ES.emptyCopy(), FlatEdits = ES.emptyCopy(),
            BoundEdits = ES.emptyCopy();
    applySites(LaneEdits, BodyB, BodyE, &Lane, Self);
    applySites(FlatEdits, BodyB, BodyE, nullptr, Self);
    applySites(BoundEdits, BoundB, BoundE, nullptr, Self);
    std::string T = std::to_string(Lane.Tile);
    std::string Type = Spelled;
    if (TypeRange) {
      EditSet TypeEdits = ES.emptyCopy();
      applySites(TypeEdits, TypeRange->Begin, TypeRange->End, nullptr, Self);
      Type = TypeEdits.textOf(TypeRange->Begin, TypeRange->End);
    }
    std::string Bound = BoundEdits.textOf(BoundB, BoundE);
    std::string Decl = Declared ? Type + " " : "";
    std::string LaneBody = LaneEdits.textOf(BodyB, BodyE);
    // Declare the induction variable in the lane loop only if the body still
    // reads it (an unused variable would be a new warning).
    std::string First = Lane.Peel.empty() ? "" : Lane.Peel + " + ";
    std::string SetIV = !Declared || namesIdentifier(LaneBody, IV, LO)
                            ? Decl + IV + " = " + First + Lane.TileVar + " * " +
                                  T + " + " + Lane.LaneVar + ";\n"
                            : "";
    std::string Flat = FlatEdits.textOf(BodyB, BodyE);
    LoopTexts Texts{Type, Decl, IV, Bound, SetIV, LaneBody, Flat, Declared};
    return placeLoops(*Place, Lane.Peel.empty()
                                  ? tiledLoops(Lane, Texts)
                                  : peeledLoops(Lane, Residues(ES), Texts));
  };
  State.LoopSites.push_back(std::move(S));
}

/// The loops of a strip-mined loop: whole tiles in lanes, then the last,
/// partial tile flat (docs/rewriting.md, "Strip-mining").
std::string LoopRenderer::tiledLoops(const LaneContext &Lane,
                                     const LoopTexts &L) {
  std::string T = std::to_string(Lane.Tile);
  std::string Tiles = parenthesize(L.Bound) + " / " + T;
  // A variable declared before the loop ends where the loop left it: at 0
  // when the bound is not above 0 (a division rounds a negative one up).
  std::string Rest = Tiles + " * " + T;
  if (!L.Declared)
    Rest = "0 < " + parenthesize(L.Bound) + " ? " + Rest + " : 0";
  const std::string &Tile = Lane.TileVar, &LaneVar = Lane.LaneVar;
  return "for (" + L.Type + " " + Tile + " = 0; " + Tile + " < " + Tiles +
         "; ++" + Tile + ") {\n" + "for (" + L.Type + " " + LaneVar + " = 0; " +
         LaneVar + " < " + T + "; ++" + LaneVar + ") {\n" + L.SetIV +
         blockContents(L.LaneBody) + "\n}\n}\n" + "for (" + L.Decl + L.IV +
         " = " + Rest + "; " + L.IV + " < " + L.Bound + "; ++" + L.IV + ")\n" +
         L.Flat;
}

/// The residues modulo the tile size of the handles a strip-mined loop
/// reaches in lanes, where a record's tiled handles count the elements
/// their tiles skip (a program taking sub-arrays): the handles the loop can
/// peel for (peels, holdsStill) join \p Lane's aligned ones, with their count
/// of skipped elements modulo the tile; a tiled handle that counts none
/// starts at a tile boundary (residue 0). Sets Lane.Peel where some handle
/// is aligned; the other moved handles take the flat form in the lanes.
std::function<std::vector<std::string>(const EditSet &)>
LoopRenderer::peelResidues(const CandidateLoop &Loop, const FileRange &Body,
                           LaneContext &Lane) {
  std::vector<std::function<std::string(const EditSet &)>> Texts;
  std::vector<std::string> Shifts;
  bool AtBoundary = false;
  bool Peels = peels(
      Loop.For, CountedLoop{Loop.InductionVar, Loop.Declared, Loop.Bound}, Ctx);
  for (const TiledUse &U : State.TiledIndexUses) {
    auto [File, At] =
        SM.getDecomposedLoc(SM.getExpansionLoc(U.Handle->getExprLoc()));
    if (U.IndexVar != Loop.InductionVar || U.Tile != Lane.Tile ||
        File != Body.File || At < Body.Begin || At >= Body.End)
      continue;
    const HandleLayout *L = Layouts.lookup(U.Record);
    if (!L || L->shiftName().empty()) {
      AtBoundary = true;
      continue;
    }
    if (!Peels || Lane.aligned(U.Handle) || !holdsStill(U.Handle, Loop.For, SM))
      continue;
    auto Text = handleTextFn(U.Handle);
    if (!Text)
      continue;
    Lane.Aligned.push_back(U.Handle);
    Texts.push_back(Text);
    Shifts.push_back(L->shiftName());
  }
  if (Lane.Aligned.empty())
    return nullptr;
  Lane.Peel = Lane.InductionVar->getNameAsString() + "_peel";
  std::string T = std::to_string(Lane.Tile);
  return [=](const EditSet &ES) {
    std::vector<std::string> Out;
    if (AtBoundary)
      Out.push_back("0");
    for (unsigned I = 0; I < Texts.size(); ++I) {
      std::string R = Texts[I](ES) + "." + Shifts[I] + " % " + T;
      if (!llvm::is_contained(Out, R))
        Out.push_back(R);
    }
    return Out;
  };
}

/// The loop of a strip-mined loop that peels: the iterations before the
/// first tile boundary of the aligned handles run on their own, flat, then
/// whole tiles in lanes from there, then the rest, flat. Where the handles
/// do not share their position in a tile (\p Residues differ), the peel
/// runs every iteration:
///
///   {
///     int i_peel = (int)((16 - rB.offset % 16) % 16);
///     if (rB.offset % 16 != 0 || !(i_peel < n)) { /* one residue: no 1st test
///     */
///       for (int i = 0; i < n; ++i) flat body   /* the loop as written */
///     } else { /* braces: a body's own if must not take this else */
///       for (int i = 0; i < i_peel; ++i) flat body
///       for (int i_tile = 0; i_tile < (n - i_peel) / 16; ++i_tile)
///         for (int i_lane = 0; i_lane < 16; ++i_lane) {
///           int i = i_peel + i_tile * 16 + i_lane;
///           ... rB.tiles[(rB.offset + i_peel) / 16 + i_tile].x[i_lane] ...
///         }
///       for (int i = i_peel + (n - i_peel) / 16 * 16; i < n; ++i) flat body
///     }
///   }
///
/// The bound is compared as the loop compares it, so a bound the loop never
/// reaches (n <= 0, or a signed bound below an unsigned variable) runs the
/// loop as written, and a variable declared before it ends where it did.
std::string LoopRenderer::peeledLoops(const LaneContext &Lane,
                                      const std::vector<std::string> &Residues,
                                      const LoopTexts &L) {
  const std::string &Type = L.Type, &Decl = L.Decl, &IV = L.IV,
                    &Bound = L.Bound, &SetIV = L.SetIV, &LaneBody = L.LaneBody,
                    &Flat = L.Flat;
  std::string T = std::to_string(Lane.Tile);
  const std::string &P = Lane.Peel, &TileVar = Lane.TileVar,
                    &LaneVar = Lane.LaneVar;
  std::string B = parenthesize(Bound);
  // The first residue that is not 0 gives the peel (all are 0, or differ).
  std::string First = Residues.front() == "0" && Residues.size() > 1
                          ? Residues[1]
                          : Residues.front();
  std::string Differ;
  for (unsigned I = 1; I < Residues.size(); ++I)
    Differ += Residues[0] + " != " + Residues[I] + " || ";
  std::string Tiles = "(" + B + " - " + P + ") / " + T;
  auto FlatLoop = [&](const std::string &From, const std::string &To) {
    return "for (" + Decl + IV + " = " + From + "; " + IV + " < " + To +
           "; ++" + IV + ")\n" + Flat + "\n";
  };
  return "{\n" + Type + " " + P + " = (" + Type + ")((" + T + " - " + First +
         ") % " + T + ");\n" + "if (" + Differ + "!(" + P + " < " + B +
         ")) {\n" + FlatLoop("0", B) + "} else {\n" + FlatLoop("0", P) +
         "for (" + Type + " " + TileVar + " = 0; " + TileVar + " < " + Tiles +
         "; ++" + TileVar + ") {\n" + "for (" + Type + " " + LaneVar +
         " = 0; " + LaneVar + " < " + T + "; ++" + LaneVar + ") {\n" + SetIV +
         blockContents(LaneBody) + "\n}\n}\n" +
         FlatLoop(P + " + " + Tiles + " * " + T, B) + "}\n}";
}

} // namespace dlopt::rewrite
