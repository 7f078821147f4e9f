//===- UseClassifier.cpp - What each use of a record's array is -----------===//
//
// See UseClassifier.h. Every reference to a handle is classified by its
// context (the nearest enclosing expression that is not a parenthesis or an
// implicit cast); a context outside the vocabulary is a refusal naming it.
//
//===----------------------------------------------------------------------===//
#include "analysis/UseClassifier.h"
#include "analysis/AllocatorFunctions.h"
#include "analysis/AstUtil.h"
#include "analysis/OpenCLHost.h"
#include "analysis/SpecialMembers.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace dlopt;

const char *dlopt::useKindName(UseKind K) {
  switch (K) {
  case UseKind::FieldAccess:
    return "field access";
  case UseKind::ElementRead:
    return "element read";
  case UseKind::ElementWrite:
    return "element write";
  case UseKind::Allocation:
    return "allocation";
  case UseKind::AllocationPart:
    return "part of an allocation";
  case UseKind::Release:
    return "release";
  case UseKind::NullTest:
    return "null test";
  case UseKind::NullValue:
    return "null value";
  case UseKind::ElementSize:
    return "element size";
  case UseKind::WalkingPointer:
    return "walking pointer";
  case UseKind::ContainerCall:
    return "container algorithm";
  case UseKind::ElementBinding:
    return "element binding";
  case UseKind::ElementCall:
    return "member call on an element";
  case UseKind::ProxyCall:
    return "call through the element proxy";
  case UseKind::ElementSwap:
    return "swap of elements";
  case UseKind::ArrayContainerInit:
    return "std::array initializer";
  case UseKind::HandleFlow:
    return "handle passed on";
  case UseKind::ElementPointer:
    return "element pointer";
  case UseKind::ElementAddress:
    return "element address";
  case UseKind::SubArray:
    return "sub-array";
  case UseKind::LibrarySort:
    return "qsort";
  case UseKind::LibrarySearch:
    return "bsearch, lfind or lsearch";
  case UseKind::ArrayCopy:
    return "memcpy, memmove or memset";
  case UseKind::FileIO:
    return "fwrite or fread";
  case UseKind::HandleComparison:
    return "comparison of arrays";
  case UseKind::HandleStep:
    return "step of an array";
  case UseKind::OpenCLCall:
    return "host memory of an OpenCL buffer";
  case UseKind::KernelParameter:
    return "kernel parameter";
  case UseKind::CudaCall:
    return "CUDA allocation, copy, fill or release";
  case UseKind::TemplateCall:
    return "call of a template with explicit template arguments";
  case UseKind::HandleCast:
    return "cast of an array to its own pointer type";
  }
  llvm_unreachable("all use kinds are named");
}

const Stmt *UseClassifier::parent(const Stmt *S) const {
  for (const DynTypedNode &P : Ctx.getParents(*S))
    if (const Stmt *PS = P.get<Stmt>())
      return PS;
  return nullptr;
}

const Stmt *UseClassifier::semanticParent(const Expr *&Child,
                                          bool SkipLoads) const {
  auto Skippable = [&](const Stmt *P) {
    if (isa<ParenExpr>(P))
      return true;
    // (void *)a converts a as a call's void * parameter would.
    if (const auto *Explicit = dyn_cast<ExplicitCastExpr>(P))
      return ignoreVoidPointerCasts(Explicit) != Explicit;
    const auto *Cast = dyn_cast<ImplicitCastExpr>(P);
    if (!Cast || Cast->getCastKind() == CK_PointerToBoolean)
      return false;
    return SkipLoads || Cast->getCastKind() != CK_LValueToRValue;
  };
  const Stmt *P = parent(Child);
  while (P && Skippable(P)) {
    Child = cast<Expr>(P);
    P = parent(P);
  }
  return P;
}

bool UseClassifier::spelledInFile(SourceRange R) const {
  return dlopt::spelledInFile(Ctx, R);
}

/// A use whose site the rewriter must replace needs text it can edit.
UseVerdict UseClassifier::checked(UseVerdict V, const char *What) const {
  if (!V.Use || V.Use->Kind == UseKind::HandleFlow ||
      V.Use->Kind == UseKind::AllocationPart)
    return V;
  const HandleUse &U = *V.Use;
  // p->f() through a handle or an element pointer: a member function, not
  // a field (the element would be copied out and back as for (*p).f()).
  if (U.Kind == UseKind::FieldAccess && U.Field &&
      !isa<FieldDecl>(U.Field->getMemberDecl()))
    return UseVerdict::refused(
        U.Field->getExprLoc(),
        "member function '" + U.Field->getMemberDecl()->getNameAsString() +
            "' called through a pointer to an element (not rewritten yet; "
            "(*p)." +
            U.Field->getMemberDecl()->getNameAsString() + "() is)");
  bool InFile = spelledInFile(U.Site->getSourceRange()) &&
                (!U.Handle || spelledInFile(U.Handle->getSourceRange())) &&
                (!U.Index || spelledInFile(U.Index->getSourceRange())) &&
                (!U.Value || spelledInFile(U.Value->getSourceRange()));
  if (InFile)
    return V;
  return UseVerdict::refused(U.Site->getExprLoc(),
                             std::string(What) +
                                 " is spelled inside a macro or a system "
                                 "header");
}

const RecordDecl *UseClassifier::handleRecord(QualType T) const {
  const RecordDecl *RD = elementRecord(T);
  return RD && Wanted(RD) ? RD : nullptr;
}

const RecordDecl *UseClassifier::containerRecord(QualType T) const {
  const RecordDecl *RD = containerElementRecord(T);
  return RD && Wanted(RD) && !(KeptContainers && KeptContainers(RD)) ? RD
                                                                     : nullptr;
}

const RecordDecl *UseClassifier::handleVarRecord(const ValueDecl *D) const {
  // T ** holds no record's array: elementRecord gives none. A __shared__
  // tile is no handle: its elements keep the record.
  if (!isa_and_nonnull<VarDecl>(D) || keepsRecord(D))
    return nullptr;
  if (const RecordDecl *RD = handleRecord(D->getType()))
    return RD;
  return voidHandleRecord(D);
}

/// new T[n], new T[n](), calloc(n, sizeof(T)), malloc(n * sizeof(T)),
/// realloc(p, n * sizeof(T)) where p is a handle variable.
UseVerdict UseClassifier::allocation(const Expr *Init,
                                     const RecordDecl *RD) const {
  const Expr *Inner = Init->IgnoreParenCasts();
  HandleUse U{UseKind::Allocation, Init};
  if (const auto *New = dyn_cast<CXXNewExpr>(Inner)) {
    if (!New->isArray() || !New->getArraySize())
      return UseVerdict::refused(New->getExprLoc(), "new of a single element");
    if (New->getInitializationStyle() != CXXNewInitializationStyle::None) {
      // new T[n]() and new T[n]{} zero the elements: calloc does too.
      const Expr *I = New->getInitializer();
      const auto *List = dyn_cast_or_null<InitListExpr>(I);
      bool Empty = (List && List->getNumInits() == 0) ||
                   isa_and_nonnull<CXXConstructExpr>(I) ||
                   isa_and_nonnull<ImplicitValueInitExpr>(I) ||
                   isa_and_nonnull<CXXScalarValueInitExpr>(I);
      if (!Empty)
        return UseVerdict::refused(
            New->getExprLoc(),
            "new[] with element initializers (not rewritten yet)");
    }
    U.Count = {*New->getArraySize()};
    return checked(UseVerdict::of(U), "an allocation");
  }
  const auto *Call = cast<CallExpr>(Inner);
  StringRef Name = allocatorName(Call);
  bool Whole = false;
  if (Name == "calloc" && Call->getNumArgs() == 2) {
    Whole = isElementSize(Call->getArg(1), RD);
    U.Count = {Call->getArg(0)};
  } else if (Name == "malloc" && Call->getNumArgs() == 1) {
    Whole = elementCount(Call->getArg(0), RD, U);
  } else if (Name == "realloc" && Call->getNumArgs() == 2 &&
             Call->getArg(0)->isNullPointerConstant(
                 Ctx, Expr::NPC_ValueDependentIsNotNull)) {
    // realloc(NULL, bytes) allocates as malloc(bytes) does (no Value).
    Whole = elementCount(Call->getArg(1), RD, U);
  } else if (reallocates(Call)) {
    // realloc, or the program's realloc-like function.
    Whole = elementCount(Call->getArg(1), RD, U);
    U.Value = Call->getArg(0);
    if (!isHandleExpr(U.Value))
      return UseVerdict::refused(
          U.Value->getExprLoc(),
          Call->getDirectCallee()->getNameAsString() +
              " of something other than an array variable");
  } else if (Name != "malloc" && Name != "calloc") {
    // The program's own allocator, or its calloc-like one (xcalloc(n,
    // sizeof(T))): each block of the layout from it.
    if (Call->getNumArgs() == 1) {
      Whole = elementCount(Call->getArg(0), RD, U);
    } else if (Call->getNumArgs() == 2) {
      Whole = isElementSize(Call->getArg(1), RD);
      U.Count = {Call->getArg(0)};
    }
  }
  if (!Whole)
    return UseVerdict::refused(Call->getExprLoc(),
                               "allocation size is not a whole number of '" +
                                   recordName(RD) +
                                   "' (expected n * sizeof(T) in any order, a "
                                   "variable or struct field set so, or "
                                   "calloc(n, sizeof(T)))");
  for (const Expr *F : U.Count)
    if (!spelledInFile(F->getSourceRange()))
      return UseVerdict::refused(Call->getExprLoc(),
                                 "allocation size spelled inside a macro");
  return checked(UseVerdict::of(U), "an allocation");
}

bool UseClassifier::isMapping(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenCasts());
  return Call && classifyClCall(Call) == ClCall::MapBuffer;
}

bool UseClassifier::isAllocation(const Expr *E) {
  return !allocatorName(E).empty() || isa<CXXNewExpr>(E->IgnoreParenCasts());
}

