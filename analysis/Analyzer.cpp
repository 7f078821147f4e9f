//===- Analyzer.cpp - The analysis pipeline over one translation unit -----===//
#include "analysis/Analyzer.h"
#include "analysis/AccessCollector.h"
#include "analysis/AllocatorFunctions.h"
#include "analysis/AstUtil.h"
#include "analysis/Candidates.h"
#include "analysis/Legality.h"
#include "analysis/OpenCLHost.h"
#include "analysis/SkippedCode.h"
#include "analysis/WholeProgram.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace clang;
using namespace dlopt;

/// The canonical spelling of \p FD's type, the same in every translation
/// unit for compatible definitions: no typedefs, no file names of unnamed
/// structs, and spelled alike in C and C++ (`nei_str[26]`, not `struct
/// nei_str[26]`; `bool`, not `_Bool`), so that a C file and a CUDA file of
/// one program see one struct (HeaderView::Language says why its header is
/// not rewritten).
static std::string fieldType(ASTContext &Ctx, const FieldDecl *FD) {
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.AnonymousTagLocations = false;
  Policy.SuppressTagKeyword = true;
  Policy.Bool = true;
  std::string Type = FD->getType().getCanonicalType().getAsString(Policy);
  if (FD->isBitField() && !FD->getBitWidth()->isValueDependent())
    Type += " : " + std::to_string(FD->getBitWidthValue(Ctx));
  return Type;
}

static std::vector<Field> fieldsOf(ASTContext &Ctx, const RecordDecl *RD) {
  std::vector<Field> Fields;
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
  for (const FieldDecl *FD : RD->fields()) {
    Field F;
    F.Name = FD->getNameAsString();
    if (F.Name.empty())
      F.Name = "<anonymous " + std::to_string(FD->getFieldIndex()) + ">";
    F.Type = fieldType(Ctx, FD);
    if (!FD->getType()->isIncompleteType())
      F.Size = Ctx.getTypeSizeInChars(FD->getType()).getQuantity();
    F.Offset = Layout.getFieldOffset(FD->getFieldIndex()) / Ctx.getCharWidth();
    Fields.push_back(std::move(F));
  }
  return Fields;
}

namespace {
/// What one record's arrays see of each kernel of the translation unit.
class KernelSummarizer {
public:
  KernelSummarizer(ASTContext &Ctx, const AccessCollector &Ids,
                   const std::vector<KernelTrace> &Kernels,
                   const std::vector<std::vector<PlacedAccess>> &Placed)
      : Ctx(Ctx), Ids(Ids), Kernels(Kernels), Placed(Placed) {}

