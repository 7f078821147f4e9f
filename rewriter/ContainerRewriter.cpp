//===- ContainerRewriter.cpp - std::vector<T> becomes the container -------===//
//
// In C++ the uses of a vector keep their spelling (v[i].x, v.push_back(e),
// for (auto &&b : v)): the generated container (VectorContainer.cpp) has the
// vector's interface and its elements are proxies holding references to the
// fields. What changes:
//
//   std::vector<T> (any spelling, typedefs    the container's name
//   and std::vector<T>::size_type included)
//   for (auto &b : v), for (T &b : v)         for (auto &&b : v): the proxy
//                                             is a temporary
//   for (const T &b : v), const T &r = v[i]   const auto &: a reference to
//                                             the element, not to a copy
//   for (auto b : v), auto e = v[i]           T b, T e: a copied proxy would
//                                             still write to the element
//
//   v[i].norm(), it->norm() (const)           T(v[i]).norm(), T(*it).norm():
//                                             on a copy
//   std::swap(v[i], v[j])                     swap(v[i], v[j]): the proxy's
//   std::sort(v.begin(), v.end())             ..., std::less<T>()): T's <
//   v[i] in a strip-mined loop over i         v.element(i_tile, i_lane)
//   std::array<T, N> a = {{{1, 2}, ...}}      {T{1, 2}, ...} (UseRewriter)
//
// v[i].move(dt) (non-const) goes through the proxy's forwarder; iterator
// loops, std::sort(v.begin(), v.end()) and the other algorithms that only
// move, compare or read elements (see asContainerAlgorithm) run on the
// container's iterator as they are written. Inside a function template's
// instantiation only edits that read right for every instantiation are
// made (see LayoutRewriter::Instantiation).
//
// Uses whose meaning a proxy would change are refused (structured bindings,
// the vector type as a template argument, sizeof).
//
//===----------------------------------------------------------------------===//
#include "rewriter/LayoutRewriter.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

/// Whether \p S names \p D anywhere.
static bool refersTo(const Stmt *S, const Decl *D) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == D)
    return true;
  return llvm::any_of(S->children(),
                      [D](const Stmt *C) { return refersTo(C, D); });
}

void LayoutRewriter::refuseInTemplate(const RecordDecl *RD, SourceLocation Loc,
                                      const std::string &What) {
  refuse(RD, Loc, UseClassifier::inTemplate(What, Instantiation));
}

const RecordDecl *LayoutRewriter::containerRecord(QualType T) const {
  return Uses.containerRecord(T); // Wanted: the records in Layouts.
}

bool LayoutRewriter::vectorType(QualType T, SourceRange R,
                                bool InTemplateArgument) {
  const RecordDecl *RD = containerRecord(T);
  if (!RD || R.isInvalid())
    return false;
  const HandleLayout *L = Layouts.lookup(RD);
  if (std::string Why = L->containerRefusal(); !Why.empty()) {
    refuse(RD, R.getBegin(), Why);
    return true;
  }
  if (UseVerdict V = Uses.containerType(RD, T, R, InTemplateArgument); !V.Use) {
    cannotRender(RD, V.Loc, V.Refusal);
    return true;
  }
  auto Range = rangeOf(R);
  // A class template's members are visited once per instantiation.
  if (!VectorTypeSites.insert({Range->File.getHashValue(), Range->Begin})
           .second)
    return true;
  if (!isStdArray(T)) {
    textSite(RD, *Range, L->containerName(), HandleLayout::Container);
    return true;
  }
  // std::array<T, N> -> T_layout_array<N>, N as written.
  std::optional<std::string> N = UseClassifier::arrayLength(
      SM.getBufferData(Range->File).slice(Range->Begin, Range->End));
  textSite(RD, *Range, L->arrayName() + "<" + *N + ">",
           HandleLayout::ArrayContainer);
  return true;
}

void LayoutRewriter::sizeofVector(const UnaryExprOrTypeTraitExpr *E) {
  QualType T = E->isArgumentType() ? E->getArgumentType()
                                   : E->getArgumentExpr()->getType();
  if (std::optional<UseVerdict> V = Uses.containerSizeof(E))
    render(containerRecord(T), *V);
}

