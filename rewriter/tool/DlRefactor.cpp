//===- DlRefactor.cpp - The dl-refactor command-line tool -----------------===//
//
// A LibTooling program over FILE... [-p BUILD] [-- FLAGS]:
//   --report          print the layout plan of each translation unit
//   (no mode)/--diff  print a unified diff of the rewrite, change nothing
//   --apply           rewrite the files in place (all or nothing)
//   --export-fixes=F  write the replacements as clang-apply-replacements YAML
// Exit codes are listed in README.md and kept in ExitCode below.
//
//===----------------------------------------------------------------------===//
#include "analysis/Analyzer.h"
#include "analysis/PlanPrinter.h"
#include "rewriter/Refactor.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>

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

cl::extrahelp MoreHelp(R"(
Examples:
  dl-refactor --report examples/nbody/nbody.c -- -O2
  dl-refactor --report --format=json -p build src/*.c

Exit codes: 0 success (changed, or nothing to change), 1 a file does not
compile, 2 usage error, 3 a forced plan cannot be applied, 4 a file cannot be
written, 5 internal error (the rewrite would not compile; nothing written).
)");

/// Calls a function with the AST of each translation unit that compiled.
class PerTranslationUnit {
public:
  explicit PerTranslationUnit(std::function<void(ASTContext &)> Run)
      : Run(std::move(Run)) {}

  std::unique_ptr<ASTConsumer> newASTConsumer() {
    return std::make_unique<Consumer>(Run);
  }

private:
  class Consumer : public ASTConsumer {
  public:
    explicit Consumer(std::function<void(ASTContext &)> &Run) : Run(Run) {}
    void HandleTranslationUnit(ASTContext &Ctx) override {
      if (!Ctx.getDiagnostics().hasErrorOccurred())
        Run(Ctx);
    }

  private:
    std::function<void(ASTContext &)> &Run;
  };

  std::function<void(ASTContext &)> Run;
};

int writeFile(const std::string &Path,
              llvm::function_ref<void(llvm::raw_ostream &)> Print) {
  if (llvm::Error E = writeOutputFile(Path, Print)) {
    llvm::errs() << "dl-refactor: cannot write '" << Path
                 << "': " << llvm::toString(std::move(E)) << "\n";
    return OutputError;
  }
  return Success;
}

/// What the rewriter found in all translation units.
struct RewriteOutcome {
  std::vector<EditSet> Files;
  std::vector<std::string> Errors, Notes;
  std::set<std::string> UsedOverrides;

  void add(RefactorResult R) {
    llvm::append_range(Errors, R.Errors);
    llvm::append_range(Notes, R.Notes);
    UsedOverrides.insert(R.UsedOverrides.begin(), R.UsedOverrides.end());
    // A file seen from several translation units is edited once.
    if (R.Edits && llvm::none_of(Files, [&](const EditSet &E) {
          return E.path() == R.Edits->path();
        }))
      Files.push_back(std::move(*R.Edits));
  }
};

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
  llvm::Expected<CommonOptionsParser> Parser =
      CommonOptionsParser::create(Argc, Argv, Category, cl::OneOrMore);
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
  AnalysisOptions Opts;
  Opts.CacheLine = CacheLine;
  Opts.Model = Model ? &*Model : nullptr;

  ClangTool Tool(Parser->getCompilations(), Parser->getSourcePathList());
  // Clang's own headers (stddef.h, ...) live in clang-19's resource dir, not
  // next to this binary.
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster("-resource-dir=" DLOPT_CLANG_RESOURCE_DIR,
                                ArgumentInsertPosition::BEGIN));

  if (Report) {
    LayoutPlan Plan;
    Plan.CacheLine = CacheLine;
    Plan.Model = Model ? Model->name() : DecisionTree::builtin().name();
    PerTranslationUnit Collector([&](ASTContext &Ctx) {
      for (RecordPlan &R : analyzeTranslationUnit(Ctx, Opts).Plan.Records)
        Plan.Records.push_back(std::move(R));
    });
    if (Tool.run(newFrontendActionFactory(&Collector).get())) {
      llvm::errs() << "dl-refactor: stopped: a file did not compile\n";
      return CompileError;
    }
    auto Print = [&](llvm::raw_ostream &OS) {
      if (OutputFormat == Format::Json)
        OS << llvm::formatv("{0:2}", planToJson(Plan)) << "\n";
      else
        printPlanText(OS, Plan);
    };
    Print(llvm::outs());
    if (!DotPath.empty())
      return writeFile(DotPath,
                       [&](llvm::raw_ostream &OS) { printPlanDot(OS, Plan); });
    return Success;
  }

  RewriteOutcome Collector;
  PerTranslationUnit Rewrite([&](ASTContext &Ctx) {
    Collector.add(refactorTranslationUnit(Ctx, Opts, Forced));
  });
  if (Tool.run(newFrontendActionFactory(&Rewrite).get())) {
    llvm::errs() << "dl-refactor: stopped: a file did not compile; nothing "
                    "written\n";
    return CompileError;
  }
  for (const PlanOverride &O : Forced)
    if (!Collector.UsedOverrides.count(O.Record)) {
      llvm::errs() << "dl-refactor: " << O.Origin
                   << ": no candidate struct named '" << O.Record
                   << "' (a struct whose arrays are indexed in loops) in the "
                      "given files\n";
      return UsageError;
    }
  for (const std::string &N : Collector.Notes)
    llvm::errs() << "dl-refactor: " << N << "\n";
  if (!Collector.Errors.empty()) {
    for (const std::string &E : Collector.Errors)
      llvm::errs() << E << "\n";
    llvm::errs() << "dl-refactor: the forced plan cannot be applied; nothing "
                    "written\n";
    return IllegalPlan;
  }
  if (Collector.Files.empty()) {
    llvm::errs() << "dl-refactor: nothing to change\n";
    if (!ExportFixes.empty())
      return exportFixes({}, ExportFixes);
    return Success;
  }

  // Never emit code that does not compile: parse the result first.
  ClangTool Check(Parser->getCompilations(), Parser->getSourcePathList());
  Check.appendArgumentsAdjuster(
      getInsertArgumentAdjuster("-resource-dir=" DLOPT_CLANG_RESOURCE_DIR,
                                ArgumentInsertPosition::BEGIN));
  std::vector<std::string> NewTexts;
  for (const EditSet &F : Collector.Files)
    NewTexts.push_back(F.apply());
  for (size_t I = 0; I < Collector.Files.size(); ++I)
    Check.mapVirtualFile(Collector.Files[I].path(), NewTexts[I]);
  if (Check.run(newFrontendActionFactory<SyntaxOnlyAction>().get())) {
    llvm::errs() << "dl-refactor: internal error: the rewritten code does not "
                    "compile (errors above); nothing written. Please report "
                    "it with the input file.\n";
    return InternalError;
  }

  if (!ExportFixes.empty())
    if (int RC = exportFixes(Collector.Files, ExportFixes))
      return RC;
  if (Apply)
    return applyAll(Collector.Files);
  if (ExportFixes.empty() || Diff)
    for (const EditSet &F : Collector.Files)
      llvm::outs() << unifiedDiff(F);
  return Success;
}
