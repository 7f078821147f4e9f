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
//   DeclarationRewriter.cpp  variables, parameters, return types, storage
//   UseRewriter.cpp          every use of a handle: accesses, elements,
//                            allocation, free, null tests, sizeof
//   StripMining.cpp          tile/lane loops and walking pointers
//   ContainerRewriter.cpp    C++: std::vector<T> becomes the generated
//                            container; range-for and auto variables
//   RecordRewriter.cpp       collecting sites, applying them, the entry point
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_LAYOUTREWRITER_H
#define DLOPT_REWRITER_LAYOUTREWRITER_H

#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "rewriter/RecordRewriter.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Format/Format.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Regex.h"
#include <functional>
#include <set>

namespace dlopt::rewrite {

using namespace clang;

/// Inside a strip-mined loop: the induction variable's tile and lane.
struct LaneContext {
  const VarDecl *InductionVar;
  std::string TileVar, LaneVar;
  uint64_t Tile;
};

/// A range of one file's text, in offsets.
struct FileRange {
  FileID File;
  unsigned Begin, End;
};

struct Site {
  FileID File;
  unsigned Begin, End;
  const RecordDecl *Record;
  std::function<std::string(const EditSet &, const LaneContext *)> Render;
  /// The generated declarations the new text names (HandleLayout::Helper
  /// bits: the handle, the container, or neither).
  unsigned Needs = HandleLayout::HandleType;
};

class LayoutRewriter {
public:
  LayoutRewriter(ASTContext &Ctx, std::vector<RewriteTarget> &Targets);

  RewriteResult run(std::vector<RewriteTarget> &Targets);

  // Called by the visitor.
  void declaration(const DeclaratorDecl *D);
  void functionReturn(const FunctionDecl *FD);
  /// `return NULL;` from a function that now returns a handle.
  void returnValue(const ReturnStmt *RS, const FunctionDecl *FD);
  void reference(const DeclRefExpr *DRE);
  void memberReference(const MemberExpr *ME);
  void freeSite(const RecordDecl *RD, const Expr *Release, const Expr *Handle);
  void initList(const InitListExpr *List);
  void arrayContainerInit(const InitListExpr *List, const InitListExpr *Sem);
  /// Renders a use the analysis classified (UseRewriter.cpp).
  void render(const RecordDecl *RD, const UseVerdict &V);
  void allocationSite(const RecordDecl *RD, const HandleUse &U);
  void elementSizeSite(const RecordDecl *RD, const Expr *Size);
  void arrayExpression(const Expr *E);
  void loop(const ForStmt *For);
  // std::vector<T> (ContainerRewriter.cpp).
  bool vectorType(QualType T, SourceRange R, bool InTemplateArgument);
  void sizeofVector(const UnaryExprOrTypeTraitExpr *E);
  void rangeFor(const CXXForRangeStmt *S);
  void variable(const VarDecl *VD);
  void memberCall(const CXXMemberCallExpr *Call);
  void libraryCall(const CallExpr *Call);
  void containerSubscript(const CXXOperatorCallExpr *Op);

  /// The record being rewritten whose handle a declaration of type \p T
  /// is (T *, T[N]; not T **), or null.
  const RecordDecl *handleRecord(QualType T) const;

  /// The function template instantiation being visited, if any. Its text
  /// serves every instantiation, so only edits that read right for all of
  /// them are made there (`auto &&` for a range-for variable); uses that
  /// would need the record's name (T(v[i]).f(), a copy's `auto`, std::less
  /// <T>) or strip-mining are refused or left as written.
  const FunctionDecl *Instantiation = nullptr;
  /// Refuses \p What, a use inside Instantiation that would need a text of
  /// its own (ContainerRewriter.cpp).
  void refuseInTemplate(const RecordDecl *RD, SourceLocation Loc,
                        const std::string &What);

private:
  // --- std::vector<T> ---

  /// T if \p Ty is a std::vector<T> (or a reference to one) that becomes
  /// the generated container.
  const RecordDecl *containerRecord(QualType Ty) const;
  const RecordDecl *elementOf(const Expr *E) const;
  static std::optional<std::string> arrayLength(llvm::StringRef Spelling);
  void elementVariable(const RecordDecl *RD, const VarDecl *VD,
                       bool Unused = false);
  void retype(const RecordDecl *RD, const VarDecl *VD, std::string Text);
  /// Strip-mining over a container with tiles (StripMining.cpp).
  /// \p Unused: the body never names the loop variable.
  void rangeForLoop(const CXXForRangeStmt *S, const RecordDecl *RD,
                    bool Unused);
  bool keepsSize(const Stmt *Body, const Expr *Container) const;
  bool isStableContainerSize(const Expr *Bound, const Stmt *Body) const;
  /// Variables bound to a proxy (references to an element).
  llvm::SmallPtrSet<const Decl *, 8> ProxyVars;
  /// Vector type spellings already rewritten: (file, offset).
  std::set<std::pair<unsigned, unsigned>> VectorTypeSites;

  // --- Ranges ---

