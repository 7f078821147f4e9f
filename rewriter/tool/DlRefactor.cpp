//===- DlRefactor.cpp - The dl-refactor command-line tool -----------------===//
//
// A LibTooling program: `dl-refactor --report FILE... [-p BUILD] [-- FLAGS]`
// prints the layout plan of each translation unit (text, or JSON with
// --format=json). Rewriting modes (--diff, --apply) arrive with the
// rewriter. Exit codes are listed in README.md and kept in ExitCode below.
//
//===----------------------------------------------------------------------===//
#include "analysis/Analyzer.h"
#include "analysis/PlanPrinter.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
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
  // 3 is reserved for a forced plan that is illegal (the rewriter).
  OutputError = 4,
};

cl::OptionCategory Category("dl-refactor options");

cl::opt<bool> Report("report", cl::desc("Print the layout plan of each file"),
                     cl::cat(Category));
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

Exit codes: 0 success, 1 a file does not compile, 2 usage error,
4 an output file cannot be written.
)");

/// Runs the analysis on each translation unit the tool parses.
class PlanCollector {
public:
  PlanCollector(const AnalysisOptions &Opts, LayoutPlan &Merged)
      : Opts(Opts), Merged(Merged) {}

  std::unique_ptr<ASTConsumer> newASTConsumer() {
    return std::make_unique<Consumer>(*this);
  }

private:
  class Consumer : public ASTConsumer {
  public:
    explicit Consumer(PlanCollector &Owner) : Owner(Owner) {}
    void HandleTranslationUnit(ASTContext &Ctx) override {
      if (Ctx.getDiagnostics().hasErrorOccurred())
        return;
      LayoutPlan Plan = analyzeTranslationUnit(Ctx, Owner.Opts).Plan;
      for (RecordPlan &R : Plan.Records)
        Owner.Merged.Records.push_back(std::move(R));
    }

  private:
    PlanCollector &Owner;
  };

  const AnalysisOptions &Opts;
  LayoutPlan &Merged;
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

} // namespace

int main(int Argc, const char **Argv) {
  llvm::Expected<CommonOptionsParser> Parser =
      CommonOptionsParser::create(Argc, Argv, Category, cl::OneOrMore);
  if (!Parser) {
    llvm::errs() << "dl-refactor: " << llvm::toString(Parser.takeError());
    return UsageError;
  }
  if (!Report) {
    llvm::errs() << "dl-refactor: no mode given; use --report (the rewriting "
                    "modes --diff and --apply are not implemented yet)\n";
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
  AnalysisOptions Opts;
  Opts.CacheLine = CacheLine;
  Opts.Model = Model ? &*Model : nullptr;

  ClangTool Tool(Parser->getCompilations(), Parser->getSourcePathList());
  // Clang's own headers (stddef.h, ...) live in clang-19's resource dir, not
  // next to this binary.
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster("-resource-dir=" DLOPT_CLANG_RESOURCE_DIR,
                                ArgumentInsertPosition::BEGIN));

  LayoutPlan Plan;
  Plan.CacheLine = CacheLine;
  Plan.Model = Model ? Model->name() : DecisionTree::builtin().name();
  PlanCollector Collector(Opts, Plan);
  if (int RC = Tool.run(newFrontendActionFactory(&Collector).get())) {
    llvm::errs() << "dl-refactor: stopped: a file did not compile ("
                 << (RC == 2 ? "a file was skipped" : "errors above") << ")\n";
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