/// Whether the value of \p E (an allocation, a bsearch) is assigned to, or
/// initializes, a handle variable (then it is rendered in the new layout).
bool UseClassifier::keptInHandle(const Expr *E) const {
  const Expr *Child = E;
  const Stmt *P = semanticParent(Child);
  // C++ casts the result of malloc explicitly.
  while (isa_and_nonnull<ExplicitCastExpr>(P)) {
    Child = cast<Expr>(P);
    P = semanticParent(Child);
  }
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
    if (BO->getOpcode() == BO_Assign && BO->getRHS() == Child)
      return isHandleExpr(BO->getLHS());
  for (const DynTypedNode &N : Ctx.getParents(*Child))
    if (const auto *VD = N.get<VarDecl>())
      return VD->getInit() && handleVarRecord(VD);
  return false;
}

/// realloc's pointer and `sizeof *p` inside the size of an allocation that
/// becomes a handle: the allocation renders them.
std::optional<UseVerdict> UseClassifier::inAllocation(const RecordDecl *RD,
                                                      const Expr *DRE) const {
  const Expr *A = allocationAbove(DRE);
  if (!A || !keptInHandle(A))
    return std::nullopt;
  const auto *Call = dyn_cast<CallExpr>(A);
  bool Pointer =
      Call && reallocates(Call) && Call->getArg(0)->IgnoreParenCasts() == DRE;
  bool UnderSizeof = false;
  for (const Stmt *P = parent(DRE); P && P != A; P = parent(P))
    if (const auto *S = dyn_cast<UnaryExprOrTypeTraitExpr>(P))
      UnderSizeof = UnderSizeof || S->getKind() == UETT_SizeOf;
  if (Pointer || UnderSizeof)
    return UseVerdict::of({UseKind::AllocationPart, DRE, DRE});
  return std::nullopt;
}

/// sizeof *p or sizeof p[0] is the element's size, which does not change:
/// spelled sizeof(T) from now on. sizeof of the array or pointer itself
/// would change its value.
bool UseClassifier::isFixedArrayOf(const Expr *Size, const RecordDecl *RD) {
  const auto *S = dyn_cast<UnaryExprOrTypeTraitExpr>(Size);
  if (!S || S->getKind() != UETT_SizeOf || S->isArgumentType())
    return false;
  const Expr *Arg = S->getArgumentExpr()->IgnoreParens();
  const auto *CAT = dyn_cast<ConstantArrayType>(Arg->getType().getTypePtr());
  return isa<DeclRefExpr>(Arg) && CAT && asRecord(CAT->getElementType()) == RD;
}

std::optional<UseVerdict> UseClassifier::sizeofUse(const RecordDecl *RD,
                                                   const Expr *DRE) const {
  const Stmt *Cur = DRE;
  const Stmt *P = parent(Cur);
  while (
      P &&
      isa<ParenExpr, ImplicitCastExpr, UnaryOperator, ArraySubscriptExpr>(P)) {
    Cur = P;
    P = parent(P);
  }
  const auto *Size = dyn_cast_or_null<UnaryExprOrTypeTraitExpr>(P);
  if (!Size)
    return std::nullopt;
  // sizeof a of an array T a[N]: its bytes, which do not change either.
  if (isFixedArrayOf(Size, RD))
    return checked(UseVerdict::of({UseKind::ElementSize, Size, DRE}),
                   "a sizeof");
  if (Size->isArgumentType() ||
      asRecord(Size->getArgumentExpr()->getType()) != RD)
    return UseVerdict::refused(
        Size->getBeginLoc(),
        "sizeof of the array or pointer itself changes with the layout");
  return checked(UseVerdict::of({UseKind::ElementSize, Size, DRE}), "a sizeof");
}

/// h[i].f, or h[i] as a whole, where h is a handle variable or an array
/// member (\p Embedded: its storage lives in the enclosing record).
UseVerdict UseClassifier::element(const RecordDecl *RD, const Expr *Handle,
                                  const ArraySubscriptExpr *ASE,
                                  bool Embedded) const {
  const Expr *Elem = ASE;
  const Stmt *P = semanticParent(Elem, /*SkipLoads=*/false);
  if (const auto *Field = dyn_cast_or_null<MemberExpr>(P);
      Field && !Field->isArrow() && Field->getBase() == Elem &&
      isa<FieldDecl>(Field->getMemberDecl())) {
    HandleUse U{UseKind::FieldAccess, Field, Handle, ASE->getIdx(), Field};
    U.Embedded = Embedded;
    return checked(UseVerdict::of(U), "a field access");
  }
  return wholeElement(RD, Handle, ASE, Embedded);
}

/// \p Elem, an element as a whole whose parent is \p P: loaded
/// (ElementRead, \p U as given) or assigned (ElementWrite); none otherwise.
std::optional<UseVerdict>
UseClassifier::readOrWrite(HandleUse U, const Expr *Elem, const Stmt *P) const {
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
      Cast && Cast->getCastKind() == CK_LValueToRValue)
    return checked(UseVerdict::of(U), "an element read");
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
      BO && BO->getOpcode() == BO_Assign && BO->getLHS() == Elem) {
    U.Kind = UseKind::ElementWrite;
    U.Site = BO;
    U.Value = BO->getRHS();
    return checked(UseVerdict::of(U), "an element write");
  }
  if (std::optional<UseVerdict> V = classUse(U, Elem, P))
    return V;
  return std::nullopt;
}

/// C++: an element used through its class. Copied with a copy constructor
/// that acts as the implicit one (T t = a[i], f(a[i]) by value), assigned
/// with such an assignment (a[i] = t, t = a[i]), bound to a const
/// reference parameter (dot(a[i], b), a[i] + b with a free operator+), the
/// object of a const member function (a[i].norm(), a[i] + b with a member
/// operator+): read, or written. A compound assignment operator of the
/// class as a statement (a[i] += v;): read, updated and written back.
std::optional<UseVerdict> UseClassifier::classUse(HandleUse U, const Expr *Elem,
                                                  const Stmt *P) const {
  Elem = Elem->IgnoreParenImpCasts();
  auto Is = [&](const Expr *E) { return E->IgnoreParenImpCasts() == Elem; };
  if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(P);
      Copy && Copy->getNumArgs() == 1 &&
      Copy->getConstructor()->isCopyOrMoveConstructor() &&
      actsAsImplicit(Copy->getConstructor()))
    return checked(UseVerdict::of(U), "an element read");
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(P); ME && Is(ME->getBase()))
    if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
        MD && !MD->isStatic()) {
      if (MD->isConst()) {
        // On a copy (a non-const temporary) a non-const overload of the
        // same parameters would be called instead.
        for (const CXXMethodDecl *Other : MD->getParent()->methods())
          if (Other != MD && Other->getDeclName() == MD->getDeclName() &&
              !Other->isConst() && Other->getNumParams() == MD->getNumParams())
            return UseVerdict::refused(
                ME->getExprLoc(),
                "const member function '" + MD->getNameAsString() +
                    "' called on a const element has a non-const overload, "
                    "which the copy the rewrite calls it on would select");
        return checked(UseVerdict::of(U), "an element read");
      }
      const Expr *Callee = ME;
      if (const auto *Call =
              dyn_cast_or_null<CXXMemberCallExpr>(semanticParent(Callee));
          Call && Call->getCallee() == Callee)
        return memberByReference(U, Elem, Call);
    }
  const auto *Call = dyn_cast_or_null<CallExpr>(P);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee)
    return std::nullopt;
  const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  // A member operator's first argument is its object.
  unsigned Shift = Op && MD;
  if (Shift && Is(Call->getArg(0))) {
    if (MD->isConst() && !MD->isStatic())
      return checked(UseVerdict::of(U), "an element read");
    if ((MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
        actsAsImplicit(MD)) {
      U.Kind = UseKind::ElementWrite;
      U.Site = Op;
      U.Value = Op->getArg(1);
      return checked(UseVerdict::of(U), "an element write");
    }
    if (Op->isAssignmentOp() && Op->getNumArgs() == 2 && asStatement(Op) &&
        asRecord(MD->getReturnType().getNonReferenceType()) ==
            MD->getParent()) {
      if (U.Index && U.Index->HasSideEffects(Ctx))
        return UseVerdict::refused(
            Op->getExprLoc(), "compound assignment to an element whose index "
                              "has side effects (the rewrite reads and writes "
                              "the element, evaluating it twice)");
      U.Kind = UseKind::ElementWrite;
      U.Site = Op;
      U.Value = Op->getArg(1);
      U.Updates = true;
      return checked(UseVerdict::of(U), "an element update");
    }
    return std::nullopt;
  }
  for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
    if (!Is(Call->getArg(I)) || I - Shift >= Callee->getNumParams())
      continue;
    QualType T = Callee->getParamDecl(I - Shift)->getType();
    if (isConstLValueReference(T) && !Callee->getTemplateInstantiationPattern())
      return checked(UseVerdict::of(U), "an element read");
    if (T->isLValueReferenceType() && !Shift)
      return byReference(U, Elem, Call, Callee->getParamDecl(I));
  }
  return std::nullopt;
}

/// Whether \p S names an array of \p RD (a handle variable or member, an
/// element pointer), or calls a function of the program that may, looked
/// into \p Depth deep (a library's functions cannot name the program's
/// arrays).
static bool reachesArrays(const Stmt *S, const RecordDecl *RD, unsigned Depth) {
  if (!S)
    return false;
  // `this` of the record's own member functions is one element, not an
  // array.
  if (const auto *E = dyn_cast<Expr>(S);
      E && !isa<CXXThisExpr>(E->IgnoreParenImpCasts()) &&
      elementRecord(E->getType()) == RD &&
      (E->getType()->isPointerType() || E->getType()->isArrayType()))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    if (!isLibraryDecl(Callee) &&
        (!Callee->hasBody() || Depth == 0 ||
         reachesArrays(Callee->getBody(), RD, Depth - 1)))
      return true;
  }
  return llvm::any_of(subStatements(S), [&](const Stmt *C) {
    return reachesArrays(C, RD, Depth);
  });
}

/// Whether \p Param, a reference parameter, is only used in place in
/// \p Body (its fields, member calls, assignments, passed on by value or
/// reference): not its address, not bound to a variable or returned,
/// which would outlive the call.
static bool usedInPlace(const Stmt *Body, const ValueDecl *Param,
                        ASTContext &Ctx) {
  bool Escapes = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Escapes)
      return;
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens());
          DRE && DRE->getDecl() == Param)
        Escapes = true;
    if (const auto *RS = dyn_cast<ReturnStmt>(S); RS && RS->getRetValue())
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(RS->getRetValue()->IgnoreParenImpCasts());
          DRE && DRE->getDecl() == Param)
        Escapes = true;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->getType()->isReferenceType() && VD->getInit())
          if (const auto *DRE =
                  dyn_cast<DeclRefExpr>(VD->getInit()->IgnoreParenImpCasts());
              DRE && DRE->getDecl() == Param)
            Escapes = true;
    for (const Stmt *C : subStatements(S))
      Walk(C);
  };
  Walk(Body);
  return !Escapes;
}