  /// Files dlopt may edit: real files outside system headers. Headers are
  /// edited alike from every translation unit that includes them, so the
  /// whole-program driver can check that all agree.
  bool editable(FileID File) const;
  std::optional<FileRange> fileRangeOf(CharSourceRange CR) const;
  std::optional<FileRange> rangeOf(SourceRange R) const {
    return fileRangeOf(CharSourceRange::getTokenRange(R));
  }
  std::optional<FileRange> charRangeOf(SourceLocation B,
                                       SourceLocation E) const {
    return fileRangeOf(CharSourceRange::getCharRange(B, E));
  }

  /// A statement's range; one that is not a block ends at its `;`, which
  /// the AST's range omits.
  std::optional<SourceRange> statementRange(const Stmt *S) const;

  /// Where the loops that replace loop \p S go (\p Range: the loop, body
  /// included). Two loops in place of one that is the body of another
  /// statement (a for, an if) must be one block; its `{` opens on that
  /// statement's line when only blanks lie between.
  struct LoopPlace {
    FileRange Range;
    unsigned Indent;
    enum { Plain, Block, BlockAfterParent } Braces;
  };
  std::optional<LoopPlace> loopPlace(const Stmt *S, const FileRange &Range);
  /// The loops' code, formatted, for \p Place.
  std::string placeLoops(const LoopPlace &Place, const std::string &Code);

  /// The current text of an expression (with nested edits applied).
  std::function<std::string(const EditSet &)> textFn(const Expr *E);

  /// A use the rewriter cannot handle that the analysis does not classify
  /// yet (declarations, containers): the record is kept, with the reason.
  /// Uses of handles are classified in analysis/UseClassifier and never
  /// refused here.
  void refuse(const RecordDecl *RD, SourceLocation Loc, std::string Reason) {
    Refusals.push_back({RD, std::move(Reason), Loc});
  }
  /// A use the analysis admitted that cannot be rendered: a bug, reported
  /// as an internal error (nothing is written).
  void cannotRender(const RecordDecl *RD, SourceLocation Loc,
                    std::string Reason) {
    Refusals.push_back({RD, std::move(Reason), Loc, /*Internal=*/true});
  }

  /// \p Needs: the generated declarations the new text names (see Site).
  void addSite(
      const RecordDecl *RD, SourceRange R, SourceLocation Loc,
      std::function<std::string(const EditSet &, const LaneContext *)> Render,
      const char *What, unsigned Needs = HandleLayout::HandleType);

  /// \p Range becomes \p Text, whatever the edits inside it.
  void textSite(const RecordDecl *RD, const FileRange &Range, std::string Text,
                unsigned Needs = HandleLayout::HandleType);

  /// The nearest statement (or expression) holding \p S; null if none.
  const Stmt *parent(const Stmt *S);

  /// The length of an array declaration as the user wrote it (a macro name
  /// stays a macro name).
  std::string lengthText(const DeclaratorDecl *D, uint64_t Value);

  // --- Element accesses ---

  /// a[i].f, (a + i)->f, p->f: the field of element i in its cluster.
  void fieldSite(const RecordDecl *RD, const MemberExpr *ME, const Expr *Handle,
                 const Expr *Index);

  /// a[i] read or written as a whole.
  void elementSite(const RecordDecl *RD, const HandleUse &U);

  /// `!p`, `p == NULL`, `if (p)`: the handle is null when its first
  /// member is.
  void nullTestSite(const RecordDecl *RD, const DeclRefExpr *DRE);
  /// `p = NULL`, `f(0)`: the null handle.
  void nullSite(const RecordDecl *RD, const Expr *Null);

  /// The source of one field's initializer; nested lists are rebuilt from
  /// their semantic form, so designators and brace elision come out plain.
  std::function<std::string(const EditSet &)> initializerText(const Expr *E);

  // --- State ---

  /// An access a[i].f of a tiled array, or v[i] of a container with tiles.
  struct TiledUse {
    const Expr *Handle;
    const VarDecl *IndexVar;
    uint64_t Tile;
    const RecordDecl *Record;
  };
  struct CandidateLoop {
    const ForStmt *For;
    const VarDecl *InductionVar;
    bool Declared; // for (int i = 0; ...) rather than for (i = 0; ...)
    const Expr *Bound;
  };

  void loopSite(const CandidateLoop &Loop);
  bool walkingPointerLoop(const ForStmt *For);
  llvm::SmallPtrSet<const Decl *, 4> WalkingPointers;
  std::optional<std::pair<FileID, unsigned>>
  insertionPoint(const RecordDecl *RD);

  void applySites(EditSet &ES, unsigned Begin, unsigned End,
                  const LaneContext *Lane, const Site *Enclosing);

  /// The style of \p File: its .clang-format if it has one, else LLVM's.
  /// (Per file, so that a header reads the same from every includer.)
  void useStyleOf(FileID File);

  /// Generated code (declarations, strip-mined loops) in the style of the
  /// file being edited (see useStyleOf).
  std::string format(llvm::StringRef Code, unsigned Indent,
                     bool DropSemicolon = false) const;

  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  format::FormatStyle Style = format::getLLVMStyle();
  llvm::DenseMap<const RecordDecl *, const HandleLayout *> Layouts;
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
  /// Sites whose rendering was an error (overlapping edits).
  std::vector<std::pair<const RecordDecl *, std::string>> ApplyErrors;
  /// What each use of a handle is (the analysis's classification).
  UseClassifier Uses;
};

} // namespace dlopt::rewrite

#endif
