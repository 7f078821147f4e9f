//===- AstUtil.cpp - Small AST questions the analysis asks everywhere -----===//
#include "analysis/AstUtil.h"
#include "analysis/AllocatorFunctions.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace dlopt;

const RecordDecl *dlopt::asRecord(QualType Ty) {
  if (Ty.isNull())
    return nullptr;
  const RecordType *RT = Ty.getCanonicalType()->getAs<RecordType>();
  if (!RT)
    return nullptr;
  const RecordDecl *RD = RT->getDecl()->getDefinition();
  return RD && !RD->isUnion() ? RD : nullptr;
}

/// OpenCL's __local and __private copies of elements (a work-group's tile,
/// a work-item's array) are not the buffers the host lays out: they keep
/// the record as it is, filled by whole-element copies.
static const RecordDecl *globalRecord(QualType Element) {
  LangAS AS = Element.getAddressSpace();
  if (AS == LangAS::opencl_local || AS == LangAS::opencl_private)
    return nullptr;
  return asRecord(Element);
}

const RecordDecl *dlopt::elementRecord(QualType Ty) {
  if (Ty.isNull())
    return nullptr;
  QualType Canon = Ty.getCanonicalType();
  if (const auto *PT = Canon->getAs<PointerType>())
    return globalRecord(PT->getPointeeType());
  if (const ArrayType *AT = Canon->getAsArrayTypeUnsafe()) {
    // `__local T tile[N]` in a kernel: the address space qualifies the
    // array's type, not (in the AST) its element type.
    LangAS AS = Canon.getAddressSpace();
    if (AS == LangAS::opencl_local || AS == LangAS::opencl_private)
      return nullptr;
    return globalRecord(AT->getElementType());
  }
  return nullptr;
}

bool dlopt::keepsRecord(const ValueDecl *D) {
  // CUDA's memory spaces are attributes of the variable: clang does not
  // qualify its type with them.
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  return VD && VD->hasAttr<CUDASharedAttr>() && VD->getType()->isArrayType();
}

const DeclRefExpr *dlopt::keptArray(const Expr *Array) {
  const auto *DRE =
      Array ? dyn_cast<DeclRefExpr>(Array->IgnoreParenImpCasts()) : nullptr;
  return DRE && keepsRecord(DRE->getDecl()) ? DRE : nullptr;
}

const RecordDecl *dlopt::elementRecordOf(const Expr *Array) {
  if (!Array || keptArray(Array))
    return nullptr;
  return elementRecord(Array->getType());
}

/// The std::vector or std::array specialization \p Ty is or refers to.
static const ClassTemplateSpecializationDecl *stdContainer(QualType Ty) {
  if (Ty.isNull())
    return nullptr;
  const auto *RT =
      Ty.getNonReferenceType().getCanonicalType()->getAs<RecordType>();
  const auto *Spec =
      RT ? dyn_cast<ClassTemplateSpecializationDecl>(RT->getDecl()) : nullptr;
  if (!Spec || !Spec->isInStdNamespace() ||
      (Spec->getName() != "vector" && Spec->getName() != "array"))
    return nullptr;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() == 0 || Args[0].getKind() != TemplateArgument::Type)
    return nullptr;
  return Spec;
}

const RecordDecl *dlopt::containerElementRecord(QualType Ty) {
  const ClassTemplateSpecializationDecl *Spec = stdContainer(Ty);
  return Spec ? asRecord(Spec->getTemplateArgs()[0].getAsType()) : nullptr;
}

bool dlopt::isStdArray(QualType Ty) {
  const ClassTemplateSpecializationDecl *Spec = stdContainer(Ty);
  return Spec && Spec->getName() == "array";
}

uint64_t dlopt::stdArrayLength(QualType Ty) {
  const ClassTemplateSpecializationDecl *Spec = stdContainer(Ty);
  if (!Spec || Spec->getName() != "array")
    return 0;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  return Args.size() > 1 && Args[1].getKind() == TemplateArgument::Integral
             ? Args[1].getAsIntegral().getZExtValue()
             : 0;
}

