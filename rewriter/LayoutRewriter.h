//===- LayoutRewriter.h - One rewrite of one translation unit ---*- C++ -*-===//
//
// Internal to rewriter/. Walks the AST with the analysis's walk
// (analysis/UseWalker.h), hands each node to its renderer (see Renderer.h),
// drops the records any of whose uses could not be rendered, and applies the
// sites of the rest, file by file, with the records' generated declarations.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_LAYOUTREWRITER_H
#define DLOPT_REWRITER_LAYOUTREWRITER_H

#include "rewriter/ContainerRenderer.h"
#include "rewriter/DeclarationRenderer.h"
#include "rewriter/LoopRenderer.h"
#include "rewriter/OpenCLRenderer.h"
#include "rewriter/UseRenderer.h"

namespace dlopt::rewrite {

class LayoutRewriter {
public:
  LayoutRewriter(clang::ASTContext &Ctx, std::vector<RewriteTarget> &Targets);

  RewriteResult run(std::vector<RewriteTarget> &Targets);
  /// The program's OpenCL buffer holders (rewriteRecords).
  void knowBuffers(const std::map<std::string, std::string> *Known) {
    State.KnownBuffers = Known;
  }
  void knowAllocators(const std::map<std::string, std::string> *Known) {
    State.ProgramAllocators = Known;
  }

private:
  /// The generated declarations of a record go in its file, at Offset.
  struct Insertion {
    const clang::RecordDecl *Record;
    clang::FileID File;
    unsigned Offset;
  };

  /// Renders one classified use by the renderer of its kind.
  void render(const clang::RecordDecl *RD, const UseVerdict &V);
  /// Visits the AST: the sites of every use, declaration and loop.
  void collectSites();
  /// Drops the sites of host arrays the boundary strategy keeps.
  void keepHostArrays();
  /// Where each target's generated declarations go (targets whose place
  /// cannot be rendered have none).
  std::vector<Insertion> insertions(std::vector<RewriteTarget> &Targets);
  /// Where the generated declarations of \p RD go.
  std::optional<std::pair<clang::FileID, unsigned>>
  insertionPoint(const clang::RecordDecl *RD);
  /// A record in a named namespace whose handle a site names is a render
  /// error: the handle and its helpers are named unqualified at the uses.
  void refuseNamespacedHandles();
  /// Records refused, and those whose sites conflicted (now refused too),
  /// keep their layout: they leave Layouts.
  void dropRefusedRecords();
  /// The records this unit rewrites.
  llvm::SmallPtrSet<const clang::RecordDecl *, 4>
  usedRecords(const std::vector<Insertion> &Insertions) const;
  /// The sites of \p All whose records are still rewritten, in \p File, by
  /// position: those of \p Clone's overload, or those outside any.
  std::vector<const Site *>
  activeSites(const std::vector<Site> &All, clang::FileID File,
              const clang::FunctionDecl *Clone = nullptr) const;
  /// Inserts into \p ES, after each function template of \p File, the
  /// overloads of its instantiations given one (TemplateClones.cpp).
  void insertClones(EditSet &ES, clang::FileID File);
  /// The overload of the instantiation \p FD: its template's text (\p
  /// Range, ending at offset \p End) without the template header, with \p
  /// FD's sites applied and its template parameters spelled as its
  /// arguments; nullopt if \p FD takes no array still rewritten.
  std::optional<std::string> cloneText(const clang::FunctionDecl *FD,
                                       clang::SourceRange Range, unsigned End,
                                       const EditSet &ES);
  /// Every file's edits: the active sites applied and the \p Used records'
  /// declarations inserted. Conflicts are left in State.ApplyErrors.
  std::vector<EditSet>
  applyAll(const std::vector<Insertion> &Insertions,
           const llvm::SmallPtrSet<const clang::RecordDecl *, 4> &Used);

  RewriteState State;
  /// The shared helpers themselves (applying sites, formatting).
  Renderer Shared;
  UseRenderer Use;
  OpenCLRenderer OpenCL;
  DeclarationRenderer Declarations;
  LoopRenderer Loops;
  ContainerRenderer Containers;
  const clang::SourceManager &SM;
};

} // namespace dlopt::rewrite

#endif
