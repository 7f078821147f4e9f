//===- StripMining.cpp - Which loops the rewrite strip-mines --------------===//
//
// See StripMining.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/StripMining.h"
#include "analysis/AstUtil.h"
#include "analysis/MemoryBounds.h"
#include "analysis/OpenMPPragmas.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace dlopt;

/// Whether a split into tile, lane and remainder loops would change what the
/// body does: it may leave or skip the loop, or it holds state that the two
/// copies of the body would not share (static locals).
static bool hasEscapes(const Stmt *Body) {
  // A worklist, not recursion: a body may hold a sum of thousands of terms.
  llvm::SmallVector<const Stmt *, 32> Todo{Body};
  while (!Todo.empty()) {
    const Stmt *S = Todo.pop_back_val();
    if (!S)
      continue;
    if (isa<BreakStmt, GotoStmt, IndirectGotoStmt, LabelStmt, ForStmt,
            WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt>(S))
      return true;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->isStaticLocal())
          return true;
    Todo.append(subStatements(S));
  }
  return false;
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
static bool keepsSizeIn(const Stmt *Body, const ValueDecl *Root,
                        const Type *Container, const RecordDecl *RD) {
  auto IsContainer = [&](QualType T) { return objectType(T) == Container; };
  // A worklist of statements and how many element member calls deep they
  // are, not recursion: a body may hold a sum of thousands of terms.
  llvm::SmallVector<std::pair<const Stmt *, unsigned>, 32> Todo{{Body, 0}};
  while (!Todo.empty()) {
    auto [S, Depth] = Todo.pop_back_val();
    if (!S)
      continue;
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
      // The object is the container (walked only if it is more than its
      // name); the arguments must keep its size too. (A member call's
      // callee, `v.at`, names the container: not a use of its own.)
      const Expr *const *Args = Call->getArgs();
      unsigned First = isa<CXXOperatorCallExpr>(S) ? 1 : 0;
      for (unsigned A = First; A < Call->getNumArgs(); ++A)
        Todo.push_back({Args[A], Depth});
      if (!containerRoot(Object))
        Todo.push_back({Object, Depth});
      continue;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == Root)
      return false;
    if (const auto *M = dyn_cast<MemberExpr>(S);
        M && M->getMemberDecl() == Root)
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
        if (Depth > 3 || !MD->hasBody(Def))
          return false;
        Todo.push_back({Def->getBody(), Depth + 1});
      }
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      if (!Ctor->isTrivial() && !isLibraryDecl(Ctor) &&
          Ctor->getParent()->getCanonicalDecl() != RD->getCanonicalDecl())
        return false;
    }
    for (const Stmt *C : subStatements(S))
      Todo.push_back({C, Depth});
  }
  return true;
}

/// Whether \p Body leaves the size of the container \p Container names
/// alone (see keepsSizeIn).
static bool keepsSize(const Stmt *Body, const Expr *Container) {
  const ValueDecl *Root = containerRoot(Container);
  const RecordDecl *RD = containerElementRecord(Container->getType());
  return Root && RD &&
         keepsSizeIn(Body, Root, objectType(Container->getType()), RD);
}

/// `v.size()` of a container whose size \p Body keeps.
static bool isStableContainerSize(const Expr *Bound, const Stmt *Body,
                                  const ASTContext &Ctx) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(Bound->IgnoreParenImpCasts());
  const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || MD->getName() != "size" ||
      Call->getNumArgs() != 0)
    return false;
  const Expr *Object = Call->getImplicitObjectArgument();
  return Object && !Object->HasSideEffects(Ctx) &&
         containerElementRecord(Object->getType()) && keepsSize(Body, Object);
}

/// Whether \p Assign is `i = i + 1` or `i = 1 + i`.
static bool isIncrementOf(const BinaryOperator *Assign, const VarDecl *IV,
                          ASTContext &Ctx) {
  auto Names = [IV](const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == IV;
  };
  const auto *Sum =
      dyn_cast<BinaryOperator>(Assign->getRHS()->IgnoreParenImpCasts());
  if (!Names(Assign->getLHS()) || !Sum || Sum->getOpcode() != BO_Add)
    return false;
  const Expr *Other = Names(Sum->getLHS())   ? Sum->getRHS()
                      : Names(Sum->getRHS()) ? Sum->getLHS()
                                             : nullptr;
  Expr::EvalResult One;
  return Other && Other->EvaluateAsInt(One, Ctx) && One.Val.getInt() == 1;
}

