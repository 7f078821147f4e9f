//===- DlRefactor.cpp - The dl-refactor command-line tool -----------------===//
//
// A LibTooling program over [FILE...] [-p BUILD] [-- FLAGS]. The files (or
// every file of BUILD/compile_commands.json) are one program, analysed and
// rewritten as a whole (rewriter/ProgramRefactor.h):
//   --report          print the program's layout plan
//   (no mode)/--diff  print a unified diff of the rewrite, change nothing
//   --apply           rewrite the files in place (all or nothing)
//   --export-fixes=F  write the replacements as clang-apply-replacements YAML
//   --merge-reports=D merge the plugin's per-unit reports in D into a plan
//   --profile=P --profile-binary=E  measured trip and call counts
//   --tune --build=CMD --run=CMD  measure candidate plans in copies of the
//                     project, apply the fastest if it beats the original
// Exit codes are listed in README.md and kept in ExitCode below.
//
//===----------------------------------------------------------------------===//
#include "analysis/PlanPicture.h"
#include "analysis/PlanPrinter.h"
#include "analysis/PlanReader.h"
#include "analysis/ProfileCounts.h"
#include "analysis/Version.h"
#include "analysis/WholeProgram.h"
#include "rewriter/ApplyJournal.h"
#include "rewriter/KernelFlags.h"
#include "rewriter/ProgramRefactor.h"
#include "rewriter/ProjectPaths.h"
#include "rewriter/Refactor.h"
#include "tuner/TuneReport.h"
#include "tuner/Tuner.h"
#include "clang/Basic/Stack.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <cassert>
#include <optional>
#include <variant>

using namespace clang;
using namespace clang::tooling;
using namespace dlopt;
namespace cl = llvm::cl;

