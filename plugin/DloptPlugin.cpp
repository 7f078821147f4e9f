//===- DloptPlugin.cpp - dlopt as a clang plugin --------------------------===//
//
// `clang -fplugin=libdlopt.so -Rpass=dlopt -c file.c` compiles as usual and,
// after the compile, reports each candidate record as optimization remarks
// (Remarks.h): its plan, why it is kept, its clusters and why. The object
// file is the same as without the plugin: the plugin only reads the AST.
//
// With report=DIR/ (a trailing slash), each translation unit writes its unit
// plan to DIR/<file>-<hash>.json instead, for `dl-refactor --merge-reports
// DIR` to merge into the whole program's plan after a normal build.
//
// A thin front door: it parses -fplugin-arg-dlopt-* options, runs
// analyzeTranslationUnit() and prints.
//
//===----------------------------------------------------------------------===//
#include "analysis/Analyzer.h"
#include "analysis/AstUtil.h"
#include "analysis/PlanPrinter.h"
#include "analysis/ProfileCounts.h"
#include "analysis/SkippedCode.h"
#include "analysis/StackSpace.h"
#include "analysis/Version.h"
#include "plugin/Remarks.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace clang;
using namespace dlopt;

namespace {

struct PluginOptions {
  std::string ReportPath, DotPath, ModelPath, ProfilePath, ProfileBinary;
  unsigned CacheLine = 64;
  bool CacheLineGiven = false;
  bool ThisConfigurationOnly = false;
};

const char *const Usage =
    "remarks: -Rpass=dlopt (records whose layout changes), "
    "-Rpass-missed=dlopt\n"
    "  (records kept, with what blocks them), -Rpass-analysis=dlopt (KDLG, "
    "clusters,\n"
    "  features); -fsave-optimization-record appends them to the YAML "
    "record\n"
    "dlopt plugin arguments (-fplugin-arg-dlopt-<arg>):\n"
    "  report=FILE.json  write the layout plan as JSON\n"
    "  report=DIR/       write this file's unit plan to DIR/ (for "
    "dl-refactor --merge-reports DIR)\n"
    "  dot=FILE.dot      write the KDLG (edges in bytes, clusters as "
    "subgraphs)\n"
    "  cache-line=N      cluster threshold epsilon in bytes (default 64)\n"
    "  model=FILE.json   decision-tree model (default: the built-in x86-64 "
    "model)\n"
    "  profile=FILE.profdata, profile-binary=EXE\n"
    "                    trip and call counts measured by a run of EXE built "
    "with\n"
    "                    -fprofile-instr-generate -fcoverage-mapping (both "
    "together)\n"
    "  this-configuration-only\n"
    "                    a branch the preprocessor skipped that names a "
    "struct's\n"
    "                    arrays does not keep it (it stays as written)\n"
    "  help              print this help\n";

class DloptConsumer : public ASTConsumer {
public:
  DloptConsumer(CompilerInstance &CI, PluginOptions Opts)
      : CI(CI), Opts(std::move(Opts)) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    if (Diags.hasErrorOccurred())
      return; // No plan from an AST with errors.

    std::optional<DecisionTree> Model;
    if (!Opts.ModelPath.empty()) {
      llvm::Expected<DecisionTree> Loaded =
          DecisionTree::loadFile(Opts.ModelPath);
      if (!Loaded)
        return error("dlopt: " + llvm::toString(Loaded.takeError()));
      Model = std::move(*Loaded);
    }
    std::unique_ptr<ProfileCounts> Profile;
    if (!Opts.ProfilePath.empty()) {
      auto Loaded = ProfileCounts::load(Opts.ProfilePath, Opts.ProfileBinary);
      if (!Loaded)
        return error("dlopt: " + llvm::toString(Loaded.takeError()));
      Profile = std::move(*Loaded);
    }
    AnalysisOptions AOpts;
    AOpts.CacheLine = Opts.CacheLine;
    AOpts.CacheLineGiven = Opts.CacheLineGiven;
    AOpts.Model = Model ? &*Model : nullptr;
    AOpts.Profile = Profile.get();
    AOpts.ThisConfigurationOnly = Opts.ThisConfigurationOnly;
    // On a large stack: a deeply nested expression must not crash the
    // user's compile (clang's own stack is 8 MiB).
    AnalysisResult Result;
    runOnLargeStack([&] {
      Result = analyzeTranslationUnit(Ctx, AOpts, &CI.getPreprocessor());
    });