std::string dlopt::containerSpelling(QualType Ty) {
  const RecordDecl *RD = containerElementRecord(Ty);
  if (!RD)
    return Ty.getAsString();
  if (!isStdArray(Ty))
    return "std::vector<" + recordName(RD) + ">";
  return "std::array<" + recordName(RD) + ", " +
         std::to_string(stdArrayLength(Ty)) + ">";
}

ContainerElement dlopt::asContainerElement(const Expr *E) {
  ContainerElement Out;
  if (!E)
    return Out;
  E = E->IgnoreParenImpCasts();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      Out = {Op->getArg(0), Op->getArg(1), nullptr, QualType(), false};
    // *it and it-> on an iterator of a vector.
    if ((Op->getOperator() == OO_Star || Op->getOperator() == OO_Arrow) &&
        Op->getNumArgs() == 1) {
      QualType Container = iteratorContainer(Op->getArg(0)->getType());
      if (!Container.isNull()) {
        Out.Container = Op->getArg(0);
        Out.ContainerType = Container;
        Out.Record = containerElementRecord(Container);
        Out.ViaIterator = true;
        return Out;
      }
    }
  } else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    if (MD && MD->getIdentifier() && MD->getName() == "at" &&
        Call->getNumArgs() == 1)
      Out = {Call->getImplicitObjectArgument(), Call->getArg(0), nullptr,
             QualType(), false};
    // One element, at no index the analysis can follow.
    if (MD && MD->getIdentifier() &&
        (MD->getName() == "front" || MD->getName() == "back") &&
        Call->getNumArgs() == 0)
      Out = {Call->getImplicitObjectArgument(), nullptr, nullptr, QualType(),
             false};
  }
  if (Out.Container) {
    Out.ContainerType = Out.Container->getType();
    Out.Record = containerElementRecord(Out.ContainerType);
  }
  return Out.Record ? Out : ContainerElement();
}

QualType dlopt::iteratorContainer(QualType Ty) {
  if (Ty.isNull())
    return QualType();
  // libstdc++'s __gnu_cxx::__normal_iterator<T *, std::vector<T>>.
  const auto *RT =
      Ty.getNonReferenceType().getCanonicalType()->getAs<RecordType>();
  const auto *Spec =
      RT ? dyn_cast<ClassTemplateSpecializationDecl>(RT->getDecl()) : nullptr;
  if (!Spec || Spec->getName() != "__normal_iterator" ||
      Spec->getTemplateArgs().size() != 2 ||
      Spec->getTemplateArgs()[1].getKind() != TemplateArgument::Type)
    return QualType();
  QualType Container = Spec->getTemplateArgs()[1].getAsType();
  return containerElementRecord(Container) && !isStdArray(Container)
             ? Container
             : QualType();
}

const CXXMemberCallExpr *dlopt::containerBeginEnd(const Expr *E,
                                                  bool WithOffset) {
  E = E->IgnoreImplicit();
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
      Copy && Copy->getNumArgs() == 1)
    E = Copy->getArg(0)->IgnoreImplicit();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      WithOffset && Op &&
      (Op->getOperator() == OO_Plus || Op->getOperator() == OO_Minus) &&
      Op->getNumArgs() == 2 && Op->getArg(1)->getType()->isIntegerType())
    return containerBeginEnd(Op->getArg(0), WithOffset);
  if (const auto *BO = dyn_cast<BinaryOperator>(E); // std::array's T *
      WithOffset && BO && BO->isAdditiveOp() &&
      BO->getRHS()->getType()->isIntegerType())
    return containerBeginEnd(BO->getLHS(), WithOffset);
  const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
  const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || Call->getNumArgs() != 0 ||
      !llvm::is_contained({"begin", "end", "cbegin", "cend"}, MD->getName()) ||
      !containerElementRecord(Call->getImplicitObjectArgument()->getType()))
    return nullptr;
  return Call;
}

