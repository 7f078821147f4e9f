//===- Renderer.cpp - From AST nodes to file text and back ----------------===//
//
// What every renderer shares (see Renderer.h): the range of one editable
// file that an AST node spans, sites over such ranges, the current text of
// an expression (with the edits inside it applied), applying the sites, and
// generated code formatted in the style of the file being edited.
//
//===----------------------------------------------------------------------===//
#include "rewriter/Renderer.h"
#include "analysis/UseWalker.h"
#include "rewriter/ExpansionFormat.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

RewriteState::RewriteState(ASTContext &Ctx, std::vector<RewriteTarget> &Targets)
    : Ctx(Ctx), Uses(Ctx, [this](const RecordDecl *RD) {
        return Layouts.count(RD) > 0;
      }) {
  for (RewriteTarget &T : Targets) {
    Layouts[T.Decl] = T.Layout.get();
    if (T.Boundary)
      Boundary.insert(T.Decl);
  }
  if (Ctx.getLangOpts().CUDA)
    Uses.keepContainersOf(
        [this](const RecordDecl *RD) { return Boundary.count(RD) > 0; });
}

bool RewriteState::keptOnHost(const ValueDecl *D) const {
  if (Boundary.empty() || !Ctx.getLangOpts().CUDA || !D)
    return false;
  const auto *FD = dyn_cast<FunctionDecl>(D);
  QualType T = FD ? FD->getReturnType() : D->getType();
  const RecordDecl *RD = Uses.handleRecord(T);
  if (!RD) // A std::vector whose storage a copy names (&v[0], v.data()).
    RD = containerElementRecord(T);
  return RD && Boundary.count(RD) &&
         !(Uses.cudaMemory().sideOf(D) & CudaMemory::Device);
}

bool RewriteState::convertsAtBoundary(const UseVerdict &V) const {
  if (!V.Use || V.Use->Kind != UseKind::CudaCall || !V.Use->Value)
    return false;
  const auto *Call = cast<CallExpr>(V.Use->Site);
  return UseClassifier::cudaCall(Call) == CudaCall::Copy &&
         keptOnHost(CudaMemory::arrayRoot(V.Use->Handle)) !=
             keptOnHost(CudaMemory::arrayRoot(V.Use->Value));
}

Renderer::Renderer(RewriteState &State)
    : State(State), Ctx(State.Ctx), SM(State.Ctx.getSourceManager()),
      LO(State.Ctx.getLangOpts()), Layouts(State.Layouts), Uses(State.Uses),
      Sites(State.Sites) {}

void Renderer::render(const RecordDecl *RD, const UseVerdict &V) {
  if (V.Use && V.Use->Kind == UseKind::NullValue &&
      State.keptOnHost(V.Use->Target))
    return;
  if (!V.Use)
    return cannotRender(RD, V.Loc, V.Refusal);
  State.Render(RD, V);
}

const FunctionDecl *Renderer::instantiation() const {
  return State.Walk ? State.Walk->instantiation() : nullptr;
}

const FunctionDecl *Renderer::clone() const {
  return State.Walk ? State.Walk->clone() : nullptr;
}

//===----------------------------------------------------------------------===//
// Ranges
//===----------------------------------------------------------------------===//

bool Renderer::editable(FileID File) const {
  return File.isValid() && SM.getFileEntryRefForID(File) &&
         !SM.isInSystemHeader(SM.getLocForStartOfFile(File));
}

std::optional<FileRange> Renderer::fileRangeOf(CharSourceRange CR) const {
  CR = Lexer::makeFileCharRange(CR, SM, LO);
  if (CR.isInvalid())
    return std::nullopt;
  auto [File, Begin] = SM.getDecomposedLoc(CR.getBegin());
  auto [EndFile, End] = SM.getDecomposedLoc(CR.getEnd());
  if (File != EndFile || !editable(File))
    return std::nullopt;
  return FileRange{File, Begin, End};
}

std::optional<SourceRange> Renderer::statementRange(const Stmt *S) const {
  SourceRange R = S->getSourceRange();
  if (isa<CompoundStmt>(S))
    return R;
  std::optional<Token> Semi = Lexer::findNextToken(R.getEnd(), SM, LO);
  if (!Semi || Semi->isNot(tok::semi))
    return std::nullopt;
  R.setEnd(Semi->getLocation());
  return R;
}