/// The loop-based OpenMP directive (`parallel for`, `for`, `simd`, `tile`,
/// ...) whose nest binds \p Loop, if any, and how many loops lie between
/// them (0: its own loop); \p Loop's nest is bound when that count is below
/// the number of loops the directive takes (collapse(n), ordered(n), the
/// sizes of a tile). Loops inside a region that is no loop directive
/// (`omp parallel`) are bound by nothing.
static std::pair<const OMPLoopBasedDirective *, unsigned>
bindingDirective(const Stmt *Loop, ASTContext &Ctx) {
  unsigned Depth = 0;
  DynTypedNodeList Parents = Ctx.getParents(*Loop);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *D = P.get<OMPLoopBasedDirective>())
      return {D, Depth};
    if (P.get<OMPExecutableDirective>() || P.get<FunctionDecl>() ||
        P.get<LambdaExpr>())
      break;
    if (P.get<ForStmt>() || P.get<CXXForRangeStmt>())
      ++Depth;
    Parents = Ctx.getParents(P);
  }
  return {nullptr, 0};
}

/// How many loops \p D binds: collapse(n), or ordered(n).
static unsigned boundLoops(const OMPLoopBasedDirective *D, ASTContext &Ctx) {
  unsigned N = D->getLoopsNumber();
  if (const auto *LD = dyn_cast<OMPLoopDirective>(D))
    if (const auto *Ordered = LD->getSingleClause<OMPOrderedClause>();
        Ordered && Ordered->getNumForLoops())
      if (std::optional<llvm::APSInt> K =
              Ordered->getNumForLoops()->getIntegerConstantExpr(Ctx))
        N = std::max<unsigned>(N, K->getZExtValue());
  return N;
}

/// The loop of \p D, for the loop statement \p For, if \p For is it.
static const OMPLoopDirective *directiveOf(const ForStmt *For,
                                           ASTContext &Ctx) {
  auto [D, Depth] = bindingDirective(For, Ctx);
  return Depth == 0 ? dyn_cast_or_null<OMPLoopDirective>(D) : nullptr;
}

/// Whether the statement \p S stands in a block (or is a function's body),
/// so that the loops replacing it need no braces of their own: the loop of
/// a directive cannot take them, the directive being bound to it.
static bool inBlock(const Stmt &S, ASTContext &Ctx) {
  return llvm::all_of(Ctx.getParents(S), [](const DynTypedNode &P) {
    return P.get<CompoundStmt>() || P.get<Decl>();
  });
}

/// Whether \p S holds an OpenMP directive (`omp scan`, `omp cancel for`,
/// `omp ordered`, which bind to the loop around them).
static bool holdsDirective(const Stmt *S) {
  llvm::SmallVector<const Stmt *, 32> Todo{S};
  while (!Todo.empty()) {
    const Stmt *Next = Todo.pop_back_val();
    if (isa_and_nonnull<OMPExecutableDirective>(Next))
      return true;
    if (Next)
      Todo.append(subStatements(Next));
  }
  return false;
}

/// The clauses of a `parallel for` under which a split keeps the loop's
/// meaning: those about its threads, schedule and the variables' sharing.
/// Others (`linear`, which steps a variable per iteration; `ordered`;
/// `collapse`; an `inscan` reduction) are about the loop as written.
static bool splitsWithClause(llvm::StringRef Name) {
  return llvm::is_contained({"schedule", "private", "firstprivate",
                             "lastprivate", "shared", "default", "reduction",
                             "num_threads", "if", "proc_bind", "copyin",
                             "allocate", "order"},
                            Name);
}