const Expr *dlopt::containerStorage(const Expr *E) {
  E = E->IgnoreParenCasts();
  const Expr *Container = nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *Op =
            dyn_cast<CXXOperatorCallExpr>(UO->getSubExpr()->IgnoreParens());
        Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      if (const auto *Zero =
              dyn_cast<IntegerLiteral>(Op->getArg(1)->IgnoreParenImpCasts());
          Zero && Zero->getValue() == 0)
        Container = Op->getArg(0);
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E))
    if (const CXXMethodDecl *MD = Call->getMethodDecl();
        MD && MD->getIdentifier() && MD->getName() == "data" &&
        Call->getNumArgs() == 0)
      Container = Call->getImplicitObjectArgument();
  if (!Container || !containerElementRecord(Container->getType()))
    return nullptr;
  return Container->IgnoreParenImpCasts();
}

static bool sameExpr(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

ContainerAlgorithm dlopt::asContainerAlgorithm(const CallExpr *Call) {
  struct Algorithm {
    llvm::StringLiteral Name;
    unsigned Iterators;
    bool Compares; // Else the argument after the iterators is a generator.
    bool OnlyReads = false; // Its function reads each element.
  };
  static constexpr Algorithm Algorithms[] = {{"sort", 2, true},
                                             {"stable_sort", 2, true},
                                             {"partial_sort", 3, true},
                                             {"nth_element", 3, true},
                                             {"reverse", 2, false},
                                             {"rotate", 3, false},
                                             {"shuffle", 2, false},
                                             {"for_each", 2, false, true},
                                             {"count_if", 2, false, true},
                                             {"find_if", 2, false, true},
                                             {"find_if_not", 2, false, true},
                                             {"any_of", 2, false, true},
                                             {"all_of", 2, false, true},
                                             {"none_of", 2, false, true}};
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->isInStdNamespace() || !Callee->getIdentifier())
    return {};
  const Algorithm *A = llvm::find_if(Algorithms, [&](const Algorithm &A) {
    return A.Name == Callee->getName();
  });
  if (A == std::end(Algorithms) || Call->getNumArgs() < A->Iterators ||
      Call->getNumArgs() > A->Iterators + 1 ||
      (A->OnlyReads && Call->getNumArgs() != A->Iterators + 1))
    return {};
  ContainerAlgorithm Out;
  for (unsigned I = 0; I < A->Iterators; ++I) {
    const CXXMemberCallExpr *It = containerBeginEnd(Call->getArg(I));
    if (!It)
      return {};
    const Expr *Container = It->getImplicitObjectArgument();
    if (Out.Container &&
        !sameExpr(Out.Container, Container, Callee->getASTContext()))
      return {}; // Iterators of two containers.
    Out.Container = Container;
    Out.Iterators.push_back(It);
  }
  Out.Compares = A->Compares;
  Out.OnlyReads = A->OnlyReads;
  if ((A->Compares || A->OnlyReads) && Call->getNumArgs() > A->Iterators)
    Out.Compare = Call->getArg(A->Iterators);
  Out.Record = containerElementRecord(Out.Container->getType());
  return Out;
}

bool dlopt::isStdSwap(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee && Callee->isInStdNamespace() && Callee->getIdentifier() &&
         Callee->getName() == "swap" && Call->getNumArgs() == 2;
}

bool dlopt::isConditionOf(const Stmt *P, const Expr *E) {
  if (!P)
    return false;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return If->getCond() == E;
  if (const auto *While = dyn_cast<WhileStmt>(P))
    return While->getCond() == E;
  if (const auto *Do = dyn_cast<DoStmt>(P))
    return Do->getCond() == E;
  if (const auto *For = dyn_cast<ForStmt>(P))
    return For->getCond() == E;
  if (const auto *Cond = dyn_cast<ConditionalOperator>(P))
    return Cond->getCond() == E;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isLogicalOp();
  return false;
}

bool dlopt::testsForNull(const Stmt *P, const Expr *E, ASTContext &Ctx) {
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P))
    return Cast->getCastKind() == CK_PointerToBoolean;
  if (const auto *Not = dyn_cast_or_null<UnaryOperator>(P))
    return Not->getOpcode() == UO_LNot;
  if (isConditionOf(P, E))
    return true;
  const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
  const Expr *Other =
      BO ? (BO->getLHS() == E ? BO->getRHS() : BO->getLHS()) : nullptr;
  return BO && BO->isEqualityOp() &&
         Other->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
}

