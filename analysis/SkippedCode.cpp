//===- SkippedCode.cpp - Branches the preprocessor skipped ----------------===//
//
// See SkippedCode.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/SkippedCode.h"
#include "analysis/AstUtil.h"
#include "analysis/OpenMPPragmas.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PreprocessingRecord.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;
using namespace dlopt;

void dlopt::keepSkippedRanges(Preprocessor &PP) {
  if (!PP.getPreprocessingRecord())
    PP.createPreprocessingRecord();
}

namespace {

/// A skipped range of one entry of a file: [Begin, End) offsets.
struct Span {
  unsigned Begin, End;
};

/// The skipped ranges of the unit's user files, by entry (FileID) and by
/// file, so that a range of a file the unit reads twice can be compared
/// with the other reading.
struct SkippedSpans {
  llvm::DenseMap<FileID, std::vector<Span>> ByEntry;
  llvm::DenseMap<const FileEntry *, std::vector<FileID>> Entries;

  /// Whether every other reading of \p File's file skipped \p S too. The
  /// second inclusion of a guarded header skips its whole body, which the
  /// first one did not: that range counts for nothing.
  bool skippedEverywhere(const SourceManager &SM, FileID File, Span S) const {
    OptionalFileEntryRef F = SM.getFileEntryRefForID(File);
    auto It = F ? Entries.find(&F->getFileEntry()) : Entries.end();
    if (It == Entries.end())
      return true;
    for (FileID Other : It->second) {
      if (Other == File)
        continue;
      auto Spans = ByEntry.find(Other);
      if (Spans == ByEntry.end() ||
          llvm::none_of(Spans->second, [&](const Span &O) {
            return O.Begin <= S.Begin && S.End <= O.End;
          }))
        return false;
    }
    return true;
  }
};

} // namespace

/// Every reading of the unit's user files, by file.
static void addEntries(const SourceManager &SM, SkippedSpans &Out) {
  for (unsigned I = 0; I < SM.local_sloc_entry_size(); ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    if (OptionalFileEntryRef F = E.getFile().getContentCache().OrigEntry)
      Out.Entries[&F->getFileEntry()].push_back(
          SM.getDecomposedLoc(SourceLocation::getFromRawEncoding(E.getOffset()))
              .first);
  }
}

/// The directive word after the '#' at \p Hash ("if", "elif", "endif", ...).
static StringRef directiveAt(StringRef Text, unsigned Hash) {
  StringRef Rest = Text.substr(Hash + 1).ltrim(" \t");
  return Rest.take_while([](char C) { return isalpha(C); });
}

/// The line at \p Offset, as written.
static std::string lineAt(StringRef Text, unsigned Offset) {
  return Text.substr(Offset)
      .take_until([](char C) { return C == '\n' || C == '\r'; })
      .trim()
      .str();
}

/// Whether the directive line \p Condition is `#if 0`.
static bool neverBuilt(StringRef Condition) {
  Condition = Condition.drop_front().ltrim(); // '#'
  if (!Condition.consume_front("if"))
    return false;
  Condition = Condition.take_until([](char C) { return C == '/'; }).trim();
  return Condition == "0";
}

/// Whether the directive line \p Condition asks only whether some of
/// \p Macros are defined (#ifdef M, #ifndef, #if [!]defined(...), joined
/// with || or &&): the question that tells one side of a program from the
/// other, when Macros are those of a CUDA file's device side or of the
/// OpenCL compiler.
static bool testsSide(StringRef Condition, ArrayRef<StringRef> Macros) {
  Condition = Condition.drop_front().ltrim(); // '#'
  Condition = Condition.take_until([](char C) { return C == '/'; });
  bool Named = false;
  for (StringRef Word : {"ifndef", "ifdef", "if"})
    if (Condition.consume_front(Word))
      break;
  while (!(Condition = Condition.ltrim()).empty()) {
    if (llvm::any_of(Macros,
                     [&](StringRef M) { return Condition.consume_front(M); })) {
      Named = true;
      continue;
    }
    if (!Condition.consume_front("defined") && !Condition.consume_front("!") &&
        !Condition.consume_front("(") && !Condition.consume_front(")") &&
        !Condition.consume_front("||") && !Condition.consume_front("&&"))
      return false;
  }
  return Named;
}

