//===- RecordRewriter.h - A LayoutPlan becomes source edits ------*- C++
//-*-===//
//
// For each record with a new layout: the generated declarations go after its
// definition; every variable, parameter and return type of type T* or T[N]
// becomes the record's handle; every use of those is rewritten in place
// (field accesses, whole-element reads and writes, allocation, free, null
// tests); loops over tiled arrays are strip-mined into tile and lane loops.
// A use it cannot rewrite refuses the whole record, with the reason and
// location; nothing of a refused record is edited.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_RECORDREWRITER_H
#define DLOPT_REWRITER_RECORDREWRITER_H

#include "analysis/LayoutPlan.h"
#include "rewriter/EditSet.h"
#include "rewriter/HandleLayout.h"
#include "clang/AST/ASTContext.h"
#include <memory>
#include <optional>
#include <vector>

namespace dlopt {

struct RewriteTarget {
  const clang::RecordDecl *Decl = nullptr;
  std::unique_ptr<HandleLayout> Layout;
  /// The boundary strategy (Strategy::Boundary): host code keeps its
  /// arrays as they are; only its OpenCL buffers and the calls on them
  /// change, the transfers converting. Kernel files are rewritten alike.
  bool Boundary = false;
};

struct Refusal {
  const clang::RecordDecl *Record;
  std::string Reason;
  clang::SourceLocation Loc;
  /// A use the analysis admitted but that cannot be rendered: a bug of
  /// dlopt, not a reason to keep the record.
  bool Internal = false;
};

struct RewriteResult {
  /// Edits per file (the main file and the headers that define or use the
  /// records), ordered by path; empty if nothing changes.
  std::vector<EditSet> Edits;
  std::vector<Refusal> Refusals;
  /// Targets rewritten, in order.
  std::vector<const clang::RecordDecl *> Rewritten;
};

/// \p KnownBuffers: the program's OpenCL buffer holders
/// (LayoutPlan::BufferHolders); \p Allocators: its allocator functions
/// (LayoutPlan::Allocators), for those other files define.
RewriteResult
rewriteRecords(clang::ASTContext &Ctx, std::vector<RewriteTarget> &Targets,
               const std::map<std::string, std::string> *KnownBuffers = nullptr,
               const std::map<std::string, std::string> *Allocators = nullptr);

} // namespace dlopt

#endif
