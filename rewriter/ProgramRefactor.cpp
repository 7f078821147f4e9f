//===- ProgramRefactor.cpp - Analyse and rewrite a whole program ----------===//
#include "rewriter/ProgramRefactor.h"
#include "analysis/Analyzer.h"
#include "analysis/AstUtil.h"
#include "analysis/SkippedCode.h"
#include "analysis/WholeProgram.h"
#include "rewriter/CudaUnits.h"
#include "rewriter/ExpansionFormat.h"
#include "rewriter/HandleLayout.h"
#include "rewriter/KernelFlags.h"
#include "rewriter/MacroExpander.h"
#include "rewriter/ProjectPaths.h"
#include "rewriter/Refactor.h"
#include "rewriter/TranslationUnitRunner.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace clang;
using namespace dlopt;

namespace {

/// A macro invocation expanded: its text, or why it is not.
struct Expanded {
  Expansion E;
  std::string Why;
};

/// What step 1 learns of one unit.
struct UnitFacts {
  LayoutPlan Unit;
  /// Real paths of every file the unit reads.
  std::set<std::string> Reads;
  /// The absolute names the unit opened each file (by real path) by.
  std::map<std::string, std::set<std::string>> Names;
  /// recordKey() -> real paths of the files the analysis saw the record in.
  std::map<std::string, std::set<std::string>> RecordFiles;
  /// Records already in a layout dlopt generated (by an earlier run).
  std::set<std::string> Generated;
  /// Per macro invocation a record's use is spelled in (by file and
  /// offset): its expansion, or why there is none.
  std::map<std::pair<std::string, unsigned>, Expanded> Expansions;
};

/// The records whose generated layout an earlier run left in the user's
/// files (each marked by HandleLayout::beginMarker).
std::set<std::string> generatedLayouts(const SourceManager &SM) {
  std::set<std::string> Tags;
  const std::string Marker = HandleLayout::beginMarker("");
  llvm::StringRef Prefix = llvm::StringRef(Marker).drop_back(3); // " */"
  for (unsigned I = 0; I < SM.local_sloc_entry_size(); ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile() || E.getFile().getFileCharacteristic() != SrcMgr::C_User)
      continue;
    std::optional<llvm::StringRef> Text =
        E.getFile().getContentCache().getBufferDataIfLoaded();
    for (llvm::StringRef Rest = Text ? *Text : "";;) {
      size_t At = Rest.find(Prefix);
      if (At == llvm::StringRef::npos)
        break;
      Rest = Rest.drop_front(At + Prefix.size());
      Tags.insert(Rest.take_until([](char C) { return C == ' '; }).str());
    }
  }
  return Tags;
}

/// The typedef names of the records in \p Tags, added to them: a forced
/// plan may name a record by either.
void addTypedefNames(ASTContext &Ctx, std::set<std::string> &Tags) {
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *TD = dyn_cast<TypedefNameDecl>(D))
      if (const RecordDecl *RD = asRecord(TD->getUnderlyingType());
          RD && Tags.count(recordName(RD)))
        Tags.insert(TD->getName().str());
}

void appendOnce(std::vector<std::string> &To, const std::string &S) {
  if (!llvm::is_contained(To, S))
    To.push_back(S);
}

/// \p ES with its file named \p Path instead (the file's real path): the
/// same edits.
EditSet renamed(const EditSet &ES, const std::string &Path) {
  if (ES.path() == Path)
    return ES;
  EditSet Out(Path, ES.original());
  for (auto [B, E] : ES.ranges()) {
    std::string Inserted = ES.textOf(B, B);
    if (B == E) {
      Out.insert(B, Inserted);
      continue;
    }
    // The text of a replaced range starts with the insertions in front of
    // it, which Out has already.
    std::string Text = ES.textOf(B, E).substr(Inserted.size());
    if (llvm::Error Err = Out.replace(B, E, std::move(Text))) {
      llvm::consumeError(std::move(Err));
      return ES;
    }
  }
  assert(Out.apply() == ES.apply() && "edits lost in renaming");
  return Out;
}

