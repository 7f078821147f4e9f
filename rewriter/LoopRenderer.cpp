//===- LoopRenderer.cpp - Tile/lane loops, walking pointers ---------------===//
//
// See LoopRenderer.h.
//
//===----------------------------------------------------------------------===//
#include "rewriter/LoopRenderer.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/Support/Regex.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

/// Whether a split into tile, lane and remainder loops would change what the
/// body does: it may leave or skip the loop, or it holds state that the two
/// copies of the body would not share (static locals).
static bool hasEscapes(const Stmt *S) {
  if (!S)
    return false;
  if (isa<BreakStmt, GotoStmt, IndirectGotoStmt, LabelStmt, ForStmt, WhileStmt,
          DoStmt, SwitchStmt, CXXForRangeStmt>(S))
    return true;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->isStaticLocal())
        return true;
  for (const Stmt *C : S->children())
    if (hasEscapes(C))
      return true;
  return false;
}

/// The statements of a block without its braces, to share the scope of
/// what a strip-mined loop declares before them (the variable a loop
/// declares cannot be declared again in its body's block); any other
/// statement as it is.
static std::string blockContents(StringRef Body) {
  Body = Body.trim();
  if (Body.starts_with("{") && Body.ends_with("}"))
    return Body.drop_front().drop_back().trim().str();
  return Body.str();
}

/// Whether block \p Body declares a variable named \p Name among its own
/// statements.
static bool declaresAtTop(const Stmt *Body, StringRef Name) {
  const auto *Block = dyn_cast<CompoundStmt>(Body);
  if (!Block)
    return false;
  for (const Stmt *S : Block->body())
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *ND = dyn_cast<NamedDecl>(D);
            ND && ND->getName() == Name)
          return true;
  return false;
}

/// The variable or field a container expression names (v, this->v, s.v);
/// null for anything else (*p, a call's result).
static const ValueDecl *containerRoot(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    return D->getDecl();
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = M->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base) || containerRoot(Base))
      return M->getMemberDecl();
  }
  return nullptr;
}

/// Members of a container that reach elements or read the size, but never
/// change it.
static bool keepsSizeMember(const FunctionDecl *FD) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (!MD)
    return false;
  if (MD->getOverloadedOperator() == OO_Subscript)
    return true;
  return MD->getIdentifier() &&
         llvm::is_contained({"at", "size", "empty", "front", "back"},
                            MD->getName());
}

/// The class type of an object of type \p T, or referred to by \p T.
static const Type *objectType(QualType T) {
  return T.getNonReferenceType()->getCanonicalTypeUnqualified().getTypePtr();
}

/// Whether \p S leaves the size of the container \p Root (of type
/// \p Container) alone: it names the container only to read its size or
/// reach an element, and calls nothing that could reach it another way,
/// only the standard library (on no other container of that type) and
/// member functions of the element \p RD that do the same. Conservative:
/// a call of the program's own functions or lambdas gives up.
static bool keepsSizeIn(const Stmt *S, const ValueDecl *Root,
                        const Type *Container, const RecordDecl *RD,
                        unsigned Depth) {
  if (!S)
    return true;
  auto IsContainer = [&](QualType T) { return objectType(T) == Container; };
  auto Children = [&](auto Range, const Stmt *Skip) {
    for (const Stmt *C : Range)
      if (C != Skip && !keepsSizeIn(C, Root, Container, RD, Depth))
        return false;
    return true;
  };
  // A container member call: on the root, only the members that keep
  // its size; on another container of the type (an alias?), the same.
  const Expr *Object = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && isa_and_nonnull<CXXMethodDecl>(Op->getDirectCallee()))
    Object = Op->getArg(0);
  else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
    Object = MC->getImplicitObjectArgument();
  if (Object &&
      (containerRoot(Object) == Root || IsContainer(Object->getType()))) {
    const auto *Call = cast<CallExpr>(S);
    if (!keepsSizeMember(Call->getDirectCallee()))
      return false;
    const Stmt *Skip = Object;
    for (const Stmt *C : S->children())
      if (const auto *E = dyn_cast_or_null<Expr>(C);
          E && E->IgnoreParenImpCasts() == Object->IgnoreParenImpCasts())
        Skip = C;
    return Children(S->children(), Skip);
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == Root)
    return false;
  if (const auto *M = dyn_cast<MemberExpr>(S); M && M->getMemberDecl() == Root)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return false;
    for (const Expr *Arg : Call->arguments())
      if (IsContainer(Arg->getType()))
        return false;
    const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
    bool ElementMember =
        MD && MD->getParent()->getCanonicalDecl() == RD->getCanonicalDecl();
    if (!isLibraryDecl(Callee) && !ElementMember)
      return false;
    if (ElementMember) {
      const FunctionDecl *Def = nullptr;
      if (Depth > 3 || !MD->hasBody(Def) ||
          !keepsSizeIn(Def->getBody(), Root, Container, RD, Depth + 1))
        return false;
    }
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (!Ctor->isTrivial() && !isLibraryDecl(Ctor) &&
        Ctor->getParent()->getCanonicalDecl() != RD->getCanonicalDecl())
      return false;
  }
  return Children(S->children(), nullptr);
}