static const StringRef OpenCLMacros[] = {"__OPENCL_VERSION__",
                                         "__OPENCL_C_VERSION__"};

namespace {
/// The value of a condition testsSide() accepts, with the OpenCL
/// compiler's macros defined (\p Kernels) or not: `||`, `&&`, `!`,
/// parentheses, `defined M`, `defined(M)` and a bare M.
class SideCondition {
public:
  SideCondition(StringRef Condition, bool Kernels)
      : Rest(Condition), K(Kernels) {}
  bool value() { return disjunction(); }

private:
  bool eat(StringRef S) {
    Rest = Rest.ltrim();
    return Rest.consume_front(S);
  }
  bool disjunction() {
    bool V = conjunction();
    while (eat("||"))
      V = conjunction() || V;
    return V;
  }
  bool conjunction() {
    bool V = unary();
    while (eat("&&"))
      V = unary() && V;
    return V;
  }
  bool unary() {
    if (eat("!"))
      return !unary();
    if (eat("(")) {
      bool V = disjunction();
      eat(")");
      return V;
    }
    if (eat("defined")) {
      bool Paren = eat("(");
      bool V = macro();
      if (Paren)
        eat(")");
      return V;
    }
    return macro();
  }
  bool macro() {
    for (StringRef M : OpenCLMacros)
      if (eat(M))
        return K;
    return false;
  }
  StringRef Rest;
  bool K;
};
} // namespace

/// The side whose compiler takes the first branch of the conditional whose
/// directive line is \p Line; Both where the condition is another one.
static ProgramSide firstBranchSide(StringRef Line) {
  if (!testsSide(Line, OpenCLMacros))
    return ProgramSide::Both;
  StringRef C = Line.drop_front().ltrim(); // '#'
  C = C.take_until([](char Ch) { return Ch == '/'; });
  bool Not = C.consume_front("ifndef");
  if (!Not && !C.consume_front("ifdef"))
    C.consume_front("if");
  bool K = SideCondition(C, true).value() != Not;
  bool H = SideCondition(C, false).value() != Not;
  return K == H ? ProgramSide::Both
         : K    ? ProgramSide::Kernels
                : ProgramSide::Host;
}

ProgramSide dlopt::openCLSideAt(StringRef Text, unsigned Offset) {
  LangOptions LO;
  Lexer Raw(SourceLocation(), LO, Text.begin(), Text.begin(), Text.end());
  Raw.SetCommentRetentionState(false);
  // The side of the branch each open conditional is in.
  std::vector<ProgramSide> Open;
  Token T;
  while (!Raw.LexFromRawLexer(T)) {
    unsigned At = T.getLocation().getRawEncoding();
    if (At >= Offset)
      break;
    if (!T.is(tok::hash) || !T.isAtStartOfLine())
      continue;
    StringRef Word = directiveAt(Text, At);
    if (Word.starts_with("if"))
      Open.push_back(firstBranchSide(lineAt(Text, At)));
    else if (Word == "else" && !Open.empty())
      Open.back() = Open.back() == ProgramSide::Kernels ? ProgramSide::Host
                    : Open.back() == ProgramSide::Host  ? ProgramSide::Kernels
                                                        : ProgramSide::Both;
    else if (Word.starts_with("elif") && !Open.empty())
      Open.back() = ProgramSide::Both; // Not a side's test: as written.
    else if (Word == "endif" && !Open.empty())
      Open.pop_back();
  }
  for (auto It = Open.rbegin(); It != Open.rend(); ++It)
    if (*It != ProgramSide::Both)
      return *It;
  return ProgramSide::Both;
}

