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

inline const Expr *skipParensAndCasts(const Expr *E) {
  while (true) {
    if (const auto *P = dyn_cast<ParenExpr>(E))
      E = P->getSubExpr();
    else if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
      E = C->getSubExpr();
    else
      return E;
  }
}

/// Whether \p S names \p D anywhere.
inline bool refersTo(const Stmt *S, const Decl *D) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == D)
    return true;
  return llvm::any_of(S->children(),
                      [D](const Stmt *C) { return refersTo(C, D); });
}

class LayoutRewriter {
public:
  LayoutRewriter(ASTContext &Ctx, std::vector<RewriteTarget> &Targets)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        Uses(Ctx, [this](QualType T) { return handleRecord(T); }) {
    for (RewriteTarget &T : Targets)
      Layouts[T.Decl] = T.Layout.get();
  }

  RewriteResult run(std::vector<RewriteTarget> &Targets);

  // Called by the visitor.
  void declaration(const DeclaratorDecl *D);
  void functionReturn(const FunctionDecl *FD);
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

  const RecordDecl *handleRecord(QualType T) const {
    const RecordDecl *RD = elementRecord(T);
    if (!RD || !Layouts.count(RD))
      return nullptr;
    if (T->isPointerType() && T->getPointeeType()->isPointerType())
      return nullptr;
    return RD;
  }
  bool isHandleVar(const ValueDecl *D) const {
    return isa<VarDecl>(D) && handleRecord(D->getType());
  }

  /// The function template instantiation being visited, if any. Its text
  /// serves every instantiation, so only edits that read right for all of
  /// them are made there (`auto &&` for a range-for variable); uses that
  /// would need the record's name (T(v[i]).f(), a copy's `auto`, std::less
  /// <T>) or strip-mining are refused or left as written.
  const FunctionDecl *Instantiation = nullptr;
  void refuseInTemplate(const RecordDecl *RD, SourceLocation Loc,
                        const std::string &What) {
    refuse(RD, Loc,
           What + " inside template '" +
               Instantiation->getQualifiedNameAsString() +
               "' would need a spelling for this instantiation only (not "
               "rewritten yet)");
  }

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
  bool editable(FileID File) const {
    return File.isValid() && SM.getFileEntryRefForID(File) &&
           !SM.isInSystemHeader(SM.getLocForStartOfFile(File));
  }
  std::optional<FileRange> fileRangeOf(CharSourceRange CR) const {
    CR = Lexer::makeFileCharRange(CR, SM, LO);
    if (CR.isInvalid())
      return std::nullopt;
    auto [File, Begin] = SM.getDecomposedLoc(CR.getBegin());
    auto [EndFile, End] = SM.getDecomposedLoc(CR.getEnd());
    if (File != EndFile || !editable(File))
      return std::nullopt;
    return FileRange{File, Begin, End};
  }
  std::optional<FileRange> rangeOf(SourceRange R) const {
    return fileRangeOf(CharSourceRange::getTokenRange(R));
  }
  std::optional<FileRange> charRangeOf(SourceLocation B,
                                       SourceLocation E) const {
    return fileRangeOf(CharSourceRange::getCharRange(B, E));
  }

  /// A statement's range; one that is not a block ends at its `;`, which
  /// the AST's range omits.
  std::optional<SourceRange> statementRange(const Stmt *S) const {
    SourceRange R = S->getSourceRange();
    if (isa<CompoundStmt>(S))
      return R;
    std::optional<Token> Semi = Lexer::findNextToken(R.getEnd(), SM, LO);
    if (!Semi || Semi->isNot(tok::semi))
      return std::nullopt;
    R.setEnd(Semi->getLocation());
    return R;
  }

  /// Where the loops that replace loop \p S go (\p Range: the loop, body
  /// included). Two loops in place of one that is the body of another
  /// statement (a for, an if) must be one block; its `{` opens on that
  /// statement's line when only blanks lie between.
  struct LoopPlace {
    FileRange Range;
    unsigned Indent;
    enum { Plain, Block, BlockAfterParent } Braces;
  };
  std::optional<LoopPlace> loopPlace(const Stmt *S, const FileRange &Range) {
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
  /// The loops' code, formatted, for \p Place.
  std::string placeLoops(const LoopPlace &Place, const std::string &Code) {
    if (Place.Braces == LoopPlace::Plain)
      return format(Code, Place.Indent);
    std::string Block = format("{\n" + Code + "\n}", Place.Indent);
    return Place.Braces == LoopPlace::Block ? Block : " " + Block;
  }

  /// The current text of an expression (with nested edits applied).
  std::function<std::string(const EditSet &)> textFn(const Expr *E) {
    auto R = rangeOf(E->getSourceRange());
    if (!R)
      return nullptr;
    unsigned B = R->Begin, En = R->End;
    return [B, En](const EditSet &ES) { return ES.textOf(B, En); };
  }

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
      const char *What, unsigned Needs = HandleLayout::HandleType) {
    auto Range = rangeOf(R);
    if (!Range)
      return refuse(RD, Loc,
                    std::string(What) +
                        " is spelled inside a macro or a system header");
    Sites.push_back(
        {Range->File, Range->Begin, Range->End, RD, std::move(Render), Needs});
  }