bool LoopRenderer::keepsSize(const Stmt *Body, const Expr *Container) const {
  const ValueDecl *Root = containerRoot(Container);
  const RecordDecl *RD = containerRecord(Container->getType());
  return Root && RD &&
         keepsSizeIn(Body, Root, objectType(Container->getType()), RD, 0);
}

/// `v.size()` of a container whose size \p Body keeps.
bool LoopRenderer::isStableContainerSize(const Expr *Bound,
                                         const Stmt *Body) const {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(Bound->IgnoreParenImpCasts());
  const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || MD->getName() != "size" ||
      Call->getNumArgs() != 0)
    return false;
  const Expr *Object = Call->getImplicitObjectArgument();
  return Object && !Object->HasSideEffects(Ctx) &&
         containerRecord(Object->getType()) && keepsSize(Body, Object);
}

//===----------------------------------------------------------------------===//
// Where strip-mined loops go
//===----------------------------------------------------------------------===//

std::optional<LoopRenderer::LoopPlace>
LoopRenderer::loopPlace(const Stmt *S, const FileRange &Range) {
  unsigned Column = SM.getExpansionColumnNumber(S->getBeginLoc()) - 1;
  const Stmt *P = parent(S);
  if (!P || isa<CompoundStmt>(P))
    return LoopPlace{Range, Column, LoopPlace::Plain};
  // The end of the parent's token just before S.
  SourceLocation Before;
  unsigned Length = 1;
  if (const auto *For = dyn_cast<ForStmt>(P))
    Before = For->getRParenLoc();
  else if (const auto *While = dyn_cast<WhileStmt>(P))
    Before = While->getRParenLoc();
  else if (const auto *Range = dyn_cast<CXXForRangeStmt>(P))
    Before = Range->getRParenLoc();
  else if (const auto *If = dyn_cast<IfStmt>(P)) {
    Before = If->getThen() == S ? If->getRParenLoc() : If->getElseLoc();
    Length = If->getThen() == S ? 1 : 4;
  }
  if (Before.isValid() && Before.isFileID()) {
    auto [File, Offset] = SM.getDecomposedLoc(Before);
    Offset += Length;
    if (File == Range.File && Offset <= Range.Begin &&
        SM.getBufferData(File).slice(Offset, Range.Begin).trim().empty())
      return LoopPlace{{File, Offset, Range.End},
                       SM.getExpansionColumnNumber(P->getBeginLoc()) - 1,
                       LoopPlace::BlockAfterParent};
  }
  return LoopPlace{Range, Column, LoopPlace::Block};
}

std::string LoopRenderer::placeLoops(const LoopPlace &Place,
                                     const std::string &Code) {
  if (Place.Braces == LoopPlace::Plain)
    return format(Code, Place.Indent);
  std::string Block = format("{\n" + Code + "\n}", Place.Indent);
  return Place.Braces == LoopPlace::Block ? Block : " " + Block;
}

