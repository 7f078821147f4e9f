//===- ContainerRenderer.h - std::vector<T> becomes the container -*- C++ -*-//
//
// Internal to rewriter/ (see Renderer.h). In C++ the uses of a
// std::vector<T> or std::array<T, N> keep their spelling (v[i].x,
// v.push_back(e), for (auto &&b : v)): the generated container
// (VectorContainer.cpp) has the same interface and its elements are proxies
// holding references to the fields. What changes:
//
//   std::vector<T> (any spelling, typedefs    the container's name
//   and std::vector<T>::size_type included)
//   for (auto &b : v), for (T &b : v)         for (auto &&b : v): the proxy
//                                             is a temporary
//   for (const T &b : v), const T &r = v[i]   const auto &: a reference to
//                                             the element, not to a copy
//   for (auto b : v), auto e = v[i]           T b, T e: a copied proxy would
//                                             still write to the element
//   v[i].norm(), it->norm() (const)           T(v[i]).norm(), T(*it).norm():
//                                             on a copy
//   std::swap(v[i], v[j])                     swap(v[i], v[j]): the proxy's
//   std::sort(v.begin(), v.end())             ..., std::less<T>()): T's <
//   v[i] in a strip-mined loop over i         v.element(i_tile, i_lane)
//   std::array<T, N> a = {{{1, 2}, ...}}      {T{1, 2}, ...}
//
// v[i].move(dt) (non-const) goes through the proxy's forwarder; iterator
// loops, std::sort(v.begin(), v.end()) and the other algorithms that only
// move, compare or read elements run on the container's iterator as they
// are written. Which of these a use is, and which uses are refused, the
// analysis decides (analysis/ContainerUses.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_CONTAINERRENDERER_H
#define DLOPT_REWRITER_CONTAINERRENDERER_H

#include "rewriter/LoopRenderer.h"
#include <set>

namespace dlopt::rewrite {

class ContainerRenderer : public Renderer {
public:
  /// \p Loops strip-mines range-for loops over containers with tiles.
  ContainerRenderer(RewriteState &State, LoopRenderer &Loops)
      : Renderer(State), Loops(Loops) {}

  /// Renders a use of a container kind (ContainerCall to
  /// ArrayContainerInit).
  void renderUse(const clang::RecordDecl *RD, const HandleUse &U);

  // The nodes that hold such uses.
  /// A spelling of a container (see UseWalker.h); true if it is one.
  bool containerType(clang::QualType T, clang::SourceRange R,
                     bool InTemplateArgument);
  void sizeofContainer(const clang::UnaryExprOrTypeTraitExpr *E);
  void rangeFor(const clang::CXXForRangeStmt *S);
  void variable(const clang::VarDecl *VD);
  void memberCall(const clang::CXXMemberCallExpr *Call);
  void libraryCall(const clang::CallExpr *Call);
  void subscript(const clang::CXXOperatorCallExpr *Op);
  void initList(const clang::InitListExpr *List);

private:
  void atCall(const clang::CXXMemberCallExpr *Call);
  void laneElement(const ContainerElement &CE, std::optional<FileRange> Range,
                   llvm::StringRef Access, const clang::Expr *Element);
  bool reachesTiles(const clang::Expr *Element,
                    const clang::RecordDecl *RD) const;
  void elementBinding(const clang::RecordDecl *RD, const HandleUse &U);
  void retype(const clang::RecordDecl *RD, const clang::VarDecl *VD,
              std::string Text);
  void elementCallSite(const clang::RecordDecl *RD,
                       const clang::CXXMemberCallExpr *Call);
  void swapSite(const clang::RecordDecl *RD, const clang::Expr *Callee);
  void sortSite(const clang::RecordDecl *RD, const clang::Expr *Last);
  void arrayContainerInitSite(const clang::RecordDecl *RD,
                              const clang::InitListExpr *List);

  LoopRenderer &Loops;
  /// Container spellings already rewritten: (file, offset). A class
  /// template's members are visited once per instantiation.
  std::set<std::pair<unsigned, unsigned>> TypeSites;
};

} // namespace dlopt::rewrite

#endif