const Stmt *Renderer::parent(const Stmt *S) const {
  for (const DynTypedNode &P : Ctx.getParents(*S))
    if (const Stmt *PS = P.get<Stmt>())
      return PS;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Text and sites
//===----------------------------------------------------------------------===//

std::function<std::string(const EditSet &)> Renderer::textFn(const Expr *E) {
  auto R = rangeOf(E->getSourceRange());
  if (!R)
    return nullptr;
  unsigned B = R->Begin, En = R->End;
  return [B, En](const EditSet &ES) { return ES.textOf(B, En); };
}

std::function<std::string(const EditSet &)>
Renderer::handleTextFn(const Expr *Handle) {
  auto Text = textFn(Handle);
  if (!Text || !isa<UnaryOperator>(Handle->IgnoreParenImpCasts()))
    return Text;
  return [Text](const EditSet &ES) { return "(" + Text(ES) + ")"; };
}

std::function<std::string(const EditSet &)>
Renderer::initializerText(const Expr *E) {
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

void Renderer::addSite(
    const RecordDecl *RD, SourceRange R, SourceLocation Loc,
    std::function<std::string(const EditSet &, const LaneContext *)> Render,
    const char *What, uint64_t Needs) {
  auto Range = rangeOf(R);
  if (!Range) // The analysis admits only uses spelled in a file.
    return cannotRender(RD, Loc, What);
  Sites.push_back(
      {Range->File, Range->Begin, Range->End, RD, std::move(Render), Needs});
}

void Renderer::textSite(const RecordDecl *RD, const FileRange &Range,
                        std::string Text, uint64_t Needs) {
  Sites.push_back({Range.File, Range.Begin, Range.End, RD,
                   [Text = std::move(Text)](
                       const EditSet &, const LaneContext *) { return Text; },
                   Needs});
}

//===----------------------------------------------------------------------===//
// Applying sites
//===----------------------------------------------------------------------===//

void Renderer::applySites(EditSet &ES, unsigned Begin, unsigned End,
                          const LaneContext *Lane,
                          const Site *Enclosing) const {
  auto ByBegin = [](const Site *S, unsigned Offset) {
    return S->Begin < Offset;
  };
  // Strip-mined loops never nest, so the only loop that can hold a site is
  // the last one starting at or before it.
  auto InsideOtherLoop = [&](const Site &S) {
    auto It = std::upper_bound(
        State.ActiveLoops.begin(), State.ActiveLoops.end(), S.Begin,
        [](unsigned Offset, const Site *L) { return Offset < L->Begin; });
    if (It == State.ActiveLoops.begin())
      return false;
    const Site *L = *std::prev(It);
    return L != &S && L != Enclosing && L->Begin >= Begin && L->End <= End &&
           S.End <= L->End;
  };
  std::vector<const Site *> Todo;
  auto Collect = [&](const std::vector<const Site *> &Sorted) {
    for (auto It =
             std::lower_bound(Sorted.begin(), Sorted.end(), Begin, ByBegin);
         It != Sorted.end() && (*It)->Begin < End; ++It)
      if (*It != Enclosing && (*It)->End <= End && !InsideOtherLoop(**It))
        Todo.push_back(*It);
  };
  Collect(State.ActiveSites);
  Collect(State.ActiveLoops);
  std::stable_sort(Todo.begin(), Todo.end(), [](const Site *A, const Site *B) {
    return A->End - A->Begin < B->End - B->Begin;
  });
  for (const Site *S : Todo)
    if (llvm::Error E = ES.replace(S->Begin, S->End, S->Render(ES, Lane)))
      State.ApplyErrors.push_back({S->Record, llvm::toString(std::move(E))});
}

//===----------------------------------------------------------------------===//
// Style
//===----------------------------------------------------------------------===//

void Renderer::useStyleOf(FileID File) {
  State.Style = format::getLLVMStyle();
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
  if (!Entry)
    return;
  // By absolute path: a relative one would be looked up from the process's
  // directory, not the compile command's.
  State.Style = styleOfFile(absolutePath(SM, File), SM.getBufferData(File));
}

std::string Renderer::format(StringRef Code, unsigned Indent,
                             bool DropSemicolon) const {
  format::FormatStyle S = State.Style;
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