  /// \p Range becomes \p Text, whatever the edits inside it.
  void textSite(const RecordDecl *RD, const FileRange &Range, std::string Text,
                unsigned Needs = HandleLayout::HandleType) {
    Sites.push_back({Range.File, Range.Begin, Range.End, RD,
                     [Text = std::move(Text)](
                         const EditSet &, const LaneContext *) { return Text; },
                     Needs});
  }

  const Stmt *parent(const Stmt *S) {
    for (const DynTypedNode &P : Ctx.getParents(*S))
      if (const Stmt *PS = P.get<Stmt>())
        return PS;
    return nullptr;
  }
  /// The parent, looking through parentheses and implicit casts other than
  /// pointer-to-boolean (a null test) and, unless \p SkipLoads, the load of
  /// a whole element; \p Child becomes the outermost expression skipped.
  const Stmt *semanticParent(const Expr *&Child, bool SkipLoads = true) {
    auto Skippable = [&](const Stmt *P) {
      if (isa<ParenExpr>(P))
        return true;
      const auto *Cast = dyn_cast<ImplicitCastExpr>(P);
      if (!Cast || Cast->getCastKind() == CK_PointerToBoolean)
        return false;
      return SkipLoads || Cast->getCastKind() != CK_LValueToRValue;
    };
    const Stmt *P = parent(Child);
    while (P && Skippable(P)) {
      Child = cast<Expr>(P);
      P = parent(P);
    }
    return P;
  }

  /// The length of an array declaration as the user wrote it (a macro name
  /// stays a macro name).
  std::string lengthText(const DeclaratorDecl *D, uint64_t Value) {
    if (const TypeSourceInfo *TSI = D->getTypeSourceInfo())
      if (auto ATL = TSI->getTypeLoc().getAs<ArrayTypeLoc>())
        if (const Expr *Size = ATL.getSizeExpr())
          if (auto R = rangeOf(Size->getSourceRange()))
            return SM.getBufferData(R->File)
                .substr(R->Begin, R->End - R->Begin)
                .str();
    return std::to_string(Value);
  }

  // --- Element accesses ---

  void fieldSite(const RecordDecl *RD, const MemberExpr *ME, const Expr *Handle,
                 const Expr *Index) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    const HandleLayout *L = Layouts.lookup(RD);
    unsigned F = FD->getFieldIndex();
    auto HandleText = textFn(Handle);
    auto IndexText = Index ? textFn(Index) : nullptr;
    if (!HandleText || (Index && !IndexText))
      return cannotRender(RD, ME->getExprLoc(),
                          "access spelled inside a macro or a system header");
    const VarDecl *IndexVar = nullptr;
    if (Index)
      if (const auto *D = dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts()))
        IndexVar = dyn_cast<VarDecl>(D->getDecl());
    bool SideEffects = Index && Index->HasSideEffects(Ctx);
    if (L->isTiled(F))
      TiledIndexUses.push_back({Handle, IndexVar, L->tileOf(F), RD});
    addSite(
        RD, ME->getSourceRange(), ME->getExprLoc(),
        [=](const EditSet &ES, const LaneContext *Lane) {
          std::string H = HandleText(ES);
          std::string I = Index ? IndexText(ES) : "0";
          if (Lane && IndexVar == Lane->InductionVar && L->isTiled(F) &&
              L->tileOf(F) == Lane->Tile)
            return L->laneAccess(H, Lane->TileVar, Lane->LaneVar, F);
          if (SideEffects && L->isTiled(F)) // Evaluate the index once.
            return L->fieldRef(H, I, F);
          return L->access(H, I, F);
        },
        "a field access");
  }

  /// a[i] read or written as a whole.
  void elementSite(const RecordDecl *RD, const HandleUse &U) {
    const HandleLayout *L = Layouts.lookup(RD);
    auto HandleText = textFn(U.Handle);
    if (HandleText && U.Embedded) // An array field: make a handle onto it.
      HandleText = [L, Text = HandleText](const EditSet &ES) {
        return L->handleOf(Text(ES));
      };
    auto IndexText = textFn(U.Index);
    auto ValueText = U.Value ? textFn(U.Value) : nullptr;
    if (!HandleText || !IndexText || (U.Value && !ValueText))
      return cannotRender(RD, U.Site->getExprLoc(),
                          "element spelled inside a macro");
    bool Read = U.Kind == UseKind::ElementRead;
    addSite(
        RD, U.Site->getSourceRange(), U.Site->getExprLoc(),
        [=](const EditSet &ES, const LaneContext *) {
          L->use(Read ? HandleLayout::Get : HandleLayout::Set);
          return (Read ? L->getName() : L->setName()) + "(" + HandleText(ES) +
                 ", " + IndexText(ES) + (Read ? "" : ", " + ValueText(ES)) +
                 ")";
        },
        Read ? "an element read" : "an element write");
  }

  /// `!p`, `p == NULL`, `if (p)`: the handle is null when its first
  /// member is.
  void nullTestSite(const RecordDecl *RD, const DeclRefExpr *DRE) {
    std::string Text =
        Layouts.lookup(RD)->nullTest(DRE->getDecl()->getNameAsString());
    addSite(
        RD, DRE->getSourceRange(), DRE->getLocation(),
        [Text](const EditSet &, const LaneContext *) { return Text; },
        "a null test");
  }

  void nullSite(const RecordDecl *RD, const Expr *Null) {
    std::string Text = Layouts.lookup(RD)->nullValue();
    addSite(
        RD, Null->getSourceRange(), Null->getExprLoc(),
        [Text](const EditSet &, const LaneContext *) { return Text; },
        "a null pointer");
  }

