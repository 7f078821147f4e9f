//===- UseWalker.h - The walk Legality and the rewriter share ---*- C++ -*-===//
//
// Legality and the rewriter ask UseClassifier the same questions, so they
// must meet the same nodes. This base of both visitors holds the parts of
// the traversal that decide which nodes those are: library declarations are
// skipped, function template instantiations are visited (the one being
// walked is the WalkContext's instantiation(), or its clone() where it is
// given an overload of its own), and a container
// spelling (std::vector<T>, std::array<T, N>, std::vector<T>::size_type) is
// handed to Derived::containerTypeLoc(Type, Range, InTemplateArgument)
// where the template is named (a typedef of the vector keeps its name); a
// spelling it takes is not traversed further.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_USEWALKER_H
#define DLOPT_ANALYSIS_USEWALKER_H

#include "analysis/AstUtil.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <optional>

namespace dlopt {

/// Where a UseWalker is.
class WalkContext {
public:
  /// The function template instantiation being walked, if any. Its text
  /// serves every instantiation, so a use there cannot be spelled for this
  /// one alone (UseClassifier::inTemplate).
  const clang::FunctionDecl *instantiation() const { return Instantiation; }
  /// The function template instantiation being walked that is rewritten as
  /// an overload of its own (UseClassifier::clonedInstantiation), if any:
  /// its uses are judged and rendered as any function's, instantiation()
  /// is null there, and its text is not strip-mined.
  const clang::FunctionDecl *clone() const { return Clone; }

protected:
  const clang::FunctionDecl *Instantiation = nullptr;
  const clang::FunctionDecl *Clone = nullptr;
};

template <class Derived>
class UseWalker : public clang::RecursiveASTVisitor<Derived>,
                  public WalkContext {
  using Base = clang::RecursiveASTVisitor<Derived>;

public:
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(clang::Decl *D) {
    if (isLibraryDecl(D))
      return true;
    // A function the rewrite leaves as it is (a qsort comparator, which
    // works on copies of elements; dlopt's own helpers): neither judged nor
    // rewritten.
    if (const auto *FD = llvm::dyn_cast_or_null<clang::FunctionDecl>(D);
        FD && FD->hasBody() &&
        (generated(FD).contains(FD->getLocation()) ||
         static_cast<Derived *>(this)->keptAsWritten(FD)))
      return true;
    const clang::FunctionDecl *Outer = Instantiation, *OuterClone = Clone;
    // Inside a clone, a lambda's instantiated call operator is the clone's
    // text too.
    if (const auto *FD = llvm::dyn_cast_or_null<clang::FunctionDecl>(D);
        FD && FD->getTemplateInstantiationPattern() && !Clone) {
      if (static_cast<Derived *>(this)->clonedInstantiation(FD)) {
        Clone = FD;
        Instantiation = nullptr;
      } else
        Instantiation = FD;
    }
    bool Continue = Base::TraverseDecl(D);
    Instantiation = Outer;
    Clone = OuterClone;
    return Continue;
  }
  /// A constructor's member initializer, for the walker to judge
  /// (constructorInitializer) before its expression is walked.
  bool TraverseConstructorInitializer(clang::CXXCtorInitializer *Init) {
    static_cast<Derived *>(this)->constructorInitializer(Init);
    return Base::TraverseConstructorInitializer(Init);
  }
  void constructorInitializer(const clang::CXXCtorInitializer *) {}
  bool TraverseElaboratedTypeLoc(clang::ElaboratedTypeLoc TL) {
    return (TL.getNamedTypeLoc()
                .template getAs<clang::TemplateSpecializationTypeLoc>() &&
            spelling(TL.getType(), TL.getSourceRange())) ||
           Base::TraverseElaboratedTypeLoc(TL);
  }
  bool TraverseTemplateSpecializationTypeLoc(
      clang::TemplateSpecializationTypeLoc TL) {
    return spelling(TL.getType(), TL.getSourceRange()) ||
           Base::TraverseTemplateSpecializationTypeLoc(TL);
  }
  /// std::vector<T>::size_type: the qualifier up to the type.
  bool TraverseNestedNameSpecifierLoc(clang::NestedNameSpecifierLoc NNS) {
    const clang::Type *T =
        NNS ? NNS.getNestedNameSpecifier()->getAsType() : nullptr;
    if (llvm::isa_and_nonnull<clang::TemplateSpecializationType>(T) &&
        spelling(clang::QualType(T, 0),
                 clang::SourceRange(NNS.getBeginLoc(),
                                    NNS.getTypeLoc().getEndLoc())))
      return true;
    return Base::TraverseNestedNameSpecifierLoc(NNS);
  }
  bool TraverseTemplateArgumentLoc(const clang::TemplateArgumentLoc &Arg) {
    ++InTemplateArgs;
    bool Continue = Base::TraverseTemplateArgumentLoc(Arg);
    --InTemplateArgs;
    return Continue;
  }

private:
  const GeneratedCode &generated(const clang::Decl *D) {
    if (!Generated)
      Generated.emplace(D->getASTContext().getSourceManager());
    return *Generated;
  }
  bool spelling(clang::QualType T, clang::SourceRange R) {
    return static_cast<Derived *>(this)->containerTypeLoc(T, R,
                                                          InTemplateArgs > 0);
  }
  /// Template arguments being traversed (nested).
  unsigned InTemplateArgs = 0;
  std::optional<GeneratedCode> Generated;
};

} // namespace dlopt

#endif
