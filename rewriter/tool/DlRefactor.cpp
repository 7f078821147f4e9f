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
// Exit codes are listed in README.md and kept in ExitCode below.
//
//===----------------------------------------------------------------------===//
#include "analysis/PlanPrinter.h"
#include "analysis/PlanReader.h"
#include "analysis/WholeProgram.h"
#include "rewriter/ProgramRefactor.h"
#include "rewriter/Refactor.h"
#include "clang/Basic/Stack.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

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
    cl::desc("Cluster threshold epsilon in bytes (default: 64, x86-64)"),
    cl::init(64), cl::cat(Category));
cl::opt<std::string> ModelPath(
    "model",
    cl::desc("Decision-tree model JSON (default: the built-in x86-64 model)"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> DotPath("dot", cl::desc("Write the KDLG as DOT to FILE"),
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
cl::opt<std::string> MergeReports(
    "merge-reports",
    cl::desc("Merge the per-unit plan JSONs the plugin wrote into DIR "
             "(-fplugin-arg-dlopt-report=DIR/) and print the program plan"),
    cl::value_desc("dir"), cl::cat(Category));

cl::extrahelp MoreHelp(R"(
Examples:
  dl-refactor --report examples/nbody/nbody.c -- -O2
  dl-refactor -p build --jobs 2 --diff      (every file of the database)
  dl-refactor --merge-reports build/dlopt-reports --format=json

Exit codes: 0 success (changed, or nothing to change), 1 a file does not
compile, 2 usage error, 3 a forced plan cannot be applied, 4 a file cannot be
written, 5 internal error (the rewrite would not compile; nothing written),
6 translation units disagree on the rewrite of a shared file (a header
included under different macros; nothing written).
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

int printPlan(const LayoutPlan &Plan) {
  if (OutputFormat == Format::Json)
    llvm::outs() << llvm::formatv("{0:2}", planToJson(Plan)) << "\n";
  else
    printPlanText(llvm::outs(), Plan);
  if (!DotPath.empty())
    return writeFile(DotPath,
                     [&](llvm::raw_ostream &OS) { printPlanDot(OS, Plan); });
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

/// Writes every file or none: all temporaries first, then the renames.
int applyAll(const std::vector<EditSet> &Files) {
  namespace fs = llvm::sys::fs;
  std::vector<std::pair<std::string, std::string>> Renames; // temp -> dest
  auto Abort = [&](const std::string &Message) {
    llvm::errs() << "dl-refactor: " << Message << "; nothing written\n";
    for (auto &[Temp, Dest] : Renames)
      fs::remove(Temp);
    return OutputError;
  };
  for (const EditSet &F : Files) {
    // A file without write permission is read-only to us even as root.
    llvm::ErrorOr<fs::perms> Perms = fs::getPermissions(F.path());
    if (fs::access(F.path(), fs::AccessMode::Write) ||
        (Perms && !(*Perms & fs::all_write)))
      return Abort("'" + F.path() + "' is not writable");
    int FD;
    llvm::SmallString<256> Temp;
    if (std::error_code EC =
            fs::createUniqueFile(F.path() + ".dlopt-%%%%%%", FD, Temp))
      return Abort("cannot create a temporary next to '" + F.path() +
                   "': " + EC.message());
    Renames.push_back({Temp.str().str(), F.path()});
    {
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      OS << F.apply();
      OS.close();
      if (OS.has_error())
        return Abort("cannot write '" + Temp.str().str() + "'");
    }
    if (Perms)
      fs::setPermissions(Temp, *Perms);
  }
  for (auto &[Temp, Dest] : Renames)
    if (std::error_code EC = fs::rename(Temp, Dest))
      return Abort("cannot replace '" + Dest + "': " + EC.message());
  return Success;
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

int main(int Argc, const char **Argv) {
  // For the stack checks of the walks over deep ASTs (StackSpace.h).
  clang::noteBottomOfStack();
  llvm::Expected<CommonOptionsParser> Parser =
      CommonOptionsParser::create(Argc, Argv, Category, cl::ZeroOrMore);
  if (!Parser) {
    llvm::errs() << "dl-refactor: " << llvm::toString(Parser.takeError());
    return UsageError;
  }
  if (Report + Apply + Diff > 1) {
    llvm::errs() << "dl-refactor: choose one of --report, --diff, --apply\n";
    return UsageError;
  }
  if (CacheLine == 0 || CacheLine > 4096) {
    llvm::errs() << "dl-refactor: --cache-line wants a byte count from 1 to "
                    "4096\n";
    return UsageError;
  }

  std::optional<DecisionTree> Model;
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
  ProgramOptions Opts;
  Opts.Analysis.CacheLine = CacheLine;
  Opts.Analysis.Model = Model ? &*Model : nullptr;
  Opts.Forced = std::move(Forced);
  Opts.Jobs = std::max(1u, unsigned(Jobs));
  Opts.Progress = !Quiet && llvm::errs().is_displayed();
  if (!MergeReports.empty())
    return mergeReports(Opts.Analysis);

  std::vector<std::string> Files = Parser->getSourcePathList();
  std::unique_ptr<CompilationDatabase> WholeDB;
  if (Files.empty()) {
    // CommonOptionsParser loads no database without files: every file of
    // BUILD_DIR/compile_commands.json is meant.
    std::optional<std::string> BuildDir = buildDirArgument(Argc, Argv);
    std::string Error;
    if (BuildDir)
      WholeDB = CompilationDatabase::autoDetectFromDirectory(*BuildDir, Error);
    if (!WholeDB) {
      llvm::errs() << "dl-refactor: no files: name them, or give -p BUILD_DIR "
                      "with a compile_commands.json"
                   << (Error.empty() ? "" : " (" + Error + ")") << "\n";
      return UsageError;
    }
    Files = WholeDB->getAllFiles();
    llvm::sort(Files); // The database's order is a hash table's.
    if (Files.empty()) {
      llvm::errs() << "dl-refactor: " << *BuildDir
                   << "/compile_commands.json lists no files\n";
      return UsageError;
    }
  }
  const CompilationDatabase &DB =
      WholeDB ? *WholeDB : Parser->getCompilations();

  if (Report) {
    ProgramOutcome O = analyzeProgram(DB, Files, Opts);
    if (O.S == ProgramOutcome::CompileError) {
      llvm::errs() << "dl-refactor: stopped: a file did not compile\n";
      return CompileError;
    }
    return printPlan(O.Plan);
  }

  ProgramOutcome O = refactorProgram(DB, Files, Opts);
  if (O.S == ProgramOutcome::CompileError) {
    llvm::errs() << "dl-refactor: stopped: a file did not compile; nothing "
                    "written\n";
    return CompileError;
  }
  for (const PlanOverride &P : Opts.Forced)
    if (!O.UsedOverrides.count(P.Record)) {
      llvm::errs() << "dl-refactor: " << P.Origin
                   << ": no candidate struct named '" << P.Record
                   << "' (a struct whose arrays are indexed in loops) in the "
                      "given files\n";
      return UsageError;
    }
  for (const std::string &N : O.Notes)
    llvm::errs() << "dl-refactor: " << N << "\n";
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
  case ProgramOutcome::RewriteDoesNotCompile:
    llvm::errs() << "dl-refactor: internal error: the rewritten code does not "
                    "compile (errors above); nothing written. Please report "
                    "it with the input files.\n";
    return InternalError;
  default:
    break;
  }
  if (O.Files.empty()) {
    llvm::errs() << "dl-refactor: nothing to change\n";
    if (!ExportFixes.empty())
      return exportFixes({}, ExportFixes);
    return Success;
  }
  if (!ExportFixes.empty())
    if (int RC = exportFixes(O.Files, ExportFixes))
      return RC;
  if (Apply)
    return applyAll(O.Files);
  if (ExportFixes.empty() || Diff)
    for (const EditSet &F : O.Files)
      llvm::outs() << unifiedDiff(F);
  return Success;
}