/// Whether \p S (and the functions of the program it calls, \p Depth deep)
/// throws, or names a variable that lives outside the call (a global, a
/// static) other than a constant: state through which a call on a copy of
/// an element could reach the element itself (a global pointer into the
/// array, a callback), or leave the copy's writes unwritten (an exception).
static std::string outsideState(const Stmt *S, unsigned Depth) {
  if (!S)
    return "";
  if (isa<CXXThrowExpr>(S))
    return "it may throw, leaving the copy's writes unwritten";
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && !VD->hasLocalStorage() && !VD->getType().isConstQualified())
      return "it uses the variable '" + VD->getNameAsString() +
             "', which outlives the call and may reach the element";
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = Call->getDirectCallee();
        Callee && !isLibraryDecl(Callee) && Callee->hasBody() && Depth > 0)
      if (std::string Why = outsideState(Callee->getBody(), Depth - 1);
          !Why.empty())
        return Why;
  for (const Stmt *C : subStatements(S))
    if (std::string Why = outsideState(C, Depth); !Why.empty())
      return Why;
  return "";
}

/// Why a call made on a copy of the element \p Elem (f(a[i]) to a `T &`,
/// a[i].f()) might not do what the call on the element did, beyond what
/// the callers check: an argument that may point into the element (a
/// reference or pointer that is not a local value: `double &rx = a[i].x;
/// a[i].pull(rx)` would see the element, not the copy), the call spelled
/// in a macro, a structured binding named in it (C++17 lambdas cannot
/// capture one), the rewrite's own names taken; and the callee's own
/// reach outside the call (outsideState of its definition \p Def).
static std::string copyHazard(const CallExpr *Call, const Expr *Elem,
                              const RecordDecl *RD, const FunctionDecl *Def,
                              ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  unsigned Shift =
      isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Callee);
  for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    if (Arg->IgnoreParenImpCasts() == Elem->IgnoreParenImpCasts())
      continue;
    QualType T = Callee && I - Shift < Callee->getNumParams()
                     ? Callee->getParamDecl(I - Shift)->getType()
                     : Arg->getType();
    if (!T->isReferenceType() && !T->isPointerType() &&
        !T->isMemberPointerType())
      continue;
    // A T & or T * cannot point into the new layout's arrays, which hold
    // no T (an element given to one is a copy, as everywhere).
    if (asRecord(T->isPointerType() ? T->getPointeeType()
                                    : T.getNonReferenceType()) == RD)
      continue;
    const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    bool LocalValue = VD && VD->hasLocalStorage() &&
                      !VD->getType()->isReferenceType() &&
                      !VD->getType()->isPointerType();
    if (!LocalValue && (Arg->isGLValue() || T->isPointerType()))
      return "an argument is a reference or pointer that may point into the "
             "element";
  }
  SourceRange Ranges[] = {Call->getSourceRange(), Elem->getSourceRange()};
  for (SourceRange R : Ranges)
    if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
      return "the call is spelled inside a macro";
  std::string Named;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !Named.empty())
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (isa<BindingDecl>(DRE->getDecl()) && !Ctx.getLangOpts().CPlusPlus20)
        Named = "it names the structured binding '" +
                DRE->getDecl()->getNameAsString() +
                "', which a lambda cannot capture before C++20";
      else if (DRE->getDecl()->getName().starts_with("dlopt_"))
        Named = "it names '" + DRE->getDecl()->getNameAsString() +
                "', a name the rewrite uses";
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Call);
  if (!Named.empty())
    return Named;
  return outsideState(Def->getBody(), 2);
}

/// Whether \p E names a local reference bound to an element of an array
/// of \p RD (`Body &bj = bodies[j];`).
static bool boundToElement(const Expr *E, const RecordDecl *RD) {
  const VarDecl *VD = varOf(E);
  if (!VD || !VD->getType()->isLValueReferenceType() || !VD->getInit())
    return false;
  const auto *ASE =
      dyn_cast<ArraySubscriptExpr>(VD->getInit()->IgnoreParenImpCasts());
  return ASE && elementRecord(ASE->getBase()->getType()) == RD;
}

/// Why the copy of the element \p Elem a call \p Call is made on would not
/// stand for the element while the callee \p Def runs ("" if it would):
/// the element's index has side effects (it is read, then written back),
/// an argument other than the element reaches an array of the record (also
/// through a reference bound to an element), or the callee may reach the
/// arrays itself.
static std::string reachHazard(const CallExpr *Call, const Expr *Elem,
                               const Expr *Index, const RecordDecl *RD,
                               const FunctionDecl *Def, ASTContext &Ctx) {
  if (Index && Index->HasSideEffects(Ctx))
    return "the element's index has side effects (it is read and written "
           "back)";
  // (A member function's object is no argument.) A number passed by value
  // is computed before the call and reaches nothing while the callee runs,
  // unless computing it writes (`p[i].y++`: the copy may be taken first).
  unsigned Skipped = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Def);
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    if (I >= Skipped && I - Skipped < Def->getNumParams() &&
        !Arg->HasSideEffects(Ctx)) {
      QualType T = Def->getParamDecl(I - Skipped)->getType();
      if (T->isArithmeticType() || T->isEnumeralType())
        continue;
    }
    if (Arg->IgnoreParenImpCasts() != Elem->IgnoreParenImpCasts() &&
        (reachesArrays(Arg, RD, 2) || boundToElement(Arg, RD)))
      return std::string(isa<CXXMemberCallExpr>(Call) ? "an" : "another") +
             " argument reaches an array of the record";
  }
  if (reachesArrays(Def->getBody(), RD, 2))
    return "it may reach the record's arrays itself, which would not see "
           "the element until the call returns";
  return "";
}

/// Whether \p Body only reads the element its reference parameter \p Param
/// names: every use of it reads a field (maybe of a field: `b.pos.x`), or
/// passes it or a field on by value or const reference, or calls a const
/// member function on it; none assigns, steps, takes an address or binds a
/// non-const reference. (`bool isCollide(Body &b1, Body &b2)`, a parameter
/// written without its const.)
bool UseClassifier::onlyReads(const Stmt *Body,
                              const ParmVarDecl *Param) const {
  std::vector<const DeclRefExpr *> Refs;
  referencesTo(Body, Param, Refs);
  return llvm::all_of(Refs, [&](const DeclRefExpr *DRE) {
    const Expr *E = DRE;
    const Stmt *P = semanticParent(E, /*SkipLoads=*/false);
    // Down the fields: b.pos.x.
    while (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
      if (ME->isArrow() || ME->getBase() != E ||
          !isa<FieldDecl>(ME->getMemberDecl()))
        break;
      E = ME;
      P = semanticParent(E, /*SkipLoads=*/false);
    }
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P))
      return Cast->getCastKind() == CK_LValueToRValue;
    // A copy (by value), or a const member function of the class.
    if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(P))
      return Copy->getConstructor()->isCopyOrMoveConstructor() &&
             Copy->getConstructor()
                 ->getParamDecl(0)
                 ->getType()
                 .getNonReferenceType()
                 .isConstQualified();
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P))
      if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
        return MD->isConst();
    // Passed on to a const reference parameter.
    if (const auto *Call = dyn_cast_or_null<CallExpr>(P)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      for (unsigned I = 0; Callee && I < Call->getNumArgs(); ++I)
        if (Call->getArg(I)->IgnoreParenImpCasts() == E &&
            I < Callee->getNumParams())
          return isConstLValueReference(Callee->getParamDecl(I)->getType());
    }
    return false;
  });
}

/// f(a[i]) to `T &` as a statement: the element copied out, the call made
/// on the copy, the copy written back, where that is what the call did.
/// A call whose value is used is made on a copy too where the callee only
/// reads the element (ReadOnly: nothing written back).
std::optional<UseVerdict>
UseClassifier::byReference(HandleUse U, const Expr *Elem, const CallExpr *Call,
                           const ParmVarDecl *Param) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const RecordDecl *RD = asRecord(Elem->getType());
  std::string Name = "'" + Callee->getNameAsString() + "'";
  auto Refuse = [&](const std::string &Why) {
    return UseVerdict::refused(Call->getExprLoc(),
                               "an element passed to a non-const reference "
                               "parameter of " +
                                   Name + ": " + Why);
  };
  if (Callee->getTemplateInstantiationPattern() || isLibraryDecl(Callee))
    return Refuse("a template instantiation or library function (not "
                  "rewritten yet)");
  const FunctionDecl *Def = nullptr;
  if (!Callee->hasBody(Def))
    return Refuse("its definition is not in this file");
  const ParmVarDecl *DefParam =
      Def->getParamDecl(Param->getFunctionScopeIndex());
  bool ReadOnly = onlyReads(Def->getBody(), DefParam);
  if (!asStatement(Call) && !ReadOnly)
    return Refuse("the call's value is used and the function writes the "
                  "element (only such a call as a statement is rewritten)");
  if (std::string Why = reachHazard(Call, Elem, U.Index, RD, Def, Ctx);
      !Why.empty())
    return Refuse(Why);
  if (!usedInPlace(Def->getBody(), DefParam, Ctx))
    return Refuse("it keeps the reference (its address, a reference to it, "
                  "or returns it)");
  if (std::string Why = copyHazard(Call, Elem, RD, Def, Ctx); !Why.empty())
    return Refuse(Why);
  U.Kind = ReadOnly ? UseKind::ElementRead : UseKind::ElementWrite;
  U.Site = Call;
  U.ByReference = true;
  return checked(UseVerdict::of(U), "an element passed by reference");
}

/// The first parent of \p S in \p Ctx that is a statement, past parentheses
/// and implicit casts (\p S is left at the last of those).
static const Stmt *usingParent(const Stmt *&S, ASTContext &Ctx) {
  for (;;) {
    DynTypedNodeList Parents = Ctx.getParents(*S);
    const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (!isa_and_nonnull<ParenExpr>(P) &&
        !(isa_and_nonnull<ImplicitCastExpr>(P) &&
          cast<ImplicitCastExpr>(P)->getCastKind() != CK_LValueToRValue &&
          cast<ImplicitCastExpr>(P)->getCastKind() != CK_ArrayToPointerDecay))
      return P;
    S = P;
  }
}

