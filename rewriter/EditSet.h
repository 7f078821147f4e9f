//===- EditSet.h - Nested source edits, flattened to Replacements -*- C++
//-*-===//
//
// The rewriter builds an expression's new text from the new texts of its
// sub-expressions (`a[b[i].k].x` -> `a.x[b.k[i]]`). An EditSet keeps the
// edits of one file as non-overlapping ranges of the original text: textOf()
// reads a range with the edits inside it applied, and replace() of an
// enclosing range absorbs them. The result converts to
// clang::tooling::Replacements for --diff, --apply and --export-fixes.
//
// The rewriter writes new lines as "\n". In a file whose lines end in
// "\r\n" the EditSet turns them into "\r\n" as edits are recorded, so the
// generated declarations and loops keep the file's line ending in every
// output alike.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_EDITSET_H
#define DLOPT_REWRITER_EDITSET_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace dlopt {

class EditSet {
public:
  EditSet(std::string FilePath, llvm::StringRef Text)
      : FilePath(std::move(FilePath)),
        Original(std::make_shared<const std::string>(Text.str())),
        CRLF(usesCRLF(Text)) {}

  /// An empty set of edits of the same file (the text is shared).
  EditSet emptyCopy() const { return EditSet(FilePath, Original, CRLF); }

  /// The original text of [Begin, End) with the edits inside it applied.
  std::string textOf(unsigned Begin, unsigned End) const;

  /// Replaces [Begin, End) by \p Text; edits inside the range are absorbed.
  /// An edit that straddles the range boundary is an error. Here and in
  /// insert(), a "\n" of \p Text becomes "\r\n" in a CRLF file.
  llvm::Error replace(unsigned Begin, unsigned End, std::string Text);

  /// Inserts \p Text at \p Offset, after earlier insertions there.
  void insert(unsigned Offset, llvm::StringRef Text);

  bool empty() const { return Edits.empty(); }
  const std::string &path() const { return FilePath; }
  const std::string &original() const { return *Original; }
  /// Whether new lines are written as "\r\n": the file ends more of its
  /// lines in "\r\n" than in a bare "\n".
  bool crlf() const { return CRLF; }

  /// Adds the edits of \p Other, a set of the same file, that this one does
  /// not have (a CUDA file's two sides rewrite the code each sees: most of
  /// it alike, a branch under __CUDA_ARCH__ on one side only). An edit that
  /// overlaps one of this set with another text is an error, and nothing
  /// is added.
  llvm::Error merge(const EditSet &Other);

  /// The edits of \p Host and \p Kernel, two sets of a header that host
  /// files and OpenCL kernel files both read, as one set: an edit both
  /// make alike once; a replacement one makes of code only its own side
  /// builds (\p OnlySide(Begin, Kernel): a branch of the header under the
  /// kernels' macro, or the host's) as it is; insertions that differ at one
  /// place, which both see, as a block under `#if` \p KernelTest, the
  /// kernels' text first and the host's after `#else`. Two replacements
  /// that differ, one of code both sides build that only one rewrites, an
  /// edit inside the other side's, or a block that would not start and end
  /// on a line of its own are an error.
  static llvm::Expected<EditSet>
  mergeSides(const EditSet &Host, const EditSet &Kernel,
             llvm::StringRef KernelTest,
             llvm::function_ref<bool(unsigned, bool)> OnlySide);

  /// The original ranges of the edits, in order (Begin == End inserts).
  std::vector<std::pair<unsigned, unsigned>> ranges() const;

  /// The edits as Replacements of FilePath.
  llvm::Expected<clang::tooling::Replacements> toReplacements() const;
  /// The whole file with every edit applied.
  std::string apply() const;

private:
  EditSet(std::string FilePath, std::shared_ptr<const std::string> Text,
          bool CRLF)
      : FilePath(std::move(FilePath)), Original(std::move(Text)), CRLF(CRLF) {}

  static bool usesCRLF(llvm::StringRef Text);
  /// \p Text with the file's line ending.
  std::string withLineEnding(llvm::StringRef Text) const;

  struct Edit {
    unsigned End; // Exclusive; equal to the key's offset for an insertion.
    std::string Text;
  };
  /// Keyed by (begin offset, 0 for an insertion or 1 for a replacement), so
  /// at one offset an insertion comes before the replacement starting there.
  /// Replacements never overlap, which keeps every operation logarithmic.
  using Key = std::pair<unsigned, int>;
  std::map<Key, Edit> Edits;
  /// Whether an edit at \p K, ending at \p End, overlaps one of \p Set's
  /// replacements, or is a replacement around one of its edits.
  static bool overlaps(const std::map<Key, Edit> &Set, Key K, unsigned End);
  /// The insertions \p HostText and \p KernelText at \p Offset as one
  /// block under `#if` \p KernelTest; an error if it cannot be on lines
  /// of its own there.
  llvm::Expected<std::string> sideBlock(unsigned Offset,
                                        llvm::StringRef HostText,
                                        llvm::StringRef KernelText,
                                        llvm::StringRef KernelTest) const;
  std::string FilePath;
  /// Shared by copies: the rewriter tries alternatives on copies.
  std::shared_ptr<const std::string> Original;
  /// New text gets "\r\n" line endings (see crlf()).
  bool CRLF;
};

} // namespace dlopt

#endif