public:
  /// `return NULL;` from a function that now returns a handle.
  void returnValue(const ReturnStmt *RS, const FunctionDecl *FD) {
    const RecordDecl *RD = FD ? handleRecord(FD->getReturnType()) : nullptr;
    const Expr *V = RS->getRetValue();
    if (RD && V &&
        V->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      nullSite(RD, V);
  }

private:
  /// The source of one field's initializer; nested lists are rebuilt from
  /// their semantic form, so designators and brace elision come out plain.
  std::function<std::string(const EditSet &)> initializerText(const Expr *E) {
    if (isa<ImplicitValueInitExpr>(E)) {
      std::string Zero = E->getType()->isScalarType() ? "0" : "{0}";
      return [Zero](const EditSet &) { return Zero; };
    }
    if (const auto *List = dyn_cast<InitListExpr>(E)) {
      if (!List->isSemanticForm())
        List = List->getSemanticForm();
      if (List->isStringLiteralInit())
        return textFn(List->getInit(0));
      std::vector<std::function<std::string(const EditSet &)>> Parts;
      for (const Expr *Sub : List->inits()) {
        Parts.push_back(initializerText(Sub));
        if (!Parts.back())
          return nullptr;
      }
      return [Parts](const EditSet &ES) {
        std::string S = "{";
        for (size_t I = 0; I < Parts.size(); ++I)
          S += (I ? ", " : "") + Parts[I](ES);
        return S + "}";
      };
    }
    return textFn(E);
  }

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
  void useStyleOf(FileID File) {
    Style = format::getLLVMStyle();
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
    if (!Entry)
      return;
    // By absolute path: a relative one would be looked up from the process's
    // directory, not the compile command's.
    llvm::Expected<format::FormatStyle> FileStyle = format::getStyle(
        "file", absolutePath(SM, File), "LLVM", SM.getBufferData(File));
    if (FileStyle)
      Style = *FileStyle;
    else
      llvm::consumeError(FileStyle.takeError());
  }

  /// Generated code (declarations, strip-mined loops) in the style of the
  /// file being edited (see useStyleOf).
  std::string format(llvm::StringRef Code, unsigned Indent,
                     bool DropSemicolon = false) const {
    format::FormatStyle S = Style;
    if (S.ColumnLimit > Indent + 20)
      S.ColumnLimit -= Indent;
    tooling::Range All(0, Code.size());
    tooling::Replacements R = format::reformat(S, Code, All);
    llvm::Expected<std::string> Out = tooling::applyAllReplacements(Code, R);
    std::string Text = Out ? *Out : Code.str();
    if (!Out)
      llvm::consumeError(Out.takeError());
    // A declaration is formatted with its `;`, which the source keeps.
    if (DropSemicolon && StringRef(Text).ends_with(";"))
      Text.pop_back();
    // Lines after the first continue at the statement's indentation (empty
    // lines stay empty).
    std::string Indented;
    for (size_t I = 0; I < Text.size(); ++I) {
      Indented += Text[I];
      if (Text[I] == '\n' && I + 1 < Text.size() && Text[I + 1] != '\n')
        Indented.append(Indent, ' ');
    }
    return Indented;
  }

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
