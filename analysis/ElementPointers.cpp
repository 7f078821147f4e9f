//===- ElementPointers.cpp - T *pi = &a[i], an index in disguise ----------===//
//
// The part of UseClassifier that decides element pointers. Real C code
// reaches an element through a local pointer (`particle_t *pi =
// &particles[i]; pi->rho = 0;`), compares two of them (`if (pi == pj)
// continue;`) and steps them. In the new layout there is no element to
// point to, but such a pointer is an index into one array in disguise: if
// every value it ever holds is the address of an element of the same handle
// `a` (&a[i], a + i, a, or another such pointer moved by an integer), and
// it is only dereferenced, compared with or subtracted from another such
// pointer, stepped, or named in an OpenMP clause, it becomes a `ptrdiff_t`
// index into `a`: `pi->rho` is the field at index pi, `pi == pj` compares
// indices as the pointers compared addresses, `pi - pj` and `pi + 1` are
// the same arithmetic. A pointer used otherwise (passed to a function,
// indexed as an array, tested for null) is a handle, as it always was, and
// the address it is given a sub-array (UseClassifier::subArray, here too).
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtOpenMP.h"

using namespace clang;
using namespace dlopt;

/// The statement \p VD lives in: the block, or the for loop, that declares
/// it.
const Stmt *UseClassifier::scopeOf(const VarDecl *VD) const {
  for (const DynTypedNode &N : Ctx.getParents(*VD))
    if (const auto *DS = N.get<DeclStmt>())
      return parent(DS);
  return enclosingBody(VD);
}

const Expr *UseClassifier::elementIndexOf(const Expr *E,
                                          const VarDecl *&Array) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *ASE =
            dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
      if (const auto *Base =
              dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts())) {
        Array = dyn_cast<VarDecl>(Base->getDecl());
        return ASE->getIdx();
      }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Add) {
    const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
    const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
    const auto *Base =
        dyn_cast<DeclRefExpr>(L->getType()->isPointerType() ? L : R);
    if (Base) {
      Array = dyn_cast<VarDecl>(Base->getDecl());
      return Base == L ? BO->getRHS() : BO->getLHS();
    }
  }
  return nullptr;
}

/// The handle an element pointer value \p E points into (see
/// ElementPointer), or null. \p Self: the variable being decided, whose own
/// value counts as one.
const VarDecl *UseClassifier::pointedArray(const Expr *E,
                                           const VarDecl *Self) const {
  E = E->IgnoreParenImpCasts();
  const VarDecl *Array = nullptr;
  // &a[i], a + i into a handle (pi + 1 moves an element pointer: below).
  if (elementIndexOf(E, Array) && isArrayHandle(Array))
    return Array;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD == Self)
      return VD;
    if (!VD || !handleVarRecord(VD) || Deciding.count(VD))
      return nullptr;
    if (std::optional<ElementPointer> EP = elementPointer(VD))
      return EP->Array;
    return VD; // The array itself: the pointer starts at its first element.
  }
  // pj + 1, pi - k: moved by an integer.
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
      BO->getLHS()->getType()->isPointerType() &&
      BO->getRHS()->getType()->isIntegerType())
    return pointedArray(BO->getLHS(), Self);
  return nullptr;
}

/// Whether \p VD is a handle that element pointers can point into: a
/// handle variable that is not an element pointer itself.
bool UseClassifier::isArrayHandle(const VarDecl *VD) const {
  return VD && handleVarRecord(VD) && !Deciding.count(VD) &&
         !elementPointer(VD);
}

std::optional<ElementPointer>
UseClassifier::elementPointer(const ValueDecl *D) const {
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  // A variable whose values depend on its own decision (pi = pj; pj = pi)
  // is not one: conservative, it is then refused as a handle.
  if (!VD || Deciding.count(VD))
    return std::nullopt;
  if (auto It = ElementPointers.find(VD); It != ElementPointers.end())
    return It->second;
  Deciding.insert(VD);
  std::optional<ElementPointer> EP = findElementPointer(VD);
  Deciding.erase(VD);
  ElementPointers[VD] = EP;
  return EP;
}

