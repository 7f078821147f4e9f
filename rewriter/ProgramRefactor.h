//===- ProgramRefactor.h - Analyse and rewrite a whole program --*- C++ -*-===//
//
// The whole-program flow over the translation units of a compilation
// database (or the files named on the command line, which together are the
// program):
//   1. analyse each unit on its own (in parallel) into a unit plan;
//   2. merge the unit plans into one program plan (WholeProgram.h); where a
//      record is refused only for uses spelled in macro bodies, expand those
//      invocations in memory (MacroExpander.h) and analyse again, keeping
//      the expansions of the records whose layout then changes; force the
//      plans the user asked for;
//   3. rewrite every unit that uses a record whose layout changes; a record
//      any unit refuses is dropped everywhere and the units are rewritten
//      again without it;
//   4. combine the edits: a header edited from many units must come out the
//      same from each (else nothing is written); edits of expanded text
//      become edits of the file as it is, the expansions included;
//   5. parse every unit that includes an edited file with the new text: the
//      result must compile before anything is written.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_PROGRAMREFACTOR_H
#define DLOPT_REWRITER_PROGRAMREFACTOR_H

#include "analysis/RecordPlanner.h"
#include "rewriter/EditSet.h"
#include "rewriter/PlanOverride.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <set>
#include <string>
#include <vector>

namespace dlopt {

struct ProgramOptions {
  AnalysisOptions Analysis;
  std::vector<PlanOverride> Forced;
  unsigned Jobs = 1;
  bool Progress = false;
  /// The project root (a real path): a record whose rewrite would edit a
  /// file outside it keeps its layout. Empty: no limit.
  std::string Root;
};

struct ProgramOutcome {
  enum Status {
    Success,
    /// A unit does not compile (its diagnostics were printed).
    CompileError,
    /// A forced plan cannot be applied (Errors say why).
    IllegalPlan,
    /// Units disagree on the new text of a shared file.
    Conflict,
    /// The rewritten program would not compile (a dlopt bug).
    RewriteDoesNotCompile,
    /// A use the analysis admitted could not be rendered (a dlopt bug;
    /// Errors say where).
    RenderError,
  };
  Status S = Success;
  LayoutPlan Plan;
  /// The edited files, each named by its real path, ordered by it.
  std::vector<EditSet> Files;
  std::vector<std::string> Notes, Errors;
  /// Overrides that named a record of the program.
  std::set<std::string> UsedOverrides;
};

/// Steps 1 and 2: the program plan, without rewriting.
ProgramOutcome analyzeProgram(const clang::tooling::CompilationDatabase &DB,
                              const std::vector<std::string> &Files,
                              const ProgramOptions &Opts);

/// All five steps.
ProgramOutcome refactorProgram(const clang::tooling::CompilationDatabase &DB,
                               const std::vector<std::string> &Files,
                               const ProgramOptions &Opts);

} // namespace dlopt

#endif
