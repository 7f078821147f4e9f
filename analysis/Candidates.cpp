//===- Candidates.cpp - Records whose objects live in arrays --------------===//
#include "analysis/Candidates.h"
#include "analysis/AstUtil.h"
#include "analysis/StackSpace.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace dlopt;

namespace {

class CandidateVisitor : public RecursiveASTVisitor<CandidateVisitor> {
  using Base = RecursiveASTVisitor<CandidateVisitor>;

public:
  explicit CandidateVisitor(ASTContext &Ctx)
      : Ctx(Ctx), Generated(Ctx.getSourceManager()) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    return isLibraryDecl(D) ||
           withStackSpace([&] { return Base::TraverseDecl(D); });
  }

  // The visitor queues an expression's operands instead of recursing, but
  // every declaration, loop or lambda inside one starts a nested walk: only
  // a walk started without a queue needs the stack checked.
  bool TraverseStmt(Stmt *S, DataRecursionQueue *Queue = nullptr) {
    if (Queue)
      return Base::TraverseStmt(S, Queue);
    return withStackSpace([&] { return Base::TraverseStmt(S); });
  }

#define DLOPT_COUNT_LOOP(KIND)                                                 \
  bool Traverse##KIND(KIND *S) {                                               \
    ++LoopDepth;                                                               \
    bool Continue = Base::Traverse##KIND(S);                                   \
    --LoopDepth;                                                               \
    return Continue;                                                           \
  }
  DLOPT_COUNT_LOOP(ForStmt)
  DLOPT_COUNT_LOOP(WhileStmt)
  DLOPT_COUNT_LOOP(DoStmt)
  DLOPT_COUNT_LOOP(CXXForRangeStmt)