/// Whether the field \p ME of a member function's object is used in place:
/// read, assigned, stepped, copied, passed by value or to a const
/// reference of a function that keeps no reference to it, an element of a
/// member array so used, a field of a member object so used, or the
/// object of a const member function; not its address taken, bound to a
/// reference, returned by reference or decayed to a pointer, any of which
/// could outlive the call on the copy.
static bool fieldUsedInPlace(const MemberExpr *ME, ASTContext &Ctx) {
  const Stmt *E = ME;
  const Stmt *P = usingParent(E, Ctx);
  // Down nested fields and member arrays' elements: s.pos.x, s.p[k].
  for (;;) {
    if (const auto *Down = dyn_cast_or_null<MemberExpr>(P);
        Down && !Down->isArrow() && Down->getBase()->IgnoreParens() == E &&
        isa<FieldDecl>(Down->getMemberDecl())) {
      E = Down;
    } else if (const auto *Decay = dyn_cast_or_null<ImplicitCastExpr>(P);
               Decay && Decay->getCastKind() == CK_ArrayToPointerDecay) {
      const Stmt *D = Decay;
      const auto *ASE =
          dyn_cast_or_null<ArraySubscriptExpr>(usingParent(D, Ctx));
      if (!ASE || ASE->getBase() != D)
        break;
      E = ASE;
    } else {
      break;
    }
    P = usingParent(E, Ctx);
  }
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P))
    return Cast->getCastKind() == CK_LValueToRValue;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
    return BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == E;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
    return UO->isIncrementDecrementOp();
  if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(P))
    return Copy->getConstructor()->isCopyOrMoveConstructor();
  if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(P);
      Call && Call->getImplicitObjectArgument()->IgnoreParenImpCasts() == E)
    return Call->getMethodDecl() && Call->getMethodDecl()->isConst();
  if (const auto *Call = dyn_cast_or_null<CallExpr>(P)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Call->getType()->isPointerType())
      return false;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      if (Call->getArg(I)->IgnoreParenImpCasts() != E ||
          I >= Callee->getNumParams())
        continue;
      const ParmVarDecl *Param = Callee->getParamDecl(I);
      if (!Param->getType()->isReferenceType())
        return true; // By value.
      if (!isConstLValueReference(Param->getType()))
        return false;
      const FunctionDecl *Def = nullptr;
      return isLibraryDecl(Callee) ||
             (Callee->hasBody(Def) &&
              usedInPlace(Def->getBody(),
                          Def->getParamDecl(Param->getFunctionScopeIndex()),
                          Ctx));
    }
    return false;
  }
  return false;
}

/// Whether the member function \p Body uses its object only in place: its
/// fields (fieldUsedInPlace), the class's other member functions it calls
/// on its object (looked into, \p Depth deep), and `return *this;` (a call
/// as a statement drops the value); not `this` itself passed or bound
/// anywhere, all of which would outlive the call on the copy.
static bool objectUsedInPlace(const Stmt *Body, ASTContext &Ctx,
                              unsigned Depth = 3) {
  bool InPlace = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !InPlace)
      return;
    if (const auto *This = dyn_cast<CXXThisExpr>(S)) {
      const Stmt *E = This;
      const Stmt *P = usingParent(E, Ctx);
      if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
        const FunctionDecl *Def = nullptr;
        if (isa<FieldDecl>(ME->getMemberDecl()))
          InPlace = fieldUsedInPlace(ME, Ctx);
        else if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
          InPlace = !MD->isStatic() && MD->hasBody(Def) && Depth > 0 &&
                    objectUsedInPlace(Def->getBody(), Ctx, Depth - 1);
        else
          InPlace = false;
      } else if (const auto *Deref = dyn_cast_or_null<UnaryOperator>(P);
                 Deref && Deref->getOpcode() == UO_Deref) {
        DynTypedNodeList Up = Ctx.getParents(*Deref);
        InPlace = !Up.empty() && Up[0].get<ReturnStmt>();
      } else {
        InPlace = false;
      }
    }
    for (const Stmt *C : subStatements(S))
      Walk(C);
  };
  Walk(Body);
  return InPlace;
}

/// a[i].f(...); with f a non-const member function of the class, as a
/// statement: as f(a[i]) to a `T &` parameter, the element copied out, the
/// call made on the copy, the copy written back (HandleUse::ByReference).
std::optional<UseVerdict>
UseClassifier::memberByReference(HandleUse U, const Expr *Elem,
                                 const CXXMemberCallExpr *Call) const {
  const CXXMethodDecl *MD = Call->getMethodDecl();
  const RecordDecl *RD = asRecord(Elem->getType());
  auto Refuse = [&](const std::string &Why) {
    return UseVerdict::refused(Call->getExprLoc(),
                               "non-const member function '" +
                                   MD->getNameAsString() +
                                   "' called on an element: " + Why);
  };
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || MD->getTemplateInstantiationPattern())
    return Refuse("its definition is not in this file, or it is a template "
                  "(not rewritten yet)");
  if (!asStatement(Call))
    return Refuse("the call's value is used (only such a call as a statement "
                  "is rewritten)");
  if (std::string Why = reachHazard(Call, Elem, U.Index, RD, Def, Ctx);
      !Why.empty())
    return Refuse(Why);
  if (!objectUsedInPlace(Def->getBody(), Ctx))
    return Refuse("it keeps its object (this, its address or a member's)");
  if (std::string Why = copyHazard(Call, Elem, RD, Def, Ctx); !Why.empty())
    return Refuse(Why);
  U.Kind = UseKind::ElementWrite;
  U.Site = Call;
  U.ByReference = true;
  return checked(UseVerdict::of(U), "an element passed by reference");
}

/// Whether \p S may write an element of an array of \p RD: an assignment,
/// compound assignment or increment of what reaches one, or a call of the
/// program that reaches one (its arguments or its body, looked into two
/// deep).
static bool writesArrays(const Stmt *S, const RecordDecl *RD) {
  if (!S)
    return false;
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    Target = BO->getLHS();
  else if (const auto *UO = dyn_cast<UnaryOperator>(S);
           UO && UO->isIncrementDecrementOp())
    Target = UO->getSubExpr();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
           Op && Op->isAssignmentOp())
    Target = Op->getArg(0);
  if (Target && reachesArrays(Target, RD, 0))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S);
      Call && !isa<CXXOperatorCallExpr>(Call) && reachesArrays(Call, RD, 2))
    return true;
  return llvm::any_of(subStatements(S),
                      [&](const Stmt *C) { return writesArrays(C, RD); });
}

/// `const T &r = a[i];`: rendered as a reference to a copy of the element
/// (`const T &r = T_soa_get(a, i);`, the copy living as long as r does),
/// which stands for the element while nothing in r's scope writes the
/// record's arrays and r does not outlive it.
std::optional<UseVerdict>
UseClassifier::constReference(HandleUse U, const Expr *Elem) const {
  // The initializer's parent is its variable, a declaration.
  const Expr *Init = nullptr;
  const auto *VD =
      parentPast(Ctx, Elem, Init, isParenOrImplicitCast).get<VarDecl>();
  const DeclStmt *DS = nullptr;
  if (VD)
    for (const DynTypedNode &N : Ctx.getParents(*VD))
      if (const auto *D = N.get<DeclStmt>())
        DS = D;
  if (!VD || !DS || !DS->isSingleDecl() ||
      !isConstLValueReference(VD->getType()) || VD->getInit() != Init)
    return std::nullopt;
  const RecordDecl *RD = asRecord(Elem->getType());
  std::string Name = "'" + VD->getNameAsString() + "'";
  auto Refuse = [&](const std::string &Why) {
    return UseVerdict::refused(
        VD->getLocation(), "an element bound to the const reference " + Name +
                               ", which the rewrite binds to a "
                               "copy of it: " +
                               Why);
  };
  const auto *Block = dyn_cast_or_null<CompoundStmt>(parent(DS));
  if (!Block)
    return Refuse("not declared in a block");
  // Writes after the reference's last use are the element's own business.
  auto Body = Block->body();
  auto From = llvm::find(Body, DS), To = From;
  for (auto It = From; It != Body.end(); ++It)
    if (refersTo(*It, VD))
      To = It;
  for (auto It = From; It != To; ++It)
    if (writesArrays(*std::next(It), RD))
      return Refuse("the record's arrays may be written while it is in use, "
                    "which the copy would not see");
  if (!usedInPlace(Block, VD, Ctx))
    return Refuse("it is passed on by address, bound to another reference or "
                  "returned");
  return checked(UseVerdict::of(U), "an element read");
}

/// Whether \p E's value is not used: it is a statement of its own (of a
/// block, a label, the body or increment of a loop, a branch of an if),
/// maybe inside the cleanup of its temporaries.
bool UseClassifier::asStatement(const Expr *E) const {
  const Stmt *S = E;
  const Stmt *P = parent(E);
  // The temporaries' cleanup of a full-expression.
  while (isa_and_nonnull<ExprWithCleanups>(P)) {
    S = P;
    P = parent(cast<Expr>(P));
  }
  if (!P)
    return false;
  if (const auto *For = dyn_cast<ForStmt>(P))
    return For->getInc() == S || For->getBody() == S;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return If->getThen() == S || If->getElse() == S;
  if (const auto *While = dyn_cast<WhileStmt>(P))
    return While->getBody() == S;
  if (const auto *Do = dyn_cast<DoStmt>(P))
    return Do->getBody() == S;
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(P))
    return Range->getBody() == S;
  return isa<CompoundStmt, LabelStmt, SwitchCase>(P);
}