/// `for (auto &&p : v) body` over a container with tiles becomes a loop
/// over whole tiles, whose lane loop binds p to v.element(p_tile, p_lane)
/// (no division; it vectorizes), and a loop over the last, partial tile:
///
///   for (std::size_t p_tile = 0; p_tile < v.size() / 16; ++p_tile) {
///     for (std::size_t p_lane = 0; p_lane < 16; ++p_lane) {
///       auto &&p = v.element(p_tile, p_lane);
///       body
///     }
///   }
///   for (std::size_t p_i = v.size() / 16 * 16; p_i < v.size(); ++p_i) {
///     auto &&p = v[p_i];
///     body
///   }
void LoopRenderer::rangeForLoop(const CXXForRangeStmt *S, const RecordDecl *RD,
                                bool Unused) {
  uint64_t Tile = Layouts.lookup(RD)->containerTile();
  const Expr *Range = S->getRangeInit();
  const VarDecl *Var = S->getLoopVariable();
  // (A C++20 init-statement, `for (int k = 0; auto &p : v)`, stays.)
  if (!Tile || instantiation() || S->getInit() || !Range ||
      Range->HasSideEffects(Ctx) || hasEscapes(S->getBody()) ||
      !keepsSize(S->getBody(), Range))
    return;
  // A body that never names the variable gains nothing.
  std::optional<SourceRange> BodySR = statementRange(S->getBody());
  if (Unused || !BodySR)
    return;
  auto ForRange = rangeOf(SourceRange(S->getBeginLoc(), BodySR->getEnd()));
  auto BodyRange = rangeOf(*BodySR);
  // The variable's own range runs on to the range (its initializer).
  auto VarRange = rangeOf(SourceRange(Var->getBeginLoc(), Var->getLocation()));
  auto RangeRange = rangeOf(Range->getSourceRange());
  std::optional<LoopPlace> Place =
      ForRange ? loopPlace(S, *ForRange) : std::nullopt;
  if (!Place || !BodyRange || !VarRange || !RangeRange ||
      !LoopSiteStarts.insert({ForRange->File.getHashValue(), ForRange->Begin})
           .second)
    return;
  std::string Name = Var->getNameAsString();
  std::string TileVar = Name + "_tile", LaneVar = Name + "_lane",
              IndexVar = Name + "_i";
  unsigned BodyB = BodyRange->Begin, BodyE = BodyRange->End;
  unsigned VarB = VarRange->Begin, VarE = VarRange->End;
  unsigned RangeB = RangeRange->Begin, RangeE = RangeRange->End;
  unsigned SiteIndex = State.LoopSites.size();
  Site Loop{Place->Range.File, Place->Range.Begin, Place->Range.End, RD,
            nullptr,           /*Needs=*/0};
  Loop.Render = [=](const EditSet &ES, const LaneContext *) {
    const Site *Self = &State.LoopSites[SiteIndex];
    // Nothing inside the loop is edited yet: its sites are this loop's.
    auto Edited = [&](unsigned B, unsigned E) {
      EditSet Part = ES.emptyCopy();
      applySites(Part, B, E, nullptr, Self);
      return Part.textOf(B, E);
    };
    std::string Decl = Edited(VarB, VarE);
    std::string Body = blockContents(Edited(BodyB, BodyE));
    std::string V = parenthesize(Edited(RangeB, RangeE));
    std::string T = std::to_string(Tile);
    std::string Tiles = V + ".size() / " + T;
    std::string Code =
        "for (std::size_t " + TileVar + " = 0; " + TileVar + " < " + Tiles +
        "; ++" + TileVar + ") {\n" + "for (std::size_t " + LaneVar + " = 0; " +
        LaneVar + " < " + T + "; ++" + LaneVar + ") {\n" + Decl + " = " + V +
        ".element(" + TileVar + ", " + LaneVar + ");\n" + Body + "\n}\n}\n" +
        "for (std::size_t " + IndexVar + " = " + Tiles + " * " + T + "; " +
        IndexVar + " < " + V + ".size(); ++" + IndexVar + ") {\n" + Decl +
        " = " + V + "[" + IndexVar + "];\n" + Body + "\n}";
    return placeLoops(*Place, Code);
  };
  State.LoopSites.push_back(std::move(Loop));
}

/// `for (T *p = a; p < a + n; ++p) ... p->f ...` becomes an index loop:
/// `for (int p_i = 0; p_i < n; ++p_i) ... a.f[p_i] ...`.
/// A walking-pointer loop (UseClassifier::walkingLoop) becomes a counted
/// loop over the array: `for (T *p = a; p < a + n; ++p) p->x` ->
/// `for (int p_i = 0; p_i < n; ++p_i) <a's x at p_i>`.
bool LoopRenderer::walkingPointerLoop(const ForStmt *For) {
  std::optional<WalkingLoop> W = Uses.walkingLoop(For);
  if (!W)
    return false;
  const RecordDecl *RD = handleRecord(W->Pointer->getType());
  const HandleLayout *L = Layouts.lookup(RD);
  std::string Index = W->Pointer->getNameAsString() + "_i";
  std::string Type = W->Count->IgnoreImpCasts()->getType().getAsString(
      Ctx.getPrintingPolicy());
  std::string Array = W->Array->getDecl()->getNameAsString();
  auto CountText = textFn(W->Count);
  auto Header =
      charRangeOf(For->getForLoc(), For->getRParenLoc().getLocWithOffset(1));
  if (!CountText || !Header) {
    cannotRender(RD, For->getForLoc(), "walking-pointer loop header");
    return true;
  }
  State.WalkingPointers.insert(W->Pointer);
  Sites.push_back({Header->File, Header->Begin, Header->End, RD,
                   [=](const EditSet &ES, const LaneContext *) {
                     return "for (" + Type + " " + Index + " = 0; " + Index +
                            " < " + CountText(ES) + "; ++" + Index + ")";
                   }});
  for (const MemberExpr *ME : W->Accesses) {
    unsigned F = cast<FieldDecl>(ME->getMemberDecl())->getFieldIndex();
    addSite(
        RD, ME->getSourceRange(), ME->getExprLoc(),
        [=](const EditSet &, const LaneContext *) {
          return L->access(Array, Index, F);
        },
        "a field access through a walking pointer");
  }
  return true;
}

