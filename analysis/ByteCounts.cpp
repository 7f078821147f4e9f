//===- ByteCounts.cpp - Byte counts that are whole elements ---------------===//
//
// The part of UseClassifier that reads an allocation's or a memcpy's byte
// count as a number of elements of a record: n * sizeof(T) in any factor
// order, or a value that provably is one, kept in a local variable that is
// never assigned or in a struct field every write of which stores one
// (lavaMD's dim_cpu.space_mem = dim_cpu.space_elem * sizeof(FOUR_VECTOR)),
// or in a local variable whose last assignment before the use stores one
// (RSBench's `sz`, reused for one array after another). A rewrite divides
// such a value by the element's size; its other uses keep it as it is.
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/MapVector.h"

using namespace clang;
using namespace dlopt;

namespace {
/// Every write of the integer fields of structs in a translation unit: the
/// values assigned to each, and whether it is also written another way
/// (+=, ++, through its address).
class FieldWrites : public RecursiveASTVisitor<FieldWrites> {
public:
  struct Writes {
    std::vector<const Expr *> Values;
    bool Other = false;
  };
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (const FieldDecl *FD =
            BO->isAssignmentOp() ? field(BO->getLHS()) : nullptr) {
      if (BO->getOpcode() == BO_Assign)
        Fields[FD].Values.push_back(BO->getRHS());
      else
        Fields[FD].Other = true;
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      if (const FieldDecl *FD = field(UO->getSubExpr()))
        Fields[FD].Other = true;
    return true;
  }
  bool VisitInitListExpr(InitListExpr *List) {
    const RecordDecl *RD = List->getType()->getAsRecordDecl();
    if (!RD || !List->isSemanticForm())
      return true;
    for (const FieldDecl *FD : RD->fields()) {
      unsigned I = FD->getFieldIndex();
      if (isInteger(FD) && I < List->getNumInits() &&
          !isa<ImplicitValueInitExpr>(List->getInit(I)))
        Fields[FD].Values.push_back(List->getInit(I));
    }
    return true;
  }
  bool VisitCXXConstructorDecl(CXXConstructorDecl *Ctor) {
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (const FieldDecl *FD = Init->getMember();
          FD && isInteger(FD) && Init->isWritten())
        Fields[FD].Values.push_back(Init->getInit());
    return true;
  }

  llvm::MapVector<const FieldDecl *, Writes> Fields;

private:
  static bool isInteger(const FieldDecl *FD) {
    return FD->getType()->isIntegerType();
  }
  static const FieldDecl *field(const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    return FD && isInteger(FD) ? FD : nullptr;
  }
};
} // namespace

/// \p E without parentheses and the integer conversions that keep its
/// value ((long)sizeof(T)).
static const Expr *ignoreWidening(const Expr *E, const ASTContext &Ctx) {
  for (;;) {
    E = E->IgnoreParens();
    const auto *Cast = dyn_cast<CastExpr>(E);
    if (!Cast || !Cast->getType()->isIntegerType() ||
        !Cast->getSubExpr()->getType()->isIntegerType() ||
        Ctx.getTypeSize(Cast->getType()) <
            Ctx.getTypeSize(Cast->getSubExpr()->getType()))
      return E;
    E = Cast->getSubExpr();
  }
}

