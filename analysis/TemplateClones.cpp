//===- TemplateClones.cpp - Function templates given an overload --------===//
//
// One template text serves every instantiation, and its dependent types
// (`const T *v`, `const std::vector<T> &v`) cannot name a handle or a
// generated container. An instantiation that takes a wanted record's
// array (`sumx<P>(const P *v, int n)`) is therefore rewritten as
// an overload of its own: a copy of the template's text without the
// template header, its template parameters spelled as this instantiation's
// arguments and its uses rendered as in any other function, declared just
// after the template. Calls that pass the handle then choose the overload
// (a non-template function wins over a template, and the template can no
// longer deduce from a handle); calls of the template with other types are
// unchanged.
//
// Here: which instantiations can be, and why the others cannot.
//
//===----------------------------------------------------------------------===//
#include "analysis/UseClassifier.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace dlopt;

/// The records whose arrays \p FD's parameters take: handles, and
/// containers spelled with template parameters.
llvm::SmallVector<const RecordDecl *, 2>
UseClassifier::cloneRecords(const FunctionDecl *FD) const {
  llvm::SmallVector<const RecordDecl *, 2> Records;
  if (!FD || !FD->getTemplateInstantiationPattern())
    return Records;
  const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
  for (const ParmVarDecl *P : FD->parameters()) {
    const RecordDecl *RD = handleRecord(P->getType());
    // A container spelled with the template's parameters (`const
    // std::vector<T> &`), which the shared text cannot rename; a deduced
    // `V &` receives the generated container there (ContainerRenderer).
    unsigned I = P->getFunctionScopeIndex();
    if (!RD && P->getType()->isReferenceType() && I < Pattern->getNumParams()) {
      QualType Written = Pattern->getParamDecl(I)->getType();
      if (Written->isDependentType() && !Written.getNonReferenceType()
                                             .getCanonicalType()
                                             ->isTemplateTypeParmType())
        RD = containerRecord(P->getType());
    }
    if (RD && !llvm::is_contained(Records, RD))
      Records.push_back(RD);
  }
  return Records;
}

bool UseClassifier::clonedInstantiation(const FunctionDecl *FD) const {
  if (!FD || !FD->getTemplateInstantiationPattern())
    return false;
  auto [It, New] = Clones.try_emplace(FD, false);
  if (New)
    It->second = cloneRefusal(FD).empty();
  return It->second;
}

/// The first and last character of the template's text (from `template`
/// to the body's closing brace) in one file, or nullopt.
static std::optional<SourceRange> templateText(const FunctionDecl *FD) {
  const FunctionTemplateDecl *Primary = FD->getPrimaryTemplate();
  if (!Primary)
    return std::nullopt;
  SourceRange R = Primary->getSourceRange();
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  if (R.isInvalid() || !R.getBegin().isFileID() || !R.getEnd().isFileID() ||
      !SM.isWrittenInSameFile(R.getBegin(), R.getEnd()) ||
      inSystemHeader(SM, R.getBegin()))
    return std::nullopt;
  return R;
}

std::optional<SourceRange>
UseClassifier::cloneTemplateRange(const FunctionDecl *FD) const {
  return clonedInstantiation(FD) ? templateText(FD) : std::nullopt;
}

/// Why a template argument cannot be spelled in the overload's text,
/// which replaces the parameter's name token by token; empty if it can.
static std::string argumentRefusal(const TemplateArgument &Arg,
                                   SourceLocation TemplateBegin,
                                   const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  switch (Arg.getKind()) {
  case TemplateArgument::Integral:
    return "";
  case TemplateArgument::Type: {
    QualType T = Arg.getAsType();
    std::string Name = "'" + T.getAsString(Policy) + "'";
    // `const T *` with T = `int *` is not `const int * *`: only a type
    // spelled as one name keeps its meaning in every place of the text.
    if (T.hasLocalQualifiers() || T->isPointerType() || T->isReferenceType() ||
        T->isArrayType() || T->isFunctionType() || T->isMemberPointerType())
      return "its template argument " + Name +
             " cannot replace the parameter's name in the text";
    if (const TagDecl *Tag = T->getAsTagDecl();
        Tag && !SM.isBeforeInTranslationUnit(Tag->getBeginLoc(), TemplateBegin))
      return "its template argument " + Name +
             " is declared after the template";
    return "";
  }
  default:
    return "a template argument other than a type or an integer";
  }
}

