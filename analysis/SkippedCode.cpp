//===- SkippedCode.cpp - Branches the preprocessor skipped ----------------===//
//
// See SkippedCode.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/SkippedCode.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PreprocessingRecord.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;
using namespace dlopt;

void dlopt::keepSkippedRanges(Preprocessor &PP) {
  if (!PP.getPreprocessingRecord())
    PP.createPreprocessingRecord();
}

/// The files the unit entered more than once.
static llvm::DenseSet<const FileEntry *> readTwice(const SourceManager &SM) {
  llvm::DenseMap<const FileEntry *, unsigned> Entries;
  for (unsigned I = 0; I < SM.local_sloc_entry_size(); ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    if (OptionalFileEntryRef F = E.getFile().getContentCache().OrigEntry)
      ++Entries[&F->getFileEntry()];
  }
  llvm::DenseSet<const FileEntry *> Twice;
  for (const auto &[F, N] : Entries)
    if (N > 1)
      Twice.insert(F);
  return Twice;
}

/// The branch of \p Text from offset \p Begin (its directive) to \p End.
static SkippedBranch branchOf(const SourceManager &SM, const LangOptions &LO,
                              FileID File, unsigned Begin, unsigned End) {
  SkippedBranch B;
  B.Directive = SM.getComposedLoc(File, Begin);
  StringRef Text = SM.getBufferData(File);
  B.Condition = Text.substr(Begin)
                    .take_until([](char C) { return C == '\n' || C == '\r'; })
                    .trim()
                    .str();
  // The raw lexer skips comments and keeps string literals whole.
  Lexer Raw(SM.getLocForStartOfFile(File), LO, Text.begin(),
            Text.begin() + Begin, Text.end());
  Token T;
  while (!Raw.LexFromRawLexer(T) && SM.getFileOffset(T.getLocation()) < End)
    if (T.is(tok::raw_identifier))
      B.Names.insert(T.getRawIdentifier());
  return B;
}

/// Whether \p Condition is `#if 0`.
static bool neverBuilt(StringRef Condition) {
  Condition = Condition.drop_front().ltrim(); // '#'
  if (!Condition.consume_front("if"))
    return false;
  Condition = Condition.take_until([](char C) { return C == '/'; }).trim();
  return Condition == "0";
}

std::vector<SkippedBranch> dlopt::skippedBranches(const Preprocessor &PP,
                                                  const ASTContext &Ctx) {
  std::vector<SkippedBranch> Out;
  PreprocessingRecord *Record = PP.getPreprocessingRecord();
  if (!Record)
    return Out;
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseSet<const FileEntry *> Twice = readTwice(SM);
  for (SourceRange R : Record->getSkippedRanges()) {
    if (R.getBegin().isInvalid() || !R.getBegin().isFileID() ||
        SM.isInSystemHeader(R.getBegin()))
      continue;
    auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
    auto [EndFile, End] = SM.getDecomposedLoc(SM.getExpansionLoc(R.getEnd()));
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
    if (!Entry || EndFile != File || End < Begin ||
        Twice.count(&Entry->getFileEntry()))
      continue;
    SkippedBranch B = branchOf(SM, Ctx.getLangOpts(), File, Begin, End);
    if (!neverBuilt(B.Condition))
      Out.push_back(std::move(B));
  }
  return Out;
}