/// The factors of a product, in any grouping: (a * b) * c.
static void factorsOf(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Mul = dyn_cast<BinaryOperator>(E);
      Mul && Mul->getOpcode() == BO_Mul) {
    factorsOf(Mul->getLHS(), Out);
    factorsOf(Mul->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

bool UseClassifier::elementCount(const Expr *Size, const RecordDecl *RD,
                                 HandleUse &U) const {
  return elementCount(Size, RD, U, /*ProgramFields=*/true);
}

bool UseClassifier::elementCount(const Expr *Size, const RecordDecl *RD,
                                 HandleUse &U, bool ProgramFields) const {
  auto IsElementSize = [&](const Expr *E) {
    const auto *S = dyn_cast<UnaryExprOrTypeTraitExpr>(ignoreWidening(E, Ctx));
    return S && S->getKind() == UETT_SizeOf &&
           asRecord(S->getTypeOfArgument()) == RD;
  };
  llvm::SmallVector<const Expr *, 4> Factors;
  factorsOf(Size, Factors);
  if (llvm::count_if(Factors, IsElementSize) == 1) {
    U.Count.clear();
    for (const Expr *F : Factors)
      if (!IsElementSize(F))
        U.Count.push_back(F);
    U.CountInBytes = false;
    return true;
  }
  // sizeof b of an array T b[N]: N elements (the sizeof is rendered with
  // the array's type, its value unchanged).
  if (isFixedArrayOf(ignoreWidening(Size, Ctx), RD)) {
    U.Count = {Size};
    U.CountInBytes = true;
    return true;
  }
  // A byte count computed beforehand, kept as it is: its other uses keep
  // their value, and the count is that value over the element's size. Kept
  // in a struct's field, every write of that field in the program must
  // store such a count (lavaMD's dim_cpu.space_mem = dim_cpu.space_elem *
  // sizeof(FOUR_VECTOR), written in main.c and read in another file): this
  // file's writes are checked here, the program's where the units are
  // merged (ExternalSymbol::ByteCount).
  if (const auto *ME = dyn_cast<MemberExpr>(Size->IgnoreParenImpCasts())) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    std::optional<bool> Here = fieldHoldsElements(FD, RD);
    std::string Key = FD ? fieldKey(FD) : "";
    if (Here.value_or(ProgramFields && !Key.empty())) {
      if (!Key.empty() &&
          llvm::none_of(ByteCountFields, [&](const ByteCountField &B) {
            return B.Field == FD && B.Record == RD;
          }))
        ByteCountFields.push_back({FD, RD, ME->getExprLoc()});
      U.Count = {ME};
      U.CountInBytes = true;
      return true;
    }
  }
  const auto *Bytes = dyn_cast<DeclRefExpr>(Size->IgnoreParenImpCasts());
  const auto *Var = Bytes ? dyn_cast<VarDecl>(Bytes->getDecl()) : nullptr;
  const auto *FD =
      Var ? dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod())
          : nullptr;
  if (!FD || !Var->hasLocalStorage() || !Var->getType()->isIntegerType())
    return false;
  const Expr *Value = assignsTo(FD->getBody(), Var)
                          ? reachingValue(Size, Var, FD->getBody())
                          : Var->getInit();
  HandleUse Init;
  if (!Value || !elementCount(Value, RD, Init, ProgramFields) ||
      Init.CountInBytes)
    return false;
  U.Count = {Bytes};
  U.CountInBytes = true;
  return true;
}

/// Whether \p S takes the address of \p Var (through which anything may
/// assign it).
static bool takesAddress(const Stmt *S, const VarDecl *Var) {
  llvm::SmallVector<const Stmt *, 32> Todo{S};
  while (!Todo.empty()) {
    const Stmt *T = Todo.pop_back_val();
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(T);
        UO && UO->getOpcode() == UO_AddrOf && varOf(UO->getSubExpr()) == Var)
      return true;
    if (T)
      Todo.append(subStatements(T));
  }
  return false;
}

/// Real code reuses one byte-count variable for one allocation after
/// another (`sz = n * sizeof(int); ... sz = m * sizeof(Pole);
/// cudaMalloc(&d, sz);`). The value \p Use reads is the nearest earlier
/// `Var = value;` statement of its block or an enclosing one, if the
/// statements between leave Var alone and no loop, branch or label around
/// the use assigns it or lets control in past the assignment.
const Expr *UseClassifier::reachingValue(const Expr *Use, const VarDecl *Var,
                                         const Stmt *Body) const {
  if (takesAddress(Body, Var))
    return nullptr;
  // The statement around \p S, also from a variable's initializer to the
  // declaration statement.
  auto Around = [&](const Stmt *S) -> const Stmt * {
    for (const DynTypedNode &N : Ctx.getParents(*S)) {
      if (const Stmt *P = N.get<Stmt>())
        return P;
      if (const Decl *D = N.get<VarDecl>())
        for (const DynTypedNode &M : Ctx.getParents(*D))
          if (const Stmt *P = M.get<DeclStmt>())
            return P;
    }
    return nullptr;
  };
  const Stmt *Child = Use;
  for (const Stmt *P = Around(Use); P; Child = P, P = Around(P)) {
    if (isa<LambdaExpr, BlockExpr, CapturedStmt, OMPExecutableDirective,
            SwitchStmt>(P))
      return nullptr;
    const auto *Block = dyn_cast<CompoundStmt>(P);
    if (!Block) {
      if (assignsTo(P, Var))
        return nullptr;
      continue;
    }
    if (isa<LabelStmt>(Child)) // A goto may come in from anywhere.
      return nullptr;
    auto It = llvm::find(Block->body(), Child);
    while (It != Block->body_begin()) {
      const Stmt *Before = *--It;
      if (isa<LabelStmt>(Before))
        return nullptr;
      if (const auto *DS = dyn_cast<DeclStmt>(Before);
          DS && llvm::is_contained(DS->decls(), Var))
        return Var->getInit();
      const auto *Assign = dyn_cast<BinaryOperator>(
          isa<Expr>(Before) ? cast<Expr>(Before)->IgnoreImplicit() : Before);
      if (Assign && Assign->getOpcode() == BO_Assign &&
          varOf(Assign->getLHS()) == Var)
        return assignsTo(Assign->getRHS(), Var) ? nullptr : Assign->getRHS();
      if (assignsTo(Before, Var))
        return nullptr;
    }
  }
  return nullptr;
}