/// The directive whose loop \p For is, if any.
static const OMPLoopDirective *directiveOf(const ForStmt *For,
                                           ASTContext &Ctx) {
  for (const DynTypedNode &P : Ctx.getParents(*For)) {
    const auto *CD = P.get<CapturedDecl>();
    if (!CD)
      continue;
    for (const DynTypedNode &Up : Ctx.getParents(*CD))
      if (const auto *CS = Up.get<CapturedStmt>())
        for (const DynTypedNode &Dir : Ctx.getParents(*CS))
          if (const auto *D = Dir.get<OMPLoopDirective>())
            return D;
  }
  return nullptr;
}

bool LoopRenderer::stripMinableUnderOpenMP(const ForStmt *For) const {
  bool Captured = llvm::any_of(Ctx.getParents(*For), [](const DynTypedNode &P) {
    return P.get<CapturedDecl>() || P.get<CapturedStmt>();
  });
  if (!Captured)
    return true;
  // `omp parallel for` shares out the loop over whole tiles; the loop over
  // the last, partial one runs after the region, once, as its iterations
  // would have. Under `omp for` in a parallel region every thread would
  // run it, and `simd`, `collapse` and `ordered` are about the loop as
  // written: those keep the flat form. The induction variable must be the
  // loop's own (declared there), as the lanes assign it.
  const OMPLoopDirective *Dir = directiveOf(For, Ctx);
  const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
  return Dir && DS && isa<OMPParallelForDirective>(Dir) &&
         Dir->getLoopsNumber() == 1 &&
         !Dir->getSingleClause<OMPOrderedClause>() &&
         !Dir->getSingleClause<OMPCollapseClause>();
}

void LoopRenderer::loop(const ForStmt *For) {
  if (instantiation()) // One text for every instantiation.
    return;
  if (walkingPointerLoop(For))
    return;
  if (!stripMinableUnderOpenMP(For))
    return;
  // for (int i = 0; i < n; ++i) with a body that stays inside the loop.
  const VarDecl *IV = nullptr;
  bool Declared = false;
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
      DS && DS->isSingleDecl()) {
    IV = dyn_cast<VarDecl>(DS->getSingleDecl());
    Start = IV ? IV->getInit() : nullptr;
    Declared = true;
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    if (const auto *D = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
      IV = dyn_cast<VarDecl>(D->getDecl());
    Start = BO->getRHS();
  }
  if (!IV || !Start || !IV->getType()->isIntegerType())
    return;
  Expr::EvalResult Zero;
  if (!Start->EvaluateAsInt(Zero, Ctx) || Zero.Val.getInt() != 0)
    return;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || Cond->getOpcode() != BO_LT)
    return;
  const auto *CondVar =
      dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  if (!CondVar || CondVar->getDecl() != IV)
    return;
  const Expr *Bound = Cond->getRHS();
  const Expr *Inc = For->getInc() ? For->getInc()->IgnoreParens() : nullptr;
  bool UnitStep = false;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    UnitStep = UO->isIncrementOp();
  else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    Expr::EvalResult One;
    UnitStep = CA->getOpcode() == BO_AddAssign &&
               CA->getRHS()->EvaluateAsInt(One, Ctx) && One.Val.getInt() == 1;
  }
  if (!UnitStep || hasEscapes(For->getBody()) || assignsTo(For->getBody(), IV))
    return;
  // C (unlike C++) lets the body's block declare the loop's variable again,
  // which the lanes, sharing that block's scope, could not.
  if (!LO.CPlusPlus && declaresAtTop(For->getBody(), IV->getName()))
    return;
  // The bound is read once per tile instead of once per iteration: it must
  // be made of constants and local variables the body leaves alone (memory
  // or globals could change behind a store or a call), or be the size of a
  // container the body cannot resize.
  if (!isStableLoopBound(Bound, For->getBody()) &&
      !isStableContainerSize(Bound, For->getBody()))
    return;
  PendingLoops.push_back({For, IV, Declared, Bound});
}