/// Without -fopenmp clang skips `#pragma omp`: whether a directive's words
/// after `omp`, read from the text, allow the split (as
/// stripMinableUnderOpenMP asks of the directive clang parses).
static bool splitsUnder(llvm::StringRef Directive) {
  llvm::SmallVector<llvm::StringRef, 8> Words;
  for (size_t I = 0; I < Directive.size();) {
    llvm::StringRef Word = Directive.substr(I).take_while(
        [](char C) { return isAsciiIdentifierContinue(C); });
    if (!Word.empty())
      Words.push_back(Word);
    // A clause's arguments are no clauses (`reduction(+ : sum)`), but an
    // `inscan` among them is.
    if (Directive.substr(I + Word.size()).ltrim().starts_with("(")) {
      size_t Open = Directive.find('(', I + Word.size()), Depth = 0, J = Open;
      for (; J < Directive.size(); ++J)
        if (Directive[J] == '(')
          ++Depth;
        else if (Directive[J] == ')' && --Depth == 0)
          break;
      if (Directive.slice(Open, J).contains("inscan"))
        return false;
      I = J + 1;
      continue;
    }
    I += std::max<size_t>(Word.size(), 1);
  }
  return Words.size() >= 2 && Words[0] == "parallel" && Words[1] == "for" &&
         llvm::all_of(llvm::drop_begin(Words, 2), splitsWithClause);
}

/// The loops \p For is nested in, innermost first, up to its function or
/// the first captured region (an OpenMP directive's body).
static std::vector<const Stmt *> enclosingLoops(const ForStmt *For,
                                                ASTContext &Ctx) {
  std::vector<const Stmt *> Loops;
  DynTypedNodeList Parents = Ctx.getParents(*For);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (P.get<Decl>() || P.get<CapturedStmt>() || P.get<LambdaExpr>())
      break;
    if (const auto *Outer = P.get<ForStmt>())
      Loops.push_back(Outer);
    else if (const auto *Range = P.get<CXXForRangeStmt>())
      Loops.push_back(Range);
    Parents = Ctx.getParents(P);
  }
  return Loops;
}

/// Whether the text of \p For's body spells a pragma (`omp scan`, `omp
/// cancel for`, which bind to the loop around them).
static bool spellsDirective(const ForStmt *For, const SourceManager &SM) {
  CharSourceRange R = SM.getExpansionRange(For->getBody()->getSourceRange());
  bool Invalid = false;
  llvm::StringRef Text = Lexer::getSourceText(R, SM, LangOptions(), &Invalid);
  return Invalid || Text.contains("#pragma") || Text.contains("_Pragma");
}

/// Without -fopenmp clang skips `#pragma omp`: the directives are read from
/// the text before \p For and before the loops around it.
static bool stripMinableUnderPragmas(const ForStmt *For, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<std::string> Own = openMPDirectivesBefore(SM, For->getBeginLoc());
  if (!Own.empty() && (Own.size() > 1 || !splitsUnder(Own.front()) ||
                       !isa_and_nonnull<DeclStmt>(For->getInit()) ||
                       !inBlock(*For, Ctx) || spellsDirective(For, SM)))
    return false;
  // A loop of a collapsed, ordered or tiled nest is one of the nest's loops.
  for (const Stmt *Outer : enclosingLoops(For, Ctx))
    for (llvm::StringRef D : openMPDirectivesBefore(SM, Outer->getBeginLoc()))
      if (D == "?" || D.contains("collapse") || D.contains("ordered") ||
          D.starts_with("tile") || D.starts_with("unroll"))
        return false;
  return true;
}

/// Whether \p For, if it is the loop of an OpenMP directive or one of the
/// loops its collapse, ordered or tile sizes bind, can be strip-mined.
static bool stripMinableUnderOpenMP(const ForStmt *For, ASTContext &Ctx) {
  if (!Ctx.getLangOpts().OpenMP)
    return stripMinableUnderPragmas(For, Ctx);
  auto [D, Depth] = bindingDirective(For, Ctx);
  if (!D)
    return true;
  // The loops a directive binds besides its own must stay perfectly nested
  // (collapse(n), ordered(n), a tile's sizes); those inside them are the
  // body's own.
  if (Depth > 0)
    return Depth >= boundLoops(D, Ctx);
  // `omp parallel for` shares out the loop over whole tiles; the loop over
  // the last, partial one runs after the region, once, as its iterations
  // would have. Under `omp for` in a parallel region every thread would
  // run it, and `simd`, `collapse`, `ordered`, `linear`, `tile` and the
  // directives a body may bind (`scan`, `cancel for`) are about the loop as
  // written: those keep the flat form. The induction variable must be the
  // loop's own (declared there), as the lanes assign it, and the directive
  // must stand in a block, where the loops that replace it need no braces.
  const auto *Dir = dyn_cast<OMPParallelForDirective>(D);
  if (!Dir || boundLoops(Dir, Ctx) != 1 ||
      !isa_and_nonnull<DeclStmt>(For->getInit()) || !inBlock(*Dir, Ctx) ||
      holdsDirective(For->getBody()))
    return false;
  return llvm::all_of(Dir->clauses(), [](const OMPClause *C) {
    const auto *Reduction = dyn_cast<OMPReductionClause>(C);
    return splitsWithClause(
               llvm::omp::getOpenMPClauseName(C->getClauseKind())) &&
           !(Reduction && Reduction->getModifier() == OMPC_REDUCTION_inscan);
  });
}

