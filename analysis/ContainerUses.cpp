//===- ContainerUses.cpp - Uses of std::vector<T> and std::array<T, N> ----===//
//
// The part of UseClassifier that decides the C++ container uses. A
// rewritten container keeps the interface of the one it replaces, but its
// elements are proxies holding references to the fields: a use keeps its
// spelling where a proxy means the same, is respelled where it would not
// (a reference variable bound to an element, a const member call, a sort
// by operator<, std::swap), and is refused where no spelling serves (a
// structured binding, a spelling that must name the record inside a
// template's shared text, text spelled inside a macro). Legality and the
// rewriter ask these same questions (see docs/design.md).
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace dlopt;

std::string UseClassifier::containerElementRefusal(const RecordDecl *RD) {
  for (const FieldDecl *FD : RD->fields()) {
    std::string Name = "'" + FD->getNameAsString() + "'";
    if (FD->getType()->isArrayType())
      return "array field " + Name +
             " in an element of a std::vector or std::array (not rewritten "
             "yet)";
    if (FD->getType().isConstQualified())
      return "const field " + Name +
             ": an element of the rewritten container could not be assigned";
    if (FD->getAccess() == AS_private || FD->getAccess() == AS_protected)
      return "non-public field " + Name +
             ": the generated container could not reach it";
  }
  return "";
}

UseVerdict UseClassifier::containerType(const RecordDecl *RD, QualType T,
                                        SourceRange R,
                                        bool InTemplateArgument) const {
  if (std::string Why = containerElementRefusal(RD); !Why.empty())
    return UseVerdict::refused(R.getBegin(), Why);
  if (InTemplateArgument)
    return UseVerdict::refused(R.getBegin(),
                               containerSpelling(T) +
                                   " as a template argument (not rewritten "
                                   "yet)");
  if (!spelledInFile(R))
    return UseVerdict::refused(R.getBegin(),
                               containerSpelling(T) +
                                   " spelled inside a macro or a system "
                                   "header");
  if (isStdArray(T)) {
    const SourceManager &SM = Ctx.getSourceManager();
    CharSourceRange CR = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(R), SM, Ctx.getLangOpts());
    if (!arrayLength(Lexer::getSourceText(CR, SM, Ctx.getLangOpts())))
      return UseVerdict::refused(R.getBegin(),
                                 "the length of " + containerSpelling(T) +
                                     " is not spelled in its type");
  }
  return UseVerdict::of({UseKind::HandleFlow});
}

std::optional<UseVerdict>
UseClassifier::containerSizeof(const UnaryExprOrTypeTraitExpr *E) const {
  if (E->getKind() != UETT_SizeOf)
    return std::nullopt;
  QualType T = E->isArgumentType() ? E->getArgumentType()
                                   : E->getArgumentExpr()->getType();
  if (!containerRecord(T))
    return std::nullopt;
  return UseVerdict::refused(E->getBeginLoc(),
                             "sizeof of a " + containerSpelling(T) +
                                 ", which changes with the layout");
}

std::optional<std::string> UseClassifier::arrayLength(StringRef Spelling) {
  size_t Open = Spelling.find('<');
  if (Open == StringRef::npos)
    return std::nullopt;
  // Angle brackets count only outside parentheses: (N > 2 ? 4 : 8).
  int Angles = 0, Parens = 0;
  size_t Comma = StringRef::npos;
  for (size_t I = Open; I < Spelling.size(); ++I) {
    char C = Spelling[I];
    if (C == '(' || C == '[' || C == '{')
      ++Parens;
    else if (C == ')' || C == ']' || C == '}')
      --Parens;
    else if (Parens > 0)
      continue;
    else if (C == '<')
      ++Angles;
    else if (C == '>' && --Angles == 0)
      return Comma == StringRef::npos
                 ? std::nullopt
                 : std::optional<std::string>(
                       Spelling.slice(Comma + 1, I).trim().str());
    else if (C == ',' && Angles == 1)
      Comma = I;
  }
  return std::nullopt;
}

