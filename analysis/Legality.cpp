//===- Legality.cpp - Can every use of a record's arrays be rewritten? ----===//
#include "analysis/Legality.h"
#include "analysis/AllocatorFunctions.h"
#include "analysis/AstUtil.h"
#include "analysis/CallFrequencies.h"
#include "analysis/OpenCLHost.h"
#include "analysis/OpenMPPragmas.h"
#include "analysis/SharedArrays.h"
#include "analysis/SpecialMembers.h"
#include "analysis/UseClassifier.h"
#include "analysis/UseWalker.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclOpenMP.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SaveAndRestore.h"
#include <functional>

using namespace clang;
using namespace dlopt;

namespace {

class LegalityChecker : public UseWalker<LegalityChecker> {
public:
  LegalityChecker(ASTContext &Ctx, llvm::ArrayRef<CandidateRecord> Cands,
                  const std::map<std::string, std::string> *KnownBuffers)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Results(Cands.size()),
        KnownBuffers(KnownBuffers),
        Uses(Ctx, [this](const RecordDecl *RD) { return isCandidate(RD); }) {
    for (unsigned I = 0; I < Cands.size(); ++I)
      Index[Cands[I].Decl] = I;
  }

  bool shouldVisitImplicitCode() const { return false; }

  /// qsort comparators (UseWalker.h).
  bool keptAsWritten(const FunctionDecl *FD) const {
    return Uses.keptComparator(FD);
  }
  /// Template instantiations given an overload (UseWalker.h).
  bool clonedInstantiation(const FunctionDecl *FD) const {
    return Uses.clonedInstantiation(FD);
  }

  /// A spelling of a candidate's container (UseWalker.h), classified where
  /// the rewriter meets it.
  bool containerTypeLoc(QualType T, SourceRange R, bool InTemplateArgument) {
    const RecordDecl *RD = Uses.containerRecord(T);
    if (!RD || R.isInvalid())
      return false;
    classified(RD, Uses.containerType(RD, T, R, InTemplateArgument),
               R.getBegin());
    return true;
  }
  bool VisitUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) {
    if (std::optional<UseVerdict> V = Uses.containerSizeof(E))
      classified(containerElementRecord(E->isArgumentType()
                                            ? E->getArgumentType()
                                            : E->getArgumentExpr()->getType()),
                 *V);
    return true;
  }

  void run(llvm::ArrayRef<CandidateRecord> Cands) {
    for (const CandidateRecord &C : Cands)
      checkRecord(C);
    checkOpenCLHost();
    // What the walk finds in OpenCL host code is about the host's own
    // arrays, which the boundary strategy leaves as written; in a CUDA
    // unit, what it finds about an array of host memory (memoryScope).
    if (!Ctx.getLangOpts().OpenCL && !Ctx.getLangOpts().CUDA)
      Scope = Blocker::WholeOnly;
    TraverseAST(Ctx);
    findSharedArrays(Ctx, Cands, Uses, Results);
    blockMixedMemory();
    blockUnclassified();
    blockArgumentsReadTwoWays();
    for (const auto &[FD, RD] : Uses.externalComparators())
      external(RD, ExternalSymbol::Comparator, FD, FD->getLocation(),
               "function '" + FD->getNameAsString() +
                   "' casts its 'void *' parameters to '" + recordName(RD) +
                   " *' (type punning), and no analyzed file sorts arrays "
                   "of it with this comparator");
    // A count of the buffer's or the allocation's elements either way.
    Scope = Blocker::Both;
    for (const UseClassifier::ByteCountField &B : Uses.byteCountFields()) {
      std::string Key = fieldKey(B.Field), Of = recordName(B.Record);
      external(B.Record, ExternalSymbol::ByteCount, Key, B.Loc,
               "byte count '" + Key + "' read as a number of '" + Of +
                   "' elements: some write of that field in the analyzed "
                   "files stores something other than n * sizeof(" +
                   Of + "), or none stores it");
    }
    for (RecordLegality &L : Results)
      std::stable_sort(L.Issues.begin(), L.Issues.end(),
                       [&](const LegalityIssue &A, const LegalityIssue &B) {
                         return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
                       });
  }

  std::vector<RecordLegality> take() { return std::move(Results); }

  // --- The record itself ---