class ProgramRefactor {
public:
  ProgramRefactor(const tooling::CompilationDatabase &DB,
                  const std::vector<std::string> &Files,
                  const ProgramOptions &Opts)
      : DB(DB), Files(withCudaDeviceSides(Files)), Opts(Opts),
        Analysis(Opts.Analysis) {}

  ProgramOutcome analyze() {
    runAnalysis();
    return std::move(Out);
  }

  ProgramOutcome refactor() {
    runAnalysis();
    if (Out.S == ProgramOutcome::Success)
      runRewrite();
    return std::move(Out);
  }

private:
  /// The expansion of each macro invocation \p Unit's records have uses
  /// in (MacroInvocation).
  static std::map<std::pair<std::string, unsigned>, Expanded>
  expansionsOf(const LayoutPlan &Unit, const SourceManager &SM,
               Preprocessor &PP) {
    std::map<std::pair<std::string, unsigned>, Expanded> Out;
    for (const RecordPlan &R : Unit.Records)
      for (const MacroInvocation &M : R.MacroUses) {
        Expanded X{{M.Begin, M.End, ""}, ""};
        llvm::Expected<FileEntryRef> File =
            SM.getFileManager().getFileRef(M.File);
        if (!File)
          llvm::consumeError(File.takeError());
        FileID ID = File ? SM.translateFile(*File) : FileID();
        std::optional<std::string> Text =
            ID.isValid() ? expandInvocation(PP, ID, M.Begin, M.End, X.Why)
                         : std::nullopt;
        if (Text)
          X.E.Text = std::move(*Text);
        else if (X.Why.empty())
          X.Why = "the file of the invocation is not found";
        Out[{M.File, M.Begin}] = std::move(X);
      }
    return Out;
  }

  /// Steps 1 and 2, with the macro invocations that hold uses of a record
  /// expanded in place where that makes the record's layout change.
  void runAnalysis() {
    analyzeUnits();
    if (Out.S == ProgramOutcome::CompileError)
      return;
    std::set<std::string> Tried = expandableRecords();
    if (Tried.empty())
      return finishAnalysis();
    std::map<std::string, RecordPlan> AsItIs;
    if (!expansionRounds(Tried, AsItIs))
      return;
    for (RecordPlan &R : Out.Plan.Records) {
      std::string Key = recordKey(R);
      if (Tried.count(Key))
        R.MacroExpanded = ExpandedUses[Key];
      // Planned as it is once expanded: nothing to rewrite, so nothing
      // expanded, and the plan is that analysis's, not a refusal for the
      // uses in macro bodies that it did not need to touch.
      if (auto It = AsItIs.find(Key); It != AsItIs.end() && !R.transformable())
        R = It->second;
      // What the first analysis found of invocations it could not expand.
      if (auto It = NotExpanded.find(Key); It != NotExpanded.end()) {
        R.Blockers.insert(R.Blockers.end(), It->second.begin(),
                          It->second.end());
        R.Clusters.clear();
      }
    }
    finishAnalysis();
  }

  /// Analyzes the units again with the invocations of the records \p Tried
  /// expanded. Expanded, a record may still be refused, or planned as it is
  /// (its plan then goes to \p AsItIs): its invocations then stay as they
  /// are, and the others are analyzed alone. Leaves in \p Tried the records
  /// whose expansions the rewrite keeps; false on a compile error.
  bool expansionRounds(std::set<std::string> &Tried,
                       std::map<std::string, RecordPlan> &AsItIs) {
    for (int Round = 0; Round < 2 && !Tried.empty(); ++Round) {
      setExpansions(Tried);
      analyzeUnits();
      if (Out.S == ProgramOutcome::CompileError)
        return false;
      std::set<std::string> Kept;
      for (const RecordPlan &R : Out.Plan.Records) {
        if (!Tried.count(recordKey(R)) || !R.transformable())
          continue;
        if (!R.unchanged() || forcesNewLayout(R))
          Kept.insert(recordKey(R));
        else
          AsItIs.emplace(recordKey(R), R);
      }
      if (Kept == Tried)
        break;
      Tried = std::move(Kept);
      if (Tried.empty()) {
        setExpansions({});
        analyzeUnits();
      }
    }
    return Out.S != ProgramOutcome::CompileError;
  }

