//===- SharedArrays.cpp - Whether two pointers may reach one array --------===//
//
// See SharedArrays.h. One walk over the bodies of the unit's functions:
// each reference to a variable or member whose type is a pointer to (or an
// array of) a candidate record counts, per function, towards the pointers
// that reach its arrays there.
//
//===----------------------------------------------------------------------===//
#include "analysis/SharedArrays.h"
#include "analysis/AstUtil.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;
using namespace dlopt;

namespace {

class SharedArrayFinder : public RecursiveASTVisitor<SharedArrayFinder> {
public:
  SharedArrayFinder(ASTContext &Ctx, llvm::ArrayRef<CandidateRecord> Cands,
                    const UseClassifier &Uses, std::vector<RecordLegality> &Out)
      : Ctx(Ctx), Uses(Uses), Out(Out) {
    for (unsigned I = 0; I < Cands.size(); ++I)
      Index[Cands[I].Decl->getCanonicalDecl()] = I;
  }

  void run() {
    const SourceManager &SM = Ctx.getSourceManager();
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      auto *FD = dyn_cast<FunctionDecl>(D);
      // A qsort comparator kept as written compares copies of elements.
      if (!FD || !FD->doesThisDeclarationHaveABody() ||
          inSystemHeader(SM, FD->getLocation()) || Uses.keptComparator(FD))
        continue;
      Function = FD;
      Reaching.clear();
      TraverseStmt(FD->getBody());
    }
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return true;
    if (std::optional<unsigned> R = arrayOf(VD->getType())) {
      if (Uses.elementPointer(VD))
        return true; // An index once rewritten.
      if (VD->hasGlobalStorage())
        return shared(*R, DRE->getBeginLoc(),
                      std::string(VD->isStaticLocal() ? "static" : "global") +
                          " variable '" + VD->getNameAsString() +
                          "' reaches them");
      reach(*R, VD, DRE->getBeginLoc());
    } else if (std::optional<unsigned> R = arraysOf(VD->getType())) {
      shared(*R, DRE->getBeginLoc(),
             "'" + VD->getNameAsString() + "' holds pointers to them");
    }
    return true;
  }

  bool VisitMemberExpr(MemberExpr *ME) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return true;
    std::optional<unsigned> R = arrayOf(FD->getType());
    if (!R)
      R = arraysOf(FD->getType());
    if (R)
      shared(*R, ME->getMemberLoc(),
             "member '" + FD->getNameAsString() + "' of '" +
                 recordName(FD->getParent()) + "' reaches them");
    return true;
  }

  /// &a[i].f, or an array field a[i].s decaying to a pointer: a plain
  /// pointer into one of the new layout's arrays, beside the handle's own
  /// (stored in a global, passed with the handle: a miscompile with
  /// restrict, found in review). Only a library call's argument is safe.
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf)
      fieldAddress(UO, UO->getSubExpr());
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) {
    if (ICE->getCastKind() == CK_ArrayToPointerDecay && !subscripted(ICE))
      fieldAddress(ICE, ICE->getSubExpr());
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() ||
        (Callee->getName() != "memmove" && Callee->getName() != "bcopy"))
      return true;
    for (const Expr *Arg : Call->arguments())
      if (std::optional<unsigned> R =
              arrayOf(Arg->IgnoreParenImpCasts()->getType()))
        shared(*R, Call->getBeginLoc(),
               Callee->getName().str() + " moves elements within an array");
    return true;
  }

