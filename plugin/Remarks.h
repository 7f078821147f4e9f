//===- Remarks.h - The plugin's plan as Clang optimization remarks -*- C++
//-*-===//
//
// The plugin speaks as Clang's optimization passes do: each record's plan
// is a remark of the pass "dlopt", shown only where -Rpass=, -Rpass-missed=
// or -Rpass-analysis= matches that name (the patterns the compiler's
// code-generation options hold), with the flag text Clang's own remarks
// carry ([-Rpass=dlopt]); with -fsave-optimization-record the same remarks
// are appended to the YAML record in LLVM's remark format.
//
//   -Rpass=dlopt           a record whose layout changes: its plan
//   -Rpass-missed=dlopt    a record kept as it is: its blockers as notes, or
//                          the model's choice to keep every cluster
//   -Rpass-analysis=dlopt  the KDLG's distances within epsilon and each
//                          cluster's layout with the features that chose it
//
// A record whose only blockers are its arrays reaching other files (an
// extern array, a function defined elsewhere) is not a missed remark of
// one file: the whole program decides (dl-refactor --merge-reports), which
// the analysis remark says.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_PLUGIN_REMARKS_H
#define DLOPT_PLUGIN_REMARKS_H

#include "analysis/Analyzer.h"
#include "clang/Frontend/CompilerInstance.h"

namespace dlopt {

/// Reports \p Result's records as remarks through \p CI's diagnostics and
/// optimization record. \p CacheLine: epsilon where a record has none.
void emitRemarks(clang::CompilerInstance &CI, const AnalysisResult &Result,
                 unsigned CacheLine);

} // namespace dlopt

#endif