const RecordDecl *
UseClassifier::recordCounted(const Expr *Size,
                             llvm::ArrayRef<const RecordDecl *> Records) const {
  for (const RecordDecl *RD : Records) {
    HandleUse Count;
    if (elementCount(Size, RD, Count, /*ProgramFields=*/false))
      return RD;
  }
  return nullptr;
}

bool UseClassifier::isElementSize(const Expr *Size,
                                  const RecordDecl *RD) const {
  HandleUse One;
  return elementCount(Size, RD, One) && One.Count.empty();
}

/// The record whose whole elements every value of \p W counts (n *
/// sizeof(T)), null if some value counts something else or the field is
/// written another way; std::nullopt if every value is zero or the field
/// itself copied from another struct (a.bytes = b.bytes), which say nothing.
static std::optional<const RecordDecl *>
countedRecord(const FieldDecl *FD, const FieldWrites::Writes &W,
              const ASTContext &Ctx) {
  if (W.Other)
    return nullptr;
  std::optional<const RecordDecl *> Counted;
  for (const Expr *V : W.Values) {
    std::optional<llvm::APSInt> I = V->getIntegerConstantExpr(Ctx);
    const auto *ME = dyn_cast<MemberExpr>(V->IgnoreParenImpCasts());
    if ((I && I->isZero()) || (ME && ME->getMemberDecl() == FD))
      continue;
    llvm::SmallVector<const Expr *, 4> Factors;
    factorsOf(V, Factors);
    const RecordDecl *Of = nullptr;
    unsigned Sizes = 0;
    for (const Expr *F : Factors)
      if (const auto *S =
              dyn_cast<UnaryExprOrTypeTraitExpr>(ignoreWidening(F, Ctx));
          S && S->getKind() == UETT_SizeOf) {
        ++Sizes;
        Of = asRecord(S->getTypeOfArgument());
      }
    if (Sizes != 1 || !Of || (Counted && *Counted != Of))
      return nullptr;
    Counted = Of;
  }
  return Counted;
}

std::string dlopt::fieldKey(const FieldDecl *FD) {
  std::string Record = recordName(FD->getParent());
  return Record.empty() ? "" : Record + "." + FD->getNameAsString();
}

/// The integer fields the translation unit writes with something to say
/// (countedRecord()), each with the record whose elements it counts (null:
/// written otherwise).
static llvm::MapVector<const FieldDecl *, const RecordDecl *>
countedRecords(ASTContext &Ctx) {
  FieldWrites W;
  W.TraverseAST(Ctx);
  llvm::MapVector<const FieldDecl *, const RecordDecl *> Out;
  for (const auto &[FD, Writes] : W.Fields)
    if (std::optional<const RecordDecl *> RD = countedRecord(FD, Writes, Ctx))
      Out[FD] = *RD;
  return Out;
}

std::map<std::string, std::string> dlopt::fieldByteCounts(ASTContext &Ctx) {
  std::map<std::string, std::string> Out;
  for (const auto &[FD, RD] : countedRecords(Ctx))
    if (std::string Key = fieldKey(FD); !Key.empty())
      Out[Key] = RD ? recordName(RD) : "";
  return Out;
}

std::optional<bool>
UseClassifier::fieldHoldsElements(const FieldDecl *FD,
                                  const RecordDecl *RD) const {
  if (!FD || !FD->getType()->isIntegerType())
    return false;
  if (!FieldRecords) {
    FieldRecords.emplace();
    for (const auto &[Field, Of] : countedRecords(Ctx))
      (*FieldRecords)[Field] = Of;
  }
  auto It = FieldRecords->find(FD);
  if (It == FieldRecords->end())
    return std::nullopt;
  return It->second == RD;
}