/// a[i] where the record itself is read or written.
UseVerdict UseClassifier::wholeElement(const RecordDecl *RD, const Expr *Handle,
                                       const ArraySubscriptExpr *ASE,
                                       bool Embedded) const {
  const Expr *Child = ASE;
  const Stmt *P = semanticParent(Child, /*SkipLoads=*/false);
  HandleUse U{UseKind::ElementRead, ASE, Handle, ASE->getIdx()};
  U.Embedded = Embedded;
  if (std::optional<UseVerdict> V = readOrWrite(U, Child, P))
    return *V;
  if (std::optional<UseVerdict> V = referenceBinding(U, ASE))
    return *V;
  if (std::optional<UseVerdict> V = constReference(U, ASE))
    return *V;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
      UO && UO->getOpcode() == UO_AddrOf) {
    if (std::optional<UseVerdict> V = subArray(RD, Handle, UO, ASE->getIdx()))
      return *V;
    return UseVerdict::refused(
        UO->getExprLoc(), "address of an element (&a[i]) other than as an "
                          "element pointer's value (a local pointer that only "
                          "reaches, compares and steps elements of one array "
                          "that does not change while it lives)");
  }
  return UseVerdict::refused(
      ASE->getExprLoc(),
      "use of a whole element that dlopt cannot rewrite yet");
}

UseVerdict UseClassifier::reference(const DeclRefExpr *DRE) const {
  const RecordDecl *RD = handleVarRecord(DRE->getDecl());
  assert(RD && "classifying a reference to no handle");
  if (inWalkingLoop(DRE))
    return UseVerdict::of({UseKind::WalkingPointer, DRE, DRE});
  if (std::optional<UseVerdict> V = elementPointerUse(DRE))
    return *V;
  if (std::optional<UseVerdict> V = elementAddress(DRE))
    return *V;
  return handleUse(RD, DRE);
}

std::optional<UseVerdict>
UseClassifier::memberHandle(const MemberExpr *ME) const {
  const RecordDecl *RD = memberHandleRecord(ME->getMemberDecl());
  if (!RD)
    return std::nullopt;
  // A rendering may name the handle more than once (a tiled sub-array's
  // count of skipped elements, next to its tiles).
  if (ME->getBase()->HasSideEffects(Ctx))
    return UseVerdict::refused(ME->getExprLoc(),
                               "pointer member '" +
                                   ME->getMemberDecl()->getNameAsString() +
                                   "' reached through an expression with "
                                   "side effects (not rewritten yet)");
  return handleUse(RD, ME);
}

const RecordDecl *UseClassifier::memberHandleRecord(const ValueDecl *D) const {
  const auto *FD = dyn_cast_or_null<FieldDecl>(D);
  return FD && FD->getType()->isPointerType() ? handleRecord(FD->getType())
                                              : nullptr;
}

std::string UseClassifier::handleName(const Expr *Handle) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Handle))
    return "'" + DRE->getDecl()->getNameAsString() + "'";
  if (const auto *ME = dyn_cast<MemberExpr>(Handle))
    return "'" + ME->getMemberDecl()->getNameAsString() + "'";
  if (const auto *UO = dyn_cast<UnaryOperator>(Handle))
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
      return "'*" + DRE->getDecl()->getNameAsString() + "'";
  return "the array";
}

/// &h[k] or h + k of a handle of \p RD: a sub-array (its address is
/// classified at h, UseClassifier::subArray).
UseClassifier::Position UseClassifier::addressParts(const Expr *E) {
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *ASE =
            dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
      return {ASE->getBase(), ASE->getIdx()};
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Add) {
    bool PointerLeft = BO->getLHS()->getType()->isPointerType();
    return {PointerLeft ? BO->getLHS() : BO->getRHS(),
            PointerLeft ? BO->getRHS() : BO->getLHS()};
  }
  return {};
}

bool UseClassifier::isSubArrayOf(const Expr *E, const RecordDecl *RD) const {
  const Expr *Base = addressParts(E->IgnoreParenCasts()).Handle;
  return Base && isHandleExpr(Base) &&
         handleRecord(Base->IgnoreParenCasts()->getType()) == RD;
}

bool UseClassifier::isHandleExpr(const Expr *E) const {
  E = E->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return handleVarRecord(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return memberHandleRecord(ME->getMemberDecl());
  return isHandlePointerDeref(E);
}

/// The member of a struct whose value \p E is in the brace initializer
/// \p List, or null (an array's list, or an element of a nested one).
static const FieldDecl *initializedMember(const InitListExpr *List,
                                          const Expr *E) {
  const InitListExpr *Sem =
      List->isSemanticForm() ? List : List->getSemanticForm();
  const RecordDecl *Outer = Sem ? Sem->getType()->getAsRecordDecl() : nullptr;
  if (!Outer)
    return nullptr;
  for (const FieldDecl *FD : Outer->fields())
    if (FD->getFieldIndex() < Sem->getNumInits() &&
        Sem->getInit(FD->getFieldIndex())->IgnoreParenImpCasts() ==
            E->IgnoreParenImpCasts())
      return FD;
  return nullptr;
}

/// A use of a handle variable (a DeclRefExpr) or of a pointer member
/// holding a handle (s.items, a MemberExpr).
UseVerdict UseClassifier::handleUse(const RecordDecl *RD,
                                    const Expr *DRE) const {
  if (std::optional<UseVerdict> V = inAllocation(RD, DRE))
    return *V;
  if (std::optional<UseVerdict> V = sizeofUse(RD, DRE))
    return *V;
  const Expr *Child = DRE;
  const Stmt *P = semanticParent(Child);
  if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P);
      ASE && ASE->getBase() == Child)
    return element(RD, DRE, ASE, /*Embedded=*/false);
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(P);
      ME && ME->isArrow() && ME->getBase() == Child)
    return checked(UseVerdict::of({UseKind::FieldAccess, ME, DRE, nullptr, ME}),
                   "a field access");
  // !p, p == NULL, if (p), p && q: C's tests of a pointer.
  if (testsForNull(P, Child, Ctx))
    return checked(UseVerdict::of({UseKind::NullTest, DRE, DRE}),
                   "a null test");
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
    return binaryUse(RD, DRE, BO, Child);
  // (T *)h passed on as an array: the cast goes (a void * handle's, or a
  // redundant one).
  if (const auto *ToRecord = dyn_cast_or_null<ExplicitCastExpr>(P);
      ToRecord && handleRecord(ToRecord->getType()) == RD) {
    UseVerdict Outer = handleUse(RD, ToRecord);
    if (Outer.Use && Outer.Use->Kind == UseKind::HandleFlow)
      return checked(UseVerdict::of({UseKind::HandleCast, ToRecord, DRE}),
                     "a cast");
    return UseVerdict::refused(ToRecord->getExprLoc(),
                               "cast of " + handleName(DRE) +
                                   " used other than to pass the array on "
                                   "(not rewritten yet)");
  }
  if (const auto *Call = dyn_cast_or_null<CallExpr>(P))
    return callUse(RD, DRE, Call, Child);
  // A constructor of the program taking the array (View v(a, n)): its
  // parameter becomes a handle, as a function's does.
  if (const auto *Make = dyn_cast_or_null<CXXConstructExpr>(P)) {
    const CXXConstructorDecl *C = Make->getConstructor();
    for (unsigned I = 0; I < Make->getNumArgs(); ++I)
      if (Make->getArg(I) == Child && I < C->getNumParams() &&
          handleRecord(C->getParamDecl(I)->getType()) == RD &&
          !hasFixedTypes(C))
        return UseVerdict::of({UseKind::HandleFlow, DRE, DRE});
  }
  if (const auto *Step = dyn_cast_or_null<UnaryOperator>(P))
    if (std::optional<UseVerdict> V = handleStep(RD, DRE, Step))
      return *V;
  // &h given to a function that stores an array into it (`T **out`): the
  // parameter's type changes, the argument stays.
  if (const auto *AddrOf = dyn_cast_or_null<UnaryOperator>(P))
    if (const ParmVarDecl *Out = handlePointerParameter(AddrOf);
        Out && handlePointerRecord(Out) == RD)
      return UseVerdict::of({UseKind::HandleFlow, DRE, DRE});
  if (std::optional<UseVerdict> V = cudaAllocation(RD, DRE))
    return *V;
  std::string Name = handleName(DRE);
  if (const auto *Del = dyn_cast_or_null<CXXDeleteExpr>(P)) {
    if (!Del->isArrayForm())
      return UseVerdict::refused(Del->getBeginLoc(),
                                 "delete (not delete[]) of " + Name);
    return checked(UseVerdict::of({UseKind::Release, Del, DRE}), "a release");
  }
  // Returned, the initializer of a variable that is a handle too, or
  // captured by an OpenMP region or named in one of its clauses (the
  // variable keeps its name; its type changes with its declaration).
  HandleUse Flow{UseKind::HandleFlow, DRE, DRE};
  if (isa_and_nonnull<ReturnStmt>(P) || P == nullptr ||
      isa<DeclStmt, CapturedStmt, OMPExecutableDirective>(P))
    return UseVerdict::of(Flow);
  // The value of a pointer member holding the array in a struct's brace
  // initializer ({bodies, 0, n}): the member becomes a handle, as with a
  // constructor's member initializer (memberArrayInitializers).
  if (const auto *List = dyn_cast_or_null<InitListExpr>(P))
    if (const FieldDecl *FD = initializedMember(List, Child);
        FD && memberHandleRecord(FD) == RD)
      return UseVerdict::of(Flow);
  return UseVerdict::refused(
      DRE->getExprLoc(), "use of " + Name + " that dlopt cannot rewrite yet (" +
                             P->getStmtClassName() + ")");
}

