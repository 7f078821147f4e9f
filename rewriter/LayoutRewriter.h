//===- LayoutRewriter.h - The state of one rewrite (internal) ---*- C++ -*-===//
//
// Internal to rewriter/: shared by the files that together turn a plan into
// edits. Every edit is a Site: a range of one file (the main file or a header
// it includes; never a system header) and a function that
// renders its new text from the current EditSet, so an enclosing site sees
// the rewritten text of what it contains (a[b[i].k].x). Sites are applied
// smallest first. A strip-mined loop is a site whose rendering applies the
// sites of its body twice, once per lane and once for the remainder.
//
// One class, LayoutRewriter, implemented across:
//
//   RecordRewriter.cpp       collecting sites, applying them, the entry point
//   DeclarationRewriter.cpp  variables, parameters, return types, storage
//   UseRewriter.cpp          every use of a handle: accesses, elements,
//                            allocation, free, null tests, sizeof
//   StripMining.cpp          tile/lane loops and walking pointers
//   ContainerRewriter.cpp    C++: std::vector<T> becomes the generated
//                            container; range-for and auto variables
//   RewriteText.cpp          what the others share: file ranges of AST nodes,
//                            sites, the current text of an expression, where
//                            strip-mined loops go, formatting
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_LAYOUTREWRITER_H
#define DLOPT_REWRITER_LAYOUTREWRITER_H

#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "rewriter/RecordRewriter.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Format/Format.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>
#include <set>

namespace dlopt {
class WalkContext;
} // namespace dlopt

namespace dlopt::rewrite {

/// Inside a strip-mined loop: the induction variable's tile and lane.
struct LaneContext {
  const clang::VarDecl *InductionVar;
  std::string TileVar, LaneVar;
  uint64_t Tile;
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
  unsigned Needs = HandleLayout::HandleType;
};

class LayoutRewriter {
public:
  LayoutRewriter(clang::ASTContext &Ctx, std::vector<RewriteTarget> &Targets);

  RewriteResult run(std::vector<RewriteTarget> &Targets);

  // Called while collecting sites (RecordRewriter.cpp), one per kind of
  // node.

  // Declarations (DeclarationRewriter.cpp).
  void declaration(const clang::DeclaratorDecl *D);
  void functionReturn(const clang::FunctionDecl *FD);
  // Uses (UseRewriter.cpp).
  void reference(const clang::DeclRefExpr *DRE);
  void memberReference(const clang::MemberExpr *ME);
  /// `return NULL;` from a function that now returns a handle.
  void returnValue(const clang::ReturnStmt *RS, const clang::FunctionDecl *FD);
  void initList(const clang::InitListExpr *List);
  void arrayExpression(const clang::Expr *E);
  // Loops (StripMining.cpp).
  void loop(const clang::ForStmt *For);
  // std::vector<T> (ContainerRewriter.cpp).
  bool vectorType(clang::QualType T, clang::SourceRange R,
                  bool InTemplateArgument);
  void sizeofVector(const clang::UnaryExprOrTypeTraitExpr *E);
  void rangeFor(const clang::CXXForRangeStmt *S);
  void variable(const clang::VarDecl *VD);
  void memberCall(const clang::CXXMemberCallExpr *Call);
  void libraryCall(const clang::CallExpr *Call);
  void containerSubscript(const clang::CXXOperatorCallExpr *Op);

  /// The record being rewritten whose handle a declaration of type \p T
  /// is (T *, T[N]; not T **), or null.
  const clang::RecordDecl *handleRecord(clang::QualType T) const;

  /// The function template instantiation being visited, if any. Its text
  /// serves every instantiation, so only edits that read right for all of
  /// them are made there (`auto &&` for a range-for variable); uses that
  /// would need the record's name (T(v[i]).f(), a copy's `auto`, std::less
  /// <T>) are refused by the analysis, and loops are not strip-mined.
  const clang::FunctionDecl *instantiation() const;

private:
  // --- Collecting and applying sites (RecordRewriter.cpp) ---

  /// The generated declarations of a record go in its file, at Offset.
  struct Insertion {
    const clang::RecordDecl *Record;
    clang::FileID File;
    unsigned Offset;
  };