std::optional<ElementPointer>
UseClassifier::findElementPointer(const VarDecl *VD) const {
  const Stmt *Body = enclosingBody(VD);
  if (!Body || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
      !VD->getType()->isPointerType() || !handleVarRecord(VD) ||
      isWalkingPointer(VD))
    return std::nullopt;
  // Every value it holds points into one array.
  const VarDecl *Array = nullptr;
  auto Holds = [&](const Expr *Value) {
    const VarDecl *A = pointedArray(Value, VD);
    if (A == VD) // Its own value, moved: the same array.
      return true;
    if (!A || (Array && A != Array))
      return false;
    Array = A;
    return true;
  };
  if (VD->getInit() && !Holds(VD->getInit()))
    return std::nullopt;
  std::vector<const DeclRefExpr *> Refs;
  referencesTo(Body, VD, Refs);
  // A pointer also used as an array (q[i], f(q), return q) is a handle,
  // as it always was.
  if (!llvm::all_of(Refs, [&](const DeclRefExpr *DRE) {
        return usedAsElementPointer(DRE);
      }))
    return std::nullopt;
  for (const DeclRefExpr *DRE : Refs) {
    const Expr *Child = DRE;
    if (const auto *BO =
            dyn_cast_or_null<BinaryOperator>(semanticParent(Child));
        BO && BO->getOpcode() == BO_Assign && BO->getLHS() == Child &&
        !Holds(BO->getRHS()))
      return std::nullopt;
  }
  // The array stays the one it names: not assigned where the pointer lives
  // (from its declaration to the end of its block), nor hidden by another
  // variable of its name (its name is spelled at every use).
  if (!Array || assignsTo(scopeOf(VD), Array) ||
      declaresOtherNamed(Body, Array))
    return std::nullopt;
  // Compared with a pointer into another array (q < end, a bound that is
  // a handle of its own): a position in an array, not an index into one;
  // it stays a handle (HandleArithmetic.cpp). A side not decided yet (pj,
  // an element pointer too) is checked where that use is classified.
  for (const DeclRefExpr *DRE : Refs) {
    const Expr *Value = DRE;
    const auto *BO = dyn_cast_or_null<BinaryOperator>(parentPastSteps(Value));
    if (!BO || !(BO->isComparisonOp() || BO->getOpcode() == BO_Sub))
      continue;
    const Expr *Other = BO->getLHS() == Value ? BO->getRHS() : BO->getLHS();
    const VarDecl *A = pointedArray(Other, VD);
    if (A && A != Array && A != VD)
      return std::nullopt;
  }
  return ElementPointer{VD, Array};
}

/// i, where \p E is the address of element i of any array of a record:
/// &b[i], or b + i (i + b); null otherwise.
static const Expr *addressIndex(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *ASE =
            dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
      return ASE->getIdx();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Add)
    return BO->getLHS()->getType()->isPointerType() ? BO->getRHS()
                                                    : BO->getLHS();
  return nullptr;
}

const Expr *UseClassifier::elementPointerIndex(const ValueDecl *D) const {
  auto [It, New] = PointerIndices.try_emplace(D, nullptr);
  if (!New)
    return It->second;
  // An element pointer, or a handle that holds one element of another
  // array all its life (`struct particle *p = &s->parts[i];`, a sub-array
  // of a member: rendered as a handle moved by i): either way p->f is the
  // field of element i.
  // r = a[i], an element reference: i.
  if (std::optional<ElementPointer> ER = elementReference(D))
    return It->second = cast<ArraySubscriptExpr>(
                            ER->Var->getInit()->IgnoreParenImpCasts())
                            ->getIdx();
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() || !VD->getInit() ||
      !handleVarRecord(VD) || assignsTo(scopeOf(VD), VD))
    return nullptr;
  if (std::optional<ElementPointer> EP = elementPointer(D)) {
    const VarDecl *Array = nullptr;
    return It->second = elementIndexOf(EP->Var->getInit(), Array);
  }
  return It->second = addressIndex(VD->getInit());
}