  void checkRecord(const CandidateRecord &C) {
    const RecordDecl *RD = C.Decl;
    if (recordName(RD).empty())
      block(RD, RD->getLocation(),
            "anonymous struct without a typedef: no name to generate code "
            "with");
    std::variant<SourceLocation, UseVerdict> End = Uses.definitionEnd(RD);
    if (const auto *V = std::get_if<UseVerdict>(&End))
      block(RD, V->Loc, V->Refusal);
    bool PlainArrays = llvm::any_of(C.Arrays, [](const ArrayRoot &A) {
      return !StringRef(A.Kind).starts_with("std::vector") &&
             !StringRef(A.Kind).starts_with("std::array");
    });
    if (PlainArrays && inNamedNamespace(RD))
      block(RD, RD->getLocation(),
            "plain arrays of a record in a named namespace are not "
            "rewritten yet (std::vector is)");
    if (RD->hasAttr<PackedAttr>())
      block(RD, RD->getLocation(), "the struct is packed");
    if (RD->hasAttr<AlignedAttr>())
      block(RD, RD->getLocation(), "the struct has an aligned attribute");
    if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD))
      checkClass(CXX, llvm::all_of(C.Arrays, [](const ArrayRoot &A) {
                   return StringRef(A.Kind).starts_with("std::vector") ||
                          StringRef(A.Kind).starts_with("std::array");
                 }));
    for (const FieldDecl *FD : RD->fields()) {
      std::string Name = "'" + FD->getNameAsString() + "'";
      QualType T = FD->getType();
      if (FD->isBitField())
        block(RD, FD->getLocation(), "bit-field " + Name);
      if (FD->hasAttr<PackedAttr>() || FD->hasAttr<AlignedAttr>())
        block(RD, FD->getLocation(),
              "field " + Name + " has an aligned or packed attribute");
      if (T.isVolatileQualified())
        block(RD, FD->getLocation(), "volatile field " + Name);
      if (T->isAtomicType())
        block(RD, FD->getLocation(), "_Atomic field " + Name);
      if (T->isIncompleteArrayType())
        block(RD, FD->getLocation(), "flexible array member " + Name);
      if (T->isReferenceType())
        block(RD, FD->getLocation(), "reference member " + Name);
      if (FD->isAnonymousStructOrUnion() || T->isUnionType())
        block(RD, FD->getLocation(),
              "field " + Name + " is a union or anonymous member");
      // `struct { T *p; int n; } inner;`: a generated record could not
      // name its type.
      else if (const RecordDecl *Of = asRecord(T); Of && recordName(Of).empty())
        block(RD, FD->getLocation(),
              "field " + Name + " has an unnamed struct type");
    }
  }

  /// The rewriter moves fields into generated records, which keeps a
  /// program's meaning only while creating, copying and destroying an
  /// element does nothing but copy its fields: each thing in a class that
  /// does more is refused where it is declared.
  ///
  /// Constructors and default member initializers that only give fields
  /// their values are kept for std::vector and std::array (\p OnlyContainers):
  /// the generated containers make their elements with T() or T(args) and
  /// store the fields; plain arrays of the new layout are not constructed
  /// as T.
  void checkClass(const CXXRecordDecl *RD, bool OnlyContainers) {
    if (RD->isPOD())
      return;
    std::vector<std::pair<SourceLocation, std::string>> Why;
    for (const CXXBaseSpecifier &B : RD->bases()) {
      std::string Name =
          "'" + B.getType().getAsString(Ctx.getPrintingPolicy()) + "'";
      const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl();
      if (B.isVirtual())
        Why.push_back({B.getBeginLoc(), "virtual base class " + Name});
      else if (!Base || !Base->isEmpty())
        Why.push_back({B.getBeginLoc(), "base class " + Name + " with fields"});
      else // Its member functions may see the element as a whole.
        Why.push_back({B.getBeginLoc(), "base class " + Name +
                                            " (classes with bases are not "
                                            "rewritten)"});
    }
    for (const CXXMethodDecl *M : RD->methods()) {
      // Implicit, `= default` on its first declaration, or spelled out as
      // the implicit one would be (a copy of every field, an empty body).
      if (actsAsImplicit(M))
        continue;
      std::string Name = "'" + M->getNameAsString() + "'";
      if (M->isVirtual())
        Why.push_back({M->getLocation(), "virtual function " + Name});
      else if (isa<CXXDestructorDecl>(M))
        Why.push_back({M->getLocation(), "user-provided destructor " + Name +
                                             ": destroying an element runs "
                                             "it"});
      else if (const auto *C = dyn_cast<CXXConstructorDecl>(M)) {
        if (C->isCopyOrMoveConstructor())
          Why.push_back({M->getLocation(),
                         "user-provided copy or move constructor: copying an "
                         "element runs it"});
        else if (OnlyContainers && !onlyInitializesFields(C))
          Why.push_back({M->getLocation(),
                         "constructor that does more than initialize the "
                         "fields: the container would run it once per "
                         "resize, not once per element"});
        // A constructor with arguments makes values (double2(x, y)), never
        // the elements of a plain array; the default one makes those (one
        // that zeroes every field makes them as calloc does).
        else if (!OnlyContainers && C->isDefaultConstructor() && !zeroFills(C))
          Why.push_back({M->getLocation(),
                         "user-provided default constructor that does "
                         "something: new T[n] and T a[N] run it for each "
                         "element, and the new layout's arrays are not made "
                         "of T (std::vector is rewritten)"});
      } else if (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator())
        Why.push_back({M->getLocation(), "user-provided assignment operator: "
                                         "assigning an element runs it"});
    }
    for (const FieldDecl *FD : RD->fields()) {
      const Expr *Init = FD->getInClassInitializer();
      if (!FD->hasInClassInitializer())
        continue;
      std::string Name =
          "default member initializer of '" + FD->getNameAsString() + "'";
      if (!Init || Init->HasSideEffects(Ctx))
        Why.push_back({FD->getLocation(),
                       Name + " has side effects: the container would run it "
                              "once per resize, not once per element"});
      else if (!OnlyContainers && !defaultConstructionZeroes(RD))
        Why.push_back({FD->getLocation(),
                       Name + ": plain arrays of the record are not "
                              "initialized by it (std::vector is rewritten; "
                              "initializers that zero every field are)"});
    }
    // The element proxy converts to T through a default-constructed one,
    // and a plain array's get builds one field by field; or both through a
    // constructor that takes every field (`Body(x, y, z, m)`).
    if (!RD->hasDefaultConstructor() && !fieldwiseConstructor(RD))
      Why.push_back({RD->getLocation(),
                     OnlyContainers
                         ? "no default constructor (the element proxy "
                           "converts to a default-constructed T)"
                         : "no default constructor (reading an element of "
                           "the new layout builds a default-constructed T)"});
    // Every field private or protected (mixed access is not standard
    // layout, below; containers say so themselves): a plain array's get
    // and set, free functions, assign them.
    if (!OnlyContainers && RD->isStandardLayout())
      for (const FieldDecl *FD : RD->fields())
        if (FD->getAccess() != AS_public) {
          Why.push_back({FD->getLocation(),
                         "non-public field '" + FD->getNameAsString() +
                             "': the new layout's get and set, outside the "
                             "class, read and write every field"});
          break;
        }
    // Plain data but for members that act as the implicit ones, and for
    // constructors, which vectors keep and plain arrays never run.
    if (Why.empty() && RD->isStandardLayout() && fieldsCopyPlainly(RD))
      return;
    if (Why.empty() && !RD->isStandardLayout())
      Why.push_back({RD->getLocation(), "fields under different access "
                                        "control (not standard-layout)"});
    if (Why.empty()) // What is left: a non-trivial special member inherited
                     // from a member's class.
      Why.push_back({RD->getLocation(),
                     "C++ class that is not plain data (a member with a "
                     "non-trivial constructor, copy or destructor)"});
    for (auto &[Loc, Reason] : Why)
      block(RD, Loc, std::move(Reason));
  }

  /// Every field's type copies as its bytes do: no field of a class with
  /// a copy constructor, assignment or destructor of its own.
  static bool fieldsCopyPlainly(const CXXRecordDecl *RD) {
    return llvm::all_of(RD->fields(), [&](const FieldDecl *FD) {
      QualType T = FD->getType();
      return T.isTriviallyCopyableType(FD->getASTContext());
    });
  }

  /// A constructor with an empty body whose initializers give fields
  /// values without side effects (no base or delegating initializers).
  bool onlyInitializesFields(const CXXConstructorDecl *C) const {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(C->getBody());
    if (!Body || !Body->body_empty())
      return false;
    return llvm::all_of(C->inits(), [&](const CXXCtorInitializer *Init) {
      return Init->isMemberInitializer() &&
             !Init->getInit()->HasSideEffects(Ctx);
    });
  }

  // --- Declarations ---

  /// Declarations whose type becomes a handle (UseClassifier::declaration).
  bool VisitDeclaratorDecl(DeclaratorDecl *D) {
    auto Scoped = memoryScope(D);
    if (const RecordDecl *RD = Uses.handleRecord(D->getType());
        RD && !keepsRecord(D))
      classified(RD, Uses.declaration(D, RD), D->getLocation());
    // T **out, a pointer to the caller's handle (HandlePointers.cpp).
    if (const RecordDecl *RD = Uses.handlePointerRecord(D))
      classified(RD, Uses.declaration(D, RD), D->getLocation());
    return true;
  }

  bool VisitFieldDecl(FieldDecl *FD) {
    const RecordDecl *Parent = FD->getParent();
    std::string Union = recordName(Parent).empty()
                            ? std::string("an unnamed union")
                            : "union '" + recordName(Parent) + "'";
    if (const RecordDecl *RD = asRecord(FD->getType()); Parent->isUnion())
      if (isCandidate(RD))
        blockBytes(RD, FD->getLocation(), "member of " + Union);
    // As a volatile variable's (VisitVarDecl).
    if (const RecordDecl *RD = elementRecord(FD->getType()); isCandidate(RD)) {
      QualType T = FD->getType();
      QualType Elem =
          T->isPointerType() ? T->getPointeeType() : Ctx.getBaseElementType(T);
      if (Elem.isVolatileQualified() || T.isVolatileQualified())
        block(RD, FD->getLocation(),
              "volatile member '" + FD->getNameAsString() + "'");
      ignoredOpenMPClauses(RD, FD);
    }
    // A pointer member holds the handle (UseClassifier::memberHandle); in a
    // union it would share its bytes with another member.
    if (const RecordDecl *RD = Uses.memberHandleRecord(FD);
        RD && Parent->isUnion())
      block(RD, FD->getLocation(),
            "pointer member '" + FD->getNameAsString() + "' of " + Union);
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    // T &r = a[i]: the index it becomes.
    if (std::optional<ElementUse> E = Uses.elementReferenceDeclaration(VD)) {
      auto ArrayScoped = memoryScope(Uses.elementReference(VD)->arrayDecl());
      classified(E->Record, E->Verdict);
    }
    auto Scoped = memoryScope(VD);
    QualType T = VD->getType();
    // T *p = malloc(...): the allocation that initializes a handle; T *r =
    // bsearch(...), the search.
    if (const RecordDecl *RD = Uses.handleVarRecord(VD); RD && VD->getInit()) {
      if (UseClassifier::isAllocation(VD->getInit()))
        classified(RD, Uses.allocation(VD->getInit(), RD));
      else if (UseClassifier::isSearch(VD->getInit()))
        classified(RD, Uses.search(VD->getInit(), RD));
      else if (UseClassifier::isMapping(VD->getInit()))
        classified(RD, UseVerdict::of({UseKind::OpenCLCall, VD->getInit(),
                                       VD->getInit()}));
    }
    // auto it = v.begin(): an iterator variable (its uses: VisitDeclRefExpr).
    if (isCandidate(containerElementRecord(iteratorContainer(T))) &&
        !T->isReferenceType())
      if (const Expr *Start = beginOrEnd(VD->getInit()))
        AllowedIterators.insert(Start);
    // for (auto &b : v), const T &r = v[i], auto e = v[i].
    if (std::optional<ElementUse> E = Uses.elementBinding(VD, Instantiation))
      classified(E->Record, E->Verdict);
    checkContainerInTemplate(VD);
    checkArrayInitializer(VD);
    const RecordDecl *RD = keepsRecord(VD) ? nullptr : elementRecord(T);
    if (!isCandidate(RD))
      return pointerToPointer(VD, T);
    std::string Name = "'" + VD->getNameAsString() + "'";
    ignoredOpenMPClauses(RD, VD);
    if (const ArrayType *AT = T->getAsArrayTypeUnsafe())
      if (AT->getElementType()->isArrayType())
        block(RD, VD->getLocation(), "multi-dimensional array " + Name);
    QualType Elem = T->isPointerType()
                        ? T->getPointeeType()
                        : QualType(T->getAsArrayTypeUnsafe()->getElementType());
    // Every access to volatile storage, or every read of a volatile
    // pointer, is a side effect the handle's plain loads would drop (a flag
    // a signal handler sets, memory-mapped I/O).
    if (Elem.isVolatileQualified())
      block(RD, VD->getLocation(), "volatile array " + Name);
    else if (T.isVolatileQualified())
      block(RD, VD->getLocation(), "volatile pointer " + Name);
    // One template text serves every instantiation, and a dependent type
    // (`T *v`) cannot name the handle: an instantiation taking the array
    // gets an overload of its own (TemplateClones.cpp), where it can.
    if (const auto *FD =
            dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
        FD && FD->getTemplateInstantiationPattern() && !Clone)
      block(RD, VD->getLocation(),
            Name + " in an instantiation of template '" +
                FD->getQualifiedNameAsString() + "': " +
                (Uses.cloneRecords(FD).empty()
                     ? std::string("arrays that are not its parameters are "
                                   "not rewritten in templates yet")
                     : "no overload can be rewritten for it: " +
                           Uses.cloneRefusal(FD)));
    if (VD->isFileVarDecl() && VD->hasExternalFormalLinkage()) {
      std::string What = T->isArrayType() ? "array " : "pointer ";
      if (VD->hasExternalStorage() && !VD->isThisDeclarationADefinition())
        external(RD, ExternalSymbol::Use, VD, VD->getLocation(),
                 "extern " + What + Name +
                     " is not defined in the analyzed files");
      else
        external(RD, ExternalSymbol::Definition, VD, VD->getLocation(),
                 What + Name +
                     " has external linkage and no analyzed file defines "
                     "main(): code outside them may use it (make it static "
                     "or analyze the whole program)");
    }
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (const RecordDecl *RD = elementRecord(FD->getReturnType());
        isCandidate(RD)) {
      auto Scoped = memoryScope(FD);
      classified(RD, Uses.functionReturn(FD, RD), FD->getLocation());
    }
    if (FD->hasAttr<OpenCLKernelAttr>()) {
      // The host program allocates and fills the buffers: it changes in
      // step, so analyzed host code must bind each such argument.
      for (const ParmVarDecl *P : FD->parameters())
        if (const RecordDecl *RD = elementRecord(P->getType()); isCandidate(RD))
          external(
              RD, ExternalSymbol::KernelParameter,
              kernelArgumentSymbol(FD->getNameAsString(),
                                   std::to_string(P->getFunctionScopeIndex())),
              P->getLocation(),
              "OpenCL kernel '" + FD->getNameAsString() + "' takes a '" +
                  recordName(RD) + "' array as argument " +
                  std::to_string(P->getFunctionScopeIndex()) +
                  ", which no analyzed host code binds to a buffer of "
                  "it (name the host files too)");
      return true;
    }
    if (!FD->doesThisDeclarationHaveABody() || !FD->isExternallyVisible())
      return true;
    std::string Reason = "function '" + FD->getNameAsString() +
                         "' has external linkage and no analyzed file "
                         "defines main(): callers outside them would break";
    for (const ParmVarDecl *P : FD->parameters()) {
      auto Scoped = memoryScope(P);
      if (const RecordDecl *RD = elementRecord(P->getType()); isCandidate(RD))
        external(RD, ExternalSymbol::Definition, FD, P->getLocation(), Reason);
      if (const RecordDecl *RD = Uses.handlePointerRecord(P); isCandidate(RD))
        external(RD, ExternalSymbol::Definition, FD, P->getLocation(), Reason);
      // A container parameter changes type with the layout too.
      if (const RecordDecl *RD = containerElementRecord(P->getType());
          isCandidate(RD) && P->getType()->isReferenceType())
        external(RD, ExternalSymbol::Definition, FD, P->getLocation(), Reason);
    }
    auto Scoped = memoryScope(FD);
    if (const RecordDecl *RD = elementRecord(FD->getReturnType());
        isCandidate(RD) && FD->getReturnType()->isPointerType())
      external(RD, ExternalSymbol::Definition, FD, FD->getLocation(), Reason);
    return true;
  }

  // --- Expressions ---

  bool VisitBinaryOperator(BinaryOperator *BO) {
    auto Scoped = memoryScope(CudaMemory::arrayRoot(BO->getLHS()));
    // p = &centre: a handle cannot be made from one object.
    if (const auto *Var = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
        Var && BO->getOpcode() == BO_Assign)
      if (const RecordDecl *RD = Uses.handleVarRecord(Var->getDecl());
          isCandidate(RD) &&
          UseClassifier::singleObjectAddress(BO->getRHS(), RD))
        block(RD, BO->getOperatorLoc(),
              "'" + Var->getDecl()->getNameAsString() +
                  "' is assigned the address of one '" + recordName(RD) +
                  "' (not an array's element; not rewritten yet)");
    if (BO->isRelationalOp()) {
      const RecordDecl *RD = elementRecord(BO->getLHS()->getType());
      if (isCandidate(RD) && !sameArray(BO->getLHS(), BO->getRHS()))
        block(RD, BO->getOperatorLoc(),
              "relational comparison of pointers into different arrays");
    }
    return true;
  }

  /// `items(new T[n])` in a constructor (UseClassifier::memberInitializer).
  void constructorInitializer(const CXXCtorInitializer *Init) {
    auto Scoped = memoryScope(Init->getMember());
    if (auto V = Uses.memberInitializer(Init))
      classified(V->first, V->second, Init->getSourceLocation());
  }

  bool VisitInitListExpr(InitListExpr *List) {
    for (const auto &[RD, V] : Uses.memberArrayInitializers(List))
      classified(RD, V);
    if (std::optional<ElementUse> E = Uses.arrayContainerInit(List))
      classified(E->Record, E->Verdict);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (const Expr *Ref = Call->getCallee()->IgnoreParenImpCasts();
        isa<DeclRefExpr, MemberExpr>(Ref)) {
      CloneCallees.insert(Ref);
      cloneReference(Ref, Call);
    }
    // OpenCL's buffer calls are judged by checkOpenCLHost.
    if (classifyClCall(Call) != ClCall::None) {
      for (const Expr *Arg : Call->arguments())
        if (isCandidate(elementRecord(Arg->IgnoreParenImpCasts()->getType())))
          Handled.insert(Arg);
      return true;
    }
    for (const auto &[RD, V] : Uses.nullArguments(Call))
      classified(RD, V);
    // bsearch's result becomes a handle only where one keeps it.
    if (const RecordDecl *RD =
            UseClassifier::isSearch(Call)
                ? elementRecord(
                      Call->getArg(1)->IgnoreParenImpCasts()->getType())
                : nullptr;
        isCandidate(RD) && !Uses.keptInHandle(Call))
      block(RD, Call->getExprLoc(),
            "bsearch whose result is not kept in a pointer variable (not "
            "rewritten yet)");
    if (std::optional<UseVerdict> V =
            Uses.sortByOperatorLess(Call, Instantiation))
      classified(asContainerAlgorithm(Call).Record, *V);
    if (ContainerAlgorithm VA = asContainerAlgorithm(Call);
        isCandidate(VA.Record)) {
      AllowedIterators.insert(VA.Iterators.begin(), VA.Iterators.end());
      checkComparison(VA.Record, Call, VA.Compare, VA.OnlyReads);
    }
    // std::swap(v[i], v[j]) swaps the elements through the proxy's swap.
    if (std::optional<ElementUse> E = Uses.elementSwap(Call, Instantiation)) {
      classified(E->Record, E->Verdict);
      return true;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    // A member operator's first argument is its object (v[i] = e).
    unsigned Shift = isa<CXXOperatorCallExpr>(Call) &&
                     isa_and_nonnull<CXXMethodDecl>(Callee);
    for (unsigned I = Shift; I < Call->getNumArgs(); ++I)
      checkArgument(Call, Callee, I, Shift);
    checkReturnedPointer(Call, Callee);
    return true;
  }

  /// Argument \p I of \p Call (to \p Callee, whose parameters start at
  /// argument \p Shift): a container or element bound to a parameter, and
  /// an array passed on.
  void checkArgument(const CallExpr *Call, const FunctionDecl *Callee,
                     unsigned I, unsigned Shift) {
    const Expr *Arg = Call->getArg(I);
    if (isVaStartName(Call, Arg))
      return;
    auto Scoped = memoryScope(CudaMemory::arrayRoot(Arg));
    const ParmVarDecl *Param = Callee && I - Shift < Callee->getNumParams()
                                   ? Callee->getParamDecl(I - Shift)
                                   : nullptr;
    if (const RecordDecl *Of =
            Param && !inSystemHeader(SM, Callee->getLocation()) &&
                    Param->getType()->isReferenceType()
                ? containerElementRecord(Param->getType())
                : nullptr;
        isCandidate(Of)) {
      containerUsed(Arg); // The parameter is a root of its own.
      // Defined in another file of the program: rewritten there alike.
      if (!Callee->hasBody())
        external(Of, ExternalSymbol::Use, Callee, Arg->getExprLoc(),
                 containerSpelling(Param->getType()) + " passed to '" +
                     Callee->getNameAsString() +
                     "', which is not defined in the analyzed files");
    }
    // v.push_back(v[i]), v.emplace_back(v[i]) copy the element.
    const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
    bool IntoVector =
        Member && Member->getImplicitObjectArgument() &&
        containerElementRecord(Member->getImplicitObjectArgument()->getType());
    if (Param && !IntoVector)
      checkElementBinding(Arg, Param->getType(), Arg->getExprLoc());
    // A template would deduce the element proxy, and a copy of that
    // still writes to the element.
    if (const RecordDecl *RD = elementOfContainer(copiedFrom(Arg));
        RD && Callee && Callee->isTemplateInstantiation() && !IntoVector)
      block(RD, Arg->getExprLoc(),
            "an element of " + containerOfElement(copiedFrom(Arg)) +
                " passed to template '" + Callee->getNameAsString() +
                "' (elements passed to templates are not rewritten yet)");
    checkArrayArgument(Call, Callee, Param, Arg, I);
    checkHandlePointerArgument(Callee, Param, Arg);
  }

  /// `&h` passed to \p Param of \p Callee, a pointer to the caller's
  /// handle a function stores an array into: that function must be one
  /// whose parameter changes with it.
  void checkHandlePointerArgument(const FunctionDecl *Callee,
                                  const ParmVarDecl *Param, const Expr *Arg) {
    const RecordDecl *RD = Param ? Uses.handlePointerRecord(Param) : nullptr;
    if (!isCandidate(RD))
      return;
    const auto *AddrOf = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
    bool OfHandle = AddrOf && AddrOf->getOpcode() == UO_AddrOf &&
                    Uses.isHandleExpr(AddrOf->getSubExpr()) &&
                    Uses.handleRecord(AddrOf->getSubExpr()->getType()) == RD;
    // A handle pointer passed on (HandlePointers.cpp).
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts()))
      OfHandle |= Uses.handlePointerRecord(Ref->getDecl()) == RD;
    if (!OfHandle &&
        !Arg->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull)) {
      block(RD, Arg->getExprLoc(),
            "argument of '" + Callee->getNameAsString() +
                "', which stores a '" + recordName(RD) +
                "' array through it, is not the address of an array "
                "variable or member (not rewritten yet)");
      return;
    }
    if (Callee->hasBody())
      return;
    external(RD, ExternalSymbol::Use, Callee, Arg->getExprLoc(),
             "pointer to a '" + recordName(RD) + "' array passed to '" +
                 Callee->getNameAsString() +
                 "', which is not defined in the analyzed files");
  }

  /// An array of a candidate passed as argument \p I of \p Call to
  /// \p Param of \p Callee (null: through a pointer, or variadic).
  void checkArrayArgument(const CallExpr *Call, const FunctionDecl *Callee,
                          const ParmVarDecl *Param, const Expr *Arg,
                          unsigned I) {
    // (void *)a converts as the call would: judged as a.
    const Expr *Bare = ignoreVoidPointerCasts(Arg);
    const RecordDecl *RD = elementRecord(Bare->getType());
    if (!isCandidate(RD))
      return;
    Handled.insert(Arg);
    for (const Expr *E = Arg->IgnoreParenImpCasts(); E != Bare;
         E = cast<CastExpr>(E)->getSubExpr()->IgnoreParenImpCasts())
      Handled.insert(E);
    // fwrite(a, ...) and fwrite(&s, ...) alike: a file holds the bytes.
    if (UseClassifier::isFileCall(Call))
      if (RecordLegality &L = Results[Index.find(RD)->second];
          L.FileIOAt.isInvalid())
        L.FileIOAt = Arg->getExprLoc();
    std::string What = "'" + recordName(RD) + "' array";
    if (!Callee) {
      block(RD, Arg->getExprLoc(), What + " passed through a function pointer");
      return;
    }
    checkUntypedArgument(RD, Callee, Param, Arg);
    std::string Name = "'" + Callee->getNameAsString() + "'";
    if (Name == "'free'" || (reallocates(Call) && I == 0))
      return;
    checkSingleObjectArgument(RD, Callee, Param, Bare);
    if (isExternalRelease(Callee)) {
      external(RD, ExternalSymbol::Release, callableName(Callee),
               Arg->getExprLoc(),
               What + " released by " + Name +
                   ", which no analyzed file defines as a release function "
                   "(`void f(void *p)` passing p to free; name its file "
                   "too)");
      return;
    }
    if (!Param)
      block(RD, Arg->getExprLoc(),
            What + " passed to the variadic part of " + Name);
    else if (!Callee->hasBody() && !UseClassifier::isArrayLibraryCall(Call) &&
             UseClassifier::cudaCall(Call) == CudaCall::None)
      external(RD, ExternalSymbol::Use, Callee, Arg->getExprLoc(),
               What + " passed to " + Name +
                   ", which is not defined in the analyzed files",
               carriesToProgram(Callee, I));
  }

  /// Whether argument \p I of library function \p Callee only reaches the
  /// program's own code: the argument a thread's start routine receives.
  static bool carriesToProgram(const FunctionDecl *Callee, unsigned I) {
    llvm::StringRef Name =
        Callee->getIdentifier() ? Callee->getName() : llvm::StringRef();
    return (Name == "pthread_create" && I == 3) ||
           (Name == "thrd_create" && I == 2);
  }

  /// The objects of \p RD passed on untyped, to a parameter of the
  /// program's that reads them as another type (a checksum's `const void
  /// *`): their bytes are read as they lie (Blocker::Bytes); a rewrite of
  /// the arrays refuses them too.
  void checkUntypedArgument(const RecordDecl *RD, const FunctionDecl *Callee,
                            const ParmVarDecl *Param, const Expr *Arg) {
    // The library's own wrappers (an inline bsearch, CUDA's templates) and
    // the program's allocator and release functions move memory whole.
    if (Param && Callee->hasBody() && elementRecord(Param->getType()) != RD &&
        !inSystemHeader(SM, Callee->getLocation()) &&
        !isAllocatorFunction(Callee) && !isReallocLikeFunction(Callee) &&
        !isReleaseFunction(Callee))
      if (std::string As = bytesReadThrough(Callee, Param, RD); !As.empty())
        blockBytes(RD, Arg->getExprLoc(),
                   "'" + recordName(RD) + "' objects passed to '" +
                       Callee->getNameAsString() + "', which reads them as '" +
                       As + "'");
  }

  /// How \p Callee reads the memory its pointer parameter \p Param points
  /// to, if as bytes: the type it casts the parameter to (a checksum's
  /// `(const unsigned char *)p`), or the library function it passes it to
  /// (but free); "" if it only carries it (a thread's start routine casting
  /// its `void *` back to the struct, a release function).
  std::string bytesReadThrough(const FunctionDecl *Callee,
                               const ParmVarDecl *Param,
                               const RecordDecl *RD) const {
    QualType T = Param->getType();
    if (!T->isPointerType())
      return "";
    if (!T->getPointeeType()->isVoidType())
      return T.getAsString();
    std::string As;
    llvm::SmallVector<const Stmt *, 32> Todo{Callee->getBody()};
    auto Names = [&](const Expr *E) { return varOf(E) == Param; };
    while (!Todo.empty() && As.empty()) {
      const Stmt *S = Todo.pop_back_val();
      if (!S)
        continue;
      // (const unsigned char *)p, or p converted so in a call.
      if (const auto *Cast = dyn_cast<CastExpr>(S);
          Cast && Names(Cast->getSubExpr()) &&
          Cast->getType()->isPointerType() &&
          !Cast->getType()->getPointeeType()->isVoidType() &&
          elementRecord(Cast->getType()) != RD)
        As = Cast->getType().getAsString();
      if (const auto *Call = dyn_cast<CallExpr>(S))
        if (const FunctionDecl *F = Call->getDirectCallee();
            F && !F->hasBody() && F->getIdentifier() && F->getName() != "free")
          for (const Expr *Arg : Call->arguments())
            if (Names(Arg))
              As = "void *, to " + F->getNameAsString();
      Todo.append(S->child_begin(), S->child_end());
    }
    return As;
  }

  /// f(&local), f(&w.b): the address of one object of \p RD, not of an
  /// array's element, passed to \p Param of \p Callee, which takes the
  /// record's arrays: a handle once the layout changes, which one object
  /// does not make.
  void checkSingleObjectArgument(const RecordDecl *RD,
                                 const FunctionDecl *Callee,
                                 const ParmVarDecl *Param, const Expr *Arg) {
    // Defined here or in another analyzed file, the parameter changes
    // alike; defined nowhere, the call is an external symbol.
    if (Param && elementRecord(Param->getType()) == RD &&
        UseClassifier::singleObjectAddress(Arg, RD))
      block(RD, Arg->getExprLoc(),
            "address of one '" + recordName(RD) +
                "' (not an array's element) passed to '" +
                Callee->getNameAsString() + "', whose parameter '" +
                Param->getNameAsString() +
                "' becomes a handle of its arrays (not rewritten yet)");
  }

  /// A pointer to a candidate returned by \p Callee.
  void checkReturnedPointer(const CallExpr *Call, const FunctionDecl *Callee) {
    auto Scoped = memoryScope(Callee);
    if (const RecordDecl *RD = elementRecord(Call->getType());
        isCandidate(RD) && Call->getType()->isPointerType() && Callee &&
        !Callee->hasBody())
      external(RD, ExternalSymbol::Use, Callee, Call->getExprLoc(),
               "pointer returned by " + Callee->getNameAsString() +
                   ", which is not defined in the analyzed files");
    // One template text (Memory::alloc<T>) or a library's function serves
    // other types too: its result cannot become a handle.
    else if (isCandidate(RD) && Call->getType()->isPointerType() && Callee &&
             !isa<CXXMethodDecl>(Callee) && Uses.fixedTypes(Callee) &&
             UseClassifier::cudaCall(Call) == CudaCall::None &&
             allocatorName(Call).empty() && !UseClassifier::isSearch(Call))
      block(RD, Call->getExprLoc(),
            "'" + recordName(RD) + "' array passed to or returned by '" +
                Callee->getQualifiedNameAsString() +
                "', a function template instantiation or library function, "
                "whose types cannot change with the layout (not rewritten "
                "yet)");
  }

  /// View v(a, n): a constructor taking the array changes with it, here
  /// or in the analyzed file that defines it.
  bool VisitCXXConstructExpr(CXXConstructExpr *Make) {
    const CXXConstructorDecl *C = Make->getConstructor();
    if (inSystemHeader(SM, C->getLocation()))
      return true;
    for (unsigned I = 0; I < Make->getNumArgs() && I < C->getNumParams(); ++I) {
      const Expr *Arg = Make->getArg(I);
      auto Scoped = memoryScope(CudaMemory::arrayRoot(Arg));
      const RecordDecl *RD =
          elementRecord(Arg->IgnoreParenImpCasts()->getType());
      if (isCandidate(RD) && !C->hasBody())
        external(RD, ExternalSymbol::Use, C, Arg->getExprLoc(),
                 "'" + recordName(RD) + "' array passed to constructor '" +
                     C->getNameAsString() +
                     "', which is not defined in the analyzed files");
    }
    return true;
  }

  bool VisitCastExpr(CastExpr *Cast) {
    switch (Cast->getCastKind()) {
    case CK_BitCast:
    case CK_PointerToIntegral:
    case CK_IntegralToPointer:
    case CK_ReinterpretMemberPointer:
    case CK_BaseToDerived:
    case CK_DerivedToBase:
      break;
    default:
      return true;
    }
    const Expr *Sub = Cast->getSubExpr();
    auto Scoped = memoryScope(CudaMemory::arrayRoot(Sub));
    const RecordDecl *From = elementRecord(Sub->getType());
    const RecordDecl *To = elementRecord(Cast->getType());
    // A void * variable holding the array, converted back (its uses are
    // classified as the handle's).
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Sub->IgnoreParenImpCasts());
        Ref && To && Uses.voidHandleRecord(Ref->getDecl()) == To)
      return true;
    // Through `void *` the object is carried, not read: it is a T again
    // where it is cast back (a thread's argument). Other types read bytes.
    auto Bytes = [](QualType P) {
      return !P->isPointerType() || !P->getPointeeType()->isVoidType();
    };
    if (isCandidate(From) && From != To && !Handled.count(Cast))
      blockBytes(From, Cast->getExprLoc(),
                 "cast of '" + Sub->getType().getAsString() + "' to '" +
                     Cast->getType().getAsString() + "'",
                 Bytes(Cast->getType()));
    if (const auto *Call = dyn_cast<CallExpr>(Sub->IgnoreParenCasts());
        Call && isCandidate(To) && From != To &&
        isExternalAllocator(Call->getDirectCallee()))
      externalAllocator(To, Call->getDirectCallee(), Cast->getExprLoc());
    if (isCandidate(To) && From != To && allocatorName(Sub).empty() &&
        !UseClassifier::isSearch(Sub) && !UseClassifier::isMapping(Sub) &&
        !Sub->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull)) {
      const auto *Call = dyn_cast<CallExpr>(Sub->IgnoreParenCasts());
      const FunctionDecl *Source = Call ? Call->getDirectCallee() : nullptr;
      if (Source)
        block(To, Cast->getExprLoc(),
              notAllocatorReason(Source->getNameAsString(),
                                 notAllocatorFunction(Source)));
      else
        blockBytes(To, Cast->getExprLoc(),
                   "cast to '" + Cast->getType().getAsString() + "' from '" +
                       Sub->getType().getAsString() + "' (type punning)",
                   Bytes(Sub->getType()));
    }
    return true;
  }

  /// An array of \p RD from \p Callee, which this file only declares: the
  /// program must define it as an allocator function.
  void externalAllocator(const RecordDecl *RD, const FunctionDecl *Callee,
                         SourceLocation Loc) {
    external(RD, ExternalSymbol::Allocator, callableName(Callee), Loc,
             "pointer from '" + Callee->getNameAsString() +
                 "', which no analyzed file defines as an allocator "
                 "function (" +
                 allocatorKind(Callee) + "; name its file too)");
  }

  // --- OpenMP ---

  /// A clause that gives each thread its own copy of a variable (private,
  /// reduction, ...) or maps it to a device (map, to, from): of an array
  /// of the record, the copy would be its handle's, the storage shared by
  /// all threads; a handle mapped to a device would carry host pointers.
  /// `shared`, and a pointer's private copy (the pointer is the handle),
  /// are fine.
  bool VisitOMPExecutableDirective(OMPExecutableDirective *D) {
    for (const OMPClause *C : D->clauses()) {
      OpenMPEffect Effect = clauseEffect(C->getClauseKind());
      if (Effect != OpenMPEffect::None)
        for (const Stmt *S : C->children())
          openMPVariable(dyn_cast_or_null<Expr>(S),
                         llvm::omp::getOpenMPClauseName(C->getClauseKind()),
                         Effect == OpenMPEffect::Maps);
    }
    return true;
  }

  bool VisitOMPThreadPrivateDecl(OMPThreadPrivateDecl *D) {
    for (const Expr *E : D->varlists())
      openMPVariable(E, "threadprivate", /*Mapped=*/false);
    return true;
  }

  /// Without -fopenmp, the `#pragma omp` lines of \p D's file and of the
  /// main file whose clauses name it (a variable or a member), read from
  /// their text (OpenMPPragmas.h); a task, target region or private default
  /// names every array.
  void ignoredOpenMPClauses(const RecordDecl *RD, const DeclaratorDecl *D) {
    if (Ctx.getLangOpts().OpenMP)
      return;
    bool Pointer = D->getType()->isPointerType();
    llvm::SmallVector<FileID, 2> Files = {
        SM.getFileID(SM.getExpansionLoc(D->getLocation()))};
    if (Files[0] != SM.getMainFileID())
      Files.push_back(SM.getMainFileID());
    for (FileID File : Files) {
      auto [It, New] = PragmaNames.try_emplace(File);
      if (New)
        It->second = openMPPragmaNames(SM, File);
      for (const OpenMPName &N : It->second) {
        if ((!N.Name.empty() && N.Name != D->getNameAsString()) ||
            (Pointer && !N.Mapped))
          continue;
        std::string Where = " at " +
                            llvm::sys::path::filename(
                                SM.getFilename(SM.getLocForStartOfFile(File)))
                                .str() +
                            ":" + std::to_string(N.Line);
        block(RD, D->getLocation(),
              (N.Name.empty()
                   ? "the '#pragma omp " + N.Clause + "'" + Where +
                         " may copy or map '" + D->getNameAsString() + "'"
                   : "'" + N.Name + "' is named by clause '" + N.Clause +
                         "' of the '#pragma omp'" + Where) +
                  ", which is not parsed without -fopenmp (analyze with "
                  "-fopenmp)");
        return;
      }
    }
  }

  void openMPVariable(const Expr *E, StringRef Clause, bool Mapped) {
    while (E) { // a[0:n], a[i]: the array.
      E = E->IgnoreParenImpCasts();
      if (const auto *Section = dyn_cast<ArraySectionExpr>(E))
        E = Section->getBase();
      else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
        E = Subscript->getBase();
      else
        break;
    }
    // A variable, or a member (`params.items[0:n]`).
    const ValueDecl *VD = nullptr;
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
      VD = dyn_cast<VarDecl>(DRE->getDecl());
    else if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
      VD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    const RecordDecl *RD = VD ? elementRecord(VD->getType()) : nullptr;
    if (!isCandidate(RD) || (!Mapped && VD->getType()->isPointerType()))
      return;
    block(
        RD, E->getExprLoc(),
        std::string(VD->getType()->isPointerType() ? "pointer '" : "array '") +
            VD->getNameAsString() + "' in OpenMP clause '" + Clause.str() +
            "' (" +
            (Mapped ? "a device would get the handle's host pointers"
                    : "each thread's copy would be the handle's, its "
                      "storage shared") +
            ": not rewritten yet)");
  }

  /// `(T[]){...}`: an unnamed array, which no handle's storage replaces.
  bool VisitCompoundLiteralExpr(CompoundLiteralExpr *E) {
    if (const ArrayType *AT = E->getType()->getAsArrayTypeUnsafe())
      if (const RecordDecl *RD = asRecord(AT->getElementType());
          isCandidate(RD))
        block(RD, E->getBeginLoc(),
              "compound literal array of '" + recordName(RD) +
                  "' (not rewritten yet)");
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (std::optional<UseVerdict> V = Uses.derefHandle(UO)) {
      const auto *Ref =
          cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
      auto Scoped = memoryScope(Ref->getDecl());
      classified(Uses.handlePointerRecord(Ref->getDecl()), *V);
    }
    if (UO->getOpcode() != UO_AddrOf)
      return true;
    const Expr *Sub = UO->getSubExpr()->IgnoreParens();
    auto Scoped = memoryScope(CudaMemory::arrayRoot(Sub));
    if (const RecordDecl *RD = elementOfContainer(Sub))
      block(RD, UO->getOperatorLoc(),
            "address of an element of " + containerOfElement(Sub));
    if (const auto *Of = dyn_cast<ArraySubscriptExpr>(Sub))
      if (const DeclRefExpr *DRE = keptArray(Of->getBase()))
        if (const RecordDecl *RD = elementRecord(DRE->getType());
            isCandidate(RD))
          block(RD, UO->getOperatorLoc(),
                "address of an element of the __shared__ array '" +
                    DRE->getDecl()->getNameAsString() +
                    "' (its elements keep the record's layout)");
    QualType T = Sub->getType();
    // cudaMalloc(&d, ...) allocates the array d (CudaCalls.cpp).
    // f(&h) with f storing an array into it (HandlePointers.cpp): judged
    // at h, and as the argument of f (checkHandlePointerArgument).
    const ParmVarDecl *Out = Uses.handlePointerParameter(UO);
    if (const RecordDecl *RD = elementRecord(T);
        isCandidate(RD) && isa<DeclRefExpr, MemberExpr>(Sub) &&
        !Uses.cudaAllocationOf(Sub) &&
        !(Out && Uses.handlePointerRecord(Out) == RD))
      block(RD, UO->getOperatorLoc(),
            "address of the array or pointer variable taken");
    return true;
  }

  // --- std::vector<T> ---
  //
  // A vector of a candidate is used through the operations a rewritten
  // container provides: indexing (v[i], v.at(i)), range-for, the size and
  // growth operations, and passing it by reference to a function of the
  // program. Its parent visits first (the visitor walks top-down) and marks
  // the vector expression as one of these; any other use is refused where
  // the vector is named.

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
    if (E->getOperator() == OO_Subscript)
      containerUsed(E->getArg(0));
    iteratorOperation(E);
    // v = std::vector<T>(n): a new vector, of the same generated type.
    if (E->getOperator() == OO_Equal && E->getNumArgs() == 2 &&
        isCandidate(containerElementRecord(E->getArg(0)->getType())) &&
        isNewVector(E->getArg(1)))
      containerUsed(E->getArg(0));
    return true;
  }

  /// `return v;` from a function returning std::vector<T>: the container,
  /// returned the same way.
  bool VisitReturnStmt(ReturnStmt *RS) {
    const Expr *V = RS->getRetValue();
    if (!V)
      return true;
    const RecordDecl *RD = containerElementRecord(V->getType());
    const Expr *Returned = copiedFrom(V);
    if (isCandidate(RD) && Returned &&
        containerElementRecord(Returned->getType()) == RD)
      containerUsed(Returned);
    return true;
  }

  /// The comparison a sorting algorithm calls, or the function std::count_if
  /// and its kin call, gets elements of the container: proxies, or T copies
  /// of them. It may take them by const reference or by value as T, not by
  /// a reference it could write through.
  void checkComparison(const RecordDecl *RD, const CallExpr *Call,
                       const Expr *Compare, bool OnlyReads) {
    if (!Compare)
      return;
    std::string Passed =
        std::string(OnlyReads ? "the function" : "the comparison") +
        " passed to '" + Call->getDirectCallee()->getNameAsString() + "'";
    std::vector<QualType> Params;
    QualType T = Compare->IgnoreParenImpCasts()->getType();
    const auto *Named = dyn_cast<DeclRefExpr>(Compare->IgnoreParenImpCasts());
    if (const auto *FD =
            Named ? dyn_cast<FunctionDecl>(Named->getDecl()) : nullptr) {
      for (const ParmVarDecl *P : FD->parameters())
        Params.push_back(P->getType());
    } else if (const CXXRecordDecl *Class = T->getAsCXXRecordDecl()) {
      // A lambda or function object: every operator(), templates included.
      for (const Decl *D : Class->decls()) {
        const auto *Template = dyn_cast<FunctionTemplateDecl>(D);
        const auto *MD = dyn_cast<CXXMethodDecl>(
            Template ? Template->getTemplatedDecl() : D);
        if (MD && MD->getOverloadedOperator() == OO_Call)
          for (const ParmVarDecl *P : MD->parameters())
            Params.push_back(P->getType());
      }
    } else if (const auto *Proto = T->getPointeeOrArrayElementType()
                                       ->getAs<FunctionProtoType>()) {
      Params.assign(Proto->param_type_begin(), Proto->param_type_end());
    }
    if (Params.empty())
      return block(RD, Compare->getExprLoc(),
                   Passed + " is not a function, lambda or function object "
                            "whose parameters dlopt can see");
    for (QualType P : Params)
      if (!acceptsElement(P))
        return block(RD, Compare->getExprLoc(),
                     Passed + " takes the element as '" + P.getAsString() +
                         "' (only const references and copies are "
                         "rewritten)");
  }

  /// A const reference, or a copy of a type that is not deduced (a
  /// deduced one would be the proxy, still writing to the element).
  static bool acceptsElement(QualType P) {
    if (P->isReferenceType())
      return P.getNonReferenceType().isConstQualified() &&
             !P->isRValueReferenceType();
    return !P->isDependentType() && !P->getContainedAutoType();
  }

  /// A vector made on the spot: std::vector<T>(n), std::vector<T>{}.
  static bool isNewVector(const Expr *E) {
    E = E->IgnoreImplicit();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr()->IgnoreImplicit();
    return isa<CXXTemporaryObjectExpr>(E) ||
           (isa<CXXConstructExpr>(E) && !cast<CXXConstructExpr>(E)
                                             ->getConstructor()
                                             ->isCopyOrMoveConstructor());
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *E) {
    const Expr *Object = E->getImplicitObjectArgument();
    const CXXMethodDecl *MD = E->getMethodDecl();
    if (!Object || !MD)
      return true;
    // v[i].f(): on a copy, or through the proxy's forwarder.
    if (std::optional<ElementUse> Use = Uses.elementCall(E, Instantiation)) {
      classified(Use->Record, Use->Verdict);
      return true;
    }
    const RecordDecl *RD = containerElementRecord(Object->getType());
    if (!isCandidate(RD))
      return true;
    // A container is the host's own memory: in a CUDA unit what it does
    // blocks only the whole program (v.data() given to cudaMemcpy is the
    // host's array the boundary converts from).
    auto Scoped = memoryScope(CudaMemory::arrayRoot(Object));
    if (llvm::is_contained({"begin", "end", "cbegin", "cend"},
                           MD->getNameAsString())) {
      containerUsed(Object);
      if (!AllowedIterators.count(E))
        block(RD, E->getExprLoc(),
              "iterators of " + containerSpelling(Object->getType()) +
                  " other than an iterator variable's start and end "
                  "(auto it = v.begin(); it != v.end(); ++it) and v.begin(), "
                  "v.end() passed to std::sort, stable_sort, partial_sort, "
                  "nth_element, reverse, rotate or shuffle (not rewritten "
                  "yet)");
      return true;
    }
    static constexpr llvm::StringLiteral Supported[] = {
        "at",    "size",      "empty",        "resize",   "reserve",
        "clear", "push_back", "emplace_back", "pop_back", "capacity",
        "front", "back",      "fill",         "max_size"};
    // The vector itself is then accounted for: a refusal names the
    // operation, not the variable.
    containerUsed(Object);
    std::string Name = MD->getNameAsString();
    if (Name == "data")
      block(RD, E->getExprLoc(),
            "'data()' of a " + containerSpelling(Object->getType()) +
                ": the pointer to its elements escapes the container");
    else if (!llvm::is_contained(Supported, Name))
      block(RD, E->getExprLoc(),
            containerSpelling(Object->getType()) + "::" + Name +
                " is not one of the container operations dlopt rewrites "
                "(indexing, at, front, back, range-for, size, empty, capacity, "
                "resize, reserve, push_back, emplace_back, pop_back, "
                "clear, fill, max_size)");
    return true;
  }

  /// for (auto &b : v): the loop variable's binding is classified in
  /// VisitVarDecl.
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    containerUsed(S->getRangeInit());
    return true;
  }

  /// What \p E copies, if it is a copy (T(e), or e passed by value).
  static const Expr *copiedFrom(const Expr *E) {
    if (!E)
      return nullptr;
    E = E->IgnoreImplicit();
    if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
        Copy && Copy->getNumArgs() == 1)
      return Copy->getArg(0);
    return E;
  }

  /// One template text serves every instantiation. A function template
  /// whose parameter is a deduced `V &` gets the generated container for V
  /// once the caller's vector is rewritten, and a container spelled without
  /// template parameters (std::vector<Body>) is rewritten alike for every
  /// instantiation; a spelling with template parameters (std::vector<T>)
  /// would not match the container, and class templates are not rewritten
  /// yet. (The rewriter refuses the uses inside a template whose spelling
  /// would have to differ per instantiation.)
  void checkContainerInTemplate(const VarDecl *VD) {
    const RecordDecl *RD = containerElementRecord(VD->getType());
    const auto *FD =
        dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
    const FunctionDecl *Pattern =
        FD ? FD->getTemplateInstantiationPattern() : nullptr;
    if (!isCandidate(RD) || !Pattern || Clone)
      return;
    std::string What = containerSpelling(VD->getType()) + " '" +
                       VD->getNameAsString() + "' in an instantiation of " +
                       "template '" + FD->getQualifiedNameAsString() + "'";
    if (!FD->getPrimaryTemplate())
      return block(RD, VD->getLocation(),
                   What + ": containers in class templates are not "
                          "rewritten yet");
    QualType Written = writtenType(VD, Pattern);
    if (Written.isNull() ||
        (Written->isDependentType() && !isDeducedReference(Written, VD)))
      block(RD, VD->getLocation(),
            What + ": spelled with template parameters ('" +
                (Written.isNull() ? std::string("?") : Written.getAsString()) +
                "'), which the generated container would not match (only a "
                "deduced 'V &' parameter or a spelling without template "
                "parameters is rewritten)");
  }

  /// The type \p VD of an instantiation has in the template's text.
  static QualType writtenType(const VarDecl *VD, const FunctionDecl *Pattern) {
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      unsigned I = P->getFunctionScopeIndex();
      return I < Pattern->getNumParams() &&
                     !Pattern->getParamDecl(I)->isParameterPack()
                 ? Pattern->getParamDecl(I)->getType()
                 : QualType();
    }
    QualType Found;
    std::function<void(const Stmt *)> Find = [&](const Stmt *S) {
      if (!S || !Found.isNull())
        return;
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D);
              V && V->getLocation() == VD->getLocation())
            Found = V->getType();
      for (const Stmt *C : subStatements(S))
        Find(C);
    };
    Find(Pattern->getBody());
    return Found;
  }

  /// `V &` or `const V &` for a template type parameter V, as a parameter:
  /// the caller's container is deduced.
  static bool isDeducedReference(QualType Written, const VarDecl *VD) {
    return isa<ParmVarDecl>(VD) && Written->isReferenceType() &&
           Written.getNonReferenceType()
               .getCanonicalType()
               ->isTemplateTypeParmType();
  }

  /// The candidate whose container element \p E is: v[i], v.at(i), or the
  /// variable of a range-for over v.
  const RecordDecl *elementOfContainer(const Expr *E) const {
    return Uses.containerRecord(Uses.elementContainer(E));
  }
  /// "std::vector<P>" when \p E is an element of one.
  std::string containerOfElement(const Expr *E) const {
    return containerSpelling(Uses.elementContainer(E));
  }

  /// A std::array is an aggregate, the container that replaces it is not:
  /// `std::array<T, N> a;`, `a{}` and a list of elements keep their meaning
  /// (the rewriter spells the elements for the container's
  /// initializer_list constructor); a copy of another array does not.
  void checkArrayInitializer(const VarDecl *VD) {
    const RecordDecl *RD = containerElementRecord(VD->getType());
    // The generated std::array fills its elements with T() first.
    if (const auto *CXX = dyn_cast_or_null<CXXRecordDecl>(RD);
        isCandidate(RD) && isStdArray(VD->getType()) && CXX &&
        !CXX->hasDefaultConstructor())
      block(RD, VD->getLocation(),
            containerSpelling(VD->getType()) + " '" + VD->getNameAsString() +
                "' of a class without a default constructor (not rewritten "
                "yet)");
    const Expr *Init = VD->getInit();
    if (!isCandidate(RD) || !isStdArray(VD->getType()) ||
        VD->getType()->isReferenceType() || !Init)
      return;
    Init = Init->IgnoreImplicit();
    const auto *List = dyn_cast<InitListExpr>(Init);
    const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
    if (List && List->getSyntacticForm())
      List = List->getSyntacticForm(); // As written: {} has no elements.
    if (List || (Construct && Construct->getNumArgs() == 0))
      return;
    block(RD, VD->getLocation(),
          "initializer of " + containerSpelling(VD->getType()) + " '" +
              VD->getNameAsString() +
              "' (only default initialization and lists of elements are "
              "rewritten)");
  }

  /// An element bound to a reference through which it could be changed or
  /// outlive a layout that has no such object.
  void checkElementBinding(const Expr *Init, QualType Target,
                           SourceLocation Loc) {
    const RecordDecl *RD = Init ? elementOfContainer(Init) : nullptr;
    if (RD && Target->isReferenceType() &&
        !Target.getNonReferenceType().isConstQualified())
      block(RD, Loc,
            "an element of " + containerOfElement(Init) +
                " bound to a non-const reference '" + Target.getAsString() +
                "'");
  }

  /// An iterator of a candidate's vector is stepped (++it, --it), compared
  /// (with another or with v.begin(), v.end()), dereferenced (*it) or used
  /// to reach a field or member (it->f): what the generated container's
  /// iterator does alike. Elements reached this way are checked as v[i].
  void iteratorOperation(const CXXOperatorCallExpr *E) {
    OverloadedOperatorKind Op = E->getOperator();
    bool Compares = Op == OO_EqualEqual || Op == OO_ExclaimEqual ||
                    Op == OO_Less || Op == OO_Greater || Op == OO_LessEqual ||
                    Op == OO_GreaterEqual;
    if (!Compares && Op != OO_PlusPlus && Op != OO_MinusMinus &&
        Op != OO_Star && Op != OO_Arrow)
      return;
    bool OfIterator = llvm::any_of(E->arguments(), [&](const Expr *A) {
      return isCandidate(
          containerElementRecord(iteratorContainer(A->getType())));
    });
    if (!OfIterator)
      return;
    for (const Expr *A : E->arguments()) {
      const Expr *Arg = copiedFrom(A)->IgnoreImplicit(); // a const_iterator
      if (isa<DeclRefExpr>(Arg))
        Handled.insert(Arg);
      else if (const Expr *End = Compares ? beginOrEnd(Arg) : nullptr)
        AllowedIterators.insert(End);
    }
  }

  /// v.begin(), v.end(), v.cbegin() or v.cend() of a candidate's vector
  /// (no offset: an iterator variable starts or ends there); null otherwise.
  const Expr *beginOrEnd(const Expr *E) const {
    const CXXMemberCallExpr *Call =
        E ? containerBeginEnd(E, /*WithOffset=*/false) : nullptr;
    QualType T =
        Call ? Call->getImplicitObjectArgument()->getType() : QualType();
    return Call && isCandidate(containerElementRecord(T)) && !isStdArray(T)
               ? Call
               : nullptr;
  }

  /// A template instantiation given an overload for the arrays it takes
  /// must be called so that the overload is chosen (its template arguments
  /// dropped where the call spells them).
  void cloneReference(const Expr *Ref, const CallExpr *Call) {
    std::optional<UseVerdict> V = Uses.cloneReference(Ref, Call);
    if (!V || (V->Use && V->Use->Kind == UseKind::HandleFlow))
      return;
    for (const RecordDecl *RD :
         Uses.cloneRecords(UseClassifier::namedFunction(Ref)))
      classified(RD, *V);
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (!CloneCallees.count(DRE))
      cloneReference(DRE, nullptr);
    // Through a reference, its array's memory says where a use blocks (a
    // kernel's refusal blocks both strategies).
    if (std::optional<ElementUse> E = Uses.elementReferenceUse(DRE)) {
      auto ArrayScoped =
          memoryScope(Uses.elementReference(DRE->getDecl())->arrayDecl());
      classified(E->Record, E->Verdict);
    }
    auto Scoped = memoryScope(DRE->getDecl());
    if (const RecordDecl *RD = Uses.handleVarRecord(DRE->getDecl()))
      classified(RD, Uses.reference(DRE));
    if (const RecordDecl *RD = Uses.handlePointerRecord(DRE->getDecl()))
      classified(RD, Uses.handlePointerReference(DRE));
    if (const RecordDecl *RD =
            containerElementRecord(iteratorContainer(DRE->getType()));
        isCandidate(RD) && !Handled.count(DRE))
      block(RD, DRE->getLocation(),
            "iterator '" + DRE->getDecl()->getNameAsString() + "' of " +
                containerSpelling(iteratorContainer(DRE->getType())) +
                " used other than to step, compare, dereference or reach a "
                "member (not rewritten yet)");
    if (const RecordDecl *RD = elementRecord(DRE->getType());
        isCandidate(RD) && keepsRecord(DRE->getDecl()) && !Handled.count(DRE))
      block(RD, DRE->getLocation(),
            "'" + DRE->getDecl()->getNameAsString() +
                "' is a __shared__ array of '" + recordName(RD) +
                "' used other than by indexing (its elements keep the "
                "record's layout; a pointer to them cannot take the new one)");
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    containerUse(DRE, DRE->getLocation(),
                 VD && VD->getType()->isReferenceType() && !isa<ParmVarDecl>(VD)
                     ? "is a local reference to another vector"
                     : "is used other than by indexing, range-for, size and "
                       "growth operations or passing it by reference");
    return true;
  }

  /// A vector named by \p E (a variable or a member) that no parent
  /// accounted for.
  void containerUse(const Expr *E, SourceLocation Loc, StringRef Why) {
    const RecordDecl *RD = containerElementRecord(E->getType());
    if (!isCandidate(RD) || Handled.count(E))
      return;
    const Decl *Named = isa<DeclRefExpr>(E)
                            ? cast<DeclRefExpr>(E)->getDecl()
                            : cast<MemberExpr>(E)->getMemberDecl();
    block(RD, Loc,
          containerSpelling(E->getType()) + " '" +
              cast<NamedDecl>(Named)->getNameAsString() + "' " + Why.str());
  }

  bool VisitOffsetOfExpr(OffsetOfExpr *E) {
    if (const RecordDecl *RD = asRecord(E->getTypeSourceInfo()->getType());
        isCandidate(RD))
      block(RD, E->getBeginLoc(),
            "offsetof: field offsets change with the layout");
    return true;
  }

  bool VisitGCCAsmStmt(GCCAsmStmt *S) {
    for (const Stmt *Child : S->children())
      if (const auto *E = dyn_cast_or_null<Expr>(Child))
        if (const RecordDecl *RD =
                elementRecord(E->IgnoreParenImpCasts()->getType());
            isCandidate(RD))
          block(RD, S->getAsmLoc(), "array used by inline asm");
    return true;
  }

  bool VisitMemberExpr(MemberExpr *ME) {
    auto Scoped = memoryScope(CudaMemory::arrayRoot(ME));
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    // An element of an array that keeps the record (an OpenCL __local or
    // CUDA __shared__ tile) is not rewritten, wherever it is spelled.
    const auto *Of =
        dyn_cast<ArraySubscriptExpr>(ME->getBase()->IgnoreParenImpCasts());
    bool Kept = Of && !elementRecordOf(Of->getBase());
    if (FD && isCandidate(FD->getParent()) && !Kept)
      checkMacro(FD->getParent(), ME->getExprLoc());
    if (std::optional<UseVerdict> V = Uses.arrayMember(ME))
      classified(elementRecord(ME->getType()), *V);
    if (std::optional<UseVerdict> V = Uses.memberHandle(ME))
      classified(Uses.memberHandleRecord(ME->getMemberDecl()), *V);
    if (std::optional<UseVerdict> V = Uses.unnamedArray(ME))
      classified(elementRecord(ME->getBase()->getType()), *V);
    if (FD)
      containerUse(ME, ME->getMemberLoc(),
                   "is used other than by indexing, range-for, size and "
                   "growth operations or passing it by reference");
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    auto Scoped = memoryScope(CudaMemory::arrayRoot(E->getBase()));
    // tile[k] of a __shared__ tile: the one use it may have (its parent
    // visits first: VisitDeclRefExpr sees the mark).
    if (const DeclRefExpr *DRE = keptArray(E->getBase()))
      Handled.insert(DRE);
    if (const RecordDecl *RD = elementRecordOf(E->getBase()); isCandidate(RD))
      checkMacro(RD, E->getExprLoc());
    if (std::optional<UseVerdict> V = Uses.unnamedArray(E))
      classified(elementRecord(E->getBase()->getType()), *V);
    return true;
  }