  /// Whether the user forced a plan for \p R other than plain AoS.
  bool forcesNewLayout(const RecordPlan &R) const {
    return llvm::any_of(Opts.Forced, [&](const PlanOverride &P) {
      bool Names =
          P.Record == R.Name || llvm::is_contained(R.Aliases, P.Record);
      return Names && !(P.Layouts.size() == 1 && P.Layouts[0] == Layout::aos());
    });
  }

  /// Records refused only for uses spelled in macro bodies whose
  /// invocations can all be expanded. A record whose invocation cannot be
  /// gets the reason as a blocker.
  std::set<std::string> expandableRecords() {
    std::set<std::string> Keys;
    for (RecordPlan &R : Out.Plan.Records) {
      if (R.MacroUses.empty() ||
          !llvm::all_of(R.Blockers, [](const Blocker &B) { return B.InMacro; }))
        continue;
      bool All = true;
      for (const MacroInvocation &M : R.MacroUses)
        if (const Expanded *X = expansionOf(M); !X || !X->Why.empty()) {
          All = false;
          R.Clusters.clear(); // Blocked: nothing proposed.
          R.Blockers.push_back(
              {"macro '" + M.Macro + "' is not expanded: " +
                   (X ? X->Why : std::string("no unit reads it")),
               M.Location});
          NotExpanded[recordKey(R)].push_back(R.Blockers.back());
        }
      if (All) {
        Keys.insert(recordKey(R));
        ExpandedUses[recordKey(R)] = R.MacroUses;
        for (const MacroInvocation &M : R.MacroUses)
          Found[{M.File, M.Begin}] = *expansionOf(M);
      }
    }
    return Keys;
  }

  const Expanded *expansionOf(const MacroInvocation &M) const {
    for (const UnitFacts &F : Facts)
      if (auto It = F.Expansions.find({M.File, M.Begin});
          It != F.Expansions.end())
        return &It->second;
    return nullptr;
  }

  /// The texts the units read: every file with invocations of \p Keys'
  /// macro uses expanded, under every name a unit opens it by.
  void setExpansions(const std::set<std::string> &Keys) {
    std::map<std::string, std::vector<Expansion>> ByFile;
    std::set<std::pair<std::string, unsigned>> Seen;
    for (const std::string &Key : Keys)
      for (const MacroInvocation &M : ExpandedUses[Key])
        if (Seen.insert({M.File, M.Begin}).second)
          ByFile[M.File].push_back(Found[{M.File, M.Begin}].E);
    Expansions = ByFile;
    Overlay.clear();
    for (const auto &[Path, List] : ByFile) {
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
          llvm::MemoryBuffer::getFile(Path);
      if (!Buffer)
        continue;
      Originals[Path] = (*Buffer)->getBuffer().str();
      std::string Text = expandAll(Originals[Path], List);
      Overlay[Path] = Text;
      for (const UnitFacts &F : Facts)
        if (auto It = F.Names.find(Path); It != F.Names.end())
          for (const std::string &Name : It->second)
            Overlay[Name] = Text;
    }
  }

  /// Steps 1 and 2 over the files as Overlay has them. Buffers one file
  /// creates into a struct member or global variable and others use
  /// through it: analyzed again, each file knowing the program's
  /// (LayoutPlan::BufferHolders), until nothing new (a holder learnt in one
  /// round may name another's buffers in the next), at most once per file.
  void analyzeUnits() {
    analyzeUnitsOnce();
    for (size_t Round = 0; Round < Files.size() && Files.size() > 1 &&
                           Out.S != ProgramOutcome::CompileError &&
                           Out.Plan.BufferHolders != Analysis.BufferHolders;
         ++Round) {
      Analysis.BufferHolders = Out.Plan.BufferHolders;
      analyzeUnitsOnce();
    }
  }