  /// Visits the AST: the sites of every use, declaration and loop.
  void collectSites();
  /// Where each target's generated declarations go (targets whose place
  /// cannot be rendered have none).
  std::vector<Insertion> insertions(std::vector<RewriteTarget> &Targets);
  /// A record in a named namespace whose handle a site names is a render
  /// error: the handle and its helpers are named unqualified at the uses.
  void refuseNamespacedHandles();
  /// Records refused, and those whose sites conflicted (now refused too),
  /// keep their layout: they leave Layouts.
  void dropRefusedRecords();
  /// The records this unit rewrites.
  llvm::SmallPtrSet<const clang::RecordDecl *, 4>
  usedRecords(const std::vector<Insertion> &Insertions) const;
  /// The sites of \p All whose records are still rewritten, in \p File, by
  /// position.
  std::vector<const Site *> activeSites(const std::vector<Site> &All,
                                        clang::FileID File) const;
  /// Every file's edits: the active sites applied and the \p Used records'
  /// declarations inserted. Conflicts are left in ApplyErrors.
  std::vector<EditSet>
  applyAll(const std::vector<Insertion> &Insertions,
           const llvm::SmallPtrSet<const clang::RecordDecl *, 4> &Used);

  /// Where the generated declarations of \p RD go.
  std::optional<std::pair<clang::FileID, unsigned>>
  insertionPoint(const clang::RecordDecl *RD);
  /// Applies to \p ES the active sites and loops within [\p Begin, \p End),
  /// smallest first, rendered for \p Lane (null outside a lane loop). The
  /// sites inside another loop in the range are that loop's to render;
  /// \p Enclosing, the loop being rendered, is not applied again.
  void applySites(EditSet &ES, unsigned Begin, unsigned End,
                  const LaneContext *Lane, const Site *Enclosing);

  // --- Declarations (DeclarationRewriter.cpp) ---

  /// `T a[N];` inside another record: the storage, regrouped in place.
  void arrayMember(const clang::RecordDecl *RD, const clang::FieldDecl *FD);
  /// `T a[N] = {...};`: the handle's storage, initialized field by field.
  void arrayDefinition(const clang::RecordDecl *RD, const clang::VarDecl *VD,
                       const clang::ConstantArrayType *CAT);
  /// `T *p = ...;`: the handle, and its initializer (null or an allocation).
  void pointerVariable(const clang::RecordDecl *RD, const clang::VarDecl *VD);

  /// The length of an array declaration as the user wrote it (a macro name
  /// stays a macro name).
  std::string lengthText(const clang::DeclaratorDecl *D, uint64_t Value);

  // --- Uses (UseRewriter.cpp) ---

  /// Renders a use the analysis classified.
  void render(const clang::RecordDecl *RD, const UseVerdict &V);
  /// a[i].f, (a + i)->f, p->f: the field of element i in its cluster.
  void fieldSite(const clang::RecordDecl *RD, const clang::MemberExpr *ME,
                 const clang::Expr *Handle, const clang::Expr *Index);
  /// a[i] read or written as a whole.
  void elementSite(const clang::RecordDecl *RD, const HandleUse &U);
  void allocationSite(const clang::RecordDecl *RD, const HandleUse &U);
  void freeSite(const clang::RecordDecl *RD, const clang::Expr *Release,
                const clang::Expr *Handle);
  /// `!p`, `p == NULL`, `if (p)`: the handle is null when its first
  /// member is.
  void nullTestSite(const clang::RecordDecl *RD, const clang::DeclRefExpr *DRE);
  /// `p = NULL`, `f(0)`: the null handle.
  void nullSite(const clang::RecordDecl *RD, const clang::Expr *Null);
  void sortSite(const clang::RecordDecl *RD, const clang::Expr *Last);
  void elementSizeSite(const clang::RecordDecl *RD, const clang::Expr *Size);
  void arrayContainerInitSite(const clang::RecordDecl *RD,
                              const clang::InitListExpr *List);

  // --- Loops (StripMining.cpp) ---

  /// An access a[i].f of a tiled array, or v[i] of a container with tiles.
  struct TiledUse {
    const clang::Expr *Handle;
    const clang::VarDecl *IndexVar;
    uint64_t Tile;
    const clang::RecordDecl *Record;
  };
  struct CandidateLoop {
    const clang::ForStmt *For;
    const clang::VarDecl *InductionVar;
    bool Declared; // for (int i = 0; ...) rather than for (i = 0; ...)
    const clang::Expr *Bound;
  };