const Expr *dlopt::ignoreVoidPointerCasts(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
    const auto *To = Cast->getType()->getAs<PointerType>();
    if (!To || !To->getPointeeType()->isVoidType() ||
        !Cast->getSubExpr()->getType()->isPointerType())
      break;
    E = Cast->getSubExpr()->IgnoreParenImpCasts();
  }
  return E;
}

bool dlopt::isVaStartName(const CallExpr *Call, const Expr *Arg) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Call->getNumArgs() != 2 || Call->getArg(1) != Arg)
    return false;
  unsigned ID = Callee->getBuiltinID();
  return ID == Builtin::BI__builtin_va_start ||
         ID == Builtin::BI__builtin_ms_va_start;
}

std::string dlopt::recordName(const RecordDecl *RD) {
  if (!RD->getName().empty())
    return RD->getName().str();
  if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
    return TD->getName().str();
  return "";
}

std::vector<const TypedefNameDecl *> dlopt::typedefsOf(const RecordDecl *RD,
                                                       ASTContext &Ctx) {
  std::vector<const TypedefNameDecl *> Out;
  QualType T = Ctx.getRecordType(RD);
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *TD = dyn_cast<TypedefNameDecl>(D))
      if (Ctx.hasSameType(TD->getUnderlyingType(), T))
        Out.push_back(TD);
  return Out;
}

StringRef dlopt::allocatorName(const Expr *E) {
  const auto *Call =
      dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenCasts() : nullptr);
  if (!Call)
    return "";
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return "";
  StringRef Name = FD->getName();
  if (Name == "malloc" || Name == "calloc" || Name == "realloc")
    return Name;
  if ((Call->getNumArgs() == 1 && isAllocatorFunction(FD)) ||
      (Call->getNumArgs() == 2 &&
       (isCallocLikeFunction(FD) || isReallocLikeFunction(FD))) ||
      isExternalAllocator(FD))
    return Name;
  return "";
}

const ValueDecl *dlopt::rootDecl(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl();
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || !BO->isAdditiveOp())
      return nullptr;
    // Pointer +/- integer: follow the pointer operand.
    E = BO->getLHS()->getType()->isPointerType() ||
                BO->getLHS()->getType()->isArrayType()
            ? BO->getLHS()
            : BO->getRHS();
  }
  return nullptr;
}

bool dlopt::isGpuKernel(const FunctionDecl *FD) {
  return FD->hasAttr<OpenCLKernelAttr>() || FD->hasAttr<CUDAGlobalAttr>();
}

SourcePos dlopt::formatLoc(const SourceManager &SM, SourceLocation Loc) {
  if (Loc.isInvalid())
    return "<unknown>";
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return "<unknown>";
  return std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) +
         ":" + std::to_string(P.getColumn());
}

bool GeneratedCode::hasLayoutOf(const RecordDecl *RD) const {
  std::string Name = recordName(RD);
  if (Name.empty())
    return false;
  bool Invalid = false;
  StringRef Text = SM.getBufferData(
      SM.getFileID(SM.getExpansionLoc(RD->getLocation())), &Invalid);
  return !Invalid &&
         Text.contains("dlopt: begin generated layout of " + Name + " */");
}

bool GeneratedCode::contains(SourceLocation Loc) const {
  if (Loc.isInvalid())
    return false;
  auto [File, Offset] = SM.getDecomposedExpansionLoc(Loc);
  auto [It, New] = Ranges.try_emplace(File);
  if (New) {
    bool Invalid = false;
    StringRef Text = SM.getBufferData(File, &Invalid);
    for (size_t At = Invalid ? StringRef::npos
                             : Text.find("dlopt: begin generated layout");
         At != StringRef::npos;
         At = Text.find("dlopt: begin generated layout", At + 1)) {
      size_t End = Text.find("dlopt: end generated layout", At);
      It->second.push_back(
          {unsigned(At), End == StringRef::npos ? ~0u : unsigned(End)});
    }
  }
  return llvm::any_of(It->second, [Offset = Offset](const auto &R) {
    return Offset > R.first && Offset <= R.second;
  });
}

bool dlopt::inSystemHeader(const SourceManager &SM, SourceLocation Loc) {
  return Loc.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Loc));
}

