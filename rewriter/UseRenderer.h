//===- UseRenderer.h - The C handle's use kinds, rendered -------*- C++ -*-===//
//
// Internal to rewriter/ (see Renderer.h). Each use kind of a handle
// (docs/design.md, "The use kinds") has one local rendering through the
// record's HandleLayout: a[i].f becomes the field of element i in its
// cluster, a[i] read or written a call of the get or set helper, and so on.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_USERENDERER_H
#define DLOPT_REWRITER_USERENDERER_H

#include "rewriter/Renderer.h"

namespace dlopt::rewrite {

class UseRenderer : public Renderer {
public:
  using Renderer::Renderer;

  /// Renders a use of a C handle kind (FieldAccess to ElementSize, and
  /// ElementAddress).
  void renderUse(const clang::RecordDecl *RD, const HandleUse &U);

  // The nodes that hold such uses.
  void reference(const clang::DeclRefExpr *DRE);
  void memberReference(const clang::MemberExpr *ME);
  /// `*out` of a handle pointer (`T **out`): a use of the handle it
  /// points to.
  void dereference(const clang::UnaryOperator *UO);
  /// `return NULL;` from a function that now returns a handle.
  void returnValue(const clang::ReturnStmt *RS, const clang::FunctionDecl *FD);
  /// A braced initializer of a record whose array member is regrouped.
  void memberArrayInitializers(const clang::InitListExpr *List);
  /// `items(new T[n])`, `items(nullptr)` in a constructor.
  void memberInitializer(const clang::CXXCtorInitializer *Init);
  void arrayExpression(const clang::Expr *E);
  /// f<P>(a): a call that chooses a template's overload once its template
  /// arguments are dropped (UseKind::TemplateCall).
  void templateCall(const clang::CallExpr *Call);

private:
  /// a[i].f, (a + i)->f, p->f, pi->f: the field of element i in its
  /// cluster.
  void fieldSite(const clang::RecordDecl *RD, const HandleUse &U);
  std::string releaseOf(const clang::FunctionDecl *Callee) const;
  bool declared(llvm::StringRef Name) const;
  std::function<std::string(const EditSet &)> arrayText(const HandleUse &U);
  std::function<std::string(const EditSet &)> indexText(const HandleUse &U);
  void subArraySite(const clang::RecordDecl *RD, const HandleUse &U);
  void searchSite(const clang::RecordDecl *RD, const HandleUse &U);
  void comparisonSite(const clang::RecordDecl *RD, const HandleUse &U);
  void stepSite(const clang::RecordDecl *RD, const HandleUse &U);
  void templateCallSite(const clang::RecordDecl *RD, const HandleUse &U);
  void byReferenceSite(const clang::RecordDecl *RD, const HandleUse &U,
                       std::function<std::string(const EditSet &)> HandleText,
                       std::function<std::string(const EditSet &)> IndexText);
  std::function<std::string(const EditSet &)>
  arrayAt(const HandleLayout *L,
          std::function<std::string(const EditSet &)> HandleText,
          const clang::Expr *Offset);
  bool canMove(const clang::RecordDecl *RD, const HandleLayout *L,
               const HandleUse &U);
  void sortSite(const clang::RecordDecl *RD, const HandleUse &U);
  void cudaSite(const clang::RecordDecl *RD, const HandleUse &U);
  void arrayCopySite(const clang::RecordDecl *RD, const HandleUse &U);
  void fileSite(const clang::RecordDecl *RD, const HandleUse &U);
  /// &a[i] -> i: the value of an element pointer.
  void elementAddressSite(const clang::RecordDecl *RD, const HandleUse &U);
  /// a[i] read or written as a whole.
  void elementSite(const clang::RecordDecl *RD, const HandleUse &U);
  void allocationSite(const clang::RecordDecl *RD, const HandleUse &U);
  std::function<std::string(const EditSet &)>
  countText(const clang::RecordDecl *RD, const HandleUse &U);
  void freeSite(const clang::RecordDecl *RD, const clang::Expr *Release,
                const clang::Expr *Handle);
  /// `!p`, `p == NULL`, `if (p)`: the handle is null when its first
  /// member is.
  void nullTestSite(const clang::RecordDecl *RD, const clang::Expr *Handle);
  void castSite(const clang::RecordDecl *RD, const HandleUse &U);
  /// `p = NULL`, `f(0)`: the null handle.
  void nullSite(const clang::RecordDecl *RD, const clang::Expr *Null);
  void elementSizeSite(const clang::RecordDecl *RD, const clang::Expr *Size);
};

} // namespace dlopt::rewrite

#endif