private:
  /// Every use of a handle has a kind the rewriter renders, or blocks the
  /// record (UseClassifier.h).
  /// \p At: where a use with no expression of its own is (a declaration).
  void classified(const RecordDecl *RD, const UseVerdict &V,
                  SourceLocation At = SourceLocation()) {
    if (!V.Use) {
      Unclassified.push_back({RD, {V.Refusal, V.Loc, false, {}, Scope}});
      return;
    }
    const HandleUse &U = *V.Use;
    SourceLocation Loc = At.isValid() ? At
                         : U.Site     ? U.Site->getExprLoc()
                         : U.Var      ? U.Var->getLocation()
                         : U.Handle   ? U.Handle->getExprLoc()
                                      : SourceLocation();
    auto It = Index.find(RD);
    if (Loc.isValid() && It != Index.end()) {
      RecordLegality &L = Results[It->second];
      L.Uses.push_back({Loc, U.Kind});
      if (U.Kind == UseKind::LibrarySort)
        if (const FunctionDecl *Cmp =
                UseClassifier::qsortComparator(cast<CallExpr>(U.Site));
            Cmp && !Cmp->hasBody())
          external(RD, ExternalSymbol::SortedWith, Cmp, Loc,
                   "qsort with comparator '" + Cmp->getNameAsString() +
                       "', which is not defined in the analyzed files");
      // A bsearch's result is a sub-array too: the array moved to it.
      // So is a stepped handle, and a comparison's sub-array.
      bool SubArray = U.Kind == UseKind::SubArray || U.Offset ||
                      U.Kind == UseKind::LibrarySearch ||
                      U.Kind == UseKind::HandleStep ||
                      (U.Kind == UseKind::HandleComparison && U.Index);
      if (SubArray && L.SubArrayAt.isInvalid())
        L.SubArrayAt = Loc;
      if (U.Kind == UseKind::CudaCall && L.CudaCallAt.isInvalid())
        L.CudaCallAt = Loc;
    }
  }

  /// A use without a kind blocks the record; where a specific rule above
  /// already blocked it on the same line (a cast, a library call) for the
  /// same strategies or both, that reason says more and is the one
  /// reported.
  void blockUnclassified() {
    for (auto &[RD, Issue] : Unclassified) {
      auto It = Index.find(RD);
      if (It == Index.end())
        continue;
      RecordLegality &L = Results[It->second];
      auto SameLine = [&](SourceLocation Seen) {
        return SM.getFileID(SM.getExpansionLoc(Seen)) ==
                   SM.getFileID(SM.getExpansionLoc(Issue.Loc)) &&
               SM.getExpansionLineNumber(Seen) ==
                   SM.getExpansionLineNumber(Issue.Loc);
      };
      // Only a reason that blocks as much: an issue of one strategy (the
      // host's vector at the boundary) leaves the other to this use.
      if (llvm::any_of(L.Issues, [&](const LegalityIssue &I) {
            return SameLine(I.Loc) &&
                   (I.Blocks == Blocker::Both || I.Blocks == Issue.Blocks);
          }))
        continue;
      // An external symbol explains the line only while the whole program
      // does not resolve it (Blocker::Shadowed).
      llvm::SaveAndRestore Scoped(Scope, Issue.Blocks);
      block(RD, Issue.Loc, Issue.Reason,
            llvm::any_of(L.ExternalLocs, SameLine));
    }
  }

  /// A macro argument its expansion names more than once is one text,
  /// rendered once: every use of it must be of one kind.
  void blockArgumentsReadTwoWays() {
    for (auto &[RD, I] : Index) {
      RecordLegality &L = Results[I];
      llvm::DenseMap<SourceLocation, UseKind> Seen;
      for (const auto &[Loc, Kind] : L.Uses) {
        if (!Loc.isMacroID() || !SM.isMacroArgExpansion(Loc))
          continue;
        auto [It, New] = Seen.try_emplace(SM.getSpellingLoc(Loc), Kind);
        if (!New && It->second != Kind)
          block(RD, Loc,
                "a macro argument its macro uses twice, in two ways (" +
                    std::string(useKindName(It->second)) + ", " +
                    useKindName(Kind) + ")");
      }
    }
  }

  bool isCandidate(const RecordDecl *RD) const { return RD && Index.count(RD); }

  // --- CUDA: host and device memory (CudaMemory.h) ---

  /// In a CUDA unit, what concerns an array of the host's own memory
  /// blocks only the whole-program strategy: the boundary leaves it as
  /// written. What concerns device memory, or both, blocks both.
  llvm::SaveAndRestore<Blocker::Scope> memoryScope(const ValueDecl *D) {
    Blocker::Scope S = Scope;
    if (Ctx.getLangOpts().CUDA && D &&
        !(Uses.cudaMemory().sideOf(D) & CudaMemory::Device))
      S = Blocker::WholeOnly;
    return llvm::SaveAndRestore(Scope, S);
  }

  /// An array that holds host memory in one place and device memory in
  /// another has no one side for the boundary to convert at.
  void blockMixedMemory() {
    if (!Ctx.getLangOpts().CUDA)
      return;
    for (const ValueDecl *D : Uses.cudaMemory().mixed()) {
      const RecordDecl *RD =
          isa<FunctionDecl>(D)
              ? elementRecord(cast<FunctionDecl>(D)->getReturnType())
              : elementRecord(D->getType());
      if (!isCandidate(RD))
        continue;
      auto [HostAt, DeviceAt] = Uses.cudaMemory().evidence(D);
      // "line 59" in the file of the blocker, else "file:line:col".
      auto Where = [&](SourceLocation Loc) {
        return SM.getFileID(SM.getExpansionLoc(Loc)) ==
                       SM.getFileID(SM.getExpansionLoc(D->getLocation()))
                   ? "line " + std::to_string(SM.getExpansionLineNumber(Loc))
                   : formatLoc(SM, Loc);
      };
      llvm::SaveAndRestore Scoped(Scope, Blocker::BoundaryOnly);
      block(RD, D->getLocation(),
            "host memory (" + Where(HostAt) + ") and device memory (" +
                Where(DeviceAt) + ") reach the same variables, '" +
                D->getNameAsString() +
                "' among them, through assignments or calls: the boundary "
                "strategy cannot give them two layouts");
    }
  }

  static bool inNamedNamespace(const RecordDecl *RD) {
    for (const DeclContext *DC = RD->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
          NS && !NS->isAnonymousNamespace())
        return true;
    return false;
  }

  void containerUsed(const Expr *E) {
    if (E)
      Handled.insert(E->IgnoreParenImpCasts());
  }

  void block(const RecordDecl *RD, SourceLocation Loc, std::string Reason,
             bool Shadowed = false) {
    blockingIssue(RD, Loc, std::move(Reason), Shadowed);
  }

  /// block() for a use of the record's objects as bytes, if \p Bytes
  /// (Blocker::Bytes).
  void blockBytes(const RecordDecl *RD, SourceLocation Loc, std::string Reason,
                  bool Bytes = true) {
    if (LegalityIssue *Issue = blockingIssue(RD, Loc, std::move(Reason)))
      Issue->Bytes |= Bytes;
  }

  /// block()'s issue, new or seen before; null for a record not asked
  /// about.
  LegalityIssue *blockingIssue(const RecordDecl *RD, SourceLocation Loc,
                               std::string Reason, bool Shadowed = false) {
    auto It = Index.find(RD);
    if (It == Index.end())
      return nullptr;
    std::vector<LegalityIssue> &Issues = Results[It->second].Issues;
    for (LegalityIssue &Seen : Issues)
      if (Seen.Loc == Loc && Seen.Reason == Reason)
        return &Seen;
    Issues.push_back({std::move(Reason), Loc, Shadowed, {}, Scope});
    return &Issues.back();
  }

  /// A symbol with external linkage: its other side may be in another
  /// translation unit, which only the whole program can tell.
  void external(const RecordDecl *RD, ExternalSymbol::Kind K,
                const NamedDecl *Symbol, SourceLocation Loc, std::string Reason,
                bool Carried = false) {
    external(RD, K, Symbol->getNameAsString(), Loc, std::move(Reason), Carried);
  }

  void external(const RecordDecl *RD, ExternalSymbol::Kind K,
                std::string Symbol, SourceLocation Loc, std::string Reason,
                bool Carried = false) {
    auto It = Index.find(RD);
    if (It == Index.end())
      return;
    RecordLegality &L = Results[It->second];
    SourcePos Pos = formatLoc(SM, Loc);
    for (const ExternalSymbol &Seen : L.Externals)
      if (Seen.K == K && Seen.Location == Pos && Seen.Reason == Reason)
        return;
    L.Externals.push_back({K, std::move(Symbol), std::move(Reason),
                           std::move(Pos), Scope == Blocker::WholeOnly,
                           Carried});
    L.ExternalLocs.push_back(Loc);
  }

  // --- OpenCL host code ---

  /// Connects the OpenCL host calls of this file (OpenCLHost.h): each
  /// buffer of a record bound to a kernel argument must meet that kernel's
  /// parameter in an analyzed kernel file; what cannot be connected, or
  /// rewritten with the buffers (OpenCLUses.cpp), refuses the record.
  void checkOpenCLHost() {
    std::vector<const RecordDecl *> Candidates;
    for (const auto &[RD, I] : Index)
      Candidates.push_back(RD);
    OpenCLHost Host =
        OpenCLHost::forRecords(Ctx, Uses, std::move(Candidates), KnownBuffers);
    if (!Host.collect())
      return;
    for (auto &[RD, I] : Index)
      Results[I].BufferHolders = Host.bufferHolders(RD);
    for (const ClProblem &P : Host.problems()) {
      llvm::SaveAndRestore Scoped(Scope, P.Blocks);
      block(P.Record, P.At, P.Reason);
    }
    // Kernels written in a host string are not analyzed: say so where a
    // binding finds no kernel file.
    std::string Embedded;
    if (SourceLocation At = Host.embeddedKernels(); At.isValid())
      Embedded = " (the kernels' source is a string of the host file, at " +
                 formatLoc(Ctx.getSourceManager(), At) +
                 ", which is not analyzed yet)";
    // An index not followed binds some argument ("k#*"): the kernel's
    // parameter is not reported unbound besides the problem.
    for (const ClKernelArgument &A : Host.arguments()) {
      std::string Index = A.IndexKnown ? std::to_string(A.Index) : "*";
      std::string Bound = "OpenCL buffer '" + A.Buffer->getNameAsString() +
                          "' bound to " +
                          (A.IndexKnown ? "argument " + Index + " of " : "");
      // A kernel another file creates into the holder (resolved over the
      // program, WholeProgram.cpp); unresolved, none does.
      std::string Reason =
          OpenCLHost::isHolderSymbol(A.Kernel)
              ? Bound + "the kernel held in '" + A.Kernel.substr(1) +
                    "', into which the analyzed host files create no kernel "
                    "from a string literal with clCreateKernel, or more than "
                    "one (a holder of several kernels is not followed yet)"
              : Bound + "kernel '" + A.Kernel +
                    "', which no analyzed kernel file defines with a '" +
                    recordName(A.Record) + "' array" +
                    (A.IndexKnown ? " there" : "") + Embedded;
      external(A.Record, ExternalSymbol::KernelArgument,
               kernelArgumentSymbol(A.Kernel, Index), A.At, Reason);
    }
  }

  static std::string kernelArgumentSymbol(const std::string &Kernel,
                                          const std::string &Index) {
    return Kernel + "#" + Index;
  }

  bool pointerToPointer(const VarDecl *VD, QualType T) {
    if (!T->isPointerType() || Uses.handlePointerRecord(VD))
      return true;
    if (const RecordDecl *RD = elementRecord(T->getPointeeType());
        isCandidate(RD) && T->getPointeeType()->isPointerType())
      block(RD, VD->getLocation(),
            VD->getName().empty()
                ? std::string("pointer to pointer in a function's type (a "
                              "function pointer's parameter, say)")
                : "pointer to pointer '" + VD->getNameAsString() + "'");
    return true;
  }

  bool sameArray(const Expr *A, const Expr *B) const {
    const ValueDecl *RA = rootDecl(A), *RB = rootDecl(B);
    if (!RA || !RB)
      return false;
    if (RA == RB)
      return true;
    // The walking-pointer idiom: `for (p = a; p < a + n; ++p)`.
    auto IsLocalPointer = [](const ValueDecl *D) {
      const auto *VD = dyn_cast<VarDecl>(D);
      return VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
             VD->getType()->isPointerType();
    };
    return IsLocalPointer(RA) || IsLocalPointer(RB);
  }

  void checkMacro(const RecordDecl *RD, SourceLocation Loc) {
    if (!Loc.isMacroID())
      return;
    // Written in the arguments of the invocation the file holds (through
    // any number of macros that pass it on): text of the file, rewritten
    // where it is.
    CharSourceRange Invocation = SM.getExpansionRange(Loc);
    SourceLocation Spelling = SM.getSpellingLoc(Loc);
    bool InFile =
        Invocation.getBegin().isFileID() && Invocation.getEnd().isFileID();
    if (InFile &&
        SM.getFileID(Spelling) == SM.getFileID(Invocation.getBegin()) &&
        !SM.isBeforeInTranslationUnit(Spelling, Invocation.getBegin()) &&
        SM.isBeforeInTranslationUnit(Spelling, Invocation.getEnd()))
      return;
    StringRef Macro = macroSpelling(Loc);
    LegalityIssue *Issue = blockingIssue(
        RD, SM.getExpansionLoc(Loc),
        "use spelled inside the body of macro '" + Macro.str() + "'");
    // Spelled in a macro's body (or a body that body invokes): that
    // invocation, expanded in place, puts the use in the file.
    if (Issue && InFile)
      Issue->Invocation = expandableInvocation(Loc, Invocation);
  }

  /// The invocation to expand for the token at \p Loc, spelled in a macro's
  /// body, to land in the file: the outermost invocation \p Outer holds as
  /// text whose macro a program header defines. A system macro's (`assert`)
  /// is not expanded, but a program's macro invoked in its argument
  /// (`assert(DOT(a, b) > 0)`) can be. \p Outer if there is none.
  CharSourceRange expandableInvocation(SourceLocation Loc,
                                       CharSourceRange Outer) const {
    CharSourceRange Best = Outer;
    for (SourceLocation L = Loc; L.isMacroID();) {
      while (L.isMacroID() && SM.isMacroArgExpansion(L))
        L = SM.getImmediateSpellingLoc(L);
      if (!L.isMacroID())
        break;
      // L is spelled in the body of the macro invoked at Invocation.
      CharSourceRange Invocation = SM.getImmediateExpansionRange(L);
      SourceLocation B = SM.getSpellingLoc(Invocation.getBegin());
      SourceLocation E = SM.getSpellingLoc(Invocation.getEnd());
      // An invocation written in a macro's #define lies outside Outer.
      bool AsText = SM.getFileID(B) == SM.getFileID(Outer.getBegin()) &&
                    SM.getFileID(E) == SM.getFileID(Outer.getBegin()) &&
                    !SM.isBeforeInTranslationUnit(B, Outer.getBegin()) &&
                    !SM.isBeforeInTranslationUnit(Outer.getEnd(), E);
      if (AsText && !SM.isInSystemHeader(SM.getSpellingLoc(L)))
        Best = CharSourceRange(SourceRange(B, E), Invocation.isTokenRange());
      L = Invocation.getBegin();
    }
    return Best;
  }

  /// The name of the macro whose body spells the token at \p Loc.
  StringRef macroSpelling(SourceLocation Loc) const {
    // Arguments passed on lead to the body that wrote the token.
    while (Loc.isMacroID() && SM.isMacroArgExpansion(Loc))
      Loc = SM.getImmediateSpellingLoc(Loc);
    return Loc.isMacroID()
               ? Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts())
               : StringRef();
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  /// Per file, what its `#pragma omp` lines name (without -fopenmp).
  llvm::DenseMap<FileID, std::vector<OpenMPName>> PragmaNames;
  llvm::DenseMap<const RecordDecl *, unsigned> Index;
  std::vector<RecordLegality> Results;
  /// The program's OpenCL buffer holders (checkLegality).
  const std::map<std::string, std::string> *KnownBuffers;
  /// The strategies the issues found now block (LegalityIssue::Blocks).
  Blocker::Scope Scope = Blocker::Both;
  UseClassifier Uses;
  /// Refusals of the use classifier, blocked after the traversal.
  std::vector<std::pair<const RecordDecl *, LegalityIssue>> Unclassified;
  llvm::SmallPtrSet<const Expr *, 16> Handled;
  /// The callees of the calls visited (cloneReference).
  llvm::SmallPtrSet<const Expr *, 16> CloneCallees;
  /// begin() and end() calls that are the range of a standard algorithm,
  /// or start, or are compared with, an iterator variable.
  llvm::SmallPtrSet<const Expr *, 8> AllowedIterators;
  /// Range-for variables over a candidate's vector.
};

} // namespace

bool dlopt::definesMain(ASTContext &Ctx) {
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      if (FD->isMain() && FD->hasBody())
        return true;
  return false;
}

std::vector<RecordLegality>
dlopt::checkLegality(ASTContext &Ctx, llvm::ArrayRef<CandidateRecord> Cands,
                     const std::map<std::string, std::string> *KnownBuffers) {
  LegalityChecker Checker(Ctx, Cands, KnownBuffers);
  Checker.run(Cands);
  return Checker.take();
}
