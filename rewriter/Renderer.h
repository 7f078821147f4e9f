//===- Renderer.h - What the renderers of a rewrite share -------*- C++ -*-===//
//
// Internal to rewriter/. A rewrite turns the uses the analysis classified
// into Sites: a range of one file (the main file or a header it includes;
// never a system header) and a function that renders its new text from the
// current EditSet, so an enclosing site sees the rewritten text of what it
// contains (a[b[i].k].x). Sites are applied smallest first. A strip-mined
// loop is a site whose rendering applies the sites of its body twice, once
// per lane and once for the remainder.
//
// One renderer per group of use kinds, each a Renderer over one shared
// RewriteState:
//
//   UseRenderer.cpp          the C handle's uses: accesses, elements,
//                            allocation, release, null tests, sizeof
//   DeclarationRenderer.cpp  variables, parameters, return types, storage
//   LoopRenderer.cpp         tile/lane loops and walking pointers
//   ContainerRenderer.cpp    C++: std::vector<T> and std::array<T, N>
//                            become the generated containers
//   Renderer.cpp             what they share: file ranges of AST nodes,
//                            sites, the current text of an expression,
//                            applying sites, formatting
//
// LayoutRewriter (RecordRewriter.cpp) walks the AST, hands each node to
// its renderer, and applies the sites. Renderers decide nothing: what can
// be rewritten is the analysis's (analysis/UseClassifier.h); a use they
// cannot render is a bug, reported with cannotRender.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_RENDERER_H
#define DLOPT_REWRITER_RENDERER_H

#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "rewriter/RecordRewriter.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Format/Format.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>

namespace dlopt {
class WalkContext;
} // namespace dlopt

namespace dlopt::rewrite {

/// Inside a strip-mined loop: the induction variable's tile and lane. A
/// loop that peels the iterations before a tile boundary (its lanes start
/// at element Peel) reaches the tiles of the Aligned handles, which count
/// the elements their tiles skip, without a division too.
struct LaneContext {
  const clang::VarDecl *InductionVar;
  std::string TileVar, LaneVar;
  uint64_t Tile;
  /// The variable holding the first element of the lanes; empty where the
  /// loop does not peel (the lanes start at 0).
  std::string Peel;
  std::vector<const clang::Expr *> Aligned;

  bool aligned(const clang::Expr *Handle) const {
    return llvm::is_contained(Aligned, Handle);
  }
};

/// A range of one file's text, in offsets.
struct FileRange {
  clang::FileID File;
  unsigned Begin, End;
};

struct Site {
  clang::FileID File;
  unsigned Begin, End;
  const clang::RecordDecl *Record;
  std::function<std::string(const EditSet &, const LaneContext *)> Render;
  /// The generated declarations the new text names (HandleLayout::Helper
  /// bits: the handle, the container, or neither).
  uint64_t Needs = HandleLayout::HandleType;
  /// The template instantiation whose overload the site is in (its range
  /// is in the template's text, which stays as it is), or null.
  const clang::FunctionDecl *Clone = nullptr;
};

/// An access a[i].f of a tiled array, or v[i] of a container with tiles:
/// what strip-mining a loop over i needs to know.
struct TiledUse {
  const clang::Expr *Handle;
  const clang::VarDecl *IndexVar;
  uint64_t Tile;
  const clang::RecordDecl *Record;
};

/// The state of one rewrite of one translation unit.
struct RewriteState {
  RewriteState(clang::ASTContext &Ctx, std::vector<RewriteTarget> &Targets);

  clang::ASTContext &Ctx;
  /// The records rewritten here (a refused one leaves).
  llvm::DenseMap<const clang::RecordDecl *, const HandleLayout *> Layouts;
  /// Those taken at the OpenCL or CUDA boundary (RewriteTarget::Boundary).
  llvm::SmallPtrSet<const clang::RecordDecl *, 4> Boundary;
  /// In a CUDA unit, whether \p D (a variable, parameter, pointer member
  /// or function) holds the host's own array of a record taken at the
  /// boundary: its uses keep their layout (analysis/CudaMemory.h).
  bool keptOnHost(const clang::ValueDecl *D) const;
  /// Whether \p V is a copy between such a host array and an array in the
  /// layout: rendered converting (UseRenderer::cudaSite).
  bool convertsAtBoundary(const UseVerdict &V) const;
  /// The program's OpenCL buffer holders (LayoutPlan::BufferHolders).
  const std::map<std::string, std::string> *KnownBuffers = nullptr;
  /// The program's allocator functions defined in other files, with the
  /// function releasing their blocks (LayoutPlan::Allocators).
  const std::map<std::string, std::string> *ProgramAllocators = nullptr;
  /// What each use is (the analysis's classification).
  UseClassifier Uses;
  std::vector<Site> Sites, LoopSites;
  /// The instantiations given an overload of their own, in walk order
  /// (UseClassifier::clonedInstantiation).
  std::vector<const clang::FunctionDecl *> Clones;
  /// While applying: the sites and loop sites of the records still
  /// rewritten in the file being edited, ordered by position.
  std::vector<const Site *> ActiveSites, ActiveLoops;
  std::vector<Refusal> Refusals;
  /// Sites whose rendering was an error (overlapping edits).
  std::vector<std::pair<const clang::RecordDecl *, std::string>> ApplyErrors;
  std::vector<TiledUse> TiledIndexUses;
  /// The pointers of walking-pointer loops, declared in the loop headers
  /// those loops' sites replace.
  llvm::SmallPtrSet<const clang::Decl *, 4> WalkingPointers;
  clang::format::FormatStyle Style = clang::format::getLLVMStyle();
  /// The walk collecting sites, while it runs (see Renderer::instantiation).
  const WalkContext *Walk = nullptr;
  /// Renders one classified use, whichever renderer its kind is for
  /// (LayoutRewriter::render).
  std::function<void(const clang::RecordDecl *, const UseVerdict &)> Render;
};

/// The base of the renderers: the shared state, and what they all need to
/// turn AST nodes into sites.
class Renderer {
public:
  explicit Renderer(RewriteState &State);

