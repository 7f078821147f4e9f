//===- ExpansionFormat.h - Expanded macros, formatted -----------*- C++ -*-===//
//
// A macro expanded in place (MacroExpander) leaves its body's text on one
// line of the invocation, however long: the preprocessor's view, not a
// programmer's. Once composed with the rewrite, each statement that holds
// an expansion is formatted in the file's clang-format style, and only
// those statements; the rest of the file keeps its text. The style of a
// file is found here for the renderers too.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_EXPANSIONFORMAT_H
#define DLOPT_REWRITER_EXPANSIONFORMAT_H

#include "rewriter/EditSet.h"
#include "rewriter/MacroExpander.h"
#include "clang/Format/Format.h"
#include <vector>

namespace dlopt {

/// \p Composed (composeExpansions() of \p Expansions) with the statements
/// that hold an expansion formatted in \p Style: the same edits where
/// formatting changes nothing.
EditSet formatExpansions(const EditSet &Composed,
                         const std::vector<Expansion> &Expansions,
                         const clang::format::FormatStyle &Style);

/// The clang-format style of \p Path (a .clang-format above it), LLVM's if
/// it has none or it cannot be read.
clang::format::FormatStyle styleOfFile(const std::string &Path,
                                       llvm::StringRef Code);

} // namespace dlopt

#endif