std::string UseClassifier::inTemplate(const std::string &What,
                                      const FunctionDecl *FD) {
  return What + " inside template '" + FD->getQualifiedNameAsString() +
         "' would need a spelling for this instantiation only (not "
         "rewritten yet)";
}

std::optional<UseVerdict>
UseClassifier::sortByOperatorLess(const CallExpr *Call,
                                  const FunctionDecl *Instantiation) const {
  ContainerAlgorithm VA = asContainerAlgorithm(Call);
  if (!containerRecord(VA.Container ? VA.Container->getType() : QualType()) ||
      !VA.Compares || VA.Compare)
    return std::nullopt;
  if (Instantiation)
    return UseVerdict::refused(
        Call->getExprLoc(),
        inTemplate("an algorithm sorting by operator<", Instantiation));
  const Expr *Last = Call->getArg(Call->getNumArgs() - 1);
  if (!spelledInFile(Last->getSourceRange()))
    return UseVerdict::refused(Call->getExprLoc(),
                               "algorithm call spelled inside a macro");
  return UseVerdict::of({UseKind::ContainerCall, Last, VA.Container});
}

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

const CXXForRangeStmt *UseClassifier::rangeForOf(const VarDecl *VD) const {
  if (!VD->isCXXForRangeDecl())
    return nullptr;
  for (const DynTypedNode &N : Ctx.getParents(*VD))
    if (const auto *DS = N.get<DeclStmt>())
      for (const DynTypedNode &P : Ctx.getParents(*DS))
        if (const auto *For = P.get<CXXForRangeStmt>();
            For && For->getLoopVariable() == VD)
          return For;
  return nullptr;
}

QualType UseClassifier::elementContainer(const Expr *E) const {
  if (!E)
    return QualType();
  E = E->IgnoreParenImpCasts();
  if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
    E = Temp->getSubExpr()->IgnoreParenImpCasts();
  // A copy of an element: T(v[i]), or v[i] passed by value.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      Construct && Construct->getNumArgs() == 1 &&
      Construct->getConstructor()->isCopyOrMoveConstructor())
    E = Construct->getArg(0)->IgnoreParenImpCasts();
  if (ContainerElement CE = asContainerElement(E);
      CE.Record && containerRecord(CE.ContainerType))
    return CE.ContainerType;
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->getType()->isReferenceType())
    return QualType();
  if (const CXXForRangeStmt *For = rangeForOf(VD)) {
    QualType Range = For->getRangeInit()->getType();
    return containerRecord(Range) ? Range : QualType();
  }
  return isa<ParmVarDecl>(VD) ? QualType() : elementContainer(VD->getInit());
}

/// `auto` (not `decltype(auto)`) in the declared type of \p VD, if any.
static std::optional<AutoTypeLoc> autoOf(const VarDecl *VD) {
  const TypeSourceInfo *TSI = VD->getTypeSourceInfo();
  if (!TSI)
    return std::nullopt;
  TypeLoc TL = TSI->getTypeLoc();
  if (auto Ref = TL.getAs<ReferenceTypeLoc>())
    TL = Ref.getPointeeLoc();
  auto Auto = TL.getUnqualifiedLoc().getAs<AutoTypeLoc>();
  if (!Auto || Auto.getTypePtr()->isDecltypeAuto())
    return std::nullopt;
  return Auto;
}

std::optional<ElementUse>
UseClassifier::elementBinding(const VarDecl *VD,
                              const FunctionDecl *Instantiation) const {
  if (isa<ParmVarDecl>(VD))
    return std::nullopt;
  QualType Container;
  if (const CXXForRangeStmt *For = rangeForOf(VD))
    Container = For->getRangeInit()->getType();
  else if (const Expr *Init = VD->getInit())
    Container = elementContainer(Init);
  const RecordDecl *RD = containerRecord(Container);
  if (!RD)
    return std::nullopt;
  return ElementUse{RD, bindingUse(VD, Container, Instantiation)};
}

