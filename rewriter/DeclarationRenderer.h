//===- DeclarationRenderer.h - Handles replace T* and T[N] ------*- C++ -*-===//
//
// Internal to rewriter/ (see Renderer.h). Every declaration of a handle (a
// parameter, a pointer variable, an array, an array member of another
// record, a function's return type) takes the record's handle type. Arrays
// keep their storage, regrouped, and their initializers are rewritten field
// by field.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_DECLARATIONRENDERER_H
#define DLOPT_REWRITER_DECLARATIONRENDERER_H

#include "rewriter/Renderer.h"

namespace dlopt::rewrite {

class OpenCLRenderer;

class DeclarationRenderer : public Renderer {
public:
  DeclarationRenderer(RewriteState &State, OpenCLRenderer &OpenCL)
      : Renderer(State), OpenCL(OpenCL) {}

  void declaration(const clang::DeclaratorDecl *D);
  void functionReturn(const clang::FunctionDecl *FD);

private:
  /// `T a[N];` inside another record: the storage, regrouped in place.
  void arrayMember(const clang::RecordDecl *RD, const clang::FieldDecl *FD);
  /// `T *items;` inside another record: the handle.
  void pointerMember(const clang::RecordDecl *RD, const clang::FieldDecl *FD);
  /// An array's attributes, respelled for its storage (before it, after
  /// its name) and its handle (DeclarationRenderer.cpp).
  struct ArrayAttributes {
    std::string Before, After, HandleAfter;
  };
  std::optional<ArrayAttributes> arrayAttributes(const clang::VarDecl *VD,
                                                 clang::SourceRange &Range);
  clang::SourceLocation declaratorEnd(const clang::VarDecl *VD) const;
  std::optional<clang::Token>
  nextAfterDeclarator(const clang::VarDecl *VD) const;
  std::string keywordAttribute(clang::CharSourceRange R) const;
  using ElementInits =
      std::vector<std::vector<std::function<std::string(const EditSet &)>>>;
  bool elementInitializers(const clang::RecordDecl *RD, const std::string &Name,
                           const clang::InitListExpr *Init,
                           const HandleLayout &L, ElementInits &Out);
  /// `T a[N] = {...};`: the handle's storage, initialized field by field.
  void arrayDefinition(const clang::RecordDecl *RD, const clang::VarDecl *VD,
                       const clang::ConstantArrayType *CAT);
  /// `T *pi = &a[i];`: an index into a.
  void elementPointer(const clang::RecordDecl *RD, const clang::VarDecl *VD);
  /// `T *p = ...;`: the handle, and its initializer (null or an allocation).
  void pointerVariable(const clang::RecordDecl *RD, const clang::VarDecl *VD);
  /// A declarator the CUDA boundary keeps after one that becomes a handle.
  void keptDeclarator(const clang::RecordDecl *RD,
                      const clang::DeclaratorDecl *D);
  /// The length of an array declaration as the user wrote it (a macro name
  /// stays a macro name).
  std::string lengthText(const clang::DeclaratorDecl *D, uint64_t Value);

  /// Renders a __kernel's parameters.
  OpenCLRenderer &OpenCL;
};

} // namespace dlopt::rewrite

#endif
