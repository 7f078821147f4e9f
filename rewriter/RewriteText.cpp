//===- RewriteText.cpp - From AST nodes to file text and back -------------===//
//
// What every renderer of LayoutRewriter shares: the range of one editable
// file that an AST node spans, sites over such ranges, the current text of an
// expression (with the edits inside it applied), where the loops that replace
// a strip-mined loop go, and generated code formatted in the style of the
// file being edited.
//
//===----------------------------------------------------------------------===//
#include "rewriter/LayoutRewriter.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

//===----------------------------------------------------------------------===//
// Ranges
//===----------------------------------------------------------------------===//

bool LayoutRewriter::editable(FileID File) const {
  return File.isValid() && SM.getFileEntryRefForID(File) &&
         !SM.isInSystemHeader(SM.getLocForStartOfFile(File));
}

std::optional<FileRange> LayoutRewriter::fileRangeOf(CharSourceRange CR) const {
  CR = Lexer::makeFileCharRange(CR, SM, LO);
  if (CR.isInvalid())
    return std::nullopt;
  auto [File, Begin] = SM.getDecomposedLoc(CR.getBegin());
  auto [EndFile, End] = SM.getDecomposedLoc(CR.getEnd());
  if (File != EndFile || !editable(File))
    return std::nullopt;
  return FileRange{File, Begin, End};
}

std::optional<SourceRange> LayoutRewriter::statementRange(const Stmt *S) const {
  SourceRange R = S->getSourceRange();
  if (isa<CompoundStmt>(S))
    return R;
  std::optional<Token> Semi = Lexer::findNextToken(R.getEnd(), SM, LO);
  if (!Semi || Semi->isNot(tok::semi))
    return std::nullopt;
  R.setEnd(Semi->getLocation());
  return R;
}

const Stmt *LayoutRewriter::parent(const Stmt *S) {
  for (const DynTypedNode &P : Ctx.getParents(*S))
    if (const Stmt *PS = P.get<Stmt>())
      return PS;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Where strip-mined loops go
//===----------------------------------------------------------------------===//

std::optional<LayoutRewriter::LoopPlace>
LayoutRewriter::loopPlace(const Stmt *S, const FileRange &Range) {
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

std::string LayoutRewriter::placeLoops(const LoopPlace &Place,
                                       const std::string &Code) {
  if (Place.Braces == LoopPlace::Plain)
    return format(Code, Place.Indent);
  std::string Block = format("{\n" + Code + "\n}", Place.Indent);
  return Place.Braces == LoopPlace::Block ? Block : " " + Block;
}

//===----------------------------------------------------------------------===//
// Text and sites
//===----------------------------------------------------------------------===//

std::function<std::string(const EditSet &)>
LayoutRewriter::textFn(const Expr *E) {
  auto R = rangeOf(E->getSourceRange());
  if (!R)
    return nullptr;
  unsigned B = R->Begin, En = R->End;
  return [B, En](const EditSet &ES) { return ES.textOf(B, En); };
}

std::function<std::string(const EditSet &)>
LayoutRewriter::initializerText(const Expr *E) {
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

void LayoutRewriter::addSite(
    const RecordDecl *RD, SourceRange R, SourceLocation Loc,
    std::function<std::string(const EditSet &, const LaneContext *)> Render,
    const char *What, unsigned Needs) {
  auto Range = rangeOf(R);
  if (!Range) // The analysis admits only uses spelled in a file.
    return cannotRender(RD, Loc, What);
  Sites.push_back(
      {Range->File, Range->Begin, Range->End, RD, std::move(Render), Needs});
}

void LayoutRewriter::textSite(const RecordDecl *RD, const FileRange &Range,
                              std::string Text, unsigned Needs) {
  Sites.push_back({Range.File, Range.Begin, Range.End, RD,
                   [Text = std::move(Text)](
                       const EditSet &, const LaneContext *) { return Text; },
                   Needs});
}

//===----------------------------------------------------------------------===//
// Style
//===----------------------------------------------------------------------===//

void LayoutRewriter::useStyleOf(FileID File) {
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

std::string LayoutRewriter::format(StringRef Code, unsigned Indent,
                                   bool DropSemicolon) const {
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

} // namespace dlopt::rewrite