/// Whether \p E is an element pointer of \p Array, maybe moved by an
/// integer (pi, pi + 1): not an address of the array itself, which alone
/// would not say the comparison is one of element pointers.
bool UseClassifier::refersToElementPointer(const Expr *E,
                                           const VarDecl *Array) const {
  E = E->IgnoreParenImpCasts();
  while (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      break;
    E = BO->getLHS()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  std::optional<ElementPointer> EP =
      DRE ? elementPointer(DRE->getDecl()) : std::nullopt;
  return EP && EP->Array == Array;
}

/// The parent of \p Value past the integers it is moved by (pi + 1 - k);
/// \p Value becomes the outermost such sum.
const Stmt *UseClassifier::parentPastSteps(const Expr *&Value) const {
  const Stmt *P = semanticParent(Value);
  while (const auto *BO = dyn_cast_or_null<BinaryOperator>(P)) {
    if ((BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub) ||
        BO->getLHS() != Value || !BO->getRHS()->getType()->isIntegerType())
      break;
    Value = BO;
    P = semanticParent(Value);
  }
  return P;
}

/// Whether \p DRE, a reference to a pointer, is used as an element pointer
/// is (elementPointerUse says whether each such use is right): to reach the
/// element, compared, subtracted, assigned, stepped, copied, named by
/// OpenMP, or moved by an integer first. Anything else uses it as an array.
bool UseClassifier::usedAsElementPointer(const DeclRefExpr *DRE) const {
  const Expr *Value = DRE;
  const Stmt *P = parentPastSteps(Value);
  if (!P || isa<CapturedStmt, OMPExecutableDirective>(P))
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(P))
    return ME->isArrow();
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    return UO->getOpcode() == UO_Deref || UO->isIncrementDecrementOp();
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isComparisonOp() || BO->getOpcode() == BO_Sub ||
           BO->getOpcode() == BO_Assign || BO->getOpcode() == BO_AddAssign ||
           BO->getOpcode() == BO_SubAssign;
  return false;
}

/// Whether \p E, where an element pointer value of \p Array is expected
/// (the other side of a comparison, an assigned value), is one.
bool UseClassifier::pointsInto(const Expr *E, const VarDecl *Array) const {
  return pointedArray(E, nullptr) == Array;
}

std::optional<UseVerdict>
UseClassifier::elementAddress(const DeclRefExpr *DRE) const {
  const auto *Array = dyn_cast<VarDecl>(DRE->getDecl());
  if (!isArrayHandle(Array))
    return std::nullopt;
  // The address expression around the array: &a[i], a + i, or a.
  const Expr *Address = DRE;
  const Stmt *P = semanticParent(Address);
  const Expr *Index = nullptr;
  if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P);
      ASE && ASE->getBase() == Address) {
    const Expr *Sub = ASE;
    const auto *UO = dyn_cast_or_null<UnaryOperator>(semanticParent(Sub));
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return std::nullopt;
    Address = UO;
    Index = ASE->getIdx();
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
             BO && BO->getOpcode() == BO_Add) {
    Index = BO->getLHS() == Address ? BO->getRHS() : BO->getLHS();
    Address = BO;
  }
  // Where it goes: an element pointer of this array.
  const Expr *Value = Address;
  const Stmt *Use = semanticParent(Value);
  const VarDecl *Into = nullptr;
  if (!Use)
    for (const DynTypedNode &N : Ctx.getParents(*Value))
      if (const auto *VD = N.get<VarDecl>(); VD && VD->getInit())
        Into = VD;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Use);
      BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Value)
    if (const auto *To = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
      Into = dyn_cast<VarDecl>(To->getDecl());
  // Or compared with (subtracted from) one: &a[j] == pi, pi < a + n.
  bool Compared = false;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Use);
      BO && (BO->isComparisonOp() || BO->getOpcode() == BO_Sub)) {
    const Expr *Other = BO->getLHS() == Value ? BO->getRHS() : BO->getLHS();
    Compared = refersToElementPointer(Other, Array);
  }
  std::optional<ElementPointer> EP = Into ? elementPointer(Into) : std::nullopt;
  if (!Compared && (!EP || EP->Array != Array))
    return std::nullopt;
  HandleUse U{UseKind::ElementAddress, Address, DRE, Index};
  return checked(UseVerdict::of(U), "an element's address");
}