  std::vector<KernelSummary> summaries(const RecordDecl *RD,
                                       unsigned FieldCount) const {
    std::vector<unsigned> FieldIds;
    for (unsigned F = 0; F < FieldCount; ++F)
      FieldIds.push_back(Ids.fieldId(RD, F));
    std::vector<KernelSummary> Out;
    for (unsigned K = 0; K < Kernels.size(); ++K) {
      KernelSummary S = summarize(Kernels[K], Placed[K], FieldIds, RD);
      if (!S.Accesses.empty())
        Out.push_back(std::move(S));
    }
    return Out;
  }

private:
  KernelSummary summarize(const KernelTrace &K,
                          const std::vector<PlacedAccess> &Accesses,
                          const std::vector<unsigned> &FieldIds,
                          const RecordDecl *RD) const {
    const SourceManager &SM = Ctx.getSourceManager();
    KernelSummary S;
    S.Name = K.Function->getNameAsString();
    S.Location = formatLoc(SM, K.Function->getLocation());
    S.Loops = K.Loops;
    S.Frequency = K.Frequency;
    S.FrequencyMeasured = K.FrequencyMeasured;
    S.FrequencyKnown = K.FrequencyKnown;
    S.Entries = K.Entries;
    S.LoopFree = K.LoopFree;
    S.OpenCL = K.Function->hasAttr<OpenCLKernelAttr>();
    S.Cuda = K.Function->hasAttr<CUDAGlobalAttr>() ||
             K.Function->hasAttr<CUDADeviceAttr>();
    std::map<unsigned, unsigned> LoopNumbers; // Trace loop -> number.
    for (unsigned I = 0; I < Accesses.size(); ++I) {
      const PlacedAccess &A = Accesses[I];
      auto It = std::find(FieldIds.begin(), FieldIds.end(), A.Access.Field);
      if (It == FieldIds.end())
        continue;
      AccessInfo Info;
      Info.Field = It - FieldIds.begin();
      Info.IsWrite = A.Access.IsWrite;
      Info.IsGather = A.Access.IsGather;
      Info.InVectorizableLoop = A.Access.InVectorizableLoop;
      Info.IsLoopIndexed = A.Access.IsLoopIndexed;
      Info.LanesWhenMoved = A.Access.LanesWhenMoved;
      Info.WholeElement = A.Access.WholeElement;
      Info.Accumulators = A.Access.Accumulators;
      Info.LoopDepth = A.LoopDepth;
      if (A.Loop != PlacedAccess::NoLoop)
        Info.Loop =
            LoopNumbers.try_emplace(A.Loop, LoopNumbers.size()).first->second;
      Info.Position = A.Position;
      Info.Executions = A.Executions * K.Frequency;
      Info.Location = formatLoc(SM, K.AccessLocs[I]);
      S.Weight += A.Access.Bytes * Info.Executions;
      S.Accesses.push_back(std::move(Info));
    }
    // The record's groups of fields (held in registers, stored as one
    // vector), their places spelled as the report spells them.
    auto GroupsOf = [&](const std::vector<ElementFields> &From,
                        std::vector<FieldGroup> &To) {
      for (const ElementFields &G : From)
        if (G.Record == RD)
          To.push_back({G.Fields, formatLoc(SM, G.Loc)});
    };
    GroupsOf(K.Held, S.Held);
    GroupsOf(K.VectorStores, S.VectorStores);
    return S;
  }

  ASTContext &Ctx;
  const AccessCollector &Ids;
  const std::vector<KernelTrace> &Kernels;
  const std::vector<std::vector<PlacedAccess>> &Placed;
};
} // namespace

/// How often the unit's host code launches each OpenCL kernel, by the
/// kernel's name (LayoutPlan::KernelLaunches), and the kernels it creates
/// into holders other files may bind through (LayoutPlan::KernelHolders),
/// and where it sets kernels' arguments (LayoutPlan::KernelArgumentsSet),
/// and how many work-items its launches of each run (LayoutPlan::
/// KernelWorkItems).
static void addKernelConnections(ASTContext &Ctx,
                                 const AccessCollector &Collector,
                                 LayoutPlan &Unit) {
  if (Ctx.getLangOpts().OpenCL)
    return;
  OpenCLHost Host(
      Ctx, [](const RecordDecl *) { return false; },
      [](const Expr *) -> const RecordDecl * { return nullptr; },
      [](const Expr *, const RecordDecl *) { return false; });
  if (!Host.collect())
    return;
  Unit.KernelHolders = Host.kernelHolders();
  for (const auto &[Kernel, At] : Host.kernelArgumentSetters())
    Unit.KernelArgumentsSet[Kernel] = {formatLoc(Ctx.getSourceManager(), At)};
  for (const auto &[Kernel, At] : Host.kernelArgumentSvmSetters())
    Unit.KernelArgumentsSetBySvm[Kernel] = {
        formatLoc(Ctx.getSourceManager(), At)};
  // Launches through a kernel parameter are shared among the kernels its
  // calls pass, and through a holder created into again and again among
  // the kernels created into it (an estimate: as if each ran as often).
  for (const auto &[Holder, Count] : Collector.launches()) {
    std::vector<std::string> Names = Host.createdKernelNames(Holder);
    for (const std::string &Name : Names)
      Unit.KernelLaunches[Name] += Count / Names.size();
  }
  for (const auto &[Holder, Items] : Collector.launchWorkItems())
    for (const std::string &Name : Host.createdKernelNames(Holder))
      noteKernelWorkItems(Unit.KernelWorkItems, Name, Items);
}