std::optional<CountedLoop> dlopt::stripMinableLoop(const ForStmt *For,
                                                   ASTContext &Ctx) {
  if (!stripMinableUnderOpenMP(For, Ctx))
    return std::nullopt;
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
    return std::nullopt;
  Expr::EvalResult Zero;
  if (!Start->EvaluateAsInt(Zero, Ctx) || Zero.Val.getInt() != 0)
    return std::nullopt;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || Cond->getOpcode() != BO_LT)
    return std::nullopt;
  const auto *CondVar =
      dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  if (!CondVar || CondVar->getDecl() != IV)
    return std::nullopt;
  const Expr *Bound = Cond->getRHS();
  const Expr *Inc = For->getInc() ? For->getInc()->IgnoreParens() : nullptr;
  bool UnitStep = false;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    UnitStep = UO->isIncrementOp();
  else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc);
           BO && BO->getOpcode() == BO_Assign)
    UnitStep = isIncrementOf(BO, IV, Ctx); // i = i + 1
  else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    Expr::EvalResult One;
    UnitStep = CA->getOpcode() == BO_AddAssign &&
               CA->getRHS()->EvaluateAsInt(One, Ctx) && One.Val.getInt() == 1;
  }
  if (!UnitStep || hasEscapes(For->getBody()) || assignsTo(For->getBody(), IV))
    return std::nullopt;
  // C (unlike C++) lets the body's block declare the loop's variable again,
  // which the lanes, sharing that block's scope, could not.
  if (!Ctx.getLangOpts().CPlusPlus &&
      declaresAtTop(For->getBody(), IV->getName()))
    return std::nullopt;
  // The bound is read once per tile instead of once per iteration: it must
  // be made of constants and local variables the body leaves alone, or of
  // globals and members no store or call of the body can change, or be the
  // size of a container the body cannot resize.
  if (!isStableLoopBound(Bound, For->getBody()) &&
      !isStableMemoryBound(Bound, For->getBody(), Ctx) &&
      !isStableContainerSize(Bound, For->getBody(), Ctx))
    return std::nullopt;
  return CountedLoop{IV, Declared, Bound};
}

/// Whether every variable \p E names is declared before \p For (not in
/// its header or body): the peel computed before the loop sees the same.
static bool declaredBefore(const Expr *E, const ForStmt *For,
                           const SourceManager &SM) {
  if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return SM.isBeforeInTranslationUnit(D->getDecl()->getLocation(),
                                        For->getBeginLoc());
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C);
        CE && !declaredBefore(CE, For, SM))
      return false;
  return true;
}

bool dlopt::peels(const ForStmt *For, const CountedLoop &Loop,
                  ASTContext &Ctx) {
  // The peel, up to T - 1 iterations, is held in the induction variable's
  // type: at least an int.
  bool Directive =
      Ctx.getLangOpts().OpenMP
          ? directiveOf(For, Ctx) != nullptr
          : !openMPDirectivesBefore(Ctx.getSourceManager(), For->getBeginLoc())
                 .empty();
  return !Directive && Ctx.getTypeSize(Loop.InductionVar->getType()) >=
                           Ctx.getTypeSize(Ctx.IntTy);
}

bool dlopt::holdsStill(const Expr *Handle, const ForStmt *For,
                       const SourceManager &SM) {
  return isStableLoopBound(Handle, For->getBody()) &&
         declaredBefore(Handle, For, SM);
}

bool dlopt::stripMinableRangeFor(const CXXForRangeStmt *S, ASTContext &Ctx) {
  // (A C++20 init-statement, `for (int k = 0; auto &p : v)`, stays.)
  const Expr *Range = S->getRangeInit();
  return !S->getInit() && Range && !Range->HasSideEffects(Ctx) &&
         !hasEscapes(S->getBody()) && keepsSize(S->getBody(), Range);
}