void LoopRenderer::stripMineLoops() {
  for (const CandidateLoop &L : PendingLoops)
    loopSite(L);
}

void LoopRenderer::loopSite(const CandidateLoop &Loop) {
  const ForStmt *For = Loop.For;
  std::optional<SourceRange> BodySR = statementRange(For->getBody());
  if (!BodySR)
    return;
  auto ForRange = rangeOf(SourceRange(For->getBeginLoc(), BodySR->getEnd()));
  auto BodyRange = rangeOf(*BodySR);
  auto BoundRange = rangeOf(Loop.Bound->getSourceRange());
  if (!ForRange || !BodyRange || !BoundRange)
    return;
  // The tile size of the first tiled array the loop indexes with its
  // induction variable; arrays with other tile sizes use the flat form.
  const TiledUse *Use = nullptr;
  for (const TiledUse &U : State.TiledIndexUses) {
    auto [File, At] =
        SM.getDecomposedLoc(SM.getExpansionLoc(U.Handle->getExprLoc()));
    if (U.IndexVar == Loop.InductionVar && File == BodyRange->File &&
        At >= BodyRange->Begin && At < BodyRange->End) {
      Use = &U;
      break;
    }
  }
  std::optional<LoopPlace> Place = loopPlace(For, *ForRange);
  if (!Use || !Place ||
      !LoopSiteStarts.insert({ForRange->File.getHashValue(), ForRange->Begin})
           .second)
    return;
  const RecordDecl *RD = Use->Record;
  std::string IV = Loop.InductionVar->getNameAsString();
  std::string Type =
      Loop.InductionVar->getType().getAsString(Ctx.getPrintingPolicy());
  LaneContext Lane{Loop.InductionVar, IV + "_tile", IV + "_lane", Use->Tile};
  unsigned BodyB = BodyRange->Begin, BodyE = BodyRange->End;
  unsigned BoundB = BoundRange->Begin, BoundE = BoundRange->End;
  bool Declared = Loop.Declared;
  // The loop names nothing new itself; the sites in its body do.
  Site S{Place->Range.File, Place->Range.Begin, Place->Range.End, RD, nullptr,
         /*Needs=*/0};
  unsigned SiteIndex = State.LoopSites.size();
  S.Render = [=](const EditSet &ES, const LaneContext *) {
    const Site *Self = &State.LoopSites[SiteIndex];
    // Nothing inside the body is edited yet: its sites are this loop's.
    // Nor is the bound (sizeof a / sizeof a[0] of an array a[N]).
    EditSet LaneEdits = ES.emptyCopy(), FlatEdits = ES.emptyCopy(),
            BoundEdits = ES.emptyCopy();
    applySites(LaneEdits, BodyB, BodyE, &Lane, Self);
    applySites(FlatEdits, BodyB, BodyE, nullptr, Self);
    applySites(BoundEdits, BoundB, BoundE, nullptr, Self);
    std::string T = std::to_string(Lane.Tile);
    std::string Bound = BoundEdits.textOf(BoundB, BoundE);
    std::string Tiles = parenthesize(Bound) + " / " + T;
    std::string Decl = Declared ? Type + " " : "";
    std::string LaneBody = LaneEdits.textOf(BodyB, BodyE);
    // Declare the induction variable in the lane loop only if the body still
    // reads it (an unused variable would be a new warning).
    llvm::Regex UsesIV("(^|[^A-Za-z0-9_])" + IV + "($|[^A-Za-z0-9_])");
    std::string SetIV = !Declared || UsesIV.match(LaneBody)
                            ? Decl + IV + " = " + Lane.TileVar + " * " + T +
                                  " + " + Lane.LaneVar + ";\n"
                            : "";
    std::string Tile = Lane.TileVar, LaneVar = Lane.LaneVar;
    std::string Code = "for (" + Type + " " + Tile + " = 0; " + Tile + " < " +
                       Tiles + "; ++" + Tile + ") {\n" + "for (" + Type + " " +
                       LaneVar + " = 0; " + LaneVar + " < " + T + "; ++" +
                       LaneVar + ") {\n" + SetIV + blockContents(LaneBody) +
                       "\n}\n}\n" + "for (" + Decl + IV + " = " + Tiles +
                       " * " + T + "; " + IV + " < " + Bound + "; ++" + IV +
                       ")\n" + FlatEdits.textOf(BodyB, BodyE);
    return placeLoops(*Place, Code);
  };
  State.LoopSites.push_back(std::move(S));
}

} // namespace dlopt::rewrite