/// The headers of the program the unit includes (not system headers), the
/// first inclusion of each, in the order they were entered. One pass over
/// the unit's source location entries: SourceManager::translateFile() scans
/// them for each file, which with Thrust's thousand headers took a tenth
/// of a CUDA file's analysis.
static std::vector<FileID> userHeaders(const SourceManager &SM) {
  std::vector<FileID> Out;
  llvm::DenseSet<const FileEntry *> Seen;
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    const SrcMgr::FileInfo &Info = E.getFile();
    OptionalFileEntryRef Entry = Info.getContentCache().OrigEntry;
    if (!Entry || !Seen.insert(&Entry->getFileEntry()).second ||
        SrcMgr::isSystem(Info.getFileCharacteristic()))
      continue;
    FileID File =
        SM.getFileID(SourceLocation::getFromRawEncoding(E.getOffset()));
    if (File != SM.getMainFileID())
      Out.push_back(File);
  }
  return Out;
}

/// The language a unit is parsed as, as reports name it.
static std::string languageName(const LangOptions &LO) {
  return LO.OpenCL ? "OpenCL" : LO.CUDA ? "CUDA" : LO.CPlusPlus ? "C++" : "C";
}

/// What the unit sees of a record in each of \p Headers (HeaderView).
static std::vector<HeaderView> headerViews(const SourceManager &SM,
                                           llvm::ArrayRef<FileID> Headers,
                                           const RecordLegality &Legal,
                                           const std::string &Unit,
                                           const LangOptions &LO) {
  std::map<FileID, std::vector<std::string>> Uses;
  for (const auto &[Loc, Kind] : Legal.Uses) {
    SourceLocation At = SM.getExpansionLoc(Loc);
    PresumedLoc P = SM.getPresumedLoc(At);
    if (P.isValid())
      Uses[SM.getFileID(At)].push_back(std::to_string(P.getLine()) + ":" +
                                       std::to_string(P.getColumn()) + ": " +
                                       useKindName(Kind));
  }
  std::vector<HeaderView> Views;
  for (FileID File : Headers) {
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
    if (!Entry)
      continue;
    llvm::SmallString<128> Name(Entry->getName());
    llvm::sys::path::remove_dots(Name, /*remove_dot_dot=*/true);
    HeaderView V{realPathOf(SM, File), Unit, std::move(Uses[File]),
                 Name.str().str(), languageName(LO)};
    llvm::sort(V.Uses);
    V.Uses.erase(std::unique(V.Uses.begin(), V.Uses.end()), V.Uses.end());
    Views.push_back(std::move(V));
  }
  llvm::sort(Views, [](const HeaderView &A, const HeaderView &B) {
    return A.File < B.File;
  });
  return Views;
}

/// The invocation of the macro in whose body \p Issue's use is spelled.
static std::optional<MacroInvocation>
macroUse(const SourceManager &SM, ASTContext &Ctx, const LegalityIssue &Issue) {
  if (Issue.Invocation.isInvalid())
    return std::nullopt;
  CharSourceRange R =
      Lexer::getAsCharRange(Issue.Invocation, SM, Ctx.getLangOpts());
  auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
  auto [EndFile, End] = SM.getDecomposedLoc(R.getEnd());
  if (File != EndFile || End < Begin)
    return std::nullopt;
  MacroInvocation M;
  M.Location = formatLoc(SM, R.getBegin());
  M.File = realPathOf(SM, File);
  M.Begin = Begin;
  M.End = End;
  Token Name;
  if (!Lexer::getRawToken(R.getBegin(), Name, SM, Ctx.getLangOpts()) &&
      Name.is(tok::raw_identifier))
    M.Macro = Name.getRawIdentifier().str();
  return M;
}

/// The first name of record \p R (its own, an alias, an array's, a
/// pointer's in \p Holders whose scope holds the branch) that the skipped
/// branch \p B spells; empty if none.
static std::string nameSkipped(const RecordPlan &R, const SkippedBranch &B,
                               const llvm::StringMap<HolderScopes> *Holders,
                               const SourceManager &SM) {
  if (B.Names.count(R.Name))
    return R.Name;
  for (const std::string &Alias : R.Aliases)
    if (B.Names.count(Alias))
      return Alias;
  // An array's variable is a holder too, which knows its scope.
  for (const ArrayRoot &A : R.Arrays)
    if (B.Names.count(A.Name) && (!Holders || !Holders->count(A.Name)))
      return A.Name;
  if (Holders)
    for (const auto &[Name, Scopes] : *Holders)
      if (B.Names.count(Name) && Scopes.reaches(B.Directive, SM))
        return Name.str();
  return "";
}

