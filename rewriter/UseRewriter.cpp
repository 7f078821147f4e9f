//===- UseRewriter.cpp - Every use of a handle, rewritten -----------------===//
#include "rewriter/LayoutRewriter.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

/// The element count of a malloc size in whole elements of RD:
/// n * sizeof(T), sizeof(T) * n, n * sizeof *p, sizeof(T).
static const Expr *countOfSize(const Expr *Size, const RecordDecl *RD,
                               ASTContext &Ctx, bool &One) {
  Size = Size->IgnoreParenImpCasts();
  auto IsElementSize = [&](const Expr *E) {
    const auto *S =
        dyn_cast<UnaryExprOrTypeTraitExpr>(E->IgnoreParenImpCasts());
    return S && S->getKind() == UETT_SizeOf &&
           asRecord(S->getTypeOfArgument()) == RD;
  };
  One = false;
  if (IsElementSize(Size)) {
    One = true;
    return nullptr;
  }
  const auto *Mul = dyn_cast<BinaryOperator>(Size);
  if (!Mul || Mul->getOpcode() != BO_Mul)
    return nullptr;
  if (IsElementSize(Mul->getRHS()))
    return Mul->getLHS();
  if (IsElementSize(Mul->getLHS()))
    return Mul->getRHS();
  return nullptr;
}

void LayoutRewriter::allocation(const Expr *Init, const ValueDecl *Target) {
  const RecordDecl *RD = handleRecord(Target->getType());
  const HandleLayout *L = Layouts.lookup(RD);
  const Expr *Inner = Init->IgnoreParenCasts();
  std::string Fn;
  const Expr *Count = nullptr, *Old = nullptr;
  bool One = false;
  if (const auto *New = dyn_cast<CXXNewExpr>(Inner)) {
    if (!New->isArray() || !New->getArraySize())
      return refuse(RD, New->getExprLoc(), "new of a single element");
    Fn = L->allocName();
    if (New->getInitializationStyle() != CXXNewInitializationStyle::None) {
      // new T[n]() and new T[n]{} zero the elements: calloc does too.
      const auto *List = dyn_cast_or_null<InitListExpr>(New->getInitializer());
      bool Empty =
          (List && List->getNumInits() == 0) ||
          isa_and_nonnull<CXXConstructExpr>(New->getInitializer()) ||
          isa_and_nonnull<ImplicitValueInitExpr>(New->getInitializer()) ||
          isa_and_nonnull<CXXScalarValueInitExpr>(New->getInitializer());
      if (!Empty)
        return refuse(RD, New->getExprLoc(),
                      "new[] with element initializers (not rewritten yet)");
      Fn = L->callocName();
    }
    Count = *New->getArraySize();
  } else {
    const auto *Call = cast<CallExpr>(Inner);
    StringRef Name = allocatorName(Call);
    if (Name == "calloc" && Call->getNumArgs() == 2) {
      Fn = L->callocName();
      Count = Call->getArg(0);
      bool Unit = false;
      if (countOfSize(Call->getArg(1), RD, Ctx, Unit) || !Unit)
        Count = nullptr;
    } else if (Name == "malloc" && Call->getNumArgs() == 1) {
      Fn = L->allocName();
      Count = countOfSize(Call->getArg(0), RD, Ctx, One);
    } else if (Name == "realloc" && Call->getNumArgs() == 2) {
      Fn = L->reallocName();
      Old = Call->getArg(0);
      Count = countOfSize(Call->getArg(1), RD, Ctx, One);
      const auto *OldRef = dyn_cast<DeclRefExpr>(Old->IgnoreParenCasts());
      if (!OldRef || !isHandleVar(OldRef->getDecl()))
        return refuse(RD, Old->getExprLoc(),
                      "realloc of something other than an array variable");
      HandledArrayExprs.insert(OldRef);
    }
    if (!Count && !One)
      return refuse(RD, Call->getExprLoc(),
                    "allocation size is not a whole number of '" +
                        L->elementType() +
                        "' (expected n * sizeof(T) or calloc(n, sizeof(T)))");
  }
  markReferencesHandled(Init); // e.g. sizeof *p in the size: replaced whole.
  auto CountText = Count ? textFn(Count) : nullptr;
  auto OldText = Old ? textFn(Old->IgnoreParenCasts()) : nullptr;
  if ((Count && !CountText) || (Old && !OldText))
    return refuse(RD, Init->getExprLoc(), "allocation spelled inside a macro");
  addSite(
      RD, Init->getSourceRange(), Init->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(Fn == L->allocName()    ? HandleLayout::Alloc
               : Fn == L->callocName() ? HandleLayout::Calloc
                                       : HandleLayout::Realloc);
        std::string Args = OldText ? OldText(ES) + ", " : "";
        return Fn + "(" + Args + (CountText ? CountText(ES) : "1") + ")";
      },
      "an allocation");
}

//===----------------------------------------------------------------------===//
// Uses of handle variables
//===----------------------------------------------------------------------===//