#undef DLOPT_COUNT_LOOP

  // A GPU kernel's body is a loop over the work-items.
  bool TraverseFunctionDecl(FunctionDecl *FD) {
    bool Gpu = isGpuKernel(FD);
    LoopDepth += Gpu;
    bool Continue = Base::TraverseFunctionDecl(FD);
    LoopDepth -= Gpu;
    return Continue;
  }

  bool VisitVarDecl(VarDecl *VD) {
    // dlopt's own helpers (T_soa_qsort's copies) are no arrays to plan.
    if (Generated.contains(VD->getLocation()))
      return true;
    if (const RecordDecl *RD = containerElementRecord(VD->getType())) {
      if (eligible(RD))
        containerRoot(RD, VD);
      return true;
    }
    // A __shared__ tile keeps the record: no array to plan.
    const RecordDecl *RD =
        keepsRecord(VD) ? nullptr : elementRecord(VD->getType());
    if (!RD || !eligible(RD))
      return true;
    if (const auto *CAT = Ctx.getAsConstantArrayType(VD->getType())) {
      if (!VD->isThisDeclarationADefinition() && !VD->hasInit() &&
          VD->hasExternalStorage())
        return true; // An extern declaration: the definition is the root.
      const char *Kind = !VD->isLocalVarDeclOrParm() ? "global array"
                         : VD->isStaticLocal()       ? "static array"
                                                     : "local array";
      if (VD->isFileVarDecl() && VD->getStorageClass() == SC_Static)
        Kind = "static array";
      addRoot(RD, VD, Kind, CAT->getSize().getZExtValue());
      return true;
    }
    if (isa<ParmVarDecl>(VD)) {
      const auto *FD = dyn_cast<FunctionDecl>(VD->getDeclContext());
      if (FD && FD->doesThisDeclarationHaveABody())
        addRoot(RD, VD, "parameter", 0);
      return true;
    }
    if (VD->getType()->isPointerType() && VD->hasInit())
      noteSource(RD, VD, VD->getInit());
    return true;
  }

  bool VisitFieldDecl(FieldDecl *FD) {
    if (const RecordDecl *RD = containerElementRecord(FD->getType())) {
      if (eligible(RD) && !FD->getType()->isReferenceType())
        addRoot(RD, FD,
                containerKind(FD->getType()) + " field of " +
                    recordName(FD->getParent()),
                stdArrayLength(FD->getType()));
      return true;
    }
    const RecordDecl *RD = elementRecord(FD->getType());
    if (!RD || !eligible(RD))
      return true;
    const RecordDecl *Parent = FD->getParent();
    bool GeneratedParent = Generated.contains(Parent->getLocation());
    uint64_t Length = 0;
    if (const auto *CAT = Ctx.getAsConstantArrayType(FD->getType()))
      Length = CAT->getSize().getZExtValue();
    // A member of a record an earlier run rewrote lives in its generated
    // records now, whose helpers copy it whole: it keeps its layout
    // (blockPlanDependentUses). So does a record whose elements dlopt's own
    // generated records and storage hold (Pole's `Complex *ra` array of
    // its SoA handle): those are the result of a rewrite, which a plan for
    // Complex would not change, so a second run keeps Complex as the first
    // left it.
    // An unnamed struct (`struct { T *items; int n; } params;`, a C11
    // anonymous member) is no candidate itself: its layout never changes,
    // but that of a record it is a member of may (LayoutPlan.cpp).
    while (recordName(Parent).empty() && !GeneratedParent)
      if (const auto *Enclosing = dyn_cast<RecordDecl>(Parent->getParent()))
        Parent = Enclosing;
      else
        break;
    std::string Outer = !recordName(Parent).empty() ? recordName(Parent)
                        : GeneratedParent   ? "dlopt's generated storage"
                        : Parent->isUnion() ? "an unnamed union"
                                            : "an unnamed struct";
    bool Rewritten = GeneratedParent || Generated.hasLayoutOf(Parent);
    addRoot(RD, FD,
            "field of " + Outer + (Rewritten ? ArrayRoot::RewrittenMark : ""),
            Length);
    return true;
  }

  /// A record defined at file scope is the type of the same name in every
  /// other translation unit (when the definitions agree): this file's uses
  /// of another file's arrays count even if it makes none itself.
  bool VisitRecordDecl(RecordDecl *RD) {
    const auto *CXX = dyn_cast<CXXRecordDecl>(RD);
    if (RD->isThisDeclarationADefinition() && !RD->isUnion() &&
        RD->getDeclContext()->getRedeclContext()->isFileContext() &&
        !recordName(RD).empty() && eligible(RD) &&
        !isa<ClassTemplateSpecializationDecl>(RD) &&
        !(CXX && (CXX->getDescribedClassTemplate() || CXX->isLambda())))
      Definitions.push_back(RD);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    // a + i in a loop (or a GPU kernel) indexes the array as &a[i] does:
    // `T *p = a + id; p->f` is an element pointer.
    if (LoopDepth > 0 && BO->isAdditiveOp() && BO->getType()->isPointerType())
      noteIndexed(elementRecord(BO->getType()));
    if (BO->getOpcode() != BO_Assign)
      return true;
    const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    const RecordDecl *RD = VD ? elementRecord(VD->getType()) : nullptr;
    if (RD && VD->getType()->isPointerType() && eligible(RD))
      noteSource(RD, VD, BO->getRHS());
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    if (LoopDepth > 0)
      noteIndexed(elementRecordOf(E->getBase()));
    return true;
  }

  // v[i] or v.at(i) on a std::vector in a loop; cudaMalloc(&d, ...) and
  // its kin allocate the array d.
  bool VisitCallExpr(CallExpr *E) {
    if (LoopDepth > 0)
      noteIndexed(asContainerElement(E).Record);
    if (const Expr *Allocated = UseClassifier::cudaAllocated(E))
      if (const auto *Var =
              dyn_cast<DeclRefExpr>(Allocated->IgnoreParenImpCasts()))
        if (const RecordDecl *RD = elementRecord(Var->getType());
            RD && eligible(RD) && isa<VarDecl>(Var->getDecl()))
          addRoot(RD, Var->getDecl(), UseClassifier::cudaFunction(E)->Name, 0);
    outParameterRoots(E);
    return true;
  }

  /// f(&a) with f's parameter a `T **` it stores an array into (the
  /// loader idiom, HandlePointers.cpp): a is an array f gives.
  void outParameterRoots(const CallExpr *E) {
    const FunctionDecl *Callee = E->getDirectCallee();
    if (!Callee)
      return;
    for (unsigned I = 0; I < E->getNumArgs() && I < Callee->getNumParams();
         ++I) {
      QualType T = Callee->getParamDecl(I)->getType();
      const auto *AddrOf =
          dyn_cast<UnaryOperator>(E->getArg(I)->IgnoreParens());
      if (!T->isPointerType() || !T->getPointeeType()->isPointerType() ||
          !AddrOf || AddrOf->getOpcode() != UO_AddrOf)
        continue;
      const auto *Var =
          dyn_cast<DeclRefExpr>(AddrOf->getSubExpr()->IgnoreParens());
      const auto *VD = Var ? dyn_cast<VarDecl>(Var->getDecl()) : nullptr;
      QualType Pointee = T->getPointeeType();
      if (const RecordDecl *RD = VD ? elementRecord(VD->getType()) : nullptr;
          RD && VD->getType()->isPointerType() && eligible(RD) &&
          elementRecord(Pointee) == RD && !Pointee.isConstQualified())
        addRoot(RD, VD, "filled by " + Callee->getNameAsString(), 0);
    }
  }

  // for (auto &e : v) walks the vector.
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    noteIndexed(containerElementRecord(S->getRangeInit()->getType()));
    return true;
  }

  // p->f indexes an array when p walks it ((a + i)->f, or a pointer that is
  // incremented somewhere); otherwise p points to one object.
  bool VisitMemberExpr(MemberExpr *E) {
    if (LoopDepth == 0 || !E->isArrow())
      return true;
    const Expr *Base = E->getBase()->IgnoreParenImpCasts();
    const RecordDecl *RD = elementRecord(Base->getType());
    if (isa<BinaryOperator>(Base))
      noteIndexed(RD);
    else if (const auto *DRE = dyn_cast<DeclRefExpr>(Base))
      ArrowBases.push_back({DRE->getDecl(), RD});
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
        if (elementRecord(DRE->getType()))
          Walkers.insert(DRE->getDecl());
    return true;
  }

  std::vector<CandidateRecord> result() {
    for (const auto &[Pointer, RD] : ArrowBases)
      if (Walkers.count(Pointer))
        noteIndexed(RD);
    std::vector<CandidateRecord> Out;
    for (auto &[RD, C] : Records)
      if (eligible(RD) && !C.Arrays.empty()) {
        C.Indexed = Indexed.count(RD);
        Out.push_back(std::move(C));
      }
    // Without arrays here, a definition is planned only if another file
    // indexes the record's arrays (so a single file's plan stays the same).
    for (const RecordDecl *RD : Definitions)
      if (!Records.count(RD)) {
        CandidateRecord C;
        C.Decl = RD;
        Out.push_back(std::move(C));
      }
    std::stable_sort(Out.begin(), Out.end(),
                     [&](const CandidateRecord &A, const CandidateRecord &B) {
                       return Ctx.getSourceManager().isBeforeInTranslationUnit(
                           A.Decl->getLocation(), B.Decl->getLocation());
                     });
    return Out;
  }

