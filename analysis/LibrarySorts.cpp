//===- LibrarySorts.cpp - qsort over a record's array ---------------------===//
//
// The part of UseClassifier that decides qsort(a, n, sizeof(T), cmp) over a
// handle, with cmp a comparator of the program. The comparator receives
// pointers to whole elements, which the new layout does not have; the
// rendering sorts copies instead (T_soa_qsort gathers the elements into a
// temporary array of T, sorts it with the comparator as it is written, and
// scatters them back), so the comparator's body keeps working on T and is
// left as it is: its casts of const void * to T * are not type punning.
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace dlopt;

namespace {
/// Every reference to a function, and the qsort calls with their
/// comparator and the record of their array.
class SortCollector : public RecursiveASTVisitor<SortCollector> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      ++References[FD->getCanonicalDecl()];
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *Cmp = UseClassifier::qsortComparator(Call))
      if (const RecordDecl *RD =
              elementRecord(Call->getArg(0)->IgnoreParenImpCasts()->getType()))
        Sorts[Cmp->getCanonicalDecl()].push_back(RD);
    return true;
  }
  llvm::DenseMap<const FunctionDecl *, unsigned> References;
  llvm::DenseMap<const FunctionDecl *, std::vector<const RecordDecl *>> Sorts;
};
} // namespace

const FunctionDecl *UseClassifier::qsortComparator(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || Callee->getName() != "qsort" ||
      Call->getNumArgs() != 4)
    return nullptr;
  const auto *Ref =
      dyn_cast<DeclRefExpr>(Call->getArg(3)->IgnoreParenImpCasts());
  return Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
}

const RecordDecl *
UseClassifier::sortComparatorRecord(const FunctionDecl *FD) const {
  if (!Comparators) {
    SortCollector C;
    C.TraverseAST(Ctx);
    Comparators.emplace();
    for (const auto &[Cmp, Records] : C.Sorts) {
      // Used only as the comparator of sorts of one record's arrays.
      const RecordDecl *RD = Records.front();
      bool One =
          llvm::all_of(Records, [RD](const RecordDecl *R) { return R == RD; });
      if (One && C.References.lookup(Cmp) == Records.size())
        (*Comparators)[Cmp] = RD;
    }
  }
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || FD->getNumParams() != 2)
    return nullptr;
  for (const ParmVarDecl *P : FD->parameters())
    if (!P->getType()->isVoidPointerType())
      return nullptr;
  const RecordDecl *RD = Comparators->lookup(FD->getCanonicalDecl());
  return RD && Wanted(RD) ? RD : nullptr;
}

std::optional<UseVerdict> UseClassifier::librarySort(const RecordDecl *RD,
                                                     const Expr *Handle,
                                                     const CallExpr *Call,
                                                     const Expr *Child) const {
  const FunctionDecl *Cmp = qsortComparator(Call);
  if (!Cmp || Call->getArg(0) != Child)
    return std::nullopt;
  if (sortComparatorRecord(Cmp) != RD)
    return UseVerdict::refused(
        Call->getExprLoc(),
        "qsort with comparator '" + Cmp->getNameAsString() +
            "', which is not a function of the analyzed files used only to "
            "sort arrays of '" +
            recordName(RD) + "'");
  const auto *Size = dyn_cast<UnaryExprOrTypeTraitExpr>(
      Call->getArg(2)->IgnoreParenImpCasts());
  if (!Size || Size->getKind() != UETT_SizeOf ||
      asRecord(Size->getTypeOfArgument()) != RD)
    return UseVerdict::refused(Call->getExprLoc(),
                               "qsort whose element size is not sizeof(" +
                                   recordName(RD) + ")");
  for (const FieldDecl *FD : RD->fields())
    if (FD->getType()->isArrayType())
      return UseVerdict::refused(
          Call->getExprLoc(),
          "qsort of a struct with an array field ('" + FD->getNameAsString() +
              "'), whose elements are copied to sort (not rewritten yet)");
  HandleUse U{UseKind::LibrarySort, Call, Handle, Call->getArg(1)};
  U.Value = Call->getArg(3);
  return checked(UseVerdict::of(U), "a qsort");
}
