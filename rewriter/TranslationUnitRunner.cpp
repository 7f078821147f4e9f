//===- TranslationUnitRunner.cpp - Parse many TUs, N at a time ------------===//
#include "rewriter/TranslationUnitRunner.h"
#include "analysis/SkippedCode.h"
#include "analysis/StackSpace.h"
#include "rewriter/CudaUnits.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include <mutex>

using namespace clang;
using namespace clang::tooling;
using namespace dlopt;

namespace {

/// Keeps a file's diagnostics as clang's first lines would print them
/// ("file:line:col: error: message"), to print them in file order later.
class BufferingDiagnostics : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    llvm::raw_string_ostream OS(Text);
    if (Info.getLocation().isValid() && Info.hasSourceManager()) {
      PresumedLoc P =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        OS << P.getFilename() << ":" << P.getLine() << ":" << P.getColumn()
           << ": ";
    }
    switch (Level) {
    case DiagnosticsEngine::Note:
      OS << "note: ";
      break;
    case DiagnosticsEngine::Remark:
      OS << "remark: ";
      break;
    case DiagnosticsEngine::Warning:
      OS << "warning: ";
      break;
    case DiagnosticsEngine::Error:
    case DiagnosticsEngine::Fatal:
      OS << "error: ";
      break;
    case DiagnosticsEngine::Ignored:
      return;
    }
    llvm::SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    OS << Message << "\n";
  }
  std::string Text;
};

class CallbackAction : public ASTFrontendAction {
public:
  explicit CallbackAction(
      llvm::function_ref<void(ASTContext &, Preprocessor &)> Run)
      : Run(Run) {}
  bool BeginInvocation(CompilerInstance &CI) override {
    addCudaStandIn(CI);
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    // The analysis names the branches the preprocessor skips.
    keepSkippedRanges(CI.getPreprocessor());
    return std::make_unique<Consumer>(Run, CI.getPreprocessor());
  }

private:
  class Consumer : public ASTConsumer {
  public:
    Consumer(llvm::function_ref<void(ASTContext &, Preprocessor &)> Run,
             Preprocessor &PP)
        : Run(Run), PP(PP) {}
    void HandleTranslationUnit(ASTContext &Ctx) override {
      if (!Ctx.getDiagnostics().hasErrorOccurred())
        Run(Ctx, PP);
    }

  private:
    llvm::function_ref<void(ASTContext &, Preprocessor &)> Run;
    Preprocessor &PP;
  };
  llvm::function_ref<void(ASTContext &, Preprocessor &)> Run;
};

class CallbackFactory : public FrontendActionFactory {
public:
  explicit CallbackFactory(
      llvm::function_ref<void(ASTContext &, Preprocessor &)> Run)
      : Run(Run) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<CallbackAction>(Run);
  }

private:
  llvm::function_ref<void(ASTContext &, Preprocessor &)> Run;
};

} // namespace

std::vector<bool> dlopt::runOnTranslationUnits(
    const CompilationDatabase &DB, const std::vector<std::string> &Files,
    const RunnerOptions &Opts,
    llvm::function_ref<void(unsigned, ASTContext &, Preprocessor &)> Callback) {
  const unsigned N = Files.size();
  std::vector<bool> Compiled(N, false), Done(N, false);
  std::vector<std::string> Diagnostics(N);
  std::mutex Lock;
  unsigned Started = 0, Printed = 0;
  bool ProgressShown = false;
  llvm::raw_ostream &Err = llvm::errs();
  auto ClearProgress = [&] {
    if (ProgressShown)
      Err << "\r\x1b[K";
    ProgressShown = false;
  };

  auto RunOne = [&](unsigned I) {
    {
      std::lock_guard<std::mutex> Guard(Lock);
      ++Started;
      if (Opts.Progress) {
        ClearProgress();
        Err << "[" << Started << "/" << N << "] " << Files[I];
        Err.flush();
        ProgressShown = true;
      }
    }
    // Each tool resolves relative paths against its own command's directory
    // without changing the process's working directory. A CUDA file is
    // parsed for one side at a time (CudaUnits.h).
    std::optional<std::string> Device = cudaDeviceSideOf(Files[I]);
    std::string File = Device.value_or(Files[I]);
    ClangTool Tool(DB, {File}, std::make_shared<PCHContainerOperations>(),
                   llvm::vfs::createPhysicalFileSystem());
    if (isCudaFile(File))
      prepareCudaTool(Tool, Device.has_value());
    else
      prepareNvccHostTool(Tool);
    // Clang's own headers (stddef.h, ...) live in clang-19's resource dir,
    // not next to this binary.
    Tool.appendArgumentsAdjuster(
        getInsertArgumentAdjuster("-resource-dir=" DLOPT_CLANG_RESOURCE_DIR,
                                  ArgumentInsertPosition::BEGIN));
    // Everything the compiler says goes through the buffer: no caret
    // snippets and no "N errors generated." written straight to stderr.
    Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
        "-fno-caret-diagnostics", ArgumentInsertPosition::END));
    if (Opts.ErrorsOnly)
      Tool.appendArgumentsAdjuster(
          getInsertArgumentAdjuster("-w", ArgumentInsertPosition::END));
    Tool.setPrintErrorMessage(false);
    for (const auto &[Path, Text] : Opts.MappedFiles)
      Tool.mapVirtualFile(Path, Text);
    BufferingDiagnostics Diags;
    Tool.setDiagnosticConsumer(&Diags);
    auto Run = [&](ASTContext &Ctx, Preprocessor &PP) { Callback(I, Ctx, PP); };
    CallbackFactory Factory(Run);
    bool OK = Tool.run(&Factory) == 0;
    if (!OK)
      Diags.Text += "error while processing " + Files[I] + "\n";

    std::lock_guard<std::mutex> Guard(Lock);
    Compiled[I] = OK;
    Diagnostics[I] = std::move(Diags.Text);
    Done[I] = true;
    // Print what is complete, in file order.
    while (Printed < N && Done[Printed]) {
      if (!Diagnostics[Printed].empty()) {
        ClearProgress();
        Err << Diagnostics[Printed];
      }
      ++Printed;
    }
  };

  // Each file on a stack of its own, large enough for clang's parser and
  // the walks on a deeply nested expression.
  if (Opts.Jobs <= 1 || N <= 1) {
    for (unsigned I = 0; I < N; ++I)
      runOnLargeStack([&] { RunOne(I); });
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Opts.Jobs));
    for (unsigned I = 0; I < N; ++I)
      Pool.async([&RunOne, I] { runOnLargeStack([&] { RunOne(I); }); });
    Pool.wait();
  }
  ClearProgress();
  Err.flush();
  return Compiled;
}