std::optional<UseVerdict>
UseClassifier::elementPointerUse(const DeclRefExpr *DRE) const {
  std::optional<ElementPointer> EP = elementPointer(DRE->getDecl());
  if (!EP)
    return std::nullopt;
  std::string Name = "'" + EP->Var->getNameAsString() + "'";
  HandleUse Same{UseKind::ElementPointer, DRE, DRE};
  Same.Var = EP->Var;
  // The reference with the implicit casts around it, then moved by
  // integers: pi->f is the field at index pi; (pi + 1)->f too.
  const Expr *Child = DRE;
  semanticParent(Child);
  const Expr *Value = Child;
  const Stmt *P = parentPastSteps(Value);
  auto Through = [&](HandleUse U) {
    U.Handle = DRE;
    U.Index = Value;
    U.Array = EP->Array;
    return U;
  };
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(P);
      ME && ME->isArrow() && ME->getBase() == Value)
    return checked(UseVerdict::of(Through(
                       {UseKind::FieldAccess, ME, nullptr, nullptr, ME})),
                   "a field access");
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
      UO && UO->getOpcode() == UO_Deref)
    return derefUse(*EP, DRE, UO, Value);
  if (Value != Child) // pi + k anywhere else: its value is used on.
    P = semanticParent(Child = Value);
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P)) {
    const Expr *Other = BO->getLHS() == Child ? BO->getRHS() : BO->getLHS();
    if ((BO->isComparisonOp() || BO->getOpcode() == BO_Sub) &&
        pointsInto(Other, EP->Array))
      return UseVerdict::of(Same);
    if (BO->getOpcode() == BO_Assign && BO->getLHS() == Child)
      return UseVerdict::of(Same); // Its values: findElementPointer.
    if (BO->getOpcode() == BO_Assign && BO->getRHS() == Child)
      if (const auto *To = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
        if (std::optional<ElementPointer> Other = elementPointer(To->getDecl());
            Other && Other->Array == EP->Array)
          return UseVerdict::of(Same);
    if (isa<CompoundAssignOperator>(BO) && BO->getLHS() == Child &&
        (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign))
      return UseVerdict::of(Same);
  }
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
      UO && UO->isIncrementDecrementOp())
    return UseVerdict::of(Same);
  // Copied to another element pointer of the array, or named by OpenMP.
  if (!P)
    for (const DynTypedNode &N : Ctx.getParents(*Child))
      if (const auto *VD = N.get<VarDecl>())
        if (std::optional<ElementPointer> Other = elementPointer(VD);
            Other && Other->Array == EP->Array)
          return UseVerdict::of(Same);
  if (isa_and_nonnull<CapturedStmt, OMPExecutableDirective>(P))
    return UseVerdict::of(Same);
  return UseVerdict::refused(
      DRE->getLocation(),
      "element pointer " + Name + " (to an element of '" +
          EP->Array->getNameAsString() +
          "') used other than to reach the element, compare with or subtract "
          "another, or step it (not rewritten yet)");
}

/// *pi, read or written as a whole, or (*pi).f.
UseVerdict UseClassifier::derefUse(const ElementPointer &EP,
                                   const DeclRefExpr *DRE,
                                   const UnaryOperator *Deref,
                                   const Expr *Index) const {
  // sizeof *pi reads nothing: the element's size, spelled sizeof(T).
  if (std::optional<UseVerdict> V = sizeofUse(asRecord(Deref->getType()), DRE))
    return *V;
  const Expr *Elem = Deref;
  const Stmt *P = semanticParent(Elem, /*SkipLoads=*/false);
  HandleUse U{UseKind::ElementRead, Deref, DRE, Index};
  U.Array = EP.Array;
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(P);
      ME && !ME->isArrow() && ME->getBase() == Elem &&
      isa<FieldDecl>(ME->getMemberDecl())) {
    U.Kind = UseKind::FieldAccess;
    U.Site = ME;
    U.Field = ME;
    return checked(UseVerdict::of(U), "a field access");
  }
  if (std::optional<UseVerdict> V = readOrWrite(U, Elem, P))
    return *V;
  return UseVerdict::refused(Deref->getExprLoc(),
                             "use of a whole element through '" +
                                 EP.Var->getNameAsString() +
                                 "' that dlopt cannot rewrite yet");
}

llvm::SmallVector<const VarDecl *, 2>
UseClassifier::declarators(const VarDecl *VD) const {
  llvm::SmallVector<const VarDecl *, 2> Group;
  for (const DynTypedNode &N : Ctx.getParents(*VD))
    if (const auto *DS = N.get<DeclStmt>()) {
      for (const Decl *D : DS->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D))
          Group.push_back(Var);
      return Group;
    }
  // At file scope the declarators of one declaration are neighbours that
  // begin at the same specifiers.
  if (VD->getDeclContext()->isFileContext())
    for (const Decl *D : VD->getDeclContext()->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D);
          Var && Var->getBeginLoc() == VD->getBeginLoc())
        Group.push_back(Var);
  if (Group.empty())
    Group.push_back(VD);
  return Group;
}