/// Where the branches the preprocessor skipped name record \p R (through
/// \p Holders too): a blocker each, or with \p Anyway a use left as
/// written; one per branch, though a file read twice skips it twice.
static void
namesSkipped(RecordPlan &R, llvm::ArrayRef<SkippedBranch> Skipped,
             const llvm::StringMap<HolderScopes> *Holders, bool Anyway,
             const SourceManager &SM,
             std::map<std::pair<std::string, SourcePos>, SourceLocation> &At) {
  auto Has = [](const std::vector<Blocker> &Bs, const Blocker &B) {
    return llvm::any_of(Bs, [&](const Blocker &O) {
      return O.Reason == B.Reason && O.Location == B.Location;
    });
  };
  for (const SkippedBranch &B : Skipped) {
    std::string Name = nameSkipped(R, B, Holders, SM);
    if (Name.empty())
      continue;
    std::string Where =
        "'" + Name + "' in code the preprocessor skipped (" + B.Condition + ")";
    std::vector<Blocker> &To = Anyway ? R.LeftAsWritten : R.Blockers;
    Blocker Found{Anyway ? Where + " is left as written: the rewritten "
                                   "program compiles only where that branch "
                                   "is not built"
                         : Where + ": the rewrite cannot see it, and the "
                                   "program would not compile where that "
                                   "branch is built (--this-configuration-"
                                   "only rewrites it anyway)",
                  formatLoc(SM, B.Directive)};
    Found.Bytes = !Anyway;
    if (Has(To, Found))
      continue;
    if (!Anyway)
      At[{Found.Reason, Found.Location}] = B.Directive;
    To.push_back(std::move(Found));
  }
}

/// What the unit knows of candidate \p C before any use is judged: its
/// names, where it is defined, its size, fields and arrays.
static RecordPlan describeRecord(ASTContext &Ctx, const CandidateRecord &C,
                                 const std::vector<std::string> &Units) {
  const SourceManager &SM = Ctx.getSourceManager();
  const RecordDecl *RD = C.Decl;
  RecordPlan R;
  R.Name = recordName(RD);
  if (R.Name.empty())
    R.Name = "<anonymous>";
  for (const TypedefNameDecl *TD : typedefsOf(RD, Ctx))
    if (TD->getName() != R.Name)
      R.Aliases.push_back(TD->getName().str());
  R.Location = formatLoc(SM, RD->getLocation());
  R.DefinedIn = definitionFile(SM, RD);
  R.Indexed = C.Indexed;
  R.Units = Units;
  R.Size = Ctx.getTypeSizeInChars(Ctx.getRecordType(RD)).getQuantity();
  R.Fields = fieldsOf(Ctx, RD);
  R.Arrays = C.Arrays;
  return R;
}