std::string UseClassifier::cloneRefusal(const FunctionDecl *FD) const {
  const FunctionTemplateDecl *Primary = FD->getPrimaryTemplate();
  const SourceManager &SM = Ctx.getSourceManager();
  if (cloneRecords(FD).empty())
    return "no parameter of it takes the array";
  if (!Primary ||
      FD->getTemplateSpecializationKind() != TSK_ImplicitInstantiation)
    return "a member of a class template (not rewritten yet)";
  const FunctionDecl *Pattern = Primary->getTemplatedDecl();
  if (Pattern->getDeclContext()->isDependentContext())
    return "a member template of a class template (not rewritten yet)";
  if (isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(Pattern))
    return "a constructor, destructor or conversion template (not rewritten "
           "yet)";
  // Calls between an earlier declaration and the definition would not see
  // the overload declared after the definition.
  if (Primary->getPreviousDecl() || !Pattern->doesThisDeclarationHaveABody() ||
      Pattern->isOutOfLine())
    return "declared apart from its definition (the overload, declared after "
           "the definition, would not be seen by every call)";
  std::optional<SourceRange> Text = templateText(FD);
  if (!Text)
    return "its text is not in one file the rewrite can edit";
  if (Primary->getTemplateParameters()->getRequiresClause() ||
      Pattern->getTrailingRequiresClause())
    return "it has a requires-clause, which an overload cannot keep";
  if (Primary->getTemplateParameters()->hasParameterPack())
    return "a variadic template (not rewritten yet)";
  if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs())
    for (const TemplateArgument &Arg : Args->asArray())
      if (std::string Why = argumentRefusal(Arg, Text->getBegin(), Ctx);
          !Why.empty())
        return Why;
  for (const RecordDecl *RD : cloneRecords(FD))
    if (!SM.isBeforeInTranslationUnit(RD->getEndLoc(), Text->getBegin()))
      return "it is defined before struct " + recordName(RD) +
             " (its overload would name the handle before its declaration)";
  return "";
}

std::vector<std::pair<std::string, std::string>>
UseClassifier::cloneArguments(const FunctionDecl *FD) const {
  std::vector<std::pair<std::string, std::string>> Out;
  const FunctionTemplateDecl *Primary = FD->getPrimaryTemplate();
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Primary || !Args)
    return Out;
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  const TemplateParameterList *Params = Primary->getTemplateParameters();
  for (unsigned I = 0; I < Params->size() && I < Args->size(); ++I) {
    const TemplateArgument &Arg = Args->get(I);
    std::string Spelling =
        Arg.getKind() == TemplateArgument::Type
            ? TypeName::getFullyQualifiedName(Arg.getAsType(), Ctx, Policy)
            : llvm::toString(Arg.getAsIntegral(), 10);
    Out.push_back({Params->getParam(I)->getNameAsString(), Spelling});
  }
  return Out;
}

/// Whether a function parameter of type \p T deduces template parameter
/// \p Index of depth 0: T names it, through pointers, references, arrays,
/// qualifiers and the arguments of a class template (std::vector<T>).
static bool deduces(QualType T, unsigned Index) {
  T = T.getNonReferenceType();
  if (const auto *Parm = T->getAs<TemplateTypeParmType>())
    return Parm->getDepth() == 0 && Parm->getIndex() == Index;
  if (const auto *P = T->getAs<PointerType>())
    return deduces(P->getPointeeType(), Index);
  if (const auto *A = dyn_cast<ArrayType>(T.getTypePtr()))
    return deduces(A->getElementType(), Index);
  if (const auto *S = T->getAs<TemplateSpecializationType>())
    return llvm::any_of(S->template_arguments(),
                        [&](const TemplateArgument &A) {
                          return A.getKind() == TemplateArgument::Type &&
                                 deduces(A.getAsType(), Index);
                        });
  return false;
}