/// Replaces the type of \p VD, as spelled up to its name, with \p Text.
void LayoutRewriter::retype(const RecordDecl *RD, const VarDecl *VD,
                            std::string Text) {
  // The type location starts after leading qualifiers (`const T &`).
  SourceLocation Begin = VD->getTypeSourceInfo()->getTypeLoc().getBeginLoc();
  if (Begin.isFileID()) {
    auto [File, Offset] = SM.getDecomposedLoc(Begin);
    StringRef Before = SM.getBufferData(File).take_front(Offset);
    while (true) {
      StringRef Trimmed = Before.rtrim();
      StringRef Word = Trimmed.take_back(Trimmed.size() -
                                         Trimmed.find_last_of(" \t\n(,;{") - 1);
      if (Word != "const" && Word != "volatile")
        break;
      Before = Trimmed.drop_back(Word.size());
    }
    Begin = SM.getComposedLoc(File, Before.size());
  }
  auto Range = charRangeOf(Begin, VD->getLocation());
  if (!Range)
    return refuse(RD, VD->getLocation(),
                  "declaration of '" + VD->getNameAsString() +
                      "' is spelled inside a macro");
  textSite(RD, *Range, std::move(Text), /*Needs=*/0);
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

/// A variable that will hold an element: the proxy, by value or by
/// reference. \p Unused: a range-for variable its body never names (clang
/// warns about an unused reference bound to a proxy, not to an element).
void LayoutRewriter::elementVariable(const RecordDecl *RD, const VarDecl *VD,
                                     bool Unused) {
  std::string Name = "'" + VD->getNameAsString() + "'";
  if (isa<DecompositionDecl>(VD))
    return refuse(RD, VD->getLocation(),
                  "structured binding of an element of a container of " +
                      recordName(RD) + " (not rewritten yet)");
  QualType T = VD->getType();
  std::optional<AutoTypeLoc> Auto = autoOf(VD);
  if (!T->isReferenceType()) {
    // A copy: it must stay a T, which `auto` would no longer deduce.
    if (Auto && Instantiation)
      return refuseInTemplate(RD, VD->getLocation(),
                              "a copy of an element declared 'auto'");
    if (Auto) {
      auto Range = rangeOf(Auto->getSourceRange());
      if (!Range)
        return refuse(RD, VD->getLocation(),
                      "declaration of " + Name + " is spelled inside a macro");
      textSite(RD, *Range, Layouts.lookup(RD)->qualifiedRecordName(),
               /*Needs=*/0);
    }
    return;
  }
  ProxyVars.insert(VD);
  // As written: `auto &&` deduced an lvalue reference from the element.
  TypeLoc Written = VD->getTypeSourceInfo()->getTypeLoc();
  bool Const = T.getNonReferenceType().isConstQualified();
  std::string MaybeUnused = Unused ? "[[maybe_unused]] " : "";
  if (Auto && (Written.getAs<RValueReferenceTypeLoc>() || Const) && !Unused)
    return; // auto && and const auto & bind the proxy as they are.
  retype(RD, VD, MaybeUnused + (Const ? "const auto &" : "auto &&"));
}

void LayoutRewriter::rangeFor(const CXXForRangeStmt *S) {
  if (const RecordDecl *RD = containerRecord(S->getRangeInit()->getType())) {
    bool Unused = !refersTo(S->getBody(), S->getLoopVariable());
    elementVariable(RD, S->getLoopVariable(), Unused);
    rangeForLoop(S, RD, Unused);
  }
}

/// v[i] of a container with tiles: in the lanes of a strip-mined loop over
/// i, v.element(i_tile, i_lane), which divides nothing; elsewhere as it is.
void LayoutRewriter::containerSubscript(const CXXOperatorCallExpr *Op) {
  ContainerElement CE = asContainerElement(Op);
  const RecordDecl *RD = CE.Index ? containerRecord(CE.ContainerType) : nullptr;
  if (!RD || Instantiation) // Templates are not strip-mined.
    return;
  uint64_t Tile = Layouts.lookup(RD)->containerTile();
  const auto *Index = dyn_cast<DeclRefExpr>(CE.Index->IgnoreParenImpCasts());
  const auto *IndexVar = Index ? dyn_cast<VarDecl>(Index->getDecl()) : nullptr;
  if (!Tile || !IndexVar)
    return;
  // The text from `[` to `]`; the container's own text stays.
  std::optional<Token> Open =
      Lexer::findNextToken(Op->getArg(0)->getEndLoc(), SM, LO);
  auto Range = Open && Open->is(tok::l_square)
                   ? charRangeOf(Open->getLocation(),
                                 Op->getEndLoc().getLocWithOffset(1))
                   : std::nullopt;
  if (!Range)
    return; // Not strip-mined; correct as it is.
  TiledIndexUses.push_back({CE.Container, IndexVar, Tile, RD});
  unsigned B = Range->Begin, E = Range->End;
  Sites.push_back(
      {Range->File, B, E, RD,
       [=](const EditSet &ES, const LaneContext *Lane) {
         if (Lane && Lane->InductionVar == IndexVar && Lane->Tile == Tile)
           return ".element(" + Lane->TileVar + ", " + Lane->LaneVar + ")";
         return ES.textOf(B, E);
       },
       /*Needs=*/0});
}

/// An element of a rewritten vector: v[i], v.at(i), or a variable bound to
/// one.
const RecordDecl *LayoutRewriter::elementOf(const Expr *E) const {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
    E = Temp->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      Construct && Construct->getNumArgs() == 1 &&
      Construct->getConstructor()->isCopyOrMoveConstructor())
    E = Construct->getArg(0)->IgnoreParenImpCasts();
  if (ContainerElement VE = asContainerElement(E);
      VE.Record && containerRecord(VE.ContainerType))
    return VE.Record;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (ProxyVars.count(DRE->getDecl()))
      return asRecord(DRE->getType());
  return nullptr;
}