UseVerdict UseClassifier::binaryUse(const RecordDecl *RD, const Expr *DRE,
                                    const BinaryOperator *BO,
                                    const Expr *Child) const {
  std::string Name = handleName(DRE);
  if (BO->getOpcode() == BO_Add) {
    // (a + i)->f
    const Expr *Sum = BO;
    const auto *ME = dyn_cast_or_null<MemberExpr>(semanticParent(Sum));
    const Expr *Index = BO->getLHS() == Child ? BO->getRHS() : BO->getLHS();
    if (ME && ME->isArrow() && ME->getBase() == Sum)
      return checked(UseVerdict::of({UseKind::FieldAccess, ME, DRE, Index, ME}),
                     "a field access");
    if (std::optional<UseVerdict> V = subArray(RD, DRE, BO, Index))
      return *V;
    if (const auto *Call = dyn_cast_or_null<CallExpr>(semanticParent(Sum));
        Call && cudaCall(Call) != CudaCall::None)
      return UseVerdict::refused(
          BO->getOperatorLoc(),
          "sub-array of " + Name + " passed to " +
              Call->getDirectCallee()->getNameAsString() +
              " (CUDA copies of whole arrays only, not rewritten yet)");
    return UseVerdict::refused(BO->getOperatorLoc(),
                               "pointer arithmetic on " + Name +
                                   " (not rewritten yet)");
  }
  if (BO->getOpcode() == BO_Assign && BO->getLHS() == Child) {
    const Expr *Src = BO->getRHS();
    if (isAllocation(Src))
      return allocation(Src, RD);
    if (isSearch(Src))
      return search(Src, RD);
    if (isMapping(Src))
      return UseVerdict::of({UseKind::OpenCLCall, Src, DRE});
    const auto *Call = dyn_cast<CallExpr>(Src->IgnoreParenCasts());
    if (isHandleExpr(Src) || (Call && handleRecord(Call->getType())) ||
        isSubArrayOf(Src, RD))
      return UseVerdict::of({UseKind::HandleFlow, DRE, DRE});
    if (Src->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      return checked(
          UseVerdict::of({UseKind::NullValue, Src, DRE, nullptr, nullptr, Src}),
          "a null pointer");
    return UseVerdict::refused(BO->getOperatorLoc(),
                               "assignment to " + Name +
                                   " that dlopt cannot rewrite");
  }
  if (BO->getOpcode() == BO_Assign && BO->getRHS() == Child) {
    if (isHandleExpr(BO->getLHS()))
      return UseVerdict::of({UseKind::HandleFlow, DRE, DRE});
  }
  if (std::optional<UseVerdict> V = handleComparison(RD, Child, BO))
    return *V;
  if (std::optional<UseVerdict> V = handleStep(RD, DRE, BO))
    return *V;
  return UseVerdict::refused(BO->getOperatorLoc(),
                             "use of " + Name + " in '" +
                                 BO->getOpcodeStr().str() +
                                 "' that dlopt cannot rewrite yet");
}

UseVerdict UseClassifier::callUse(const RecordDecl *RD, const Expr *DRE,
                                  const CallExpr *Call,
                                  const Expr *Child) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  // free(a), _mm_free(a) or the program's own release function xfree(a)
  // (defined in another file: Legality makes it an ExternalSymbol::Release).
  if (Call->getNumArgs() == 1 &&
      (isReleaseFunction(Callee) || isExternalRelease(Callee)))
    return checked(UseVerdict::of({UseKind::Release, Call, DRE}), "a release");
  if (std::optional<UseVerdict> V = libraryCall(RD, DRE, Call, Child))
    return *V;
  if (ClCall K = classifyClCall(Call); K != ClCall::None) {
    // The host memory of a buffer, copied whole: the call is rendered per
    // array (OpenCLUses.cpp, which refuses a sub-array there).
    unsigned HostArg = K == ClCall::CreateBuffer  ? 3
                       : K == ClCall::UnmapBuffer ? 2
                                                  : 5;
    bool Host = (K == ClCall::CreateBuffer || K == ClCall::WriteBuffer ||
                 K == ClCall::ReadBuffer || K == ClCall::UnmapBuffer) &&
                HostArg < Call->getNumArgs() &&
                Call->getArg(HostArg)->IgnoreParenCasts() == DRE;
    if (Host)
      return UseVerdict::of({UseKind::OpenCLCall, DRE, DRE});
    return UseVerdict::refused(DRE->getExprLoc(),
                               handleName(DRE) +
                                   " given to an OpenCL call as other than "
                                   "a buffer's host memory");
  }
  if (std::optional<UseVerdict> V = cudaUse(RD, DRE, Call, Child))
    return *V;
  if (reallocates(Call) && Call->getArg(0) == Child)
    return UseVerdict::refused(
        DRE->getExprLoc(),
        Call->getDirectCallee()->getNameAsString() + " of " + handleName(DRE) +
            " whose result is kept other than in an array of '" +
            recordName(RD) +
            "' (or in a void * variable only tested for null and assigned "
            "back to one)");
  // A library's function (Thrust's algorithms, say) cannot change with
  // the array, nor can one template text serve two types of it.
  if (Callee && fixedTypes(Callee))
    return UseVerdict::refused(
        DRE->getExprLoc(),
        handleName(DRE) + " passed to '" + Callee->getQualifiedNameAsString() +
            (inSystemHeader(Ctx.getSourceManager(), Callee->getLocation())
                 ? "', a library function the rewrite cannot change (only "
                   "the C library's and the CUDA runtime's calls it knows are "
                   "followed; Thrust, CUB and cuBLAS are not)"
                 : "', a function template instantiation that cannot be "
                   "given an overload for the array: " +
                       cloneRefusal(Callee)));
  // va_start(ap, nodes) names the parameter, whatever its type.
  if (isVaStartName(Call, Child))
    return UseVerdict::of({UseKind::HandleFlow, DRE, DRE});
  // The parameter becomes a handle too: in every declaration here, and in
  // the definition, which legality finds here or in another analyzed file.
  // A CUDA kernel's launch (k<<<g, b>>>(d)) is a call of it.
  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    if (Call->getArg(I) == Child && Callee && I < Callee->getNumParams() &&
        handleRecord(Callee->getParamDecl(I)->getType()) == RD)
      return UseVerdict::of({UseKind::HandleFlow, DRE, DRE});
  return UseVerdict::refused(DRE->getExprLoc(),
                             handleName(DRE) +
                                 " passed to a function that does not take "
                                 "it as an array of the struct");
}

std::optional<UseVerdict>
UseClassifier::arrayMember(const MemberExpr *ME) const {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD || !Ctx.getAsConstantArrayType(FD->getType()))
    return std::nullopt;
  const RecordDecl *RD = handleRecord(FD->getType());
  if (!RD)
    return std::nullopt;
  const Expr *Child = ME;
  const Stmt *P = semanticParent(Child);
  if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P);
      ASE && ASE->getBase() == Child)
    return element(RD, ME, ASE, /*Embedded=*/true);
  return UseVerdict::refused(
      ME->getExprLoc(), "use of the array member '" + FD->getNameAsString() +
                            "' other than an element access (not "
                            "rewritten yet)");
}

std::optional<UseVerdict> UseClassifier::unnamedArray(const Expr *E) const {
  const Expr *Base = nullptr;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    Base = ASE->getBase();
  else if (const auto *ME = dyn_cast<MemberExpr>(E); ME && ME->isArrow())
    Base = ME->getBase();
  // `this` in a member function is one object of the record: never an
  // element in the new layout (calls on elements run on copies).
  if (!Base || isa<CXXThisExpr>(Base->IgnoreParenImpCasts()))
    return std::nullopt;
  // it->f on an iterator of a container: the container's iterator reaches
  // the field as it is written.
  if (asContainerElement(Base).ViaIterator)
    return std::nullopt;
  // tile[k] of a __shared__ tile: an element that keeps the record.
  const RecordDecl *RD =
      elementRecordOf(Base) ? handleRecord(Base->getType()) : nullptr;
  if (!RD)
    return std::nullopt;
  const Expr *Bare = Base->IgnoreParenImpCasts();
  // Named by a handle: classified with the reference.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Bare);
      DRE && handleVarRecord(DRE->getDecl()))
    return std::nullopt;
  if (const auto *Member = dyn_cast<MemberExpr>(Bare);
      Member && isa<ArraySubscriptExpr>(E) && arrayMember(Member))
    return std::nullopt;
  // s.items[i], s.items->f: classified with the pointer member.
  if (const auto *Member = dyn_cast<MemberExpr>(Bare);
      Member && memberHandleRecord(Member->getMemberDecl()))
    return std::nullopt;
  // (a + i)->f, classified with a.
  if (const auto *BO = dyn_cast<BinaryOperator>(Bare); BO && isa<MemberExpr>(E))
    return std::nullopt;
  // (*out)[i], (*out)->f: classified with the handle pointer's `*out`.
  if (isHandlePointerDeref(Bare))
    return std::nullopt;
  return UseVerdict::refused(
      E->getExprLoc(),
      "access through an expression that is not an array variable");
}

/// The pointer's uses in the body: p->f only (false if any other).
static bool arrowUsesOnly(const Stmt *S, const VarDecl *P,
                          std::vector<const MemberExpr *> &Uses) {
  if (!S)
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(S))
    if (const auto *B =
            dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
        B && B->getDecl() == P && ME->isArrow()) {
      Uses.push_back(ME);
      return true;
    }
  if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == P)
    return false;
  return llvm::all_of(subStatements(S),
                      [&](const Stmt *C) { return arrowUsesOnly(C, P, Uses); });
}

std::optional<WalkingLoop>
UseClassifier::walkingLoop(const ForStmt *For) const {
  auto [It, New] = Loops.try_emplace(For);
  if (New)
    It->second = findWalkingLoop(For);
  return It->second;
}

std::optional<WalkingLoop>
UseClassifier::findWalkingLoop(const ForStmt *For) const {
  WalkingLoop W;
  W.For = For;
  const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
  W.Pointer = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                       : nullptr;
  if (!W.Pointer || !handleVarRecord(W.Pointer) || !W.Pointer->getInit())
    return std::nullopt;
  W.Array = dyn_cast<DeclRefExpr>(W.Pointer->getInit()->IgnoreParenImpCasts());
  if (!W.Array || !handleVarRecord(W.Array->getDecl()))
    return std::nullopt;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_NE))
    return std::nullopt;
  const auto *CondP =
      dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  const auto *End =
      dyn_cast<BinaryOperator>(Cond->getRHS()->IgnoreParenImpCasts());
  if (!CondP || CondP->getDecl() != W.Pointer || !End ||
      End->getOpcode() != BO_Add)
    return std::nullopt;
  const auto *EndA =
      dyn_cast<DeclRefExpr>(End->getLHS()->IgnoreParenImpCasts());
  W.Count = End->getRHS();
  if (!EndA || EndA->getDecl() != W.Array->getDecl() ||
      W.Count->HasSideEffects(Ctx))
    return std::nullopt;
  const auto *Inc = dyn_cast_or_null<UnaryOperator>(
      For->getInc() ? For->getInc()->IgnoreParens() : nullptr);
  const auto *IncP =
      Inc ? dyn_cast<DeclRefExpr>(Inc->getSubExpr()->IgnoreParens()) : nullptr;
  if (!Inc || !Inc->isIncrementOp() || !IncP || IncP->getDecl() != W.Pointer)
    return std::nullopt;
  // In the body, p may only be the base of p->f, and a never reassigned.
  if (!arrowUsesOnly(For->getBody(), W.Pointer, W.Accesses) ||
      assignsTo(For->getBody(), cast<VarDecl>(W.Array->getDecl())))
    return std::nullopt;
  SourceRange Header(For->getForLoc(), For->getRParenLoc());
  if (!spelledInFile(Header) || !spelledInFile(W.Count->getSourceRange()) ||
      llvm::any_of(W.Accesses, [&](const MemberExpr *ME) {
        return !spelledInFile(ME->getSourceRange());
      }))
    return std::nullopt;
  return W;
}