/// h[i].f, or h[i] as a whole, where h is a handle variable or an array
/// member (\p Embedded: its storage lives in the enclosing record).
void LayoutRewriter::elementUse(const RecordDecl *RD, const Expr *Handle,
                                const ArraySubscriptExpr *ASE, bool Embedded) {
  HandledArrayExprs.insert(ASE);
  const Expr *Elem = ASE;
  const Stmt *P = semanticParent(Elem, /*SkipLoads=*/false);
  if (const auto *Field = dyn_cast_or_null<MemberExpr>(P);
      Field && !Field->isArrow() && Field->getBase() == Elem &&
      isa<FieldDecl>(Field->getMemberDecl()))
    return fieldSite(RD, Field, Handle, ASE->getIdx());
  elementSite(RD, ASE, Handle, Embedded);
}

/// free(a) and delete[] a release every block of the handle.
void LayoutRewriter::freeSite(const RecordDecl *RD, const Expr *Release,
                              const DeclRefExpr *DRE) {
  const HandleLayout *L = Layouts.lookup(RD);
  auto Arg = textFn(DRE);
  addSite(
      RD, Release->getSourceRange(), Release->getBeginLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(HandleLayout::Free);
        return L->freeName() + "(" + Arg(ES) + ")";
      },
      "a release");
}

void LayoutRewriter::reference(const DeclRefExpr *DRE) {
  const ValueDecl *D = DRE->getDecl();
  if (!isHandleVar(D) || HandledArrayExprs.count(DRE))
    return;
  const RecordDecl *RD = handleRecord(D->getType());
  std::string Name = "'" + D->getNameAsString() + "'";
  if (sizeofSite(RD, DRE))
    return;
  const Expr *Child = DRE;
  const Stmt *P = semanticParent(Child);

  if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P);
      ASE && ASE->getBase() == Child)
    return elementUse(RD, DRE, ASE, /*Embedded=*/false);
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(P);
      ME && ME->isArrow() && ME->getBase() == Child) {
    HandledArrayExprs.insert(ME);
    return fieldSite(RD, ME, DRE, nullptr);
  }
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P)) {
    // (a + i)->f
    if (BO->getOpcode() == BO_Add) {
      const Expr *Sum = BO;
      const auto *ME = dyn_cast_or_null<MemberExpr>(semanticParent(Sum));
      const Expr *Index = BO->getLHS() == Child ? BO->getRHS() : BO->getLHS();
      if (ME && ME->isArrow() && ME->getBase() == Sum) {
        HandledArrayExprs.insert(ME);
        return fieldSite(RD, ME, DRE, Index);
      }
      return refuse(RD, BO->getOperatorLoc(),
                    "pointer arithmetic on " + Name + " (not rewritten yet)");
    }
    if (BO->getOpcode() == BO_Assign && BO->getLHS() == Child) {
      const Expr *Src = BO->getRHS();
      if (!allocatorName(Src).empty() ||
          isa<CXXNewExpr>(Src->IgnoreParenCasts()))
        return allocation(Src, D);
      if (const auto *From = dyn_cast<DeclRefExpr>(Src->IgnoreParenCasts());
          From && isHandleVar(From->getDecl()))
        return; // Handle to handle.
      if (const auto *Call = dyn_cast<CallExpr>(Src->IgnoreParenCasts());
          Call && handleRecord(Call->getType()))
        return; // A function returning a handle.
      if (Src->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
        return nullSite(RD, Src);
      return refuse(RD, BO->getOperatorLoc(),
                    "assignment to " + Name + " that dlopt cannot rewrite");
    }
    if (BO->getOpcode() == BO_Assign && BO->getRHS() == Child) {
      if (const auto *To = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
          To && isHandleVar(To->getDecl()))
        return;
    }
    if (BO->isEqualityOp()) {
      const Expr *Other = BO->getLHS() == Child ? BO->getRHS() : BO->getLHS();
      if (Other->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
        return nullTestSite(RD, DRE);
    }
  }
  const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
  const auto *Not = dyn_cast_or_null<UnaryOperator>(P);
  if ((Cast && Cast->getCastKind() == CK_PointerToBoolean) ||
      (Not && Not->getOpcode() == UO_LNot))
    return nullTestSite(RD, DRE);
  if (const auto *Call = dyn_cast_or_null<CallExpr>(P)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->getName() == "realloc" && Call->getArg(0) == Child)
      return; // Rewritten with the realloc as a whole.
    if (Callee && Callee->getName() == "free" && Call->getNumArgs() == 1)
      return freeSite(RD, Call, DRE);
    // The parameter becomes a handle too: in every declaration here, and in
    // the definition, which legality found here or in another analyzed file.
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (Call->getArg(I) == Child && Callee && I < Callee->getNumParams() &&
          handleRecord(Callee->getParamDecl(I)->getType()) == RD)
        return;
    return refuse(RD, DRE->getLocation(),
                  Name + " passed to a function that does not take it as "
                         "an array of the struct");
  }
  if (const auto *Del = dyn_cast_or_null<CXXDeleteExpr>(P)) {
    if (!Del->isArrayForm())
      return refuse(RD, Del->getBeginLoc(), "delete (not delete[]) of " + Name);
    return freeSite(RD, Del, DRE);
  }
  if (isa_and_nonnull<ReturnStmt>(P))
    return; // The function's return type becomes the handle.
  if (P == nullptr || isa<DeclStmt>(P))
    return; // An initializer: the declared variable is a handle too.
  if (const auto *VD = dyn_cast_or_null<VarDecl>(
          Ctx.getParents(*Child).empty()
              ? nullptr
              : Ctx.getParents(*Child)[0].get<Decl>()))
    if (isHandleVar(VD))
      return;
  refuse(RD, DRE->getLocation(),
         "use of " + Name + " that dlopt cannot rewrite yet (" +
             P->getStmtClassName() + ")");
}