/// Whether a call of \p FD's template without template arguments deduces
/// every one of them from the arguments.
static bool deducedByArguments(const FunctionDecl *FD) {
  const FunctionTemplateDecl *Primary = FD->getPrimaryTemplate();
  const FunctionDecl *Pattern = Primary->getTemplatedDecl();
  const TemplateParameterList *Params = Primary->getTemplateParameters();
  for (unsigned I = 0; I < Params->size(); ++I)
    if (!isa<TemplateTypeParmDecl>(Params->getParam(I)) ||
        llvm::none_of(Pattern->parameters(), [&](const ParmVarDecl *P) {
          return deduces(P->getType(), I);
        }))
      return false;
  return true;
}

const FunctionDecl *UseClassifier::namedFunction(const Expr *Ref) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Ref))
    return dyn_cast<FunctionDecl>(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(Ref))
    return dyn_cast<FunctionDecl>(ME->getMemberDecl());
  return nullptr;
}

SourceRange UseClassifier::templateArgumentAngles(const Expr *Ref) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Ref))
    return {DRE->getLAngleLoc(), DRE->getRAngleLoc()};
  if (const auto *ME = dyn_cast<MemberExpr>(Ref))
    return {ME->getLAngleLoc(), ME->getRAngleLoc()};
  return {};
}

std::optional<UseVerdict>
UseClassifier::cloneReference(const Expr *Ref, const CallExpr *Call) const {
  const FunctionDecl *FD = namedFunction(Ref);
  if (!clonedInstantiation(FD))
    return std::nullopt;
  std::string Name = "'" + FD->getNameAsString() + "'";
  if (!Call || Call->getCallee()->IgnoreParenImpCasts() != Ref)
    return UseVerdict::refused(
        Ref->getExprLoc(),
        "template " + Name +
            " instantiated for the array named other than by a call (its "
            "overload would not be chosen)");
  // A recursive call is inside the overload's own text; any other call
  // must follow the template, where the overload is declared.
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<SourceRange> Text = templateText(FD);
  SourceLocation At = SM.getExpansionLoc(Ref->getExprLoc());
  if (Text && SM.isBeforeInTranslationUnit(At, Text->getBegin()))
    return UseVerdict::refused(
        Ref->getExprLoc(),
        "template " + Name +
            " called before its definition (the overload rewritten for the "
            "array is declared after it)");
  SourceRange Angles = templateArgumentAngles(Ref);
  if (Angles.isInvalid())
    return UseVerdict::of({UseKind::HandleFlow, Ref, Ref});
  // f<P>(a) names the template alone; f(a) chooses the overload.
  const auto *DRE = dyn_cast<DeclRefExpr>(Ref);
  bool Keyword = DRE ? DRE->hasTemplateKeyword()
                     : cast<MemberExpr>(Ref)->hasTemplateKeyword();
  SourceLocation L = Angles.getBegin(), R = Angles.getEnd();
  if (!deducedByArguments(FD) || Keyword || !L.isFileID() || !R.isFileID())
    return UseVerdict::refused(
        Ref->getExprLoc(),
        "template " + Name +
            " called with explicit template arguments, which choose the "
            "template over the overload rewritten for the array" +
            (Keyword ? std::string(" (after the 'template' keyword)")
             : !L.isFileID() || !R.isFileID()
                 ? std::string(" (spelled in a macro)")
                 : " (the call's arguments do not deduce them all)"));
  return checked(UseVerdict::of({UseKind::TemplateCall, Ref, Ref}),
                 "a call of a template");
}