bool UseClassifier::isWalkingPointer(const VarDecl *VD) const {
  for (const DynTypedNode &DS : Ctx.getParents(*VD))
    if (const auto *Decls = DS.get<DeclStmt>())
      if (const auto *For = dyn_cast_or_null<ForStmt>(parent(Decls));
          For && For->getInit() == Decls && walkingLoop(For))
        return true;
  return false;
}

/// The walking pointer anywhere, and the array in such a loop's header.
bool UseClassifier::inWalkingLoop(const DeclRefExpr *DRE) const {
  if (const auto *P = dyn_cast<VarDecl>(DRE->getDecl());
      P && isWalkingPointer(P))
    return true;
  // In the loop's header: the expression's statement is the loop, and the
  // expression is not its body.
  auto [Top, Holder] = exprContext(DRE);
  const auto *For = dyn_cast_or_null<ForStmt>(Holder);
  if (!For || Top == For->getBody())
    return false;
  std::optional<WalkingLoop> W = walkingLoop(For);
  return W && W->Array->getDecl() == DRE->getDecl();
}

std::pair<const Expr *, const Stmt *>
UseClassifier::exprContext(const Expr *E) const {
  llvm::SmallVector<const Expr *, 16> Path;
  std::pair<const Expr *, const Stmt *> Result;
  for (const Expr *Cur = E;;) {
    if (auto It = Contexts.find(Cur); It != Contexts.end()) {
      Result = It->second;
      break;
    }
    Path.push_back(Cur);
    const Stmt *P = parent(Cur);
    if (!isa_and_nonnull<Expr>(P)) {
      Result = {Cur, P};
      break;
    }
    Cur = cast<Expr>(P);
  }
  for (const Expr *Seen : Path)
    Contexts[Seen] = Result;
  return Result;
}

const Expr *UseClassifier::allocationAbove(const Expr *E) const {
  auto IsAllocation = [](const Expr *A) {
    const auto *Call = dyn_cast<CallExpr>(A);
    return isAllocation(A) && (!Call || Call->getDirectCallee());
  };
  llvm::SmallVector<const Expr *, 16> Path;
  const Expr *Found = nullptr;
  for (const Expr *Cur = E;;) {
    if (auto It = Allocations.find(Cur); It != Allocations.end()) {
      Found = It->second;
      break;
    }
    Path.push_back(Cur);
    const auto *P = dyn_cast_or_null<Expr>(parent(Cur));
    if (!P || IsAllocation(P)) {
      Found = P;
      break;
    }
    Cur = P;
  }
  for (const Expr *Seen : Path)
    Allocations[Seen] = Found;
  return Found;
}

std::vector<std::pair<const RecordDecl *, UseVerdict>>
UseClassifier::nullArguments(const CallExpr *Call) const {
  std::vector<std::pair<const RecordDecl *, UseVerdict>> Out;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return Out;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams();
       ++I) {
    const Expr *Arg = Call->getArg(I);
    const ParmVarDecl *P = Callee->getParamDecl(I);
    const RecordDecl *RD = handleRecord(P->getType());
    if (RD &&
        Arg->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull)) {
      HandleUse U{UseKind::NullValue, Arg, nullptr, nullptr, nullptr, Arg};
      U.Target = P;
      Out.push_back({RD, checked(UseVerdict::of(U), "a null pointer")});
    }
  }
  return Out;
}

std::optional<std::pair<const RecordDecl *, UseVerdict>>
UseClassifier::memberInitializer(const CXXCtorInitializer *Init) const {
  if (!Init->isWritten() || !Init->isMemberInitializer())
    return std::nullopt;
  const FieldDecl *FD = Init->getMember();
  const RecordDecl *RD = memberHandleRecord(FD);
  if (!RD)
    return std::nullopt;
  const Expr *Value = Init->getInit()->IgnoreImpCasts();
  if (const auto *List = dyn_cast<ParenListExpr>(Value);
      List && List->getNumExprs() == 1)
    Value = List->getExpr(0)->IgnoreImpCasts();
  std::optional<UseVerdict> V = pointerMemberValue(
      FD, RD, Value,
      "initializer of pointer member '" + FD->getNameAsString() +
          "' that is not an allocation, a null pointer or another array of '" +
          recordName(RD) + "'");
  if (!V)
    return std::nullopt;
  return std::make_pair(RD, std::move(*V));
}

std::optional<UseVerdict>
UseClassifier::pointerMemberValue(const FieldDecl *FD, const RecordDecl *RD,
                                  const Expr *Value,
                                  const std::string &Refusal) const {
  Value = Value->IgnoreImpCasts();
  if (isAllocation(Value))
    return allocation(Value, RD);
  if (Value->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull)) {
    HandleUse U{UseKind::NullValue, Value, nullptr, nullptr, nullptr, Value};
    U.Target = FD;
    return checked(UseVerdict::of(U), "a null pointer");
  }
  if (isHandleExpr(Value) &&
      handleRecord(Value->IgnoreParenCasts()->getType()) == RD)
    return std::nullopt; // Passed on as written: the member's type changes.
  return UseVerdict::refused(Value->getExprLoc(), Refusal);
}

std::variant<SourceLocation, UseVerdict>
UseClassifier::definitionEnd(const RecordDecl *RD) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Brace = RD->getBraceRange().getEnd();
  if (Brace.isInvalid() || Brace.isMacroID() ||
      !spelledInFile(SourceRange(Brace, Brace)))
    return UseVerdict::refused(
        RD->getLocation(),
        "the struct is defined inside a macro or a system header");
  if (!RD->getDeclContext()->isFileContext())
    return UseVerdict::refused(RD->getLocation(),
                               "the struct is not defined at file scope");
  StringRef Typedef;
  if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
    Typedef = TD->getName();
  SourceLocation Loc = Brace;
  while (true) {
    std::optional<Token> Tok = Lexer::findNextToken(Loc, SM, Ctx.getLangOpts());
    if (!Tok || Tok->is(tok::eof))
      break;
    Loc = Tok->getLocation();
    if (Tok->is(tok::semi))
      return Loc;
    // `typedef struct S {...} S;` is fine, and so are pointer typedefs
    // (`typedef struct S {...} S, *SPtr;`, Olden's Vertex); anything else
    // declares objects.
    if (Tok->isOneOf(tok::star, tok::comma))
      continue;
    bool NamesTypedef =
        Tok->is(tok::raw_identifier) &&
        (Tok->getRawIdentifier() == Typedef ||
         llvm::any_of(Ctx.getTranslationUnitDecl()->decls(), [&](Decl *D) {
           auto *TD = dyn_cast<TypedefNameDecl>(D);
           return TD && TD->getLocation() == Loc;
         }));
    if (!NamesTypedef)
      break;
  }
  return UseVerdict::refused(RD->getLocation(),
                             "the struct's definition also declares variables; "
                             "declare them separately");
}

/// The leaves of an initializer (nested lists are rebuilt per layout) are
/// copied as written: they must be spelled in the file.
bool UseClassifier::initializerInFile(const Expr *E) const {
  if (isa<ImplicitValueInitExpr>(E))
    return true;
  if (const auto *List = dyn_cast<InitListExpr>(E)) {
    if (!List->isSemanticForm())
      List = List->getSemanticForm();
    if (List->isStringLiteralInit())
      return spelledInFile(List->getInit(0)->getSourceRange());
    return llvm::all_of(List->inits(), [this](const Expr *Sub) {
      return initializerInFile(Sub);
    });
  }
  return spelledInFile(E->getSourceRange());
}

UseClassifier::ArrayStart UseClassifier::arrayStart(const VarDecl *VD) {
  if (!VD->hasInit() || isa<InitListExpr>(VD->getInit()))
    return ArrayStart::AsWritten;
  // C++ default-initializes `T a[64];` with an implicit call of T's
  // default constructor: no initializer the programmer wrote.
  const auto *Construct = dyn_cast<CXXConstructExpr>(VD->getInit());
  if (!Construct || Construct->getParenOrBraceRange().isValid())
    return ArrayStart::Expression;
  if (actsAsImplicit(Construct->getConstructor()))
    return ArrayStart::AsWritten;
  return zeroFills(Construct->getConstructor()) ? ArrayStart::Zeroed
                                                : ArrayStart::Expression;
}

/// T a[N] = {{...}, ...}: each element a braced list of its fields.
UseVerdict UseClassifier::arrayInitializer(const VarDecl *VD,
                                           const RecordDecl *RD) const {
  HandleUse Decl{UseKind::HandleFlow};
  const auto *Init = dyn_cast_or_null<InitListExpr>(VD->getInit());
  std::string Name = VD->getNameAsString();
  if (arrayStart(VD) == ArrayStart::Expression)
    return UseVerdict::refused(VD->getLocation(),
                               "array '" + Name +
                                   "' is initialized from an expression");
  if (!Init)
    return UseVerdict::of(Decl);
  Init = Init->isSemanticForm() ? Init : Init->getSemanticForm();
  unsigned Fields = std::distance(RD->field_begin(), RD->field_end());
  for (const Expr *E : Init->inits()) {
    const auto *Elem = dyn_cast<InitListExpr>(E);
    if (!Elem && isa<ImplicitValueInitExpr>(E))
      continue;
    if (!Elem || Elem->getNumInits() != Fields)
      return UseVerdict::refused(E->getExprLoc(),
                                 "element initializer of '" + Name +
                                     "' is not a braced list of its fields");
    for (const Expr *F : Elem->inits())
      if (!initializerInFile(F))
        return UseVerdict::refused(F->getExprLoc(),
                                   "initializer spelled inside a macro");
  }
  return UseVerdict::of(Decl);
}