UseVerdict UseClassifier::bindingUse(const VarDecl *VD, QualType Container,
                                     const FunctionDecl *Instantiation) const {
  std::string Name = "'" + VD->getNameAsString() + "'";
  std::string Of = "an element of " + containerSpelling(Container);
  if (isa<DecompositionDecl>(VD))
    return UseVerdict::refused(VD->getLocation(), "structured binding of " +
                                                      Of +
                                                      " (not rewritten "
                                                      "yet)");
  HandleUse U{UseKind::ElementBinding};
  U.Var = VD;
  QualType T = VD->getType();
  std::optional<AutoTypeLoc> Auto = autoOf(VD);
  const CXXForRangeStmt *For = rangeForOf(VD);
  U.Unused = For && !refersTo(For->getBody(), VD);
  if (!T->isReferenceType()) {
    // A copy: it must stay a T, which `auto` would no longer deduce.
    if (!Auto)
      return UseVerdict::of(U);
    if (Instantiation)
      return UseVerdict::refused(
          VD->getLocation(),
          inTemplate("a copy of an element declared 'auto'", Instantiation));
    if (!spelledInFile(Auto->getSourceRange()))
      return UseVerdict::refused(VD->getLocation(), "declaration of " + Name +
                                                        " is spelled inside a "
                                                        "macro");
    U.Respell = Respelling::AsRecord;
    return UseVerdict::of(U);
  }
  bool Const = T.getNonReferenceType().isConstQualified();
  // A reference the program writes through (`auto &q = v[i];`) binds the
  // proxy, whose fields are references into the container's arrays: its
  // uses are checked as the element's (Legality.cpp).
  // As written: `auto &&` deduced an lvalue reference from the element.
  TypeLoc Written = VD->getTypeSourceInfo()->getTypeLoc();
  if (Auto && (Written.getAs<RValueReferenceTypeLoc>() || Const) && !U.Unused)
    return UseVerdict::of(U); // They bind the proxy as they are.
  if (!spelledInFile(SourceRange(Written.getBeginLoc(), VD->getLocation())))
    return UseVerdict::refused(VD->getLocation(), "declaration of " + Name +
                                                      " is spelled inside a "
                                                      "macro");
  U.Respell = Respelling::AsProxy;
  return UseVerdict::of(U);
}

std::optional<ElementUse>
UseClassifier::elementCall(const CXXMemberCallExpr *Call,
                           const FunctionDecl *Instantiation) const {
  const Expr *Object = Call->getImplicitObjectArgument();
  const CXXMethodDecl *MD = Call->getMethodDecl();
  QualType Container = Object ? elementContainer(Object) : QualType();
  const RecordDecl *RD = containerRecord(Container);
  if (!RD || !MD)
    return std::nullopt;
  std::string Of = containerSpelling(Container);
  std::string Name = "'" + MD->getNameAsString() + "'";
  auto Refused = [&](SourceLocation Loc, std::string Why) {
    return ElementUse{RD, UseVerdict::refused(Loc, std::move(Why))};
  };
  // A non-const function goes through the proxy's forwarder, on a copy it
  // assigns back: the same only for a function that hands out no part of
  // the object.
  if (!MD->isConst()) {
    if (std::string Why = proxyMethodRefusal(MD); !Why.empty())
      return Refused(Call->getExprLoc(),
                     Why + " (called on an element of " + Of + ")");
    return ElementUse{RD, UseVerdict::of({UseKind::ProxyCall, Call, Object})};
  }
  QualType Ret = MD->getReturnType();
  if (Ret->isReferenceType() || Ret->isPointerType())
    return Refused(Call->getExprLoc(),
                   "member function " + Name + " called on an element of " +
                       Of + " returns a reference or pointer into it");
  // In a template's text, through the proxy's const forwarder.
  if (Instantiation) {
    if (!proxyMethodRefusal(MD).empty())
      return Refused(
          Call->getExprLoc(),
          inTemplate("const member function " + Name + " called on an element",
                     Instantiation));
    return ElementUse{RD, UseVerdict::of({UseKind::ProxyCall, Call, Object})};
  }
  // T(v[i]).f(), or T(*it).f() for it->f().
  const auto *Callee = dyn_cast<MemberExpr>(Call->getCallee());
  ContainerElement CE = asContainerElement(Object);
  bool InFile =
      CE.ViaIterator && Callee && Callee->isArrow()
          ? spelledInFile(CE.Container->getSourceRange()) &&
                spelledInFile({Object->getBeginLoc(), Callee->getMemberLoc()})
          : spelledInFile(Object->getSourceRange());
  if (!InFile)
    return Refused(Object->getExprLoc(), "member call spelled inside a macro");
  return ElementUse{RD, UseVerdict::of({UseKind::ElementCall, Call, Object})};
}