/// Whether the branches of a conditional opened by the directive line
/// \p Condition are built by a unit the program analyses apart: in a CUDA
/// file, the other side (host or device); in a header OpenCL kernel files
/// share with host files, the other side's files.
static bool otherSideBuilds(StringRef Condition, const LangOptions &LO) {
  if (LO.CUDA && testsSide(Condition, {"__CUDA_ARCH__"}))
    return true;
  return testsSide(Condition, OpenCLMacros);
}

/// The offset of the #if, #ifdef or #ifndef that opens the conditional
/// whose directive (#elif, #else or the #if itself) is at \p At.
static unsigned chainOpening(const SourceManager &SM, const LangOptions &LO,
                             FileID File, unsigned At) {
  StringRef Text = SM.getBufferData(File);
  if (directiveAt(Text, At).starts_with("if"))
    return At;
  // An #elif or #else: the innermost #if still open before it.
  Lexer Raw(SM.getLocForStartOfFile(File), LO, Text.begin(), Text.begin(),
            Text.end());
  Raw.SetCommentRetentionState(false);
  std::vector<unsigned> Open;
  Token T;
  while (!Raw.LexFromRawLexer(T)) {
    unsigned Offset = SM.getFileOffset(T.getLocation());
    if (Offset >= At)
      break;
    if (!T.is(tok::hash) || !T.isAtStartOfLine())
      continue;
    StringRef Word = directiveAt(Text, Offset);
    if (Word.starts_with("if"))
      Open.push_back(Offset);
    else if (Word == "endif" && !Open.empty())
      Open.pop_back();
  }
  return Open.empty() ? At : Open.back();
}

/// The branches of the skipped range [Begin, End) of \p File: one per
/// #if/#elif/#else of its own level (a chain whose first branch was not
/// taken is skipped as one range), each with the identifiers of its code;
/// `#if 0` branches are left out.
static void splitBranches(const SourceManager &SM, const LangOptions &LO,
                          FileID File, Span S,
                          std::vector<SkippedBranch> &Out) {
  StringRef Text = SM.getBufferData(File);
  // The other side of a CUDA file builds it, and is analyzed as a unit of
  // its own (rewriter/CudaUnits.h); so do OpenCL kernel files a branch for
  // the OpenCL compiler, and host files its #else.
  if (otherSideBuilds(lineAt(Text, chainOpening(SM, LO, File, S.Begin)), LO))
    return;
  // The raw lexer skips comments and keeps string literals whole.
  Lexer Raw(SM.getLocForStartOfFile(File), LO, Text.begin(),
            Text.begin() + S.Begin, Text.end());
  Raw.SetCommentRetentionState(false);
  // The range starts at the directive that opens its first branch; Depth
  // counts the conditionals open inside it, the range's own being 1.
  int Depth = 1;
  bool First = true;
  SkippedBranch *Current = nullptr;
  auto Open = [&](unsigned At) {
    SkippedBranch B;
    B.Directive = SM.getComposedLoc(File, At);
    B.Condition = lineAt(Text, At);
    Out.push_back(std::move(B));
    Current = neverBuilt(Out.back().Condition) ? nullptr : &Out.back();
    if (!Current)
      Out.pop_back();
  };
  // An OpenMP directive names arrays in its clauses, which a rewrite keeps
  // as they are (`shared(ps)` names the handle then): those that copy or
  // map an array are read from the file's text wherever they are
  // (OpenMPPragmas.h), so a skipped `#pragma omp` line names nothing here.
  bool InOpenMP = false;
  Token T;
  while (!Raw.LexFromRawLexer(T)) {
    unsigned At = SM.getFileOffset(T.getLocation());
    if (At >= S.End)
      break;
    if (T.isAtStartOfLine())
      InOpenMP = false;
    if (T.is(tok::hash) && T.isAtStartOfLine())
      InOpenMP = openMPPragmaText(lineAt(Text, At)).has_value();
    if (T.is(tok::hash) && T.isAtStartOfLine()) {
      StringRef Word = directiveAt(Text, At);
      bool Opens =
          First || (Depth == 1 && (Word.starts_with("elif") || Word == "else"));
      First = false;
      if (Opens) { // The range's own directives open its branches.
        Open(At);
        continue;
      }
      if (Word.starts_with("if"))
        ++Depth;
      else if (Word == "endif" && --Depth == 0)
        break;
    }
    if (Current && T.is(tok::raw_identifier) && !InOpenMP)
      Current->Names.insert(T.getRawIdentifier());
  }
}