bool dlopt::hasFixedTypes(const FunctionDecl *FD) {
  return FD->isTemplateInstantiation() ||
         inSystemHeader(FD->getASTContext().getSourceManager(),
                        FD->getLocation());
}

bool dlopt::isLibraryDecl(const Decl *D) {
  return D && !isa<TranslationUnitDecl>(D) &&
         inSystemHeader(D->getASTContext().getSourceManager(),
                        D->getLocation());
}

std::string dlopt::realPathOf(const SourceManager &SM, FileID File) {
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
  if (!Entry)
    return "";
  StringRef Real = Entry->getFileEntry().tryGetRealPathName();
  return Real.empty() ? Entry->getName().str() : Real.str();
}

std::string dlopt::definitionFile(const SourceManager &SM,
                                  const RecordDecl *RD) {
  return realPathOf(SM, SM.getFileID(SM.getExpansionLoc(RD->getLocation())));
}

std::string dlopt::absolutePath(const SourceManager &SM, FileID File) {
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
  if (!Entry)
    return "";
  llvm::SmallString<256> Path(Entry->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

/// Whether \p S uses `this` other than to reach a member or as `*this`.
static bool passesThisOn(const Stmt *S) {
  if (!S)
    return false;
  if (isa<CXXThisExpr>(S))
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(S);
      ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_Deref &&
      isa<CXXThisExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
    return false;
  return llvm::any_of(subStatements(S), passesThisOn);
}

std::string dlopt::proxyMethodRefusal(const CXXMethodDecl *MD, bool CheckBody) {
  std::string Name = "'" + MD->getNameAsString() + "'";
  if (MD->isStatic())
    return "static member function " + Name + " called through an element";
  if (MD->getDescribedFunctionTemplate() || MD->getPrimaryTemplate() ||
      MD->getTemplateInstantiationPattern())
    return "member function template " + Name + " (not rewritten yet)";
  if (isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(MD) ||
      MD->getOverloadedOperator() == OO_Equal)
    return "special member function " + Name;
  if (MD->isVariadic() || MD->getRefQualifier() != RQ_None)
    return "member function " + Name +
           " is variadic or ref-qualified (not rewritten yet)";
  for (const ParmVarDecl *P : MD->parameters())
    if (P->hasDefaultArg())
      return "member function " + Name +
             " has default arguments (not rewritten yet)";
  QualType Ret = MD->getReturnType();
  if (Ret->isReferenceType() || Ret->isPointerType())
    return "member function " + Name +
           " returns a reference or pointer, which could point into the "
           "element";
  if (Ret->isUndeducedType())
    return "member function " + Name + " has an undeduced return type";
  if (!CheckBody)
    return "";
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def))
    return "member function " + Name +
           " is not defined in this file: dlopt cannot see what it does with "
           "the element";
  if (passesThisOn(Def->getBody()))
    return "member function " + Name +
           " passes 'this' on: it would point to a copy of the element";
  return "";
}

llvm::SmallVector<const Stmt *, 4> dlopt::subStatements(const Stmt *S) {
  llvm::SmallVector<const Stmt *, 4> Out(S->child_begin(), S->child_end());
  if (const auto *Captured = dyn_cast<CapturedStmt>(S))
    Out.push_back(Captured->getCapturedStmt());
  return Out;
}

bool dlopt::refersTo(const Stmt *S, const Decl *D) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == D)
    return true;
  return llvm::any_of(subStatements(S),
                      [D](const Stmt *C) { return refersTo(C, D); });
}

void dlopt::referencesTo(const Stmt *S, const Decl *D,
                         std::vector<const DeclRefExpr *> &Out) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == D)
    Out.push_back(DRE);
  for (const Stmt *C : subStatements(S))
    referencesTo(C, D, Out);
}

bool dlopt::declaresOtherNamed(const Stmt *S, const NamedDecl *D) {
  if (!S)
    return false;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *X : DS->decls()) {
      if (const auto *V = dyn_cast<VarDecl>(X);
          V && V != D && V->getName() == D->getName())
        return true;
      // auto [a, b] = ...: its bindings are names too.
      if (const auto *DD = dyn_cast<DecompositionDecl>(X))
        for (const BindingDecl *B : DD->bindings())
          if (B->getName() == D->getName())
            return true;
    }
  return llvm::any_of(subStatements(S),
                      [D](const Stmt *C) { return declaresOtherNamed(C, D); });
}

