//===- OpenCLRenderer.h - OpenCL buffers and kernels, per array -*- C++ -*-===//
//
// Internal to rewriter/ (see Renderer.h). The whole-program strategy for
// OpenCL programs: on the host, what analysis/OpenCLUses.cpp lists (a
// buffer's cl_mem becomes the record's T_cl, each call on it the T_cl
// helper doing it per array, later kernel argument indices count the
// arrays); in a kernel file, a __kernel's parameter that takes the record's
// __global array becomes one parameter per array, and the body's first
// statement rebuilds the handle from them, so the body is rendered like any
// C function's. At the boundary (RewriteTarget::Boundary) the host keeps
// its arrays: creating a buffer from one, and the transfers to and from
// it, call the helpers that convert through a staging copy.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_OPENCLRENDERER_H
#define DLOPT_REWRITER_OPENCLRENDERER_H

#include "rewriter/Renderer.h"

namespace dlopt {
struct ClUse;
} // namespace dlopt

namespace dlopt::rewrite {

class OpenCLRenderer : public Renderer {
public:
  using Renderer::Renderer;

  /// The host code's OpenCL calls on the buffers of the records rewritten.
  void hostCalls();
  /// A __kernel's parameter of kind KernelParameter.
  void kernelParameter(const clang::RecordDecl *RD,
                       const clang::ParmVarDecl *P);

private:
  using TextFn = std::function<std::string(const EditSet &)>;

  void hostUse(const ClUse &U);
  /// Create, Write, Read, Fill, Map, Unmap: per array, or at the boundary
  /// from and to the host's own array of T.
  void transferUse(const ClUse &U, const HandleLayout &L);
  /// The texts of \p Call's first \p N arguments.
  std::vector<TextFn> args(const clang::CallExpr *Call, unsigned N);
  void bufferDeclaration(const clang::RecordDecl *RD, const HandleLayout &L,
                         const clang::DeclaratorDecl *D);
  void sharedDeclaration(const clang::RecordDecl *RD, const HandleLayout &L,
                         const clang::VarDecl *First,
                         const std::vector<const clang::VarDecl *> &Others);
  /// The index the argument written at \p U.Index has once the buffers
  /// bound below it are one argument per array.
  int64_t renumbered(const ClUse &U) const;
  /// The first index of the arguments a SetArgument \p U sets.
  TextFn indexText(const ClUse &U, const HandleLayout &L);
  /// \p Call becomes \p Fn called with \p Args; \p Helper: Fn's
  /// HandleLayout::Helper bit.
  /// \p Replaced: the expression whose text the call replaces, if not
  /// \p Call itself (the casts around a mapping).
  void callSite(const clang::RecordDecl *RD, const clang::CallExpr *Call,
                std::string Fn, std::vector<TextFn> Args, uint64_t Helper,
                const clang::Expr *Replaced = nullptr);
  /// The names of the parameters \p P becomes, one per handle member.
  std::vector<std::string> parameterNames(const HandleLayout &L,
                                          const clang::ParmVarDecl *P);
  /// The handle of each record parameter of \p Kernel, declared from its
  /// parameters where the body opens.
  void kernelPrologue(const clang::FunctionDecl *Kernel);
};

} // namespace dlopt::rewrite

#endif