    emitRemarks(CI, Result, Opts.CacheLine);

    if (llvm::StringRef(Opts.ReportPath).ends_with("/")) {
      std::string Path = unitReportPath(Ctx.getSourceManager());
      if (!Path.empty())
        write(Path, [&](llvm::raw_ostream &OS) {
          OS << llvm::formatv("{0:2}", planToJson(Result.Unit)) << "\n";
        });
    } else if (!Opts.ReportPath.empty()) {
      write(Opts.ReportPath, [&](llvm::raw_ostream &OS) {
        OS << llvm::formatv("{0:2}", planToJson(Result.Plan)) << "\n";
      });
    }
    if (!Opts.DotPath.empty())
      write(Opts.DotPath,
            [&](llvm::raw_ostream &OS) { printPlanDot(OS, Result.Plan); });
  }

private:
  /// DIR/<main file name>-<hash of its absolute path>.json: one file per
  /// translation unit, the same one on every build. Empty on error.
  std::string unitReportPath(const SourceManager &SM) {
    std::string Source = absolutePath(SM, SM.getMainFileID());
    if (Source.empty())
      return "";
    if (std::error_code EC =
            llvm::sys::fs::create_directories(Opts.ReportPath)) {
      error("dlopt: cannot create '" + Opts.ReportPath + "': " + EC.message());
      return "";
    }
    return (Opts.ReportPath + llvm::sys::path::filename(Source) + "-" +
            llvm::utohexstr(llvm::xxh3_64bits(Source), /*LowerCase=*/true) +
            ".json")
        .str();
  }

  void error(const std::string &Message) {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
        << Message;
  }

  void write(const std::string &Path,
             llvm::function_ref<void(llvm::raw_ostream &)> Print) {
    if (llvm::Error E = writeOutputFile(Path, Print))
      error("dlopt: cannot write '" + Path +
            "': " + llvm::toString(std::move(E)));
  }

  CompilerInstance &CI;
  PluginOptions Opts;
};

class DloptAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    keepSkippedRanges(CI.getPreprocessor());
    return std::make_unique<DloptConsumer>(CI, Opts);
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    auto Fail = [&](const std::string &Message) {
      Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
          << "dlopt: " + Message +
                 "; valid arguments: report=FILE, report=DIR/, dot=FILE, "
                 "cache-line=N, model=FILE, profile=FILE, "
                 "profile-binary=EXE, this-configuration-only, help";
      return false;
    };
    for (const std::string &Arg : Args) {
      auto [Key, Value] = llvm::StringRef(Arg).split('=');
      bool HasValue = llvm::StringRef(Arg).contains('=');
      if (Key == "help" && !HasValue) {
        llvm::outs() << versionText() << Usage;
      } else if (Key == "this-configuration-only" && !HasValue) {
        Opts.ThisConfigurationOnly = true;
      } else if ((Key == "report" || Key == "dot" || Key == "model" ||
                  Key == "profile" || Key == "profile-binary") &&
                 (!HasValue || Value.empty())) {
        return Fail("'" + Key.str() + "' needs a file name (" + Key.str() +
                    "=FILE)");
      } else if (Key == "report") {
        Opts.ReportPath = Value.str();
      } else if (Key == "dot") {
        Opts.DotPath = Value.str();
      } else if (Key == "model") {
        Opts.ModelPath = Value.str();
      } else if (Key == "profile") {
        Opts.ProfilePath = Value.str();
      } else if (Key == "profile-binary") {
        Opts.ProfileBinary = Value.str();
      } else if (Key == "cache-line") {
        unsigned N = 0;
        if (Value.getAsInteger(10, N) || N == 0 || N > 4096)
          return Fail("cache-line wants a byte count from 1 to 4096, got '" +
                      Value.str() + "'");
        Opts.CacheLine = N;
        Opts.CacheLineGiven = true;
      } else {
        return Fail("unknown argument '" + Arg + "'");
      }
    }
    if (Opts.ProfilePath.empty() != Opts.ProfileBinary.empty())
      return Fail("profile=FILE and profile-binary=EXE go together");
    return true;
  }

  ActionType getActionType() override { return AddAfterMainAction; }

private:
  PluginOptions Opts;
};

} // namespace

static FrontendPluginRegistry::Add<DloptAction>
    X("dlopt",
      "data-layout analysis: remarks and reports on arrays of structs");
