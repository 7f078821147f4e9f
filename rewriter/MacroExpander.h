//===- MacroExpander.h - A macro invocation, expanded in place --*- C++ -*-===//
//
// A use of a record spelled in a macro's body cannot be rewritten where it
// is: the body serves every invocation. The invocation is expanded in place
// instead (only those the analysis lists for a record whose layout
// changes, RecordPlan::MacroUses), and the expanded text is rewritten like
// any other code. The expansion is the preprocessor's, on text: the body's
// tokens with each parameter replaced by the text of its argument, rescanned
// for invocations of the program's function-like macros (in the body or the
// arguments: DIST2 -> DELTA -> COORD), which are expanded in turn. Object-
// like macros (constants) and macros of system headers stay as written.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_MACROEXPANDER_H
#define DLOPT_REWRITER_MACROEXPANDER_H

#include "rewriter/EditSet.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Preprocessor.h"
#include <optional>
#include <string>
#include <vector>

namespace dlopt {

/// The expansion of the invocation at [Begin, End) of \p File, or none and
/// why not (\p Why): a macro that stringizes or pastes (# and ##), is
/// variadic, is defined in a system header, or whose arguments cannot be
/// read. A macro it reaches that cannot be expanded stays an invocation.
std::optional<std::string> expandInvocation(clang::Preprocessor &PP,
                                            clang::FileID File, unsigned Begin,
                                            unsigned End, std::string &Why);

/// One invocation of a file replaced by its expansion.
struct Expansion {
  unsigned Begin = 0, End = 0;
  std::string Text;
};

/// \p Text with \p Expansions (in any order, not overlapping) done.
std::string expandAll(llvm::StringRef Text, std::vector<Expansion> Expansions);

/// The edits of \p Rewrite, made to the text expandAll(\p Original,
/// \p Expansions) gave, as edits of \p Original itself: each expansion
/// with the rewrite's edits inside it becomes one edit.
EditSet composeExpansions(const std::string &Path, llvm::StringRef Original,
                          std::vector<Expansion> Expansions,
                          const EditSet &Rewrite);

} // namespace dlopt

#endif