/// Whether \p VD is declared by a statement of a switch's body itself
/// (`switch (m) { T tmp[N]; case 0: ...`).
static bool declaredInSwitchBody(ASTContext &Ctx, const VarDecl *VD) {
  auto Parent = [&](const auto &Node) {
    DynTypedNodeList Up = Ctx.getParents(Node);
    return Up.size() == 1 ? Up[0] : DynTypedNode();
  };
  const auto *DS = Parent(*VD).get<DeclStmt>();
  const auto *Body = DS ? Parent(*DS).get<CompoundStmt>() : nullptr;
  return Body && Parent(*Body).get<SwitchStmt>();
}

UseVerdict UseClassifier::declaration(const DeclaratorDecl *D,
                                      const RecordDecl *RD) const {
  const SourceManager &SM = Ctx.getSourceManager();
  HandleUse Decl{UseKind::HandleFlow};
  if (const auto *VD = dyn_cast<VarDecl>(D); VD && isWalkingPointer(VD))
    return UseVerdict::of({UseKind::WalkingPointer});
  if (std::optional<ElementPointer> EP = elementPointer(D))
    return elementPointerDeclaration(*EP);
  if (std::optional<UseVerdict> V = cudaVariable(D, RD))
    return *V;
  if (SM.isBeforeInTranslationUnit(D->getLocation(),
                                   RD->getBraceRange().getEnd()))
    return UseVerdict::refused(D->getLocation(),
                               "'" + D->getNameAsString() +
                                   "' is declared before the struct's "
                                   "definition");
  auto InFile = [&](SourceRange R, const std::string &What) {
    return spelledInFile(R)
               ? UseVerdict::of(Decl)
               : UseVerdict::refused(D->getLocation(),
                                     What + " is spelled inside a macro or a "
                                            "system header");
  };
  if (const auto *FD = dyn_cast<FieldDecl>(D)) {
    if (FD->hasInClassInitializer() &&
        (Ctx.getAsConstantArrayType(D->getType()) ||
         !defaultMemberInitializerZeroes(FD))) // `T *v = nullptr;`
      return UseVerdict::refused(D->getLocation(),
                                 "default member initializer of '" +
                                     D->getNameAsString() +
                                     "' (of such members only a pointer's "
                                     "null pointer is rewritten yet)");
    if (Ctx.getAsConstantArrayType(D->getType()))
      return InFile(D->getSourceRange(), "an array member");
    // T *items; -> T_soa items; (T *a, *b; shares its specifiers).
    for (const FieldDecl *Other : FD->getParent()->fields())
      if (Other != FD && Other->getBeginLoc() == FD->getBeginLoc())
        return UseVerdict::refused(D->getLocation(),
                                   "pointer member '" + D->getNameAsString() +
                                       "' declared together with other "
                                       "members (not rewritten yet)");
    return InFile(SourceRange(FD->getBeginLoc(), FD->getLocation()),
                  "a pointer member");
  }
  if (const auto *P = dyn_cast<ParmVarDecl>(D)) {
    // The parameter is respelled whole: its default argument would go.
    if (P->hasDefaultArg())
      return UseVerdict::refused(P->getLocation(),
                                 "parameter '" + P->getNameAsString() +
                                     "' has a default argument (not "
                                     "rewritten yet)");
    const auto *Kernel = dyn_cast<FunctionDecl>(P->getDeclContext());
    if (!Kernel || !Kernel->hasAttr<OpenCLKernelAttr>())
      return InFile(D->getSourceRange(), "a parameter");
    if (P->getType()->getPointeeType().getAddressSpace() !=
        LangAS::opencl_global)
      return UseVerdict::refused(P->getLocation(),
                                 "kernel parameter '" + P->getNameAsString() +
                                     "' is not a __global array (only __global "
                                     "buffers are rewritten yet)");
    if (!Kernel->doesThisDeclarationHaveABody())
      return UseVerdict::refused(P->getLocation(),
                                 "kernel '" + Kernel->getNameAsString() +
                                     "' is declared without its body");
    Decl.Kind = UseKind::KernelParameter;
    return InFile(D->getSourceRange(), "a kernel parameter");
  }
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD)
    return UseVerdict::of(Decl);
  // T *a, *b; and T a[N], b[M]; share their specifiers, which become the
  // handle's or are repeated: all must be arrays of the record alike.
  for (const VarDecl *Other : declarators(VD))
    if (handleVarRecord(Other) != RD ||
        Other->getType()->isArrayType() != VD->getType()->isArrayType())
      return UseVerdict::refused(VD->getLocation(),
                                 "'" + VD->getNameAsString() +
                                     "' declared together with variables "
                                     "that are not arrays of '" +
                                     recordName(RD) +
                                     "' alike (not rewritten yet)");
  if (VD->getInit() && singleObjectAddress(VD->getInit(), RD))
    return UseVerdict::refused(
        VD->getLocation(), "'" + VD->getNameAsString() +
                               "' is initialized with the address of one '" +
                               recordName(RD) +
                               "' (not an array's element; not rewritten "
                               "yet)");
  if (VD->getType()->isVariableArrayType())
    return UseVerdict::refused(VD->getLocation(), "variable-length array '" +
                                                      VD->getNameAsString() +
                                                      "' (not rewritten yet)");
  // C initializes a static handle with constants only: `static T *p =
  // pool;` would read pool's handle, which is no constant.
  if (!Ctx.getLangOpts().CPlusPlus && VD->hasGlobalStorage() &&
      VD->getType()->isPointerType() && VD->getInit() &&
      !VD->getInit()->isNullPointerConstant(Ctx,
                                            Expr::NPC_ValueDependentIsNotNull))
    return UseVerdict::refused(VD->getLocation(),
                               "'" + VD->getNameAsString() +
                                   "' has static storage and is initialized "
                                   "with an array (C takes only constants "
                                   "there: not rewritten yet)");
  if (VD->getType()->isArrayType()) {
    // Its storage and the handle that points into it would have to be
    // per thread both, and a handle's initializer cannot take the address
    // of a thread's object.
    if (VD->getTLSKind() != VarDecl::TLS_None)
      return UseVerdict::refused(VD->getLocation(),
                                 "array '" + VD->getNameAsString() +
                                     "' is thread-local (not rewritten yet)");
    // `switch (m) { T tmp[N]; case 0: ... }`: a case label jumps over the
    // handle's initializer, which the array had none of.
    if (VD->isLocalVarDecl() && !VD->isStaticLocal() &&
        declaredInSwitchBody(Ctx, VD))
      return UseVerdict::refused(
          VD->getLocation(),
          "array '" + VD->getNameAsString() +
              "' is declared in a switch's body, where case labels jump over "
              "its handle's initializer (not rewritten yet)");
    // `T a[N] __asm__("sym")`: the storage would have to take the symbol
    // other code links to.
    if (VD->hasAttr<AsmLabelAttr>())
      return UseVerdict::refused(VD->getLocation(),
                                 "array '" + VD->getNameAsString() +
                                     "' has an asm label (not rewritten yet)");
    // Its elements may be read in constant expressions; a class's static
    // member would need its storage defined beside the class.
    if (VD->isConstexpr() || VD->isStaticDataMember())
      return UseVerdict::refused(
          VD->getLocation(),
          "array '" + VD->getNameAsString() + "' is " +
              (VD->isConstexpr() ? "constexpr" : "a static member of a class") +
              " (not rewritten yet)");
    UseVerdict V = InFile(VD->getSourceRange(), "an array definition");
    if (!V.Use || (VD->hasExternalStorage() && !VD->hasInit()))
      return V;
    return arrayInitializer(VD, RD);
  }
  TypeLoc TL = VD->getTypeSourceInfo()->getTypeLoc();
  return InFile(SourceRange(TL.getBeginLoc(), VD->getLocation()),
                "the declaration of '" + VD->getNameAsString() + "'");
}

UseVerdict UseClassifier::functionReturn(const FunctionDecl *FD,
                                         const RecordDecl *RD) const {
  SourceRange R(FD->getReturnTypeSourceRange().getBegin(), FD->getLocation());
  if (spelledInFile(R))
    return UseVerdict::of({UseKind::HandleFlow});
  return UseVerdict::refused(FD->getLocation(),
                             "return type of '" + FD->getNameAsString() +
                                 "' is spelled inside a macro");
}

std::vector<std::pair<const RecordDecl *, UseVerdict>>
UseClassifier::memberArrayInitializers(const InitListExpr *List) const {
  std::vector<std::pair<const RecordDecl *, UseVerdict>> Out;
  const InitListExpr *Sem =
      List->isSemanticForm() ? List : List->getSemanticForm();
  const RecordDecl *Outer = Sem ? asRecord(Sem->getType()) : nullptr;
  if (!Outer || isStdArray(Sem->getType()))
    return Out;
  // Visited in both forms: the pointer members' values once.
  bool Once = !(List->isSemanticForm() && List->getSyntacticForm());
  for (const FieldDecl *FD : Outer->fields()) {
    const RecordDecl *RD = handleRecord(FD->getType());
    if (!RD || FD->getFieldIndex() >= Sem->getNumInits())
      continue;
    const Expr *Init = Sem->getInit(FD->getFieldIndex());
    if (memberHandleRecord(FD) && Once && !isa<ImplicitValueInitExpr>(Init)) {
      // {..., NULL}: the null handle ({0}); {p, ...} with p an array of
      // the record or an allocation of it, as a constructor's member
      // initializer takes them (thread arguments: struct work w =
      // {bodies, 0, n / 2}); any other value is a handle the initializer
      // would have to regroup.
      if (std::optional<UseVerdict> V = pointerMemberValue(
              FD, RD, Init,
              "initializer of '" + recordName(Outer) +
                  "' sets its pointer member '" + FD->getNameAsString() +
                  "' to something that is not an allocation, a null "
                  "pointer or another array of '" +
                  recordName(RD) + "'"))
        Out.push_back({RD, std::move(*V)});
      continue;
    }
    if (!Ctx.getAsConstantArrayType(FD->getType()))
      continue;
    if (!isa<ImplicitValueInitExpr>(Sem->getInit(FD->getFieldIndex())))
      Out.push_back(
          {RD, UseVerdict::refused(List->getBeginLoc(),
                                   "initializer of '" + recordName(Outer) +
                                       "' sets its array member '" +
                                       FD->getNameAsString() +
                                       "' (not rewritten yet)")});
  }
  return Out;
}