std::optional<ElementUse>
UseClassifier::elementSwap(const CallExpr *Call,
                           const FunctionDecl *Instantiation) const {
  if (!isStdSwap(Call))
    return std::nullopt;
  QualType A = elementContainer(Call->getArg(0)),
           B = elementContainer(Call->getArg(1));
  const RecordDecl *RA = containerRecord(A), *RB = containerRecord(B);
  if (!RA && !RB)
    return std::nullopt;
  if (RA != RB)
    return ElementUse{
        RA ? RA : RB,
        UseVerdict::refused(Call->getExprLoc(),
                            "std::swap of an element of " +
                                containerSpelling(RA ? A : B) +
                                " with an object that is not one (not "
                                "rewritten yet)")};
  auto Refused = [&](std::string Why) {
    return ElementUse{RA, UseVerdict::refused(Call->getExprLoc(), Why)};
  };
  const auto *Callee =
      dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
  // An unqualified swap finds the proxy's own already.
  if (!Callee || !Callee->hasQualifier())
    return ElementUse{RA, UseVerdict::of({UseKind::ProxyCall, Call})};
  if (Instantiation)
    return Refused(inTemplate("std::swap of elements", Instantiation));
  if (!spelledInFile(Callee->getSourceRange()))
    return Refused("std::swap of elements spelled inside a macro");
  return ElementUse{RA, UseVerdict::of({UseKind::ElementSwap, Callee})};
}

std::optional<ElementUse>
UseClassifier::arrayContainerInit(const InitListExpr *List) const {
  // The syntactic form only (the semantic one is visited too).
  if (List->getSyntacticForm())
    return std::nullopt;
  const InitListExpr *Sem =
      List->isSemanticForm() ? List : List->getSemanticForm();
  const RecordDecl *RD = Sem && isStdArray(Sem->getType())
                             ? containerRecord(Sem->getType())
                             : nullptr;
  if (!RD || Sem->getNumInits() != 1 || !isa<InitListExpr>(Sem->getInit(0)))
    return std::nullopt; // {} or a copy: nothing to spell.
  for (const Expr *E : cast<InitListExpr>(Sem->getInit(0))->inits()) {
    if (isa<ImplicitValueInitExpr>(E))
      break; // The rest is value-initialized.
    if (!initializerInFile(E))
      return ElementUse{RD, UseVerdict::refused(E->getExprLoc(),
                                                "element initializer spelled "
                                                "inside a macro")};
  }
  if (!spelledInFile(List->getSourceRange()))
    return ElementUse{RD, UseVerdict::refused(List->getBeginLoc(),
                                              "a std::array initializer is "
                                              "spelled inside a macro")};
  return ElementUse{RD, UseVerdict::of({UseKind::ArrayContainerInit, List})};
}