/// `s.items[i].f` and `s.items[i]` where items is an array member of another
/// record; other uses of the member are refused.
void LayoutRewriter::memberReference(const MemberExpr *ME) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD || !Ctx.getAsConstantArrayType(FD->getType()))
    return;
  const RecordDecl *RD = handleRecord(FD->getType());
  if (!RD)
    return;
  const Expr *Child = ME;
  const Stmt *P = semanticParent(Child);
  if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P);
      ASE && ASE->getBase() == Child)
    return elementUse(RD, ME, ASE, /*Embedded=*/true);
  refuse(RD, ME->getExprLoc(),
         "use of the array member '" + FD->getNameAsString() +
             "' other than an element access (not rewritten yet)");
}

/// A braced initializer of a record whose array member is regrouped.
void LayoutRewriter::initList(const InitListExpr *List) {
  const InitListExpr *Sem =
      List->isSemanticForm() ? List : List->getSemanticForm();
  const RecordDecl *Outer = Sem ? asRecord(Sem->getType()) : nullptr;
  if (Outer && isStdArray(Sem->getType()) && containerRecord(Sem->getType()))
    return arrayContainerInit(List, Sem);
  if (!Outer)
    return;
  for (const FieldDecl *FD : Outer->fields()) {
    const RecordDecl *RD = handleRecord(FD->getType());
    if (!RD || !Ctx.getAsConstantArrayType(FD->getType()) ||
        FD->getFieldIndex() >= Sem->getNumInits())
      continue;
    if (!isa<ImplicitValueInitExpr>(Sem->getInit(FD->getFieldIndex())))
      refuse(RD, List->getBeginLoc(),
             "initializer of '" + recordName(Outer) +
                 "' sets its array member '" + FD->getNameAsString() +
                 "' (not rewritten yet)");
  }
}

/// std::array<T, N> a = {{{1, 2}, {3, 4}}} (or with braces elided) ->
/// T_layout_array<N> a = {T{1, 2}, T{3, 4}}: the container's
/// initializer_list constructor, which value-initializes the elements not
/// given, as std::array's aggregate initialization does.
void LayoutRewriter::arrayContainerInit(const InitListExpr *List,
                                        const InitListExpr *Sem) {
  // The syntactic form only (the semantic one is visited too).
  if (List->getSyntacticForm() || Sem->getNumInits() != 1)
    return;
  const auto *Elements = dyn_cast<InitListExpr>(Sem->getInit(0));
  if (!Elements)
    return; // {} or a copy: nothing to spell (Legality refuses copies).
  const RecordDecl *RD = containerRecord(Sem->getType());
  std::string Type = Layouts.lookup(RD)->qualifiedRecordName();
  std::vector<std::function<std::string(const EditSet &)>> Parts;
  for (const Expr *E : Elements->inits()) {
    if (isa<ImplicitValueInitExpr>(E))
      break; // The rest is value-initialized.
    auto Text = isa<InitListExpr>(E) ? initializerText(E) : textFn(E);
    if (!Text)
      return refuse(RD, E->getExprLoc(),
                    "element initializer spelled inside a macro");
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

/// Array expressions of a rewritten record that no handle variable explains
/// (s.items[i], f()[i]) block the record.
void LayoutRewriter::arrayExpression(const Expr *E) {
  if (HandledArrayExprs.count(E))
    return;
  const Expr *Base = nullptr;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    Base = ASE->getBase();
  else if (const auto *ME = dyn_cast<MemberExpr>(E); ME && ME->isArrow())
    Base = ME->getBase();
  // `this` in a member function is one object of the record: never an
  // element in the new layout (calls on elements run on copies).
  if (!Base || isa<CXXThisExpr>(Base->IgnoreParenImpCasts()))
    return;
  // it->f on an iterator of a container: the container's iterator reaches
  // the field as it is written.
  if (asContainerElement(Base).ViaIterator)
    return;
  const RecordDecl *RD = handleRecord(Base->getType());
  if (!RD)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(skipParensAndCasts(Base));
      BO && isa<MemberExpr>(E))
    return; // (a + i)->f, handled with a.
  refuse(RD, E->getExprLoc(),
         "access through an expression that is not an array variable");
}

//===----------------------------------------------------------------------===//
// Strip-mining
//===----------------------------------------------------------------------===//

} // namespace dlopt::rewrite
