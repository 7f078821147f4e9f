//===- Workspace.h - Copies of the project the tuner builds and runs -----===//
//
// dl-refactor --tune never builds in the user's tree: it copies the project
// root into a scratch directory under $TMPDIR (its only write outside the
// tree, removed at the end), once per plan, writes the plan's rewritten
// files into that copy, and runs the user's build and run commands there
// with /bin/sh -c, "{dir}" replaced by the copy's path. An interrupt
// (SIGINT, SIGTERM) stops the command running and makes every later step
// return at once, so the caller can clean up and leave the sources alone.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_TUNER_WORKSPACE_H
#define DLOPT_TUNER_WORKSPACE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace dlopt {

/// A directory under $TMPDIR, removed with everything in it on destruction.
class ScratchDir {
public:
  static llvm::Expected<ScratchDir> create(llvm::StringRef Prefix);
  ScratchDir(ScratchDir &&O) : Path(std::move(O.Path)) { O.Path.clear(); }
  ScratchDir(const ScratchDir &) = delete;
  ~ScratchDir();
  const std::string &path() const { return Path; }

private:
  explicit ScratchDir(std::string Path) : Path(std::move(Path)) {}
  std::string Path;
};

/// Copies the tree at \p From to \p To (created), leaving out version
/// control directories (.git, .hg, .svn), build directories (those holding
/// a CMakeCache.txt), dl-refactor's own lock and journal files and the
/// directory that holds \p To (the scratch directory, where the project
/// holds $TMPDIR). A link to a file is copied as the file, a link to a
/// directory stays a link to it.
llvm::Error copyProject(llvm::StringRef From, llvm::StringRef To);

/// Size and modification time of every regular file below a directory.
using TreeState = std::map<std::string, std::pair<uint64_t, int64_t>>;
TreeState treeState(llvm::StringRef Dir);
/// The files below \p Dir that are new or changed since \p Before (what a
/// build wrote), by relative path, each with a hash of its content.
std::map<std::string, uint64_t> changedFiles(llvm::StringRef Dir,
                                             const TreeState &Before);

struct CommandRun {
  /// The exit status, or -1 if the command could not start, was killed by
  /// a signal, timed out or was interrupted.
  int ExitCode = -1;
  bool TimedOut = false;
  bool Interrupted = false;
  /// Wall-clock seconds from start to exit.
  double Seconds = 0;
  std::string Error;
};

/// \p Command with every "{dir}" replaced by \p Dir.
std::string withDir(llvm::StringRef Command, llvm::StringRef Dir);

/// Runs `/bin/sh -c Command` in \p Dir ("{dir}" replaced) in a process
/// group of its own, stdout to \p StdoutPath and stderr to \p StderrPath;
/// kills the group after \p Timeout seconds, if given, or on an interrupt,
/// and whatever the command left running in the background once it ends.
CommandRun runCommand(llvm::StringRef Command, llvm::StringRef Dir,
                      llvm::StringRef StdoutPath, llvm::StringRef StderrPath,
                      std::optional<double> Timeout = std::nullopt);

/// Makes SIGINT and SIGTERM set a flag instead of ending the process.
void catchInterrupts();
/// True once SIGINT or SIGTERM arrived after catchInterrupts().
bool interrupted();

} // namespace dlopt

#endif