std::vector<SkippedBranch> dlopt::skippedBranches(const Preprocessor &PP,
                                                  const ASTContext &Ctx) {
  std::vector<SkippedBranch> Out;
  PreprocessingRecord *Record = PP.getPreprocessingRecord();
  if (!Record)
    return Out;
  const SourceManager &SM = Ctx.getSourceManager();
  SkippedSpans Spans;
  addEntries(SM, Spans);
  std::vector<std::pair<FileID, Span>> Ranges;
  for (SourceRange R : Record->getSkippedRanges()) {
    if (R.getBegin().isInvalid() || !R.getBegin().isFileID() ||
        SM.isInSystemHeader(R.getBegin()))
      continue;
    auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
    auto [EndFile, End] = SM.getDecomposedLoc(SM.getExpansionLoc(R.getEnd()));
    if (!SM.getFileEntryRefForID(File) || EndFile != File || End < Begin)
      continue;
    Spans.ByEntry[File].push_back({Begin, End});
    Ranges.push_back({File, {Begin, End}});
  }
  for (const auto &[File, S] : Ranges)
    if (Spans.skippedEverywhere(SM, File, S))
      splitBranches(SM, Ctx.getLangOpts(), File, S, Out);
  return Out;
}

bool HolderScopes::reaches(SourceLocation Directive,
                           const SourceManager &SM) const {
  if (Anywhere)
    return true;
  return llvm::any_of(Bodies, [&](SourceRange Body) {
    return !SM.isBeforeInTranslationUnit(Directive, Body.getBegin()) &&
           !SM.isBeforeInTranslationUnit(Body.getEnd(), Directive);
  });
}

/// The body of the function whose local variable or parameter \p D is, as
/// a file range; invalid for a global or a member.
static SourceRange localScope(const DeclaratorDecl *D,
                              const SourceManager &SM) {
  const auto *Var = dyn_cast<VarDecl>(D);
  if (!Var || !Var->isLocalVarDeclOrParm())
    return {};
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
  if (!FD || !FD->hasBody())
    return {};
  SourceRange Body = FD->getBody()->getSourceRange();
  return {SM.getExpansionLoc(Body.getBegin()),
          SM.getExpansionLoc(Body.getEnd())};
}

llvm::DenseMap<const RecordDecl *, llvm::StringMap<HolderScopes>>
dlopt::holderNames(ASTContext &Ctx) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const SourceManager &SM;
    llvm::DenseMap<const RecordDecl *, llvm::StringMap<HolderScopes>> Out;
    explicit Visitor(const SourceManager &SM) : SM(SM) {}
    bool VisitDeclaratorDecl(DeclaratorDecl *D) {
      if (!isa<VarDecl, FieldDecl>(D) || !D->getIdentifier())
        return true;
      const RecordDecl *RD = elementRecord(D->getType());
      if (!RD)
        return true;
      HolderScopes &S =
          Out[cast<RecordDecl>(RD->getCanonicalDecl())][D->getName()];
      SourceRange Body = localScope(D, SM);
      if (Body.isValid())
        S.Bodies.push_back(Body);
      else
        S.Anywhere = true;
      return true;
    }
  } V(Ctx.getSourceManager());
  V.TraverseAST(Ctx);
  return std::move(V.Out);
}