const Stmt *dlopt::enclosingBody(const VarDecl *VD) {
  if (!VD->getParentFunctionOrMethod())
    return nullptr;
  for (const DeclContext *DC = VD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *FD = dyn_cast<FunctionDecl>(DC))
      return FD->getBody();
  return nullptr;
}

bool dlopt::isParenOrImplicitCast(const Expr *E) {
  return isa<ParenExpr, ImplicitCastExpr>(E);
}

bool dlopt::isConstLValueReference(QualType T) {
  return T->isLValueReferenceType() &&
         T.getNonReferenceType().isConstQualified();
}

const VarDecl *dlopt::varOf(const Expr *E) {
  if (const auto *DRE =
          dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

void dlopt::collectVarying(const Stmt *S,
                           llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  // A worklist, not recursion, as in containsLoop().
  llvm::SmallVector<const Stmt *, 32> Todo{S};
  while (!Todo.empty()) {
    const Stmt *Next = Todo.pop_back_val();
    if (!Next)
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(Next)) {
      if (BO->isAssignmentOp())
        if (const VarDecl *VD = varOf(BO->getLHS()))
          Out.insert(VD);
    } else if (const auto *UO = dyn_cast<UnaryOperator>(Next)) {
      if (UO->isIncrementDecrementOp())
        if (const VarDecl *VD = varOf(UO->getSubExpr()))
          Out.insert(VD);
    } else if (const auto *DS = dyn_cast<DeclStmt>(Next)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          Out.insert(VD);
    }
    llvm::append_range(Todo, subStatements(Next));
  }
}

bool dlopt::containsAny(const Stmt *S,
                        llvm::function_ref<bool(const Stmt *)> Is) {
  // A worklist, not recursion, as in assignsTo().
  llvm::SmallVector<const Stmt *, 32> Todo{S};
  while (!Todo.empty()) {
    const Stmt *Next = Todo.pop_back_val();
    if (!Next)
      continue;
    if (Is(Next))
      return true;
    llvm::append_range(Todo, subStatements(Next));
  }
  return false;
}

bool dlopt::containsLoop(const Stmt *S) {
  return containsAny(S, [](const Stmt *Next) {
    return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Next);
  });
}

bool dlopt::runsOnce(ASTContext &Ctx, const Stmt *S) {
  const auto *Do = dyn_cast<DoStmt>(S);
  Expr::EvalResult R;
  return Do && Do->getCond()->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
}

/// The arguments of \p Call that go straight, as an address or a decayed
/// array, to a pointer-to-const parameter of its callee.
static void addConstPointerArgs(const CallExpr *Call,
                                llvm::SmallPtrSetImpl<const Expr *> &Out) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return;
  for (unsigned I = 0, N = std::min(Call->getNumArgs(), Callee->getNumParams());
       I < N; ++I) {
    QualType Param = Callee->getParamDecl(I)->getType();
    if (!Param->isPointerType() || !Param->getPointeeType().isConstQualified())
      continue;
    const Expr *Arg = Call->getArg(I);
    const Expr *Bare = Arg->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Bare);
        UO && UO->getOpcode() == UO_AddrOf)
      Bare = UO->getSubExpr()->IgnoreParens();
    if (isa<DeclRefExpr>(Bare))
      Out.insert(Arg);
  }
}