/// e.norm() on an element: a const member function is called on a copy,
/// T(v[i]).norm() (Legality admits those that return no reference or
/// pointer). A non-const one, e.move(dt), keeps its spelling: the proxy
/// forwards it to a copy that it assigns back (Legality: proxyMethodRefusal).
void LayoutRewriter::memberCall(const CXXMemberCallExpr *Call) {
  const Expr *Object = Call->getImplicitObjectArgument();
  const RecordDecl *RD = Object ? elementOf(Object) : nullptr;
  const CXXMethodDecl *MD = Call->getMethodDecl();
  if (!RD || !MD || !MD->isConst())
    return;
  // In a template, through the proxy's forwarder (HandleLayout::create).
  if (Instantiation) {
    if (!proxyMethodRefusal(MD).empty())
      refuseInTemplate(RD, Call->getExprLoc(),
                       "const member function '" + MD->getNameAsString() +
                           "' called on an element");
    return;
  }
  std::string Type = Layouts.lookup(RD)->qualifiedRecordName();
  // it->norm(): (*it) is the element; T(*it).norm().
  const auto *Callee = dyn_cast<MemberExpr>(Call->getCallee());
  if (ContainerElement CE = asContainerElement(Object);
      CE.ViaIterator && Callee && Callee->isArrow()) {
    auto Iterator = textFn(CE.Container);
    auto Range = charRangeOf(Object->getBeginLoc(), Callee->getMemberLoc());
    if (!Iterator || !Range)
      return refuse(RD, Object->getExprLoc(),
                    "member call spelled inside a macro");
    Sites.push_back({Range->File, Range->Begin, Range->End, RD,
                     [=](const EditSet &ES, const LaneContext *) {
                       return Type + "(*" + Iterator(ES) + ").";
                     },
                     /*Needs=*/0});
    return;
  }
  auto Text = textFn(Object);
  if (!Text)
    return refuse(RD, Object->getExprLoc(),
                  "member call spelled inside a macro");
  addSite(
      RD, Object->getSourceRange(), Object->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        return Type + "(" + Text(ES) + ")";
      },
      "a member function call", /*Needs=*/0);
}

/// Calls of the standard library that take elements or iterators:
///
/// std::swap(v[i], v[j]) -> swap(v[i], v[j]): std::swap takes T &, which
/// a proxy is not; the proxy's own swap, found by argument-dependent
/// lookup, swaps the fields. An unqualified swap finds it already.
///
/// std::sort(v.begin(), v.end()) -> std::sort(v.begin(), v.end(),
/// std::less<T>()): T's operator< compares copies; the proxy has none.
void LayoutRewriter::libraryCall(const CallExpr *Call) {
  for (const auto &[RD, V] : Uses.nullArguments(Call))
    render(RD, V);
  if (std::optional<UseVerdict> V =
          Uses.sortByOperatorLess(Call, Instantiation))
    return render(asContainerAlgorithm(Call).Record, *V);
  if (!isStdSwap(Call))
    return;
  const RecordDecl *RD = elementOf(Call->getArg(0));
  const auto *Callee =
      dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
  if (!RD || RD != elementOf(Call->getArg(1)) || !Callee ||
      !Callee->hasQualifier())
    return;
  if (Instantiation)
    return refuseInTemplate(RD, Call->getExprLoc(), "std::swap of elements");
  auto Range = rangeOf(Callee->getSourceRange());
  if (!Range)
    return refuse(RD, Call->getExprLoc(),
                  "std::swap of elements spelled inside a macro");
  textSite(RD, *Range, "swap", /*Needs=*/0); // The container's site has.
}

void LayoutRewriter::variable(const VarDecl *VD) {
  if (VD->isCXXForRangeDecl() || isa<ParmVarDecl>(VD))
    return;
  if (const RecordDecl *RD = elementOf(VD->getInit()))
    elementVariable(RD, VD);
}

} // namespace dlopt::rewrite