  void loopSite(const CandidateLoop &Loop);
  bool walkingPointerLoop(const clang::ForStmt *For);
  /// Strip-mining over a container with tiles.
  /// \p Unused: the body never names the loop variable.
  void rangeForLoop(const clang::CXXForRangeStmt *S,
                    const clang::RecordDecl *RD, bool Unused);
  bool keepsSize(const clang::Stmt *Body, const clang::Expr *Container) const;
  bool isStableContainerSize(const clang::Expr *Bound,
                             const clang::Stmt *Body) const;

  // --- std::vector<T> (ContainerRewriter.cpp) ---

  /// T if \p Ty is a std::vector<T> (or a reference to one) that becomes
  /// the generated container.
  const clang::RecordDecl *containerRecord(clang::QualType Ty) const;
  void elementBinding(const clang::RecordDecl *RD, const HandleUse &U);
  void retype(const clang::RecordDecl *RD, const clang::VarDecl *VD,
              std::string Text);
  void elementCallSite(const clang::RecordDecl *RD,
                       const clang::CXXMemberCallExpr *Call);
  void swapSite(const clang::RecordDecl *RD, const clang::Expr *Callee);

  // --- Ranges, text and sites (RewriteText.cpp) ---

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
  const clang::Stmt *parent(const clang::Stmt *S);

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

  /// The current text of an expression (with nested edits applied).
  std::function<std::string(const EditSet &)> textFn(const clang::Expr *E);
  /// The source of one field's initializer; nested lists are rebuilt from
  /// their semantic form, so designators and brace elision come out plain.
  std::function<std::string(const EditSet &)>
  initializerText(const clang::Expr *E);

  /// \p Needs: the generated declarations the new text names (see Site).
  void addSite(
      const clang::RecordDecl *RD, clang::SourceRange R,
      clang::SourceLocation Loc,
      std::function<std::string(const EditSet &, const LaneContext *)> Render,
      const char *What, unsigned Needs = HandleLayout::HandleType);
  /// \p Range becomes \p Text, whatever the edits inside it.
  void textSite(const clang::RecordDecl *RD, const FileRange &Range,
                std::string Text, unsigned Needs = HandleLayout::HandleType);

  /// The style of \p File: its .clang-format if it has one, else LLVM's.
  /// (Per file, so that a header reads the same from every includer.)
  void useStyleOf(clang::FileID File);
  /// Generated code (declarations, strip-mined loops) in the style of the
  /// file being edited (see useStyleOf).
  std::string format(llvm::StringRef Code, unsigned Indent,
                     bool DropSemicolon = false) const;

  // --- Refusals ---

  /// A use the analysis admitted that cannot be rendered: a bug, reported
  /// as an internal error (nothing is written). The rewriter refuses
  /// nothing itself: what can be rewritten is decided in analysis/
  /// (UseClassifier).

  void cannotRender(const clang::RecordDecl *RD, clang::SourceLocation Loc,
                    std::string Reason) {
    Refusals.push_back({RD, std::move(Reason), Loc, /*Internal=*/true});
  }

  // --- State ---

  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  const clang::LangOptions &LO;
  clang::format::FormatStyle Style = clang::format::getLLVMStyle();
  llvm::DenseMap<const clang::RecordDecl *, const HandleLayout *> Layouts;
  std::vector<Site> Sites;
  /// Sites and loop sites of records not refused, ordered by position.
  std::vector<const Site *> ActiveSites, ActiveLoops;
  std::vector<Refusal> Refusals;
  std::vector<TiledUse> TiledIndexUses;
  std::vector<CandidateLoop> PendingLoops;
  std::vector<Site> LoopSites;
  /// Loops already strip-mined, by (file, offset): a class template's
  /// members are visited once per instantiation.
  std::set<std::pair<unsigned, unsigned>> LoopSiteStarts;
  /// The pointers of walking-pointer loops, declared in the loop headers
  /// those loops' sites replace.
  llvm::SmallPtrSet<const clang::Decl *, 4> WalkingPointers;
  /// Vector type spellings already rewritten: (file, offset).
  std::set<std::pair<unsigned, unsigned>> VectorTypeSites;
  /// Sites whose rendering was an error (overlapping edits).
  std::vector<std::pair<const clang::RecordDecl *, std::string>> ApplyErrors;
  /// What each use of a handle is (the analysis's classification).
  UseClassifier Uses;
  /// The walk collecting sites, while it runs (see instantiation()).
  const WalkContext *Walk = nullptr;
};

} // namespace dlopt::rewrite

#endif
