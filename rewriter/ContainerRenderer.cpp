//===- ContainerRenderer.cpp - std::vector<T> becomes the container ------===//
//
// See ContainerRenderer.h.
//
//===----------------------------------------------------------------------===//
#include "rewriter/ContainerRenderer.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

bool ContainerRenderer::containerType(QualType T, SourceRange R,
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
  if (!TypeSites.insert({Range->File.getHashValue(), Range->Begin}).second)
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

void ContainerRenderer::sizeofContainer(const UnaryExprOrTypeTraitExpr *E) {
  QualType T = E->isArgumentType() ? E->getArgumentType()
                                   : E->getArgumentExpr()->getType();
  if (std::optional<UseVerdict> V = Uses.containerSizeof(E))
    render(containerRecord(T), *V);
}

/// Replaces the type of \p VD, as spelled up to its name, with \p Text.
void ContainerRenderer::retype(const RecordDecl *RD, const VarDecl *VD,
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
void ContainerRenderer::elementBinding(const RecordDecl *RD,
                                       const HandleUse &U) {
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

void ContainerRenderer::rangeFor(const CXXForRangeStmt *S) {
  std::optional<ElementUse> E =
      Uses.elementBinding(S->getLoopVariable(), instantiation());
  if (!E)
    return;
  render(E->Record, E->Verdict);
  if (E->Verdict.Use)
    Loops.rangeForLoop(S, E->Record, E->Verdict.Use->Unused);
}

/// v[i] of a container with tiles: in the lanes of a strip-mined loop over
/// i, v.element(i_tile, i_lane), which divides nothing; elsewhere as it is.
void ContainerRenderer::subscript(const CXXOperatorCallExpr *Op) {
  ContainerElement CE = asContainerElement(Op);
  if (!CE.Index)
    return;
  // The text from `[` to `]`; the container's own text stays.
  std::optional<Token> Open =
      Lexer::findNextToken(Op->getArg(0)->getEndLoc(), SM, LO);
  if (Open && Open->is(tok::l_square))
    laneElement(
        CE,
        charRangeOf(Open->getLocation(), Op->getEndLoc().getLocWithOffset(1)),
        ".", Op);
}

/// v.at(i) likewise: in the lanes the index is below the size, so at()'s
/// check could not fail there.
void ContainerRenderer::atCall(const CXXMemberCallExpr *Call) {
  const auto *Callee = dyn_cast<MemberExpr>(Call->getCallee());
  ContainerElement CE = asContainerElement(Call);
  if (Callee && CE.Index)
    laneElement(CE,
                charRangeOf(Callee->getOperatorLoc(),
                            Call->getRParenLoc().getLocWithOffset(1)),
                Callee->isArrow() ? "->" : ".", Call);
}

/// Whether element \p Element of a container of \p RD may reach a tiled
/// cluster: anything but `v[i].f` of a field the layout does not tile.
bool ContainerRenderer::reachesTiles(const Expr *Element,
                                     const RecordDecl *RD) const {
  const HandleLayout *L = Layouts.lookup(RD);
  DynTypedNodeList Parents = Ctx.getParents(*Element);
  const auto *ME = Parents.size() == 1 ? Parents[0].get<MemberExpr>() : nullptr;
  const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  return !L || !FD ||
         FD->getParent()->getCanonicalDecl() != RD->getCanonicalDecl() ||
         L->isTiled(FD->getFieldIndex());
}

/// The element \p CE (the expression \p Element), whose index spelling
/// (`[i]`, `.at(i)`) is \p Range: `<Access>element(i_tile, i_lane)` in the
/// lanes of a loop over i, else as it is. Nothing where \p Range is none:
/// not strip-mined, correct as it is. Only an element that may reach a
/// tiled cluster makes its loop strip-mined (as an access to a tiled array
/// does for a C handle): a loop that reads untiled fields alone, the inner
/// loop of n-body's forces over SoA positions, keeps its form, and its
/// vectorized reductions.
void ContainerRenderer::laneElement(const ContainerElement &CE,
                                    std::optional<FileRange> Range,
                                    StringRef Access, const Expr *Element) {
  const RecordDecl *RD = containerRecord(CE.ContainerType);
  // Templates are not strip-mined.
  if (!RD || instantiation() || clone() || !Range)
    return;
  uint64_t Tile = Layouts.lookup(RD)->containerTile();
  const auto *Index = dyn_cast<DeclRefExpr>(CE.Index->IgnoreParenImpCasts());
  const auto *IndexVar = Index ? dyn_cast<VarDecl>(Index->getDecl()) : nullptr;
  if (!Tile || !IndexVar)
    return;
  if (reachesTiles(Element, RD))
    State.TiledIndexUses.push_back({CE.Container, IndexVar, Tile, RD});
  unsigned B = Range->Begin, E = Range->End;
  std::string Prefix = Access.str() + "element(";
  Sites.push_back(
      {Range->File, B, E, RD,
       [=](const EditSet &ES, const LaneContext *Lane) {
         if (Lane && Lane->InductionVar == IndexVar && Lane->Tile == Tile)
           return Prefix + Lane->TileVar + ", " + Lane->LaneVar + ")";
         return ES.textOf(B, E);
       },
       /*Needs=*/0});
}

/// e.f() on an element: a const member function is called on a copy,
/// T(v[i]).f(); a non-const one keeps its spelling, and the proxy forwards
/// it to a copy that it assigns back (UseKind::ProxyCall).
void ContainerRenderer::memberCall(const CXXMemberCallExpr *Call) {
  if (std::optional<ElementUse> E = Uses.elementCall(Call, instantiation()))
    render(E->Record, E->Verdict);
  atCall(Call);
}

/// UseKind::ElementCall: T(v[i]).f(), or T(*it).f() for it->f().
void ContainerRenderer::elementCallSite(const RecordDecl *RD,
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
void ContainerRenderer::libraryCall(const CallExpr *Call) {
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
void ContainerRenderer::swapSite(const RecordDecl *RD, const Expr *Callee) {
  auto Range = rangeOf(Callee->getSourceRange());
  if (!Range)
    return cannotRender(RD, Callee->getExprLoc(), "std::swap of elements");
  textSite(RD, *Range, "swap", /*Needs=*/0); // The container's site has.
}

void ContainerRenderer::variable(const VarDecl *VD) {
  if (VD->isCXXForRangeDecl()) // rangeFor
    return;
  if (std::optional<ElementUse> E = Uses.elementBinding(VD, instantiation()))
    render(E->Record, E->Verdict);
}

/// std::sort(v.begin(), v.end()) -> std::sort(v.begin(), v.end(),
/// std::less<T>()): T's operator< compares copies; the proxy has none.
void ContainerRenderer::sortSite(const RecordDecl *RD, const Expr *Last) {
  auto Text = textFn(Last);
  std::string Less =
      ", std::less<" + Layouts.lookup(RD)->qualifiedRecordName() + ">()";
  addSite(
      RD, Last->getSourceRange(), Last->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) { return Text(ES) + Less; },
      "an algorithm call", /*Needs=*/0); // The container's site has.
}

/// std::array<T, N> a = {{{1, 2}, {3, 4}}} (or with braces elided) ->
/// T_layout_array<N> a = {T{1, 2}, T{3, 4}}: the container's
/// initializer_list constructor, which value-initializes the elements not
/// given, as std::array's aggregate initialization does.
void ContainerRenderer::arrayContainerInitSite(const RecordDecl *RD,
                                               const InitListExpr *List) {
  const InitListExpr *Sem =
      List->isSemanticForm() ? List : List->getSemanticForm();
  const auto *Elements = cast<InitListExpr>(Sem->getInit(0));
  std::string Type = Layouts.lookup(RD)->qualifiedRecordName();
  std::vector<std::function<std::string(const EditSet &)>> Parts;
  for (const Expr *E : Elements->inits()) {
    if (isa<ImplicitValueInitExpr>(E))
      break; // The rest is value-initialized.
    auto Text = isa<InitListExpr>(E) ? initializerText(E) : textFn(E);
    if (!Text)
      return cannotRender(RD, E->getExprLoc(), "a std::array element");
    if (isa<InitListExpr>(E))
      Text = [Type, Text](const EditSet &ES) { return Type + Text(ES); };
    Parts.push_back(Text);
  }
  addSite(
      RD, List->getSourceRange(), List->getBeginLoc(),
      [Parts](const EditSet &ES, const LaneContext *) {
        std::string S = "{";
        for (size_t I = 0; I < Parts.size(); ++I)
          S += (I ? ", " : "") + Parts[I](ES);
        return S + "}";
      },
      "a std::array initializer", /*Needs=*/0);
}

/// std::array<T, N> a = {{{1, 2}, ...}}: the elements, spelled for the
/// container's initializer_list constructor.
void ContainerRenderer::initList(const InitListExpr *List) {
  if (std::optional<ElementUse> E = Uses.arrayContainerInit(List))
    render(E->Record, E->Verdict);
}

/// Renders one use of a container kind the analysis classified
/// (analysis/ContainerUses.cpp).
void ContainerRenderer::renderUse(const RecordDecl *RD, const HandleUse &U) {
  switch (U.Kind) {
  case UseKind::ContainerCall:
    return sortSite(RD, U.Site);
  case UseKind::ElementBinding:
    return elementBinding(RD, U);
  case UseKind::ElementCall:
    return elementCallSite(RD, cast<CXXMemberCallExpr>(U.Site));
  case UseKind::ElementSwap:
    return swapSite(RD, U.Site);
  case UseKind::ArrayContainerInit:
    return arrayContainerInitSite(RD, cast<InitListExpr>(U.Site));
  default:
    llvm_unreachable("not a use of a container");
  }
}

} // namespace dlopt::rewrite
