//===- ApplyJournal.h - --apply: every file or none, even when killed -----===//
//
// dl-refactor --apply replaces many files (a header and the sources that use
// it): half of them rewritten does not compile. Each file is written to a
// temporary next to it and renamed over it; a journal in the project root
// (JournalName) makes the renames one step for the program as a whole:
//   1. the journal is written in state "writing", naming the files;
//   2. the temporaries are written;
//   3. the journal is rewritten in state "renaming", naming each temporary
//      and its file;
//   4. the temporaries are renamed over the files;
//   5. the journal is removed.
// Each journal write is atomic (a temporary renamed over it). A run killed
// in 1-3 has changed no file; one killed in 4 has replaced some. Every later
// run first calls recoverInterruptedApply(), which ends what it finds: a
// "writing" journal by removing the temporaries (no file was replaced), a
// "renaming" one by renaming the temporaries that are left.
//
// For tests, the environment variables DLOPT_TEST_STOP_AFTER_TEMPORARIES=N
// and DLOPT_TEST_STOP_AFTER_RENAMES=N kill the process (SIGKILL) after the
// N-th temporary is written or the N-th rename.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_APPLYJOURNAL_H
#define DLOPT_REWRITER_APPLYJOURNAL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace dlopt {

/// The journal's name in the project root.
inline constexpr llvm::StringLiteral JournalName = ".dlopt-apply.journal";

struct NewFile {
  /// The file's real path (below the root; a symbolic link is written
  /// through, so it stays a link).
  std::string Path;
  std::string Text;
};

/// Replaces each file by its text, all or none (steps 1 to 5). An error
/// before the first rename has changed nothing (the message ends with
/// "nothing written"); a failed rename leaves the journal, for the next run
/// to complete (the message says so).
llvm::Error applyFiles(llvm::StringRef Root, llvm::ArrayRef<NewFile> Files);

/// What recoverInterruptedApply() did.
struct Recovery {
  enum Kind {
    /// No journal: nothing was interrupted.
    None,
    /// A "writing" journal: its temporaries removed, no file changed.
    RolledBack,
    /// A "renaming" journal: the remaining temporaries renamed.
    Completed,
  };
  Kind K = None;
  /// The journal's path.
  std::string Journal;
  /// Files the interrupted run was replacing.
  unsigned Files = 0;
  /// Temporaries renamed now (Completed) or removed (RolledBack).
  unsigned Done = 0;
  /// Temporaries of the journal itself removed (a run killed while writing
  /// it).
  unsigned StrayJournals = 0;
};

/// Ends an --apply of the project \p Root that was interrupted (see above).
/// An error leaves the journal in place.
llvm::Expected<Recovery> recoverInterruptedApply(llvm::StringRef Root);

/// Journals in the directories above \p Root: an --apply of a larger tree
/// was interrupted, which a run on this part of it cannot end.
std::vector<std::string> journalsAbove(llvm::StringRef Root);

/// Removes the temporaries ("FILE.dlopt-XXXXXX" next to FILE) in \p Dirs,
/// which no journal names when none is left: a dl-refactor without journals
/// left them. Returns their paths.
std::vector<std::string>
removeStrayTemporaries(const std::vector<std::string> &Dirs);

} // namespace dlopt

#endif