  /// Renders a classified use (RewriteState::Render); a refusal that
  /// reaches here is a bug (cannotRender).
  void render(const clang::RecordDecl *RD, const UseVerdict &V);

  /// Applies to \p ES the active sites and loops within [\p Begin, \p End),
  /// smallest first, rendered for \p Lane (null outside a lane loop). The
  /// sites inside another loop in the range are that loop's to render;
  /// \p Enclosing, the loop being rendered, is not applied again.
  void applySites(EditSet &ES, unsigned Begin, unsigned End,
                  const LaneContext *Lane, const Site *Enclosing) const;

  /// The style of \p File: its .clang-format if it has one, else LLVM's.
  /// (Per file, so that a header reads the same from every includer.)
  void useStyleOf(clang::FileID File);
  /// Generated code (declarations, strip-mined loops) in the style of the
  /// file being edited (see useStyleOf).
  std::string format(llvm::StringRef Code, unsigned Indent,
                     bool DropSemicolon = false) const;

  /// A function left as it is: a qsort comparator, which works on copies
  /// of elements (UseClassifier::keptComparator).
  bool keptAsWritten(const clang::FunctionDecl *FD) const {
    return Uses.keptComparator(FD);
  }

  /// A use the analysis admitted that cannot be rendered: a bug, reported
  /// as an internal error (nothing is written). Renderers refuse nothing
  /// themselves: what can be rewritten is decided in analysis/.
  void cannotRender(const clang::RecordDecl *RD, clang::SourceLocation Loc,
                    std::string Reason) {
    State.Refusals.push_back({RD, std::move(Reason), Loc, /*Internal=*/true});
  }

protected:
  /// The record being rewritten whose handle a declaration of type \p T
  /// is (T *, T[N]; not T **), or null.
  const clang::RecordDecl *handleRecord(clang::QualType T) const {
    return Uses.handleRecord(T);
  }
  /// T if \p Ty is a std::vector<T> or std::array<T, N> (or a reference to
  /// one) that becomes a generated container.
  const clang::RecordDecl *containerRecord(clang::QualType Ty) const {
    return Uses.containerRecord(Ty);
  }
  /// The function template instantiation being visited, if any. Its text
  /// serves every instantiation, so only edits that read right for all of
  /// them are made there (`auto &&` for a range-for variable); uses that
  /// would need the record's name are refused by the analysis, and loops
  /// are not strip-mined.
  const clang::FunctionDecl *instantiation() const;
  /// The template instantiation being visited that gets an overload of its
  /// own (WalkContext::clone()): rendered as any function, but its loops
  /// are not strip-mined (the copy of its text is made after the walk).
  const clang::FunctionDecl *clone() const;

  // --- Ranges and text ---

  /// Files dlopt may edit: real files outside system headers. Headers are
  /// edited alike from every translation unit that includes them, so the
  /// whole-program driver can check that all agree.
  bool editable(clang::FileID File) const;
  std::optional<FileRange> fileRangeOf(clang::CharSourceRange CR) const;
  std::optional<FileRange> rangeOf(clang::SourceRange R) const {
    return fileRangeOf(clang::CharSourceRange::getTokenRange(R));
  }
  std::optional<FileRange> charRangeOf(clang::SourceLocation B,
                                       clang::SourceLocation E) const {
    return fileRangeOf(clang::CharSourceRange::getCharRange(B, E));
  }
  /// A statement's range; one that is not a block ends at its `;`, which
  /// the AST's range omits.
  std::optional<clang::SourceRange> statementRange(const clang::Stmt *S) const;
  /// The nearest statement (or expression) holding \p S; null if none.
  const clang::Stmt *parent(const clang::Stmt *S) const;

  /// The current text of an expression (with nested edits applied).
  std::function<std::string(const EditSet &)> textFn(const clang::Expr *E);
  /// The text of handle expression \p Handle, to put a member after:
  /// `*out` (HandlePointers.cpp) in parentheses, `(*out).x[i]`.
  std::function<std::string(const EditSet &)>
  handleTextFn(const clang::Expr *Handle);
  /// The source of one field's initializer; nested lists are rebuilt from
  /// their semantic form, so designators and brace elision come out plain.
  std::function<std::string(const EditSet &)>
  initializerText(const clang::Expr *E);

  // --- Sites ---

  /// \p What names the site in the message of a render error. \p Needs:
  /// the generated declarations the new text names (see Site).
  void addSite(
      const clang::RecordDecl *RD, clang::SourceRange R,
      clang::SourceLocation Loc,
      std::function<std::string(const EditSet &, const LaneContext *)> Render,
      const char *What, uint64_t Needs = HandleLayout::HandleType);
  /// \p Range becomes \p Text, whatever the edits inside it.
  void textSite(const clang::RecordDecl *RD, const FileRange &Range,
                std::string Text, uint64_t Needs = HandleLayout::HandleType);

  RewriteState &State;
  // The parts of State every renderer reads, by their usual names.
  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  const clang::LangOptions &LO;
  llvm::DenseMap<const clang::RecordDecl *, const HandleLayout *> &Layouts;
  UseClassifier &Uses;
  std::vector<Site> &Sites;
};

} // namespace dlopt::rewrite

#endif
