//===- ProjectPaths.h - Which file is which, the project root ---*- C++ -*-===//
//
// A file is known by its real path (symbolic links resolved): a header
// included as "./main.h", "kernel/../main.h" or through a linked include
// directory is one file, and every message names it the same way
// (displayPath). A translation unit knows its files by the names it looked
// them up with (FileSpellings maps those to real paths), and its messages
// and plans say "name:line:col". The project root is the deepest directory
// that holds every input file, or --root: dl-refactor writes nothing outside
// it (a header reached through a symbolic link to a directory elsewhere is
// someone else's), and a diff's paths start there when the current
// directory does not hold every edited file.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_PROJECTPATHS_H
#define DLOPT_REWRITER_PROJECTPATHS_H

#include "analysis/LayoutPlan.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace dlopt {

/// \p Path absolute, with symbolic links resolved; for a path that does not
/// exist, absolute with "." and ".." removed.
std::string realPath(llvm::StringRef Path);

/// Whether the real path \p Path is \p Root or below it (both real paths).
bool isUnder(llvm::StringRef Path, llvm::StringRef Root);

/// The real path of the deepest directory that holds every file of
/// \p Files (as named: absolute, or relative to the current directory).
std::string commonDirectory(const std::vector<std::string> &Files);

/// \p Path (real, under \p Base) relative to \p Base, "/"-separated.
std::string relativePath(llvm::StringRef Path, llvm::StringRef Base);

/// How messages name the file \p Path: its real path relative to the current
/// directory when it is below it, else the real path.
std::string displayPath(llvm::StringRef Path);

/// The real paths of the files one translation unit read, by every name it
/// looked them up with (the names its locations use: "./main.h",
/// "kernel/../main.h", "/abs/include/main.h").
class FileSpellings {
public:
  explicit FileSpellings(const clang::SourceManager &SM);

  /// The real path of the file named \p Name in this unit ("" if unknown,
  /// e.g. a name from a #line directive).
  std::string realPathOf(llvm::StringRef Name) const;

  /// Each real path with the absolute forms of its names (a file mapped in
  /// memory must be mapped under every name a unit opens it by).
  const std::map<std::string, std::set<std::string>> &namesByFile() const {
    return Names;
  }

  /// "name:line:col" with the name replaced by displayPath(); unchanged if
  /// the name is not a file of the unit.
  std::string canonicalPosition(llvm::StringRef Pos) const;

  /// A message that starts with "name:line:col: " with the name replaced by
  /// displayPath().
  std::string canonicalMessage(llvm::StringRef Message) const;

  /// Rewrites every location of \p Plan with canonicalPosition() and adds
  /// the real path of each file a record's locations are in to \p Files
  /// (under the record's recordKey()).
  void canonicalize(LayoutPlan &Plan,
                    std::map<std::string, std::set<std::string>> &Files) const;

private:
  /// displayPath() of a real path, remembered: a plan has many locations in
  /// few files.
  const std::string &displayOf(const std::string &RealPath) const;

  /// Spelled name -> real path.
  std::map<std::string, std::string, std::less<>> Real;
  std::map<std::string, std::set<std::string>> Names;
  mutable std::map<std::string, std::string> Display;
};

} // namespace dlopt

#endif