AnalysisResult dlopt::analyzeTranslationUnit(ASTContext &Ctx,
                                             const AnalysisOptions &Opts,
                                             const Preprocessor *PP) {
  AnalysisResult Result;
  const SourceManager &SM = Ctx.getSourceManager();
  LayoutPlan &Unit = Result.Unit;
  Unit.CacheLine = Opts.CacheLine;
  Unit.Planned = false;
  Unit.HasMain = definesMain(Ctx);
  if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
    Unit.Units.push_back(Main->getName().str());

  std::vector<CandidateRecord> Candidates = findCandidates(Ctx);
  std::vector<RecordLegality> Legal =
      checkLegality(Ctx, Candidates, &Opts.BufferHolders);
  Unit.FieldBytes = fieldByteCounts(Ctx);
  exportedAllocatorFunctions(Ctx, Unit.Allocators, Unit.ReleaseFunctions,
                             Unit.AllocatorMisfits);

  std::vector<const RecordDecl *> Decls;
  for (const CandidateRecord &C : Candidates)
    Decls.push_back(C.Decl);
  AccessCollector Collector(Ctx, Decls, Opts.Profile);
  std::vector<KernelTrace> Kernels = Collector.collect();
  addKernelConnections(Ctx, Collector, Unit);
  Unit.ExternalCalls = Collector.externalCalls();
  std::vector<std::vector<PlacedAccess>> Placed;
  for (const KernelTrace &K : Kernels)
    Placed.push_back(K.Trace.place());
  KernelSummarizer Summarizer(Ctx, Collector, Kernels, Placed);

  std::vector<FileID> Headers = userHeaders(SM);
  std::vector<SkippedBranch> Skipped;
  llvm::DenseMap<const RecordDecl *, llvm::StringMap<HolderScopes>> Holders;
  if (PP)
    Skipped = skippedBranches(*PP, Ctx);
  if (!Skipped.empty())
    Holders = holderNames(Ctx);
  // Where each blocker of this file points, for diagnostics.
  std::map<std::pair<std::string, SourcePos>, SourceLocation> BlockerAt;
  for (unsigned I = 0; I < Candidates.size(); ++I) {
    const RecordDecl *RD = Candidates[I].Decl;
    RecordPlan R = describeRecord(Ctx, Candidates[I], Unit.Units);
    for (const std::string &Holder : Legal[I].BufferHolders)
      Unit.BufferHolders[Holder] = R.Name;
    for (const LegalityIssue &Issue : Legal[I].Issues) {
      R.Blockers.push_back({Issue.Reason, formatLoc(SM, Issue.Loc),
                            /*FromLinkage=*/false, Issue.Shadowed,
                            /*InMacro=*/false, Issue.Blocks, Issue.Bytes});
      BlockerAt[{Issue.Reason, R.Blockers.back().Location}] = Issue.Loc;
      if (std::optional<MacroInvocation> M = macroUse(SM, Ctx, Issue)) {
        R.Blockers.back().InMacro = true;
        if (llvm::none_of(R.MacroUses, [&](const MacroInvocation &Seen) {
              return Seen.Begin == M->Begin && Seen.File == M->File;
            }))
          R.MacroUses.push_back(std::move(*M));
      }
    }
    auto HeldBy = Holders.find(cast<RecordDecl>(RD->getCanonicalDecl()));
    namesSkipped(R, Skipped,
                 HeldBy == Holders.end() ? nullptr : &HeldBy->second,
                 Opts.ThisConfigurationOnly, SM, BlockerAt);
    R.Externals = std::move(Legal[I].Externals);
    for (unsigned E = 0; E < R.Externals.size(); ++E)
      BlockerAt[{R.Externals[E].Reason, R.Externals[E].Location}] =
          Legal[I].ExternalLocs[E];
    R.Kernels = Summarizer.summaries(RD, R.Fields.size());
    R.Restrict = !Legal[I].NotChecked && Legal[I].SharedArrays.empty();
    R.SharedArrays = Legal[I].SharedArrays;
    if (Legal[I].SharedArraysAt.isValid())
      R.SharedArraysAt = formatLoc(SM, Legal[I].SharedArraysAt);
    if (Legal[I].SubArrayAt.isValid())
      R.SubArrayAt = formatLoc(SM, Legal[I].SubArrayAt);
    if (Legal[I].CudaCallAt.isValid())
      R.CudaCallAt = formatLoc(SM, Legal[I].CudaCallAt);
    if (Legal[I].FileIOAt.isValid())
      R.FileIOAt = formatLoc(SM, Legal[I].FileIOAt);
    R.Headers = headerViews(SM, Headers, Legal[I],
                            Unit.Units.empty() ? "" : Unit.Units.front(),
                            Ctx.getLangOpts());
    Unit.Records.push_back(std::move(R));
    Result.UnitDecls.push_back(RD);
  }

  Result.Plan = mergeUnits({Unit}, Opts);
  blockPlanDependentUses(Result.Plan);
  for (const RecordPlan &R : Result.Plan.Records) {
    // Same-named records of one unit (a local struct, another namespace)
    // are merged into one, reported at the first.
    for (unsigned I = 0; I < Unit.Records.size(); ++I)
      if (recordKey(Unit.Records[I]) == recordKey(R)) {
        Result.Decls.push_back(Result.UnitDecls[I]);
        break;
      }
    std::vector<SourceLocation> Locs;
    for (const Blocker &B : R.Blockers)
      Locs.push_back(BlockerAt.count({B.Reason, B.Location})
                         ? BlockerAt[{B.Reason, B.Location}]
                         : Result.Decls.back()->getLocation());
    Result.BlockerLocs.push_back(std::move(Locs));
  }
  return Result;
}