bool dlopt::changes(const Stmt *Body,
                    llvm::function_ref<bool(const Expr *)> Target,
                    ChangeRules Rules) {
  auto Is = [&](const Expr *E) { return Target(E->IgnoreParens()); };
  llvm::SmallPtrSet<const Expr *, 4> ReadOnly;
  // A worklist, not recursion: a body may hold a sum of thousands of terms.
  llvm::SmallVector<const Stmt *, 32> Todo{Body};
  while (!Todo.empty()) {
    const Stmt *S = Todo.pop_back_val();
    if (!S || (isa<Expr>(S) && ReadOnly.count(cast<Expr>(S))))
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && Is(BO->getLHS()))
      return true;
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        Is(UO->getSubExpr()))
      return true;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
        Rules.Decay && Cast && Cast->getCastKind() == CK_ArrayToPointerDecay &&
        Is(Cast->getSubExpr()))
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (Rules.ThroughCalls)
        for (const Expr *Arg : Call->arguments())
          if (Arg->isGLValue() && Is(Arg))
            return true;
      if (Rules.ConstParamsRead)
        addConstPointerArgs(Call, ReadOnly);
    }
    Todo.append(subStatements(S));
  }
  return false;
}

bool dlopt::assignsTo(const Stmt *Body, const VarDecl *V) {
  return changes(
      Body,
      [V](const Expr *E) {
        const auto *D = dyn_cast<DeclRefExpr>(E);
        return D && D->getDecl() == V;
      },
      ChangeRules());
}

bool dlopt::walkBoundArithmetic(
    const Expr *E, llvm::function_ref<bool(const Expr *)> Operand) {
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *D = dyn_cast<DeclRefExpr>(E);
      D && isa<EnumConstantDecl>(D->getDecl()))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return (BO->isAdditiveOp() || BO->isMultiplicativeOp() ||
            BO->isShiftOp()) &&
           walkBoundArithmetic(BO->getLHS(), Operand) &&
           walkBoundArithmetic(BO->getRHS(), Operand);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Minus &&
           walkBoundArithmetic(UO->getSubExpr(), Operand);
  return Operand(E);
}

/// Constants and local (or const) variables.
static bool isStableBoundExpr(const Expr *E) {
  return walkBoundArithmetic(E, [](const Expr *Operand) {
    const auto *D = dyn_cast<DeclRefExpr>(Operand);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    return V && (V->hasLocalStorage() || V->getType().isConstQualified());
  });
}

static bool boundVarAssigned(const Expr *E, const Stmt *Body) {
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl());
        V && assignsTo(Body, V))
      return true;
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C);
        CE && boundVarAssigned(CE, Body))
      return true;
  return false;
}

bool dlopt::isStableLoopBound(const Expr *Bound, const Stmt *Body) {
  return Bound && isStableBoundExpr(Bound) && !boundVarAssigned(Bound, Body);
}

bool dlopt::spelledInFile(const ASTContext &Ctx, SourceRange R) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange CR = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(R), SM, Ctx.getLangOpts());
  if (CR.isInvalid())
    return false;
  FileID File = SM.getFileID(CR.getBegin());
  return File == SM.getFileID(CR.getEnd()) && SM.getFileEntryRefForID(File) &&
         !SM.isInSystemHeader(CR.getBegin());
}

DynTypedNode dlopt::parentPast(ASTContext &Ctx, const Expr *E,
                               const Expr *&Child,
                               llvm::function_ref<bool(const Expr *)> Skip) {
  Child = E;
  for (;;) {
    DynTypedNodeList Parents = Ctx.getParents(*Child);
    if (Parents.size() != 1)
      return {};
    const auto *P = Parents[0].get<Expr>();
    if (!P || !Skip(P))
      return Parents[0];
    Child = P;
  }
}

std::string dlopt::cudaBuiltinIndex(const Expr *E) {
  const auto *PO = dyn_cast<PseudoObjectExpr>(E);
  const auto *Prop =
      PO ? dyn_cast<MSPropertyRefExpr>(PO->getSyntacticForm()->IgnoreParens())
         : nullptr;
  if (!Prop)
    return "";
  const Expr *Base = Prop->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *Opaque = dyn_cast<OpaqueValueExpr>(Base))
    Base = Opaque->getSourceExpr()->IgnoreParenImpCasts();
  const auto *Var = dyn_cast_or_null<DeclRefExpr>(Base);
  if (!Var ||
      !llvm::is_contained({"threadIdx", "blockIdx", "blockDim", "gridDim"},
                          Var->getDecl()->getName()))
    return "";
  return (Var->getDecl()->getName() + "." + Prop->getPropertyDecl()->getName())
      .str();
}