namespace {

enum ExitCode {
  Success = 0,
  CompileError = 1,
  UsageError = 2,
  IllegalPlan = 3,
  OutputError = 4,
  InternalError = 5,
  ConflictingEdits = 6,
  Interrupted = 130,
};

cl::OptionCategory Category("dl-refactor options");

cl::opt<bool> Report("report", cl::desc("Print the layout plan of each file"),
                     cl::cat(Category));
cl::opt<bool> Diff("diff",
                   cl::desc("Print the rewrite as a unified diff and change "
                            "nothing (the default)"),
                   cl::cat(Category));
cl::opt<bool> Apply("apply", cl::desc("Rewrite the files in place"),
                    cl::cat(Category));
cl::opt<std::string>
    ExportFixes("export-fixes",
                cl::desc("Write the replacements to FILE as YAML for "
                         "clang-apply-replacements"),
                cl::value_desc("file"), cl::cat(Category));
cl::list<std::string>
    ForcedLayouts("layout",
                  cl::desc("Force a plan: RECORD=soa|aos|tiled:T|"
                           "split:{f1,f2}{f3}... (repeatable; a group may be "
                           "followed by its layout: {x,y}tiled:16)"),
                  cl::value_desc("record=plan"), cl::cat(Category));
cl::list<std::string> ForcedStrategies(
    "strategy",
    cl::desc("How a struct with OpenCL buffers takes its layout: RECORD=whole "
             "(host arrays and buffers alike) or RECORD=boundary (host arrays "
             "keep theirs; transfers convert). Default: whole where nothing "
             "blocks it, else boundary (repeatable)"),
    cl::value_desc("record=whole|boundary"), cl::cat(Category));
cl::opt<std::string> PlanFile("plan",
                              cl::desc("Force the plans of a plan JSON (as "
                                       "--report --format=json writes it)"),
                              cl::value_desc("file"), cl::cat(Category));
enum class Format { Text, Json };
cl::opt<Format> OutputFormat(
    "format", cl::desc("Report format"), cl::init(Format::Text),
    cl::values(clEnumValN(Format::Text, "text", "human-readable (default)"),
               clEnumValN(Format::Json, "json", "the plan JSON")),
    cl::cat(Category));
cl::opt<unsigned> CacheLine(
    "cache-line",
    cl::desc("Cluster threshold epsilon in bytes (default: the model's "
             "target's: 64 for x86-64 and PoCL, 32 for NVIDIA GPUs)"),
    cl::init(64), cl::cat(Category));
cl::opt<std::string> ModelPath(
    "model",
    cl::desc("Decision-tree model JSON (default: the built-in x86-64 model)"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> ProfilePath(
    "profile",
    cl::desc("Trip and call counts measured by a run: the merged profile "
             "(llvm-profdata merge) of the program built with "
             "-fprofile-instr-generate -fcoverage-mapping; needs "
             "--profile-binary"),
    cl::value_desc("file.profdata"), cl::cat(Category));
cl::opt<std::string> ProfileBinary(
    "profile-binary",
    cl::desc("The instrumented program that wrote --profile (its coverage "
             "mapping ties the counts to the source)"),
    cl::value_desc("exe"), cl::cat(Category));
cl::opt<std::string> KernelFlags(
    "kernel-flags",
    cl::desc("Options for the OpenCL kernel files (.cl) besides the -D/-I/-U "
             "of FLAGS (default: what the host passes to clBuildProgram as a "
             "string literal)"),
    cl::value_desc("options"), cl::cat(Category));
cl::OptionCategory TuneCategory("dl-refactor --tune options");
cl::opt<bool>
    Tune("tune",
         cl::desc("Build and run the original and candidate plans in copies "
                  "of the project (under $TMPDIR), time them, and apply the "
                  "fastest only if it beats the original beyond the noise"),
         cl::cat(TuneCategory));
cl::opt<std::string>
    BuildCommand("build",
                 cl::desc("--tune: shell command that builds the copy "
                          "({dir} is its path; it runs there)"),
                 cl::value_desc("command"), cl::cat(TuneCategory));
cl::opt<std::string>
    RunCommand("run",
               cl::desc("--tune: shell command that runs the program built "
                        "in {dir}; its stdout must not change"),
               cl::value_desc("command"), cl::cat(TuneCategory));
cl::opt<double> TuneBudget("tune-budget",
                           cl::desc("--tune: seconds for the whole search "
                                    "(default 600)"),
                           cl::init(600), cl::value_desc("seconds"),
                           cl::cat(TuneCategory));
cl::opt<double> TuneTolerance(
    "tune-tolerance",
    cl::desc("--tune: numbers in the output may differ by this relative "
             "amount (default 0: byte-identical output)"),
    cl::init(0), cl::value_desc("rel"), cl::cat(TuneCategory));
cl::opt<std::string>
    TuneReportPath("tune-report",
                   cl::desc("--tune: the table as JSON (default "
                            "dlopt-tune.json in the project root), and a "
                            "PNG chart beside it"),
                   cl::value_desc("file.json"), cl::cat(TuneCategory));

cl::opt<std::string> DotPath("dot", cl::desc("Write the KDLG as DOT to FILE"),
                             cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> PicturePath(
    "picture",
    cl::desc("Draw each struct's layout to FILE.svg or FILE.png: a cache line "
             "before and after, the clusters, the KDLG (rendered by "
             "graphviz's dot; with --report or --merge-reports)"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<unsigned> Jobs("jobs",
                       cl::desc("Translation units to parse in parallel "
                                "(default 1; the output is the same)"),
                       cl::init(1), cl::cat(Category));
cl::alias JobsShort("j", cl::desc("Alias for --jobs"), cl::aliasopt(Jobs));
cl::opt<bool> Quiet("quiet",
                    cl::desc("No progress line (it is only drawn on a "
                             "terminal)"),
                    cl::cat(Category));
cl::opt<bool> ThisConfigurationOnly(
    "this-configuration-only",
    cl::desc("Rewrite a struct also where a branch the preprocessor skipped "
             "(#ifdef X) names its arrays: that branch stays as written, so "
             "the program then builds only without it (default: the struct "
             "keeps its layout)"),
    cl::cat(Category));
cl::opt<std::string> MergeReports(
    "merge-reports",
    cl::desc("Merge the per-unit plan JSONs the plugin wrote into DIR "
             "(-fplugin-arg-dlopt-report=DIR/) and print the program plan"),
    cl::value_desc("dir"), cl::cat(Category));

cl::opt<std::string>
    RootDir("root",
            cl::desc("The project root: no file outside it is written "
                     "(default: the deepest directory holding every file)"),
            cl::value_desc("dir"), cl::cat(Category));

cl::extrahelp MoreHelp(R"(
Examples:
  dl-refactor --report examples/nbody/nbody.c -- -O2
  dl-refactor -p build --jobs 2 --diff      (every file of the database)
  dl-refactor --merge-reports build/dlopt-reports --format=json

Files are written only below the project root (--root; by default the
deepest directory holding every file). An --apply that was killed is ended
by the next run on the tree (journal .dlopt-apply.journal in the root).

Exit codes: 0 success (changed, or nothing to change; --tune: applied a
plan or found none faster), 1 a file does not compile (--tune: or the
original does not build or run, or prints differently from run to run),
2 usage error (also an option that does nothing in the chosen mode),
3 a forced plan cannot be applied, 4 a file cannot be written or an
interrupted --apply cannot be ended, 5 internal error (the rewrite would not
compile, or the analysis admitted a use the rewriter cannot render; nothing
written), 6 translation units disagree on the rewrite of a shared file (a
header included under different macros; nothing written), 130 --tune was
interrupted (nothing written).
)");

int writeFile(const std::string &Path,
              llvm::function_ref<void(llvm::raw_ostream &)> Print) {
  if (llvm::Error E = writeOutputFile(Path, Print)) {
    llvm::errs() << "dl-refactor: cannot write '" << Path
                 << "': " << llvm::toString(std::move(E)) << "\n";
    return OutputError;
  }
  return Success;
}

/// --picture: the plan's picture as DOT, rendered by graphviz's dot into a
/// temporary file beside \p Path that becomes \p Path only once complete.
int renderPicture(const LayoutPlan &Plan, const std::string &Path) {
  auto Fail = [&](const llvm::Twine &Why) {
    llvm::errs() << "dl-refactor: cannot draw '" << Path << "': " << Why
                 << "; nothing written\n";
    return OutputError;
  };
  llvm::ErrorOr<std::string> Dot = llvm::sys::findProgramByName("dot");
  if (!Dot)
    return Fail("graphviz's dot is not on PATH (Debian: apt-get install "
                "graphviz)");
  auto Source = llvm::sys::fs::TempFile::create(Path + "-%%%%%%.dot");
  if (!Source)
    return Fail(llvm::toString(Source.takeError()));
  {
    llvm::raw_fd_ostream OS(Source->FD, /*shouldClose=*/false);
    printPlanPicture(OS, Plan);
  }
  auto Image = llvm::sys::fs::TempFile::create(Path + "-%%%%%%.tmp");
  if (!Image) {
    llvm::consumeError(Source->discard());
    return Fail(llvm::toString(Image.takeError()));
  }
  std::string Format =
      llvm::StringRef(llvm::sys::path::extension(Path)).drop_front().lower();
  std::string Message;
  int RC = llvm::sys::ExecuteAndWait(
      *Dot, {*Dot, "-T" + Format, Source->TmpName, "-o", Image->TmpName},
      std::nullopt, {}, 0, 0, &Message);
  llvm::consumeError(Source->discard());
  if (RC != 0) {
    llvm::consumeError(Image->discard());
    return Fail("dot failed" + (Message.empty() ? "" : ": " + Message));
  }
  if (llvm::Error E = Image->keep(Path))
    return Fail(llvm::toString(std::move(E)));
  return Success;
}

int printPlan(const LayoutPlan &Plan) {
  if (OutputFormat == Format::Json)
    llvm::outs() << llvm::formatv("{0:2}", planToJson(Plan)) << "\n";
  else
    printPlanText(llvm::outs(), Plan);
  if (!DotPath.empty())
    if (int RC = writeFile(
            DotPath, [&](llvm::raw_ostream &OS) { printPlanDot(OS, Plan); }))
      return RC;
  if (!PicturePath.empty())
    return renderPicture(Plan, PicturePath);
  return Success;
}

/// The value of -p (or --p) before "--", which CommonOptionsParser keeps to
/// itself.
std::optional<std::string> buildDirArgument(int Argc, const char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "--")
      break;
    if ((A == "-p" || A == "--p") && I + 1 < Argc)
      return std::string(Argv[I + 1]);
    if (A.consume_front("-p=") || A.consume_front("--p="))
      return A.str();
  }
  return std::nullopt;
}

/// --tune's options go with --tune, and it with them; it applies what it
/// measured, so options that force or export a rewrite go without it.
bool validateTuneOptions(llvm::function_ref<bool(const llvm::Twine &)> Usage) {
  const std::pair<bool, llvm::StringRef> TuneOnly[] = {
      {BuildCommand.getNumOccurrences() > 0, "--build"},
      {RunCommand.getNumOccurrences() > 0, "--run"},
      {TuneBudget.getNumOccurrences() > 0, "--tune-budget"},
      {TuneTolerance.getNumOccurrences() > 0, "--tune-tolerance"},
      {TuneReportPath.getNumOccurrences() > 0, "--tune-report"}};
  if (!Tune) {
    for (auto [Given, Name] : TuneOnly)
      if (Given)
        return Usage(Name + " goes with --tune");
    return true;
  }
  if (BuildCommand.empty() || RunCommand.empty())
    return Usage("--tune needs --build=COMMAND and --run=COMMAND (run in a "
                 "copy of the project; {dir} is its path)");
  const std::pair<bool, llvm::StringRef> NotWithTune[] = {
      {!ExportFixes.empty(), "--export-fixes"},
      {!ForcedLayouts.empty(), "--layout"},
      {!PlanFile.empty(), "--plan"},
      {!MergeReports.empty(), "--merge-reports"},
      {!DotPath.empty(), "--dot"},
      {!PicturePath.empty(), "--picture"},
      {OutputFormat.getNumOccurrences() > 0, "--format"}};
  for (auto [Given, Name] : NotWithTune)
    if (Given)
      return Usage(Name + " does not go with --tune, which chooses and "
                          "applies a plan itself");
  if (!(TuneBudget > 0))
    return Usage("--tune-budget wants a number of seconds above 0");
  if (!(TuneTolerance >= 0 && TuneTolerance < 1))
    return Usage("--tune-tolerance wants a relative tolerance from 0 to 1");
  if (TuneReportPath.getNumOccurrences() && TuneReportPath.empty())
    return Usage("--tune-report needs a file name");
  return true;
}

/// Options whose effect the chosen mode would drop are usage errors: a --dot
/// without a plan to draw, or a --layout given to a merge, would otherwise
/// look as if it had worked. Prints the reason; false on an error.
bool validateOptions(const CommonOptionsParser &Parser, int Argc,
                     const char **Argv) {
  auto Usage = [](const llvm::Twine &Message) {
    llvm::errs() << "dl-refactor: " << Message << "\n";
    return false;
  };
  if (Report + Apply + Diff + Tune > 1)
    return Usage("choose one of --report, --diff, --apply, --tune");
  if (!validateTuneOptions(Usage))
    return false;
  // "--dot=" leaves the value empty, which reads as "not given" below.
  for (const cl::opt<std::string> *O :
       {&ExportFixes, &PlanFile, &ModelPath, &DotPath, &PicturePath,
        &MergeReports, &ProfilePath, &ProfileBinary})
    if (O->getNumOccurrences() && O->empty())
      return Usage(llvm::Twine("--") + O->ArgStr + " needs a " + O->ValueStr +
                   " name");
  if (ProfilePath.empty() != ProfileBinary.empty())
    return Usage("--profile and --profile-binary go together: the counts "
                 "and the instrumented program that wrote them");
  if (!PicturePath.empty() &&
      !llvm::is_contained(
          {".svg", ".png"},
          llvm::StringRef(llvm::sys::path::extension(PicturePath)).lower()))
    return Usage("--picture wants FILE.svg or FILE.png (the format is the "
                 "extension's)");
  if (CacheLine == 0 || CacheLine > 4096)
    return Usage("--cache-line wants a byte count from 1 to 4096");
  if (Jobs == 0)
    return Usage("--jobs wants a number of files to parse at a time, at "
                 "least 1");
  if (!MergeReports.empty()) {
    const std::pair<bool, llvm::StringRef> Dropped[] = {
        {Report, "--report"},
        {Diff, "--diff"},
        {Apply, "--apply"},
        {!ExportFixes.empty(), "--export-fixes"},
        {!ForcedLayouts.empty(), "--layout"},
        {!PlanFile.empty(), "--plan"},
        {!ProfilePath.empty(), "--profile"}};
    for (auto [Given, Name] : Dropped)
      if (Given)
        return Usage(Name + " does nothing with --merge-reports, which "
                            "only prints the plan merged from the reports");
    if (!Parser.getSourcePathList().empty() || buildDirArgument(Argc, Argv))
      return Usage("--merge-reports reads the reports, not source files or "
                   "-p");
    return true;
  }
  if (!Report) {
    if (!DotPath.empty())
      return Usage("--dot writes the plan's KDLG: it needs --report or "
                   "--merge-reports");
    if (!PicturePath.empty())
      return Usage("--picture draws the plan: it needs --report or "
                   "--merge-reports");
    if (OutputFormat.getNumOccurrences())
      return Usage("--format is the plan's format: it needs --report or "
                   "--merge-reports");
  } else if (!ExportFixes.empty()) {
    return Usage("--export-fixes writes the rewrite's replacements: "
                 "--report rewrites nothing");
  }
  return true;
}

/// CommonOptionsParser applies --extra-arg and --extra-arg-before only to
/// the database it loads for named files; the one loaded here for every file
/// of -p gets the same adjusters, placed as CommonOptionsParser places them.
std::unique_ptr<CompilationDatabase>
withExtraArgs(std::unique_ptr<CompilationDatabase> DB) {
  // Both are CommonOptionsParser's own cl::list<std::string> options,
  // reachable only through the registry.
  auto Values = [](llvm::StringRef Name) {
    cl::Option *O = cl::getRegisteredOptions().lookup(Name);
    assert(O && "registered by CommonOptionsParser");
    return O ? std::vector<std::string>(
                   *static_cast<cl::list<std::string> *>(O))
             : std::vector<std::string>();
  };
  auto Adjusting =
      std::make_unique<ArgumentsAdjustingCompilations>(std::move(DB));
  Adjusting->appendArgumentsAdjuster(getInsertArgumentAdjuster(
      Values("extra-arg-before"), ArgumentInsertPosition::BEGIN));
  Adjusting->appendArgumentsAdjuster(getInsertArgumentAdjuster(
      Values("extra-arg"), ArgumentInsertPosition::END));
  return Adjusting;
}

/// A forced plan that names no candidate struct of the files is a usage
/// error in every mode; prints which.
bool namesUnknownRecord(const ProgramOutcome &O, const ProgramOptions &Opts) {
  for (const auto &[Name, How] : Opts.Analysis.Strategies)
    if (!O.UsedOverrides.count(Name) &&
        llvm::none_of(O.Plan.Records, [&, &Name = Name](const RecordPlan &R) {
          return R.Name == Name || llvm::is_contained(R.Aliases, Name);
        })) {
      llvm::errs() << "dl-refactor: --strategy=" << Name << "="
                   << strategyName(How) << ": no candidate struct named '"
                   << Name << "' in the given files\n";
      return true;
    }
  for (const PlanOverride &P : Opts.Forced)
    if (!O.UsedOverrides.count(P.Record)) {
      llvm::errs() << "dl-refactor: " << P.Origin
                   << ": no candidate struct named '" << P.Record
                   << "' (a struct whose arrays are indexed in loops) in the "
                      "given files\n";
      return true;
    }
  return false;
}

/// --report shows a forced plan in place of the automatic one. One whose
/// groups do not fit its struct (an unknown, missing or repeated field) would
/// leave the automatic plan showing unremarked, so it fails as the rewrite
/// does; a struct that cannot be transformed is reported with its blockers,
/// which say why the plan is not taken. Prints the errors; false on one.
bool forcedGroupsFit(const LayoutPlan &Plan,
                     const std::vector<PlanOverride> &Forced) {
  bool Fit = true;
  for (const RecordPlan &R : Plan.Records) {
    // The last override naming the struct is the one taken (forcePlans).
    auto Named = llvm::find_if(llvm::reverse(Forced), [&](const auto &P) {
      return R.Name == P.Record || llvm::is_contained(R.Aliases, P.Record);
    });
    if (!R.transformable() || Named == llvm::reverse(Forced).end())
      continue;
    RecordPlan Copy = R;
    if (llvm::Error E = applyOverride(Copy, *Named)) {
      llvm::errs() << R.Location << ": " << llvm::toString(std::move(E))
                   << "\n";
      Fit = false;
    }
  }
  if (!Fit)
    llvm::errs() << "dl-refactor: the forced plan cannot be applied\n";
  return Fit;
}

/// --merge-reports: every *.json of the directory, in name order.
int mergeReports(const AnalysisOptions &Opts) {
  std::vector<std::string> Paths;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(MergeReports, EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".json")
      Paths.push_back(It->path());
  if (EC) {
    llvm::errs() << "dl-refactor: cannot read '" << MergeReports
                 << "': " << EC.message() << "\n";
    return UsageError;
  }
  if (Paths.empty()) {
    llvm::errs() << "dl-refactor: no *.json reports in '" << MergeReports
                 << "'\n";
    return UsageError;
  }
  llvm::sort(Paths);
  std::vector<LayoutPlan> Units;
  for (const std::string &P : Paths) {
    llvm::Expected<LayoutPlan> Plan = readPlanFile(P);
    if (!Plan) {
      llvm::errs() << "dl-refactor: " << llvm::toString(Plan.takeError())
                   << "\n";
      return UsageError;
    }
    Units.push_back(std::move(*Plan));
  }
  return printPlan(mergeUnits(std::move(Units), Opts));
}

/// The project root: --root, else the deepest directory holding every file;
/// "" after an error (printed).
std::string projectRoot(const std::vector<std::string> &Files) {
  if (RootDir.empty())
    return commonDirectory(Files);
  if (!llvm::sys::fs::is_directory(RootDir)) {
    llvm::errs() << "dl-refactor: --root " << RootDir << ": not a directory\n";
    return "";
  }
  return realPath(RootDir);
}

/// Ends an --apply of this tree that was interrupted (ApplyJournal.h), before
/// anything reads the files.
int endInterruptedApply(llvm::StringRef Root,
                        const std::vector<std::string> &Files) {
  std::vector<std::string> Above = journalsAbove(Root);
  for (const std::string &J : Above)
    llvm::errs() << "dl-refactor: warning: '" << displayPath(J)
                 << "': an --apply of a larger tree was interrupted; run "
                    "dl-refactor with --root "
                 << llvm::sys::path::parent_path(J) << " to end it\n";
  llvm::Expected<Recovery> R = recoverInterruptedApply(Root);
  std::string Journal = displayPath((Root + "/" + JournalName).str());
  if (!R) {
    llvm::errs() << "dl-refactor: cannot end the interrupted --apply of "
                    "journal '"
                 << Journal << "': " << llvm::toString(R.takeError())
                 << "; the files may be partly rewritten\n";
    return OutputError;
  }
  if (R->StrayJournals)
    llvm::errs() << "dl-refactor: removed " << R->StrayJournals
                 << " unfinished journal temporar"
                 << (R->StrayJournals == 1 ? "y" : "ies") << " in '"
                 << displayPath(Root) << "'\n";
  if (R->K == Recovery::Completed)
    llvm::errs() << "dl-refactor: completed an interrupted --apply of "
                 << R->Files << " files (" << R->Done
                 << " were left to replace; journal '" << Journal << "')\n";
  else if (R->K == Recovery::RolledBack)
    llvm::errs() << "dl-refactor: rolled back an interrupted --apply of "
                 << R->Files << " files (none was replaced; " << R->Done
                 << " temporaries removed; journal '" << Journal << "')\n";
  if (!Above.empty()) // Those temporaries are still needed.
    return Success;
  // Temporaries no journal names: where the files are, and the root.
  std::set<std::string> Dirs{Root.str()};
  for (const std::string &F : Files) {
    // Next to the file as named (older runs) and to its target.
    llvm::SmallString<256> Named(F);
    llvm::sys::fs::make_absolute(Named);
    Dirs.insert(llvm::sys::path::parent_path(Named).str());
    Dirs.insert(llvm::sys::path::parent_path(realPath(F)).str());
  }
  std::vector<std::string> Stray =
      removeStrayTemporaries({Dirs.begin(), Dirs.end()});
  if (!Stray.empty()) {
    llvm::errs() << "dl-refactor: removed temporaries no journal names (left "
                    "by an --apply killed before it wrote one):";
    for (const std::string &T : Stray)
      llvm::errs() << " " << displayPath(T);
    llvm::errs() << "\n";
  }
  return Success;
}

/// Every edited file is below the root: ProgramRefactor keeps the records
/// that would edit others. Checked again before anything is shown or written.
int checkInsideRoot(const std::vector<EditSet> &Files, llvm::StringRef Root) {
  for (const EditSet &F : Files)
    if (!isUnder(F.path(), Root)) {
      llvm::errs() << "dl-refactor: internal error: '" << F.path()
                   << "' is outside the project root '" << Root
                   << "'; nothing written\n";
      return InternalError;
    }
  return Success;
}

/// Writes every file or none (ApplyJournal.h).
int applyAll(const std::vector<EditSet> &Files, llvm::StringRef Root) {
  std::vector<NewFile> New;
  for (const EditSet &F : Files)
    New.push_back({F.path(), F.apply()});
  if (llvm::Error E = applyFiles(Root, New)) {
    llvm::errs() << "dl-refactor: " << llvm::toString(std::move(E)) << "\n";
    return OutputError;
  }
  return Success;
}

/// The diff names each file relative to the current directory, or to the
/// project root when some file is not below the current directory (a "../"
/// name is one patch refuses), with git's a/ and b/ prefixes: `patch -p1`
/// and `git apply` take it in that directory.
void printDiffs(const std::vector<EditSet> &Files, llvm::StringRef Root) {
  std::string Cwd = realPath(".");
  bool BelowCwd = llvm::all_of(
      Files, [&](const EditSet &F) { return isUnder(F.path(), Cwd); });
  if (!BelowCwd)
    llvm::errs() << "dl-refactor: the diff's paths are relative to the "
                    "project root '"
                 << Root << "' (apply it there with patch -p1)\n";
  for (const EditSet &F : Files)
    llvm::outs() << unifiedDiff(F,
                                relativePath(F.path(), BelowCwd ? Cwd : Root));
}

int exportFixes(const std::vector<EditSet> &Files, const std::string &Path) {
  TranslationUnitReplacements TUR;
  TUR.MainSourceFile = Files.empty() ? "" : Files.front().path();
  for (const EditSet &F : Files) {
    llvm::Expected<Replacements> Rs = F.toReplacements();
    if (!Rs) {
      llvm::errs() << "dl-refactor: " << llvm::toString(Rs.takeError()) << "\n";
      return InternalError;
    }
    for (const Replacement &R : *Rs)
      TUR.Replacements.push_back(R);
  }
  return writeFile(Path, [&](llvm::raw_ostream &OS) {
    llvm::yaml::Output YAML(OS);
    YAML << TUR;
  });
}

} // namespace

/// The model, the forced plans and the rest of the options, as
/// ProgramOptions; exit code UsageError on a bad model or plan.
static std::variant<ProgramOptions, int> programOptions() {
  // Static: the options point to it for the whole run.
  static std::optional<DecisionTree> Model;
  if (!ModelPath.empty()) {
    llvm::Expected<DecisionTree> Loaded = DecisionTree::loadFile(ModelPath);
    if (!Loaded) {
      llvm::errs() << "dl-refactor: " << llvm::toString(Loaded.takeError())
                   << "\n";
      return UsageError;
    }
    Model = std::move(*Loaded);
  }
  std::vector<PlanOverride> Forced;
  if (!PlanFile.empty()) {
    llvm::Expected<std::vector<PlanOverride>> Plans = parsePlanFile(PlanFile);
    if (!Plans) {
      llvm::errs() << "dl-refactor: " << llvm::toString(Plans.takeError())
                   << "\n";
      return UsageError;
    }
    Forced = std::move(*Plans);
  }
  for (const std::string &L : ForcedLayouts) {
    llvm::Expected<PlanOverride> O = parseLayoutOption(L);
    if (!O) {
      llvm::errs() << "dl-refactor: " << llvm::toString(O.takeError()) << "\n";
      return UsageError;
    }
    Forced.push_back(std::move(*O));
  }
  // Static for the same reason as the model.
  static std::unique_ptr<ProfileCounts> Profile;
  if (!ProfilePath.empty()) {
    llvm::Expected<std::unique_ptr<ProfileCounts>> Loaded =
        ProfileCounts::load(ProfilePath, ProfileBinary);
    if (!Loaded) {
      llvm::errs() << "dl-refactor: " << llvm::toString(Loaded.takeError())
                   << "\n";
      return UsageError;
    }
    Profile = std::move(*Loaded);
    if (unsigned N = Profile->mismatchedFunctions())
      llvm::errs() << "dl-refactor: warning: " << N << " functions of '"
                   << ProfilePath
                   << "' do not match the binary (a profile older than the "
                      "build); their counts are guessed\n";
  }
  ProgramOptions Opts;
  for (llvm::StringRef S : ForcedStrategies) {
    auto [Record, Name] = S.split('=');
    std::optional<Strategy> How = strategyNamed(Name);
    if (Record.empty() || !How) {
      llvm::errs() << "dl-refactor: --strategy=" << S
                   << ": expected RECORD=whole or RECORD=boundary\n";
      return UsageError;
    }
    Opts.Analysis.Strategies[Record.str()] = *How;
  }
  Opts.Analysis.Profile = Profile.get();
  Opts.Analysis.CacheLine = CacheLine;
  Opts.Analysis.CacheLineGiven = CacheLine.getNumOccurrences() > 0;
  Opts.Analysis.Model = Model ? &*Model : nullptr;
  Opts.Analysis.ThisConfigurationOnly = ThisConfigurationOnly;
  Opts.Forced = std::move(Forced);
  Opts.Jobs = Jobs;
  Opts.Progress = !Quiet && llvm::errs().is_displayed();
  return Opts;
}

/// With no file names, every file of BUILD_DIR/compile_commands.json
/// (\p WholeDB, which CommonOptionsParser does not load without files);
/// else the files named. Empty after an error, reported.
static std::vector<std::string>
inputFiles(CommonOptionsParser &Parser, int Argc, const char **Argv,
           std::unique_ptr<CompilationDatabase> &WholeDB) {
  std::vector<std::string> Files = Parser.getSourcePathList();
  if (!Files.empty())
    return Files;
  std::optional<std::string> BuildDir = buildDirArgument(Argc, Argv);
  std::string Error;
  if (BuildDir)
    WholeDB = CompilationDatabase::autoDetectFromDirectory(*BuildDir, Error);
  if (!WholeDB) {
    llvm::errs() << "dl-refactor: no files: name them, or give -p BUILD_DIR "
                    "with a compile_commands.json"
                 << (Error.empty() ? "" : " (" + Error + ")") << "\n";
    return {};
  }
  WholeDB = withExtraArgs(std::move(WholeDB));
  Files = WholeDB->getAllFiles();
  llvm::sort(Files); // The database's order is a hash table's.
  if (Files.empty())
    llvm::errs() << "dl-refactor: " << *BuildDir
                 << "/compile_commands.json lists no files\n";
  return Files;
}

/// --report: the program's plan.
static int reportProgram(const CompilationDatabase &DB,
                         const std::vector<std::string> &Files,
                         const ProgramOptions &Opts) {
  ProgramOutcome O = analyzeProgram(DB, Files, Opts);
  if (O.S == ProgramOutcome::CompileError) {
    llvm::errs() << "dl-refactor: stopped: a file did not compile\n";
    return CompileError;
  }
  if (namesUnknownRecord(O, Opts))
    return UsageError;
  if (!forcedGroupsFit(O.Plan, Opts.Forced))
    return IllegalPlan;
  return printPlan(O.Plan);
}

/// Why nothing was written, for an outcome that stops the run; Success
/// for one that goes on.
static int stoppedOutcome(const ProgramOutcome &O) {
  switch (O.S) {
  case ProgramOutcome::IllegalPlan:
    for (const std::string &E : O.Errors)
      llvm::errs() << E << "\n";
    llvm::errs() << "dl-refactor: the forced plan cannot be applied; nothing "
                    "written\n";
    return IllegalPlan;
  case ProgramOutcome::Conflict:
    for (const std::string &E : O.Errors)
      llvm::errs() << "dl-refactor: " << E << "; nothing written\n";
    return ConflictingEdits;
  case ProgramOutcome::RenderError:
    for (const std::string &E : O.Errors)
      llvm::errs() << E << "\n";
    llvm::errs() << "dl-refactor: internal error: the analysis admitted uses "
                    "(above) that the rewriter cannot render; nothing "
                    "written. Please report it with the input files.\n";
    return InternalError;
  case ProgramOutcome::RewriteDoesNotCompile:
    llvm::errs() << "dl-refactor: internal error: the rewritten code does not "
                    "compile (errors above); nothing written. Please report "
                    "it with the input files.\n";
    return InternalError;
  default:
    return Success;
  }
}

/// --apply, --diff, --export-fixes.
static int rewriteProgram(const CompilationDatabase &DB,
                          const std::vector<std::string> &Files,
                          const ProgramOptions &Opts) {
  ProgramOutcome O = refactorProgram(DB, Files, Opts);
  if (O.S == ProgramOutcome::CompileError) {
    llvm::errs() << "dl-refactor: stopped: a file did not compile; nothing "
                    "written\n";
    return CompileError;
  }
  if (namesUnknownRecord(O, Opts))
    return UsageError;
  for (const std::string &N : O.Notes)
    llvm::errs() << "dl-refactor: " << N << "\n";
  if (int RC = stoppedOutcome(O))
    return RC;
  if (O.Files.empty()) {
    llvm::errs() << "dl-refactor: nothing to change\n";
    if (!ExportFixes.empty())
      return exportFixes({}, ExportFixes);
    return Success;
  }
  if (int RC = checkInsideRoot(O.Files, Opts.Root))
    return RC;
  if (!ExportFixes.empty())
    if (int RC = exportFixes(O.Files, ExportFixes))
      return RC;
  if (Apply)
    return applyAll(O.Files, Opts.Root);
  if (ExportFixes.empty() || Diff)
    printDiffs(O.Files, Opts.Root);
  return Success;
}

/// --tune: measures, prints the table, writes the report and applies the
/// plan it chose, if any.
static int tuneAndApply(const CompilationDatabase &DB,
                        const std::vector<std::string> &Files,
                        const ProgramOptions &Opts) {
  TuneOptions T;
  T.Build = BuildCommand;
  T.Run = RunCommand;
  T.Budget = TuneBudget;
  T.Tolerance = TuneTolerance;
  T.Progress = !Quiet;
  TuneResult R = tuneProgram(DB, Files, Opts, T);
  switch (R.S) {
  case TuneResult::Interrupted:
    llvm::errs() << "dl-refactor: interrupted; nothing written\n";
    return Interrupted;
  case TuneResult::CannotStart:
    llvm::errs() << "dl-refactor: " << R.Message << "\n";
    return OutputError;
  case TuneResult::OriginalFails:
    llvm::errs() << "dl-refactor: tune: " << R.Message << "; nothing written\n";
    return CompileError;
  default:
    break;
  }
  printTuneTable(llvm::outs(), R);
  std::string Report = TuneReportPath.empty() ? (Opts.Root + "/dlopt-tune.json")
                                              : std::string(TuneReportPath);
  std::string Warning;
  if (llvm::Error E = writeTuneReport(Report, R, Warning)) {
    llvm::errs() << "dl-refactor: cannot write '" << Report
                 << "': " << llvm::toString(std::move(E)) << "\n";
    return OutputError;
  }
  if (!Warning.empty())
    llvm::errs() << "dl-refactor: warning: no chart: " << Warning << "\n";
  if (R.S != TuneResult::Chosen) {
    llvm::outs() << "applied nothing: "
                 << (R.Message.empty() ? "no plan beat the original beyond "
                                         "the measured noise"
                                       : R.Message)
                 << "\n";
    return Success;
  }
  const TunedPlan &Chosen = R.Plans[R.ChosenPlan];
  if (int RC = checkInsideRoot(Chosen.Files, Opts.Root))
    return RC;
  if (int RC = applyAll(Chosen.Files, Opts.Root))
    return RC;
  llvm::outs() << "applied " << Chosen.Name
               << (Chosen.Detail.empty() ? ""
                                         : " (--layout " + Chosen.Detail + ")")
               << "\n";
  return Success;
}

/// The options kernel files are parsed with (see KernelFlags.h).
static std::vector<std::string>
kernelFlags(const std::vector<std::string> &Files) {
  std::string Warning;
  std::vector<std::string> Flags = kernelFileFlags(
      Files,
      KernelFlags.getNumOccurrences() ? std::optional<std::string>(KernelFlags)
                                      : std::nullopt,
      Warning);
  if (!Warning.empty())
    llvm::errs() << "dl-refactor: warning: " << Warning << "\n";
  return Flags;
}

/// A file the profile has no counts for keeps guessed counts, silently
/// otherwise: the instrumented program was built from other files (a copy
/// elsewhere, under another name) or without it. Kernel files have none.
static void warnUnprofiled(const ProgramOptions &Opts,
                           const std::vector<std::string> &Files) {
  const ProfileCounts *Profile = Opts.Analysis.Profile;
  if (!Profile)
    return;
  for (const std::string &F : Files) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(F, Real))
      Real = F;
    if (!llvm::StringRef(F).ends_with(".cl") && !Profile->covers(Real))
      llvm::errs() << "dl-refactor: warning: '" << ProfileBinary
                   << "' was built without '" << F
                   << "' (the coverage mapping names the files it was built "
                      "from): its counts are guessed\n";
  }
}

int main(int Argc, const char **Argv) {
  // For the stack checks of the walks over deep ASTs (StackSpace.h).
  clang::noteBottomOfStack();
  cl::SetVersionPrinter(
      [](llvm::raw_ostream &OS) { OS << dlopt::versionText(); });
  llvm::Expected<CommonOptionsParser> Parser =
      CommonOptionsParser::create(Argc, Argv, Category, cl::ZeroOrMore);
  if (!Parser) {
    llvm::errs() << "dl-refactor: " << llvm::toString(Parser.takeError());
    return UsageError;
  }
  if (!validateOptions(*Parser, Argc, Argv))
    return UsageError;
  std::variant<ProgramOptions, int> Options = programOptions();
  if (const int *RC = std::get_if<int>(&Options))
    return *RC;
  ProgramOptions &Opts = std::get<ProgramOptions>(Options);
  if (!MergeReports.empty())
    return mergeReports(Opts.Analysis);

  std::unique_ptr<CompilationDatabase> WholeDB;
  std::vector<std::string> Files = inputFiles(*Parser, Argc, Argv, WholeDB);
  if (Files.empty())
    return UsageError;
  warnUnprofiled(Opts, Files);
  std::unique_ptr<CompilationDatabase> KernelDB = withKernelFlags(
      WholeDB ? *WholeDB : Parser->getCompilations(), kernelFlags(Files));
  const CompilationDatabase &DB = *KernelDB;
  Opts.Root = projectRoot(Files);
  if (Opts.Root.empty())
    return UsageError;
  // Held to the end of the run: no other dl-refactor on this tree takes
  // this run's temporaries for an interrupted one's, or writes beside it.
  llvm::Expected<RootLock> Lock = RootLock::acquire(Opts.Root, [&] {
    llvm::errs() << "dl-refactor: waiting for another dl-refactor run on '"
                 << displayPath(Opts.Root) << "'\n";
  });
  if (!Lock) {
    llvm::errs() << "dl-refactor: " << llvm::toString(Lock.takeError()) << "\n";
    return OutputError;
  }
  if (int RC = endInterruptedApply(Opts.Root, Files))
    return RC;
  if (Tune)
    return tuneAndApply(DB, Files, Opts);
  return Report ? reportProgram(DB, Files, Opts)
                : rewriteProgram(DB, Files, Opts);
}
