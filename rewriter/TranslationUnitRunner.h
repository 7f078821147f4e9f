//===- TranslationUnitRunner.h - Parse many TUs, N at a time ----*- C++ -*-===//
//
// Runs a callback on the AST of each translation unit of a compilation
// database, on up to N threads (one ClangTool per file, each with its own
// working directory, as clang's AllTUsToolExecutor does). The compiler's
// diagnostics are buffered per file and printed in file order, so the
// output does not depend on the number of threads; a progress line
// ("[12/340] src/foo.c") is drawn on stderr when asked.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_TRANSLATIONUNITRUNNER_H
#define DLOPT_REWRITER_TRANSLATIONUNITRUNNER_H

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <map>
#include <string>
#include <vector>

namespace dlopt {

struct RunnerOptions {
  unsigned Jobs = 1;
  /// Draw "[i/n] file" on stderr while running.
  bool Progress = false;
  /// Files to read from memory instead of disk (absolute path -> text).
  std::map<std::string, std::string> MappedFiles;
  /// Report errors only: a second parse (the rewrite, the check that the
  /// rewritten code compiles) would repeat the warnings of the first.
  bool ErrorsOnly = false;
};

/// Calls \p Callback(Index, Ctx, PP) for each file of \p Files that
/// compiles, from several threads at once (never twice for one Index), with
/// the unit's preprocessor (its macros). Returns, per file, whether it
/// compiled without errors.
std::vector<bool>
runOnTranslationUnits(const clang::tooling::CompilationDatabase &DB,
                      const std::vector<std::string> &Files,
                      const RunnerOptions &Opts,
                      llvm::function_ref<void(unsigned, clang::ASTContext &,
                                              clang::Preprocessor &)>
                          Callback);

} // namespace dlopt

#endif