private:
  /// An array field indexed where it decays (a[i].v[k]): no pointer is
  /// left.
  bool subscripted(const ImplicitCastExpr *Decay) const {
    DynTypedNodeList Parents = Ctx.getParents(*Decay);
    const auto *ASE =
        Parents.empty() ? nullptr : Parents[0].get<ArraySubscriptExpr>();
    return ASE && ASE->getBase()->IgnoreParens() == Decay;
  }

  /// \p Address is taken of \p Of: if that lies in a field of a candidate
  /// (a[i].f, a[i].pos.x, a[i].v[k], through any members and subscripts of
  /// arrays within the element), it points into one of the new layout's
  /// arrays. Every candidate along the path counts (pos's record may be one
  /// as well as the element's).
  void fieldAddress(const Expr *Address, const Expr *Of) {
    if (libraryArgument(Address))
      return;
    for (const Expr *E = Of->IgnoreParenImpCasts();;) {
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
        E = ASE->getBase()->IgnoreParenImpCasts();
        continue;
      }
      const auto *ME = dyn_cast<MemberExpr>(E);
      const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
      if (!FD)
        return;
      if (std::optional<unsigned> R =
              candidate(Ctx.getRecordType(FD->getParent())))
        shared(*R, Address->getBeginLoc(),
               "the address of field '" + FD->getNameAsString() +
                   "' is taken (a plain pointer into its array)");
      if (ME->isArrow())
        return; // Through a pointer held in the element: not its storage.
      E = ME->getBase()->IgnoreParenImpCasts();
    }
  }

  /// Whether \p E is an argument of a call of a function from a system
  /// header (sincos(x, &a[i].s, &a[i].c), printf("%s", a[i].name)), which
  /// keeps no pointer past the call.
  bool libraryArgument(const Expr *E) const {
    for (;;) {
      DynTypedNodeList Parents = Ctx.getParents(*E);
      if (Parents.empty())
        return false;
      if (const auto *P = Parents[0].get<Expr>();
          P && isa<ParenExpr, ImplicitCastExpr, CStyleCastExpr>(P)) {
        E = P;
        continue;
      }
      const auto *Call = Parents[0].get<CallExpr>();
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      return Callee && Call->getCallee() != E &&
             inSystemHeader(Ctx.getSourceManager(), Callee->getLocation());
    }
  }

  /// What a value of type \p T points to, or holds an array of; null if
  /// neither.
  QualType elementOf(QualType T) const {
    T = T.getNonReferenceType().getCanonicalType();
    if (const auto *P = T->getAs<PointerType>())
      return P->getPointeeType();
    if (const ArrayType *A = Ctx.getAsArrayType(T))
      return A->getElementType();
    return QualType();
  }

  /// The candidate whose arrays a value of type \p T points to (or is).
  std::optional<unsigned> arrayOf(QualType T) const {
    QualType Element = elementOf(T);
    return Element.isNull() ? std::nullopt : candidate(Element);
  }

  /// The candidate a value of type \p T holds pointers to arrays of (T **,
  /// T *[4]).
  std::optional<unsigned> arraysOf(QualType T) const {
    QualType Inner = elementOf(T);
    return Inner.isNull() ? std::nullopt : arrayOf(Inner);
  }

  std::optional<unsigned> candidate(QualType Element) const {
    const RecordDecl *RD = Element->getAsRecordDecl();
    if (!RD)
      return std::nullopt;
    auto It = Index.find(RD->getCanonicalDecl());
    if (It == Index.end())
      return std::nullopt;
    return It->second;
  }

  void reach(unsigned R, const VarDecl *VD, SourceLocation Loc) {
    llvm::SmallVector<const VarDecl *, 2> &Vars = Reaching[R];
    if (llvm::is_contained(Vars, VD))
      return;
    Vars.push_back(VD);
    if (Vars.size() == 2)
      shared(R, Loc,
             "function '" + Function->getNameAsString() +
                 "' reaches them through both '" + Vars[0]->getNameAsString() +
                 "' and '" + VD->getNameAsString() +
                 "', which may point into one array");
  }

  bool shared(unsigned R, SourceLocation Loc, const std::string &Why) {
    RecordLegality &L = Out[R];
    if (L.SharedArrays.empty()) {
      L.SharedArrays = Why;
      L.SharedArraysAt = Loc;
    }
    return true;
  }

  ASTContext &Ctx;
  const UseClassifier &Uses;
  std::vector<RecordLegality> &Out;
  llvm::DenseMap<const Decl *, unsigned> Index;
  const FunctionDecl *Function = nullptr;
  llvm::DenseMap<unsigned, llvm::SmallVector<const VarDecl *, 2>> Reaching;
};

} // namespace

void dlopt::findSharedArrays(ASTContext &Ctx,
                             llvm::ArrayRef<CandidateRecord> Cands,
                             const UseClassifier &Uses,
                             std::vector<RecordLegality> &Out) {
  const LangOptions &LO = Ctx.getLangOpts();
  // C++ (references, members, containers), OpenCL and CUDA are not
  // checked: their records are never restrict (no reason is given).
  if (LO.CPlusPlus || LO.OpenCL || LO.CUDA) {
    for (RecordLegality &L : Out)
      L.NotChecked = true;
    return;
  }
  SharedArrayFinder(Ctx, Cands, Uses, Out).run();
}