  /// One analysis of every file, and the merge.
  void analyzeUnitsOnce() {
    Out = ProgramOutcome();
    Facts.assign(Files.size(), {});
    RunnerOptions R{Opts.Jobs, Opts.Progress, Overlay};
    std::vector<bool> OK = runOnTranslationUnits(
        DB, Files, R, [&](unsigned I, ASTContext &Ctx, Preprocessor &PP) {
          AnalysisResult A = analyzeTranslationUnit(Ctx, Analysis, &PP);
          Facts[I].Unit = std::move(A.Unit);
          const SourceManager &SM = Ctx.getSourceManager();
          // One file, one name in every location, whatever name this unit
          // included it by (so the merge sees one file too).
          FileSpellings Spellings(SM);
          Spellings.canonicalize(Facts[I].Unit, Facts[I].RecordFiles);
          Facts[I].Names = Spellings.namesByFile();
          Facts[I].Generated = generatedLayouts(SM);
          addTypedefNames(Ctx, Facts[I].Generated);
          // Expansions are of the files as they are (runAnalysis keeps
          // those of the first analysis).
          if (Overlay.empty())
            Facts[I].Expansions = expansionsOf(Facts[I].Unit, SM, PP);
          for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
            // Absolute already (FileManager fills it in); real_path then
            // resolves symbolic links, as for the edited files' keys.
            StringRef Name = It->first.getFileEntry().tryGetRealPathName();
            Facts[I].Reads.insert(
                realPath(Name.empty() ? It->first.getName() : Name));
          }
        });
    if (llvm::is_contained(OK, false)) {
      Out.S = ProgramOutcome::CompileError;
      return;
    }
    std::vector<LayoutPlan> Units;
    for (UnitFacts &F : Facts)
      Units.push_back(F.Unit);
    Out.Plan = mergeUnits(std::move(Units), Analysis);
  }

  /// The rest of step 2: the verdicts of the program plan and the plans
  /// the user forced.
  void finishAnalysis() {
    keepGeneratedLayouts();
    blockOutsideRoot();
    ForcedPlans FP = forcePlans(Out.Plan, Opts.Forced);
    Out.UsedOverrides.insert(FP.Used.begin(), FP.Used.end());
    Forced = FP.Records;
    // A strategy forced alone refuses as a forced plan does (exit 3).
    for (const RecordPlan &R : Out.Plan.Records)
      if (!R.transformable() && !Forced.count(recordKey(R)))
        for (const auto &[Name, How] : Opts.Analysis.Strategies)
          if (Name == R.Name || llvm::is_contained(R.Aliases, Name))
            FP.Errors.push_back(R.Blockers.front().Location + ": struct " +
                                R.Name + " cannot take the forced strategy '" +
                                strategyName(How) +
                                "': " + R.Blockers.front().Reason);
    for (unsigned I : blockPlanDependentUses(Out.Plan)) {
      const RecordPlan &R = Out.Plan.Records[I];
      if (Forced.count(recordKey(R)))
        FP.Errors.push_back(
            R.Blockers.back().Location + ": struct " + R.Name +
            " cannot take the forced plan: " + R.Blockers.back().Reason);
    }
    // A record rewritten by an earlier run has no arrays left to plan: its
    // forced plan, or strategy, is already in place.
    std::vector<std::string> Named;
    for (const PlanOverride &P : Opts.Forced)
      Named.push_back(P.Record);
    for (const auto &[Name, How] : Opts.Analysis.Strategies)
      Named.push_back(Name);
    for (const std::string &Name : Named)
      if (!Out.UsedOverrides.count(Name) &&
          llvm::any_of(Facts, [&](const UnitFacts &F) {
            return F.Generated.count(Name);
          })) {
        Out.UsedOverrides.insert(Name);
        appendOnce(Out.Notes,
                   "struct " + Name + " is already in a generated layout");
      }
    if (!FP.Errors.empty()) {
      Out.Errors = FP.Errors;
      Out.S = ProgramOutcome::IllegalPlan;
    }
    for (const RecordPlan &R : Out.Plan.Records)
      if (!R.transformable())
        Out.Notes.push_back(R.Location + ": struct " + R.Name +
                            " kept: not transformable (" +
                            R.Blockers.front().Reason + ")");
      else if (R.unchanged())
        Out.Notes.push_back(R.Location + ": struct " + R.Name +
                            " kept: the plan is AoS");
      else
        for (const Blocker &B : R.LeftAsWritten)
          Out.Notes.push_back("warning: " + B.Location + ": " + B.Reason);
  }

  /// A record whose generated layout an earlier run left in the files is
  /// not planned again: taken at the OpenCL boundary, its host arrays are
  /// still plain arrays of it, and a second run changes nothing.
  void keepGeneratedLayouts() {
    llvm::erase_if(Out.Plan.Records, [&](const RecordPlan &R) {
      bool Generated = llvm::any_of(Facts, [&](const UnitFacts &F) {
        return F.Generated.count(R.Name) > 0;
      });
      if (Generated) {
        appendOnce(Out.Notes,
                   "struct " + R.Name + " is already in a generated layout");
        // Forcing its plan or strategy again names a known record.
        Out.UsedOverrides.insert(R.Name);
        Out.UsedOverrides.insert(R.Aliases.begin(), R.Aliases.end());
      }
      return Generated;
    });
  }

  /// A record the analysis saw in a file outside the project root keeps its
  /// layout: rewriting it would edit that file (its definition, a use), and
  /// dl-refactor writes nowhere else. Decided before planning goes further,
  /// so --report shows it as a blocker and --apply agrees.
  void blockOutsideRoot() {
    if (Opts.Root.empty())
      return;
    for (RecordPlan &R : Out.Plan.Records) {
      if (!R.transformable())
        continue;
      std::set<std::string> In;
      if (!R.DefinedIn.empty())
        In.insert(realPath(R.DefinedIn));
      for (const UnitFacts &F : Facts) {
        auto It = F.RecordFiles.find(recordKey(R));
        if (It != F.RecordFiles.end())
          In.insert(It->second.begin(), It->second.end());
      }
      auto Outside = llvm::find_if(In, [&](const std::string &File) {
        return !isUnder(File, Opts.Root);
      });
      if (Outside == In.end())
        continue;
      R.Blockers.push_back({outsideRootReason(*Outside), R.Location});
      // What mergeUnits leaves of a blocked record: nothing proposed.
      R.Clusters.clear();
      R.Graph = Kdlg();
      R.Kernels.clear();
    }
  }

  std::string outsideRootReason(const std::string &File) const {
    return displayPath(File) + " is outside the project root '" + Opts.Root +
           "' (use --root)";
  }

  /// The real paths of the edited files outside the project root, and the
  /// units that edit them.
  std::set<std::string> outsideRoot(const std::vector<RefactorResult> &Results,
                                    std::set<std::string> *Units = nullptr) {
    std::set<std::string> Files;
    if (Opts.Root.empty())
      return Files;
    for (const RefactorResult &R : Results)
      for (const EditSet &ES : R.Edits)
        if (std::string P = realPath(ES.path()); !isUnder(P, Opts.Root)) {
          Files.insert(P);
          if (Units)
            Units->insert(R.Unit);
        }
    return Files;
  }

  /// Records whose rewrite edits a file outside the project root that the
  /// analysis did not see them in (a prototype in a header elsewhere), each
  /// with the reason: they are refused like a use the rewriter cannot
  /// handle.
  std::map<std::string, std::vector<std::string>>
  refusedOutsideRoot(const std::vector<RefactorResult> &Results,
                     const std::set<std::string> &Changing) {
    std::set<std::string> Units;
    std::set<std::string> Outside = outsideRoot(Results, &Units);
    if (Outside.empty())
      return {};
    // The suspects: the changing records of the units that made the edits.
    std::set<std::string> Suspects;
    for (unsigned I = 0; I < Files.size(); ++I)
      if (Units.count(Files[I]))
        for (const RecordPlan &R : Facts[I].Unit.Records)
          if (Changing.count(recordKey(R)))
            Suspects.insert(recordKey(R));
    std::map<std::string, std::set<std::string>> ByRecord;
    if (Suspects.size() > 1)
      for (const std::string &Key : Suspects) // Which: each rewritten alone.
        if (std::set<std::string> F = outsideRoot(rewriteUnits({Key}));
            !F.empty())
          ByRecord[Key] = std::move(F);
    if (ByRecord.empty()) // One suspect, or only all of them together.
      for (const std::string &Key : Suspects)
        ByRecord[Key] = Outside;
    std::map<std::string, std::vector<std::string>> Refused;
    for (auto &[Key, In] : ByRecord)
      for (const std::string &File : In)
        Refused[Key].push_back(outsideRootReason(File));
    return Refused;
  }

  /// Steps 3 to 5.
  void runRewrite() {
    std::set<std::string> Changing = changingRecords(Out.Plan);
    std::vector<RefactorResult> Results;
    // Each round drops the records some unit refused; it ends when no unit
    // refuses anything.
    while (!Changing.empty()) {
      Results = rewriteUnits(Changing);
      for (RefactorResult &R : Results)
        for (const std::string &E : R.Internal)
          appendOnce(Out.Errors, E);
      if (!Out.Errors.empty()) {
        Out.S = ProgramOutcome::RenderError;
        return;
      }
      std::map<std::string, std::vector<std::string>> Refused;
      for (RefactorResult &R : Results)
        for (auto &[Key, Reasons] : R.Refused)
          for (const std::string &Reason : Reasons)
            appendOnce(Refused[Key], Reason);
      if (Refused.empty())
        Refused = refusedOutsideRoot(Results, Changing);
      if (Refused.empty())
        break;
      for (auto &[Key, Reasons] : Refused) {
        Changing.erase(Key);
        bool IsForced = Forced.count(Key);
        std::string Name;
        for (const RecordPlan &R : Out.Plan.Records)
          if (recordKey(R) == Key)
            Name = R.Name;
        for (const std::string &Reason : Reasons)
          (IsForced ? Out.Errors : Out.Notes)
              .push_back(Reason + " (struct " + Name + " " +
                         (IsForced ? "cannot take the forced plan)"
                                   : "kept as it is)"));
      }
      if (!Out.Errors.empty()) {
        Out.S = ProgramOutcome::IllegalPlan;
        return;
      }
      Results.clear();
    }
    if (!combineEdits(Results))
      return;
    for (RefactorResult &R : Results)
      for (const std::string &Note : R.Notes)
        appendOnce(Out.Notes, Note);
    if (!Out.Files.empty() && !compiles())
      Out.S = ProgramOutcome::RewriteDoesNotCompile;
  }

  /// Step 3 on the units that use a changing record.
  std::vector<RefactorResult> rewriteUnits(const std::set<std::string> &Keys) {
    std::vector<std::string> Todo;
    std::vector<unsigned> Index;
    for (unsigned I = 0; I < Files.size(); ++I)
      if (llvm::any_of(Facts[I].Unit.Records, [&](const RecordPlan &R) {
            return Keys.count(recordKey(R));
          })) {
        Todo.push_back(Files[I]);
        Index.push_back(I);
      }
    std::vector<RefactorResult> Results(Todo.size());
    std::vector<std::string> Origin(Todo.size());
    // The analysis has shown the compiler's warnings already.
    RunnerOptions R{Opts.Jobs, Opts.Progress, Overlay, /*ErrorsOnly=*/true};
    runOnTranslationUnits(
        DB, Todo, R, [&](unsigned I, ASTContext &Ctx, Preprocessor &) {
          Results[I] = rewriteTranslationUnit(Ctx, Out.Plan, Keys);
          // Messages name a file as the analysis's locations do.
          FileSpellings Spellings(Ctx.getSourceManager());
          for (std::string &Note : Results[I].Notes)
            Note = Spellings.canonicalMessage(Note);
          for (auto &[Key, Reasons] : Results[I].Refused)
            for (std::string &Reason : Reasons)
              Reason = Spellings.canonicalMessage(Reason);
        });
    for (unsigned I = 0; I < Todo.size(); ++I)
      Results[I].Unit = Todo[I];
    return Results;
  }

  /// The edits of one file from the units that rewrote it, the host
  /// files' and the OpenCL kernel files' apart: a header both include is
  /// rewritten for each side (mergeSides).
  struct FileEdits {
    std::optional<EditSet> Side[2];
    std::string Unit[2];
  };

  /// Adds \p ES, unit \p Unit's edits of \p File, to those of its side;
  /// false on a conflict.
  bool addEdits(FileEdits &File, EditSet ES, const std::string &Unit,
                const std::string &Key) {
    bool Kernel = isKernelFile(Unit);
    std::optional<EditSet> &Seen = File.Side[Kernel];
    std::string &SeenUnit = File.Unit[Kernel];
    if (!Seen) {
      Seen = renamed(ES, Key);
      SeenUnit = Unit;
      return true;
    }
    // The two sides of a CUDA file: each rewrote what it sees.
    if (cudaDeviceSideOf(Unit) == SeenUnit ||
        cudaDeviceSideOf(SeenUnit) == Unit) {
      if (llvm::Error E = Seen->merge(ES)) {
        Out.Errors.push_back(
            displayPath(Key) + ": its host and device sides are " +
            "rewritten differently (" + llvm::toString(std::move(E)) +
            "; is code under __CUDA_ARCH__ rewritten on one side only?)");
        Out.S = ProgramOutcome::Conflict;
        return false;
      }
      return true;
    }
    if (Seen->apply() != ES.apply()) {
      Out.Errors.push_back(displayPath(Key) + ": rewritten differently from " +
                           SeenUnit + " and from " + Unit +
                           " (is it included under different macros?)");
      Out.S = ProgramOutcome::Conflict;
      return false;
    }
    return true;
  }

  /// Whether a host file (\p Kernel false) or a kernel file reads \p Path.
  bool readBySide(const std::string &Path, bool Kernel) const {
    for (unsigned I = 0; I < Files.size(); ++I)
      if (isKernelFile(Files[I]) == Kernel && Facts[I].Reads.count(Path))
        return true;
    return false;
  }

  /// \p File's edits as one set: a file both sides read gets each side's
  /// code under a test of the OpenCL compiler's macros (__OPENCL_VERSION__,
  /// which device compilers define, or __OPENCL_C_VERSION__, which clang
  /// does); nullopt on a conflict.
  std::optional<EditSet> sidesOf(FileEdits &File, const std::string &Path) {
    bool Both = File.Side[0] && File.Side[1];
    if (!Both && File.Side[0] && !readBySide(Path, /*Kernel=*/true))
      return std::move(*File.Side[0]);
    if (!Both && File.Side[1] && !readBySide(Path, /*Kernel=*/false))
      return std::move(*File.Side[1]);
    const EditSet &Any = File.Side[0] ? *File.Side[0] : *File.Side[1];
    llvm::StringRef Text = Any.original();
    llvm::Expected<EditSet> Merged = EditSet::mergeSides(
        File.Side[0] ? *File.Side[0] : Any.emptyCopy(),
        File.Side[1] ? *File.Side[1] : Any.emptyCopy(),
        "defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)",
        [Text](unsigned Offset, bool Kernel) {
          return openCLSideAt(Text, Offset) ==
                 (Kernel ? ProgramSide::Kernels : ProgramSide::Host);
        });
    if (!Merged) {
      Out.Errors.push_back(
          displayPath(Path) + ": read by host files and kernel files (" +
          (File.Side[0] ? File.Unit[0] : File.Unit[1]) +
          "), which rewrite it in ways one text cannot hold (" +
          llvm::toString(Merged.takeError()) + ")");
      Out.S = ProgramOutcome::Conflict;
      return std::nullopt;
    }
    return std::move(*Merged);
  }

  /// Step 4: one EditSet per file; false on a conflict.
  bool combineEdits(std::vector<RefactorResult> &Results) {
    std::map<std::string, FileEdits> Edits;
    for (unsigned I = 0; I < Results.size(); ++I)
      for (EditSet &ES : Results[I].Edits) {
        // Known by its real path from here on: --apply writes through a
        // symbolic link, and messages name the file one way.
        std::string Key = realPath(ES.path());
        if (!addEdits(Edits[Key], std::move(ES), Results[I].Unit, Key))
          return false;
      }
    std::map<std::string, EditSet> ByFile;
    for (auto &[Key, File] : Edits) {
      std::optional<EditSet> ES = sidesOf(File, Key);
      if (!ES)
        return false;
      ByFile.emplace(Key, std::move(*ES));
    }
    // Edits of expanded text become edits of the file as it is.
    for (const auto &[Path, List] : Expansions) {
      auto It = ByFile.find(Path);
      EditSet Rewrite =
          It != ByFile.end() ? It->second : EditSet(Path, Overlay[Path]);
      EditSet Composed =
          composeExpansions(Path, Originals[Path], List, Rewrite);
      ByFile.insert_or_assign(
          Path,
          formatExpansions(Composed, List, styleOfFile(Path, Originals[Path])));
    }
    for (auto &[Key, Entry] : ByFile)
      Out.Files.push_back(std::move(Entry));
    llvm::sort(Out.Files, [](const EditSet &A, const EditSet &B) {
      return A.path() < B.path();
    });
    return true;
  }

  /// Step 5 on every unit that reads an edited file.
  bool compiles() {
    RunnerOptions R{Opts.Jobs, Opts.Progress, Overlay, /*ErrorsOnly=*/true};
    std::set<std::string> Edited;
    for (const EditSet &ES : Out.Files) {
      // Under every name a unit opens it by: a name left out would read the
      // file as it is on disk.
      std::string Text = ES.apply();
      R.MappedFiles[ES.path()] = Text;
      for (const UnitFacts &F : Facts)
        if (auto It = F.Names.find(ES.path()); It != F.Names.end())
          for (const std::string &Name : It->second)
            R.MappedFiles[Name] = Text;
      Edited.insert(ES.path());
    }
    std::vector<std::string> Todo;
    for (unsigned I = 0; I < Files.size(); ++I)
      if (llvm::any_of(Edited, [&](const std::string &P) {
            return Facts[I].Reads.count(P);
          }))
        Todo.push_back(Files[I]);
    std::vector<bool> OK = runOnTranslationUnits(
        DB, Todo, R, [](unsigned, ASTContext &, Preprocessor &) {});
    return !llvm::is_contained(OK, false);
  }

  const tooling::CompilationDatabase &DB;
  /// The units: the files, and each CUDA file's device side.
  const std::vector<std::string> Files;
  const ProgramOptions &Opts;
  /// Opts.Analysis, with what a first analysis learnt of the program.
  AnalysisOptions Analysis;
  std::vector<UnitFacts> Facts;
  /// Keys of the records whose plan the user forced.
  std::set<std::string> Forced;
  ProgramOutcome Out;
  /// Macro expansion (runAnalysis): the expansions found by the first
  /// analysis, the invocations expanded per record and per file, the
  /// files' texts before and after.
  std::map<std::pair<std::string, unsigned>, Expanded> Found;
  std::map<std::string, std::vector<MacroInvocation>> ExpandedUses;
  std::map<std::string, std::vector<Blocker>> NotExpanded;
  std::map<std::string, std::vector<Expansion>> Expansions;
  std::map<std::string, std::string> Originals, Overlay;
};

} // namespace

ProgramOutcome dlopt::analyzeProgram(const tooling::CompilationDatabase &DB,
                                     const std::vector<std::string> &Files,
                                     const ProgramOptions &Opts) {
  return ProgramRefactor(DB, Files, Opts).analyze();
}

ProgramOutcome dlopt::refactorProgram(const tooling::CompilationDatabase &DB,
                                      const std::vector<std::string> &Files,
                                      const ProgramOptions &Opts) {
  return ProgramRefactor(DB, Files, Opts).refactor();
}