private:
  bool eligible(const RecordDecl *RD) const {
    const SourceManager &SM = Ctx.getSourceManager();
    return !inSystemHeader(SM, RD->getLocation()) &&
           !Generated.contains(RD->getLocation());
  }

  void noteSource(const RecordDecl *RD, const VarDecl *VD, const Expr *Src) {
    StringRef Alloc = allocatorName(Src);
    if (Alloc == "malloc" || Alloc == "calloc" || Alloc == "realloc") {
      addRoot(RD, VD, Alloc, 0);
      return;
    }
    // The program's own allocator (AllocatorFunctions.h).
    if (!Alloc.empty()) {
      addRoot(RD, VD, ("allocated by " + Alloc).str(), 0);
      return;
    }
    if (const auto *New = dyn_cast<CXXNewExpr>(Src->IgnoreParenCasts()))
      if (New->isArray())
        addRoot(RD, VD, "new[]", 0);
  }

  /// A std::vector<T> or std::array<T, N> variable or parameter. A reference
  /// that is not a parameter only names another vector (Legality refuses it).
  void containerRoot(const RecordDecl *RD, const VarDecl *VD) {
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
      if (FD && FD->doesThisDeclarationHaveABody())
        addRoot(RD, VD, containerKind(VD->getType()) + " parameter",
                stdArrayLength(VD->getType()));
      return;
    }
    if (!VD->getType()->isReferenceType())
      addRoot(RD, VD, containerKind(VD->getType()),
              stdArrayLength(VD->getType()));
  }

  static std::string containerKind(QualType T) {
    return isStdArray(T) ? "std::array" : "std::vector";
  }

  void addRoot(const RecordDecl *RD, const ValueDecl *VD, const Twine &Kind,
               uint64_t Length) {
    CandidateRecord &C = Records[RD];
    C.Decl = RD;
    for (const ValueDecl *Seen : C.Roots)
      if (Seen == VD)
        return;
    C.Roots.push_back(VD);
    C.Arrays.push_back(ArrayRoot{
        VD->getNameAsString(), Kind.str(),
        formatLoc(Ctx.getSourceManager(), VD->getLocation()), Length});
  }

  void noteIndexed(const RecordDecl *RD) {
    if (RD && eligible(RD))
      Indexed.insert(RD);
  }

  ASTContext &Ctx;
  GeneratedCode Generated;
  unsigned LoopDepth = 0;
  llvm::MapVector<const RecordDecl *, CandidateRecord> Records;
  llvm::SmallPtrSet<const RecordDecl *, 8> Indexed;
  std::vector<std::pair<const ValueDecl *, const RecordDecl *>> ArrowBases;
  llvm::SmallPtrSet<const ValueDecl *, 8> Walkers;
  /// Records defined at file scope, in declaration order.
  std::vector<const RecordDecl *> Definitions;
};

} // namespace

std::vector<CandidateRecord> dlopt::findCandidates(ASTContext &Ctx) {
  CandidateVisitor V(Ctx);
  V.TraverseAST(Ctx);
  return V.result();
}
