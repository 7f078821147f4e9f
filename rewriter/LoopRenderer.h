//===- LoopRenderer.h - Tile/lane loops, walking pointers -------*- C++ -*-===//
//
// Internal to rewriter/ (see Renderer.h). A loop whose induction variable
// indexes a tiled array, or a range-for over a container with tiles, becomes
// tile and lane loops plus a remainder, so that the accesses in the lanes
// divide nothing (docs/design.md, "Rewriting principles"). A walking-pointer
// loop becomes a counted loop over its array.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_LOOPRENDERER_H
#define DLOPT_REWRITER_LOOPRENDERER_H

#include "rewriter/Renderer.h"
#include <set>

namespace dlopt::rewrite {

class LoopRenderer : public Renderer {
public:
  using Renderer::Renderer;

  /// A for loop: a walking-pointer loop is rendered at once; a loop the
  /// analysis finds strip-minable (analysis/StripMining.h) is a candidate
  /// once every tiled access is known.
  void loop(const clang::ForStmt *For);
  /// Strip-mines the candidate loops that index a tiled array.
  void stripMineLoops();
  /// Strip-mining over a container with tiles. \p Unused: the body never
  /// names the loop variable.
  void rangeForLoop(const clang::CXXForRangeStmt *S,
                    const clang::RecordDecl *RD, bool Unused);

private:
  struct CandidateLoop {
    const clang::ForStmt *For;
    const clang::VarDecl *InductionVar;
    bool Declared; // for (int i = 0; ...) rather than for (i = 0; ...)
    const clang::Expr *Bound;
  };

  void loopSite(const CandidateLoop &Loop);
  std::function<std::vector<std::string>(const EditSet &)>
  peelResidues(const CandidateLoop &Loop, const FileRange &Body,
               LaneContext &Lane);
  /// The texts a strip-mined loop is made of: the variable's type, its
  /// declaration ("int " or "" where declared before), name and bound, the
  /// statement that sets it in the lanes, the body as the lanes and as the
  /// flat iterations render it.
  struct LoopTexts {
    std::string Type, Decl, IV, Bound, SetIV, LaneBody, Flat;
    bool Declared;
  };
  static std::string tiledLoops(const LaneContext &Lane, const LoopTexts &L);
  static std::string peeledLoops(const LaneContext &Lane,
                                 const std::vector<std::string> &Residues,
                                 const LoopTexts &L);
  bool walkingPointerLoop(const clang::ForStmt *For);

  /// Where the loops that replace loop \p S go (\p Range: the loop, body
  /// included). Two loops in place of one that is the body of another
  /// statement (a for, an if) must be one block; its `{` opens on that
  /// statement's line when only blanks lie between.
  struct LoopPlace {
    FileRange Range;
    unsigned Indent;
    enum { Plain, Block, BlockAfterParent } Braces;
  };
  std::optional<LoopPlace> loopPlace(const clang::Stmt *S,
                                     const FileRange &Range);
  /// The loops' code, formatted, for \p Place.
  std::string placeLoops(const LoopPlace &Place, const std::string &Code);

  std::vector<CandidateLoop> PendingLoops;
  /// Loops already strip-mined, by (file, offset): a class template's
  /// members are visited once per instantiation.
  std::set<std::pair<unsigned, unsigned>> LoopSiteStarts;
};

} // namespace dlopt::rewrite

#endif
