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
// made (see LayoutRewriter::instantiation).
//
// Which of these a use is, and which uses are refused (structured bindings,
// the vector type as a template argument, sizeof, text spelled inside a
// macro), the analysis decides (analysis/ContainerUses.cpp); this file
// renders its answers.
//
//===----------------------------------------------------------------------===//
#include "rewriter/LayoutRewriter.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

const RecordDecl *LayoutRewriter::containerRecord(QualType T) const {
  return Uses.containerRecord(T); // Wanted: the records in Layouts.
}

bool LayoutRewriter::vectorType(QualType T, SourceRange R,
                                bool InTemplateArgument) {
  const RecordDecl *RD = containerRecord(T);
  if (!RD || R.isInvalid())
    return false;
  const HandleLayout *L = Layouts.lookup(RD);
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
    return cannotRender(RD, VD->getLocation(), "an element variable's type");
  textSite(RD, *Range, std::move(Text), /*Needs=*/0);
}

/// A variable bound to an element (UseKind::ElementBinding): a reference
/// binds the proxy, a copy stays a T.
void LayoutRewriter::elementBinding(const RecordDecl *RD, const HandleUse &U) {
  const VarDecl *VD = U.Var;
  switch (U.Respell) {
  case Respelling::None:
    return;
  case Respelling::AsRecord: {
    TypeLoc TL = VD->getTypeSourceInfo()->getTypeLoc();
    if (auto Ref = TL.getAs<ReferenceTypeLoc>())
      TL = Ref.getPointeeLoc();
    auto Range = rangeOf(TL.getUnqualifiedLoc().getSourceRange());
    if (!Range)
      return cannotRender(RD, VD->getLocation(), "an element copy's type");
    return textSite(RD, *Range, Layouts.lookup(RD)->qualifiedRecordName(),
                    /*Needs=*/0);
  }
  case Respelling::AsProxy: {
    bool Const = VD->getType().getNonReferenceType().isConstQualified();
    std::string MaybeUnused = U.Unused ? "[[maybe_unused]] " : "";
    return retype(RD, VD, MaybeUnused + (Const ? "const auto &" : "auto &&"));
  }
  }
}

void LayoutRewriter::rangeFor(const CXXForRangeStmt *S) {
  std::optional<ElementUse> E =
      Uses.elementBinding(S->getLoopVariable(), instantiation());
  if (!E)
    return;
  render(E->Record, E->Verdict);
  if (E->Verdict.Use)
    rangeForLoop(S, E->Record, E->Verdict.Use->Unused);
}

/// v[i] of a container with tiles: in the lanes of a strip-mined loop over
/// i, v.element(i_tile, i_lane), which divides nothing; elsewhere as it is.
void LayoutRewriter::containerSubscript(const CXXOperatorCallExpr *Op) {
  ContainerElement CE = asContainerElement(Op);
  const RecordDecl *RD = CE.Index ? containerRecord(CE.ContainerType) : nullptr;
  if (!RD || instantiation()) // Templates are not strip-mined.
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

/// e.f() on an element: a const member function is called on a copy,
/// T(v[i]).f(); a non-const one keeps its spelling, and the proxy forwards
/// it to a copy that it assigns back (UseKind::ProxyCall).
void LayoutRewriter::memberCall(const CXXMemberCallExpr *Call) {
  if (std::optional<ElementUse> E = Uses.elementCall(Call, instantiation()))
    render(E->Record, E->Verdict);
}

/// UseKind::ElementCall: T(v[i]).f(), or T(*it).f() for it->f().
void LayoutRewriter::elementCallSite(const RecordDecl *RD,
                                     const CXXMemberCallExpr *Call) {
  const Expr *Object = Call->getImplicitObjectArgument();
  std::string Type = Layouts.lookup(RD)->qualifiedRecordName();
  const auto *Callee = dyn_cast<MemberExpr>(Call->getCallee());
  if (ContainerElement CE = asContainerElement(Object);
      CE.ViaIterator && Callee && Callee->isArrow()) {
    auto Iterator = textFn(CE.Container);
    auto Range = charRangeOf(Object->getBeginLoc(), Callee->getMemberLoc());
    if (!Iterator || !Range)
      return cannotRender(RD, Object->getExprLoc(), "a member call");
    Sites.push_back({Range->File, Range->Begin, Range->End, RD,
                     [=](const EditSet &ES, const LaneContext *) {
                       return Type + "(*" + Iterator(ES) + ").";
                     },
                     /*Needs=*/0});
    return;
  }
  auto Text = textFn(Object);
  if (!Text)
    return cannotRender(RD, Object->getExprLoc(), "a member call");
  addSite(
      RD, Object->getSourceRange(), Object->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        return Type + "(" + Text(ES) + ")";
      },
      "a member function call", /*Needs=*/0);
}

/// Calls of the standard library that take elements or iterators:
/// null arguments, std::sort by operator< (sortSite) and std::swap of
/// elements (UseKind::ElementSwap).
void LayoutRewriter::libraryCall(const CallExpr *Call) {
  for (const auto &[RD, V] : Uses.nullArguments(Call))
    render(RD, V);
  if (std::optional<UseVerdict> V =
          Uses.sortByOperatorLess(Call, instantiation()))
    return render(asContainerAlgorithm(Call).Record, *V);
  if (std::optional<ElementUse> E = Uses.elementSwap(Call, instantiation()))
    render(E->Record, E->Verdict);
}

/// std::swap(v[i], v[j]) -> swap(v[i], v[j]): std::swap takes T &, which a
/// proxy is not; the proxy's own swap, found by argument-dependent lookup,
/// swaps the fields.
void LayoutRewriter::swapSite(const RecordDecl *RD, const Expr *Callee) {
  auto Range = rangeOf(Callee->getSourceRange());
  if (!Range)
    return cannotRender(RD, Callee->getExprLoc(), "std::swap of elements");
  textSite(RD, *Range, "swap", /*Needs=*/0); // The container's site has.
}

void LayoutRewriter::variable(const VarDecl *VD) {
  if (VD->isCXXForRangeDecl()) // rangeFor
    return;
  if (std::optional<ElementUse> E = Uses.elementBinding(VD, instantiation()))
    render(E->Record, E->Verdict);
}

} // namespace dlopt::rewrite