const VarDecl *UseClassifier::previousDeclarator(const VarDecl *VD) const {
  llvm::SmallVector<const VarDecl *, 2> Group = declarators(VD);
  auto It = llvm::find(Group, VD);
  return It == Group.begin() || It == Group.end() ? nullptr : *std::prev(It);
}

UseVerdict
UseClassifier::elementPointerDeclaration(const ElementPointer &EP) const {
  const VarDecl *VD = EP.Var;
  std::string Name = "'" + VD->getNameAsString() + "'";
  // Its declaration is respelled from the first specifier to the name, or
  // for a later declarator of the same declaration (T *low, *high;) from
  // the comma: the specifiers are shared, so all must be element pointers.
  const VarDecl *Previous = previousDeclarator(VD);
  for (const DynTypedNode &N : Ctx.getParents(*VD))
    if (const auto *DS = N.get<DeclStmt>())
      for (const Decl *D : DS->decls())
        if (!elementPointer(dyn_cast<VarDecl>(D)))
          return UseVerdict::refused(VD->getLocation(),
                                     "element pointer " + Name +
                                         " declared together with variables "
                                         "that are not element pointers");
  SourceRange Respelled(Previous ? Previous->getEndLoc() : VD->getBeginLoc(),
                        VD->getLocation());
  if (!spelledInFile(Respelled))
    return UseVerdict::refused(VD->getLocation(),
                               "the declaration of " + Name +
                                   " is spelled inside a macro");
  HandleUse U{UseKind::ElementPointer};
  U.Var = VD;
  U.Array = EP.Array;
  return UseVerdict::of(U);
}

std::optional<UseVerdict> UseClassifier::subArray(const RecordDecl *RD,
                                                  const Expr *Handle,
                                                  const Expr *Address,
                                                  const Expr *Offset) const {
  const Expr *Child = Address;
  const Stmt *P = semanticParent(Child);
  while (isa_and_nonnull<ExplicitCastExpr>(P) &&
         handleRecord(cast<Expr>(P)->getType()) == RD) {
    Child = cast<Expr>(P);
    P = semanticParent(Child);
  }
  // Compared with or subtracted from another array (p < a + n).
  if (std::optional<UseVerdict> V =
          handleComparison(RD, Child, dyn_cast_or_null<BinaryOperator>(P)))
    return V;
  bool AsArray = false;
  // The array of qsort, memcpy, fwrite...: that call's use, over the
  // handle moved by the offset. A memcpy's source is rendered inside the
  // call's text, as a sub-array.
  if (const auto *Call = dyn_cast_or_null<CallExpr>(P);
      Call && isArrayLibraryCall(Call)) {
    bool First = Call->getArg(0) == Child;
    std::optional<UseVerdict> V =
        libraryCall(RD, Handle, Call, Child, First ? Offset : nullptr);
    if (V && (First || !V->Use))
      return V;
    AsArray = V.has_value();
  }
  // Passed to a parameter that takes the array (which becomes a handle);
  // not one of a library's function or of a template instantiation, whose
  // parameter cannot change (std::copy(&a[0], &a[n], &b[0])).
  if (const auto *Call = dyn_cast_or_null<CallExpr>(P)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    bool Fixed = Callee && fixedTypes(Callee);
    for (unsigned I = 0; Callee && I < Call->getNumArgs(); ++I) {
      bool Takes = Call->getArg(I) == Child && I < Callee->getNumParams() &&
                   handleRecord(Callee->getParamDecl(I)->getType()) == RD;
      if (Takes && Fixed)
        return UseVerdict::refused(
            Address->getExprLoc(),
            "sub-array of " + handleName(Handle) + " passed to '" +
                Callee->getQualifiedNameAsString() +
                "', a library function or function template instantiation "
                "(the rewrite cannot change its parameter)");
      AsArray |= Takes;
    }
  }
  // Kept in a handle: a pointer used as an array, not an element pointer.
  auto HandleVar = [&](const ValueDecl *D) {
    return handleVarRecord(D) == RD && !elementPointer(D);
  };
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
      BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Child)
    if (const auto *To = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
      AsArray |= HandleVar(To->getDecl());
  if (!P)
    for (const DynTypedNode &N : Ctx.getParents(*Child))
      if (const auto *VD = N.get<VarDecl>(); VD && VD->getInit())
        AsArray |= HandleVar(VD);
  if (!AsArray)
    return std::nullopt;
  HandleUse U{UseKind::SubArray, Address, Handle, Offset};
  return checked(UseVerdict::of(U), "a sub-array");
}
