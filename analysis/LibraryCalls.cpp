//===- LibraryCalls.cpp - qsort, bsearch, memcpy, fwrite over arrays ------===//
//
// The part of UseClassifier that decides calls of the C library that see
// a record's array as bytes in AoS order. memcpy/memmove(b, a, n *
// sizeof(T)) between two handles and memset(a, c, n * sizeof(T)) work per
// array of the new layout (T_soa_copy, T_soa_move, T_soa_fill): the same
// bytes end up in the same fields. fwrite/fread(a, sizeof(T), n, f) convert
// at that boundary, through a bounded staging array of T, so the file keeps
// its format (T_soa_fwrite, T_soa_fread). Each may take a sub-array (&a[k],
// a + k) instead of the whole array. qsort(a, n, sizeof(T), cmp) over a
// handle, with cmp a comparator of the program: the comparator receives
// pointers to whole elements, which the new layout does not have; the
// rendering sorts copies instead (T_soa_qsort gathers the elements into a
// temporary array of T, sorts it with the comparator as it is written, and
// scatters them back), so the comparator's body keeps working on T and is
// left as it is: its casts of const void * to T * are not type punning.
// bsearch(&key, a, n, sizeof(T), cmp) kept in a pointer searches the same
// way, over copies (T_soa_bsearch): its result is a handle, the array moved
// to the element found, or null.
// The comparator may be defined in another file of the program (XSBench
// sorts in one file with a comparator of another): the whole program
// matches the two (ExternalSymbol::SortedWith and Comparator).
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace dlopt;

/// The function named as the comparator of \p Call, if it calls \p Name
/// with \p Args arguments, the last one the comparator.
static const FunctionDecl *comparatorOf(const CallExpr *Call,
                                        llvm::StringRef Name, unsigned Args) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || Callee->getName() != Name ||
      Call->getNumArgs() != Args)
    return nullptr;
  const auto *Ref =
      dyn_cast<DeclRefExpr>(Call->getArg(Args - 1)->IgnoreParenImpCasts());
  return Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
}

/// The comparator of a bsearch, lfind or lsearch call naming a function
/// (the three take the same arguments; the last two a pointer to the count).
static const FunctionDecl *searchComparator(const CallExpr *Call) {
  for (const char *Name : {"bsearch", "lfind", "lsearch"})
    if (const FunctionDecl *Cmp = comparatorOf(Call, Name, 5))
      return Cmp;
  return nullptr;
}

/// Whether \p FD has a comparator's parameters: two pointers to void.
static bool comparatorShaped(const FunctionDecl *FD) {
  return FD && FD->getNumParams() == 2 &&
         llvm::all_of(FD->parameters(), [](const ParmVarDecl *P) {
           return P->getType()->isVoidPointerType();
         });
}

namespace {
/// Every reference to a function, the qsort calls with their comparator
/// and the record of their array, and the records each function of two
/// void pointers casts its parameters to.
class SortCollector : public RecursiveASTVisitor<SortCollector> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  /// A library's declarations name none of the program's comparators and
  /// sort none of its arrays (its instantiations for the program's types
  /// get the comparator as a parameter, named at the program's call): they
  /// are not walked, as UseWalker does not walk them.
  bool TraverseDecl(Decl *D) {
    return isLibraryDecl(D) || RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      ++References[FD->getCanonicalDecl()];
    return true;
  }
  bool VisitExplicitCastExpr(ExplicitCastExpr *Cast) {
    const auto *Ref =
        dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParenImpCasts());
    const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    const auto *FD = P ? dyn_cast<FunctionDecl>(P->getDeclContext()) : nullptr;
    if (comparatorShaped(FD) && Cast->getType()->isPointerType())
      if (const RecordDecl *RD = elementRecord(Cast->getType()))
        Casts[FD->getCanonicalDecl()].insert(RD);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *Cmp = UseClassifier::qsortComparator(Call))
      if (const RecordDecl *RD =
              elementRecord(ignoreVoidPointerCasts(Call->getArg(0))->getType()))
        Sorts[Cmp->getCanonicalDecl()].push_back(RD);
    if (const FunctionDecl *Cmp = searchComparator(Call))
      if (const RecordDecl *RD =
              elementRecord(ignoreVoidPointerCasts(Call->getArg(1))->getType()))
        Sorts[Cmp->getCanonicalDecl()].push_back(RD);
    return true;
  }
  llvm::DenseMap<const FunctionDecl *, unsigned> References;
  llvm::DenseMap<const FunctionDecl *, std::vector<const RecordDecl *>> Sorts;
  llvm::DenseMap<const FunctionDecl *, llvm::SmallPtrSet<const RecordDecl *, 1>>
      Casts;
};
} // namespace

const FunctionDecl *UseClassifier::qsortComparator(const CallExpr *Call) {
  return comparatorOf(Call, "qsort", 4);
}

void UseClassifier::collectComparators() const {
  if (Comparators)
    return;
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
  // Defined here, named nowhere here: another file's comparator, if the
  // whole program says so.
  ExternalComparators.emplace();
  for (const auto &[Cmp, Records] : C.Casts) {
    const FunctionDecl *Def = nullptr;
    if (Records.size() == 1 && !C.References.lookup(Cmp) && Cmp->hasBody(Def) &&
        Def->isExternallyVisible() && Wanted(*Records.begin()))
      (*ExternalComparators)[Def] = *Records.begin();
  }
}

const RecordDecl *
UseClassifier::sortComparatorRecord(const FunctionDecl *FD) const {
  if (!comparatorShaped(FD))
    return nullptr;
  collectComparators();
  const RecordDecl *RD = Comparators->lookup(FD->getCanonicalDecl());
  return RD && Wanted(RD) ? RD : nullptr;
}

const llvm::DenseMap<const FunctionDecl *, const RecordDecl *> &
UseClassifier::externalComparators() const {
  collectComparators();
  return *ExternalComparators;
}

bool UseClassifier::keptComparator(const FunctionDecl *FD) const {
  if (sortComparatorRecord(FD))
    return true;
  const FunctionDecl *Def = nullptr;
  return FD && FD->hasBody(Def) && externalComparators().count(Def);
}

/// memcpy, memmove or memset, by name.
static llvm::StringRef bytewiseCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() != 3)
    return "";
  llvm::StringRef Name = Callee->getName();
  return Name == "memcpy" || Name == "memmove" || Name == "memset" ? Name : "";
}

/// fwrite or fread, by name.
static llvm::StringRef fileCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() != 4)
    return "";
  llvm::StringRef Name = Callee->getName();
  return Name == "fwrite" || Name == "fread" ? Name : "";
}

const Expr *UseClassifier::singleObjectAddress(const Expr *E,
                                               const RecordDecl *RD) {
  const auto *AddrOf = dyn_cast<UnaryOperator>(E->IgnoreParenCasts());
  if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
    return nullptr;
  const Expr *Object = AddrOf->getSubExpr()->IgnoreParens();
  // A reference names an object elsewhere, maybe an element (`Particle &p
  // = ps[i]`): its own rules judge it.
  const ValueDecl *Named =
      isa<DeclRefExpr>(Object)  ? cast<DeclRefExpr>(Object)->getDecl()
      : isa<MemberExpr>(Object) ? cast<MemberExpr>(Object)->getMemberDecl()
                                : nullptr;
  if (Named && Named->getType()->isReferenceType())
    return nullptr;
  return isa<DeclRefExpr, MemberExpr, CompoundLiteralExpr>(Object) &&
                 asRecord(Object->getType()) == RD
             ? Object
             : nullptr;
}

bool UseClassifier::isFileCall(const CallExpr *Call) {
  return !fileCall(Call).empty();
}

bool UseClassifier::isArrayLibraryCall(const CallExpr *Call) {
  return qsortComparator(Call) || searchComparator(Call) ||
         !bytewiseCall(Call).empty() || !fileCall(Call).empty();
}

bool UseClassifier::isSearch(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenCasts());
  return Call && searchComparator(Call);
}

/// T *r = bsearch(&key, a, n, sizeof(T), cmp): \p Init is the call, with
/// its casts; the array (a, or a sub-array) is rendered inside it.
UseVerdict UseClassifier::search(const Expr *Init, const RecordDecl *RD) const {
  const auto *Call = cast<CallExpr>(Init->IgnoreParenCasts());
  const FunctionDecl *Cmp = searchComparator(Call);
  std::string Fn = Call->getDirectCallee()->getName().str();
  const Expr *Array = ignoreVoidPointerCasts(Call->getArg(1));
  if (!(isHandleExpr(Array) || isSubArrayOf(Array, RD)) ||
      handleRecord(Array->IgnoreParenCasts()->getType()) != RD)
    return UseVerdict::refused(Call->getExprLoc(),
                               Fn + " of something that is not an array of '" +
                                   recordName(RD) + "' (not rewritten yet)");
  if (sortComparatorRecord(Cmp) != RD)
    return UseVerdict::refused(
        Call->getExprLoc(),
        Fn + " with comparator '" + Cmp->getNameAsString() +
            "', which is not a function of the analyzed files used only to "
            "sort and search arrays of '" +
            recordName(RD) + "'");
  if (!isElementSize(Call->getArg(3), RD))
    return UseVerdict::refused(Call->getExprLoc(),
                               Fn + " whose element size is not sizeof(" +
                                   recordName(RD) + ")");
  // lsearch appends the key when it finds no element: it must be one.
  if (Fn == "lsearch" &&
      elementRecord(Call->getArg(0)->IgnoreParenImpCasts()->getType()) != RD)
    return UseVerdict::refused(Call->getExprLoc(),
                               "lsearch whose key is not a '" + recordName(RD) +
                                   "' (not rewritten yet)");
  HandleUse U{UseKind::LibrarySearch, Init, Array, Call->getArg(2)};
  U.Value = Call->getArg(0);
  return checked(UseVerdict::of(U), "a search");
}

std::optional<UseVerdict> UseClassifier::libraryCall(const RecordDecl *RD,
                                                     const Expr *Handle,
                                                     const CallExpr *Call,
                                                     const Expr *Child,
                                                     const Expr *Offset) const {
  if (!bytewiseCall(Call).empty())
    return bytewise(RD, Handle, Call, Child, Offset);
  if (!fileCall(Call).empty())
    return fileIO(RD, Handle, Call, Child, Offset);
  // bsearch's array: rendered inside the call, which the handle it
  // initializes or is assigned to classifies (UseClassifier::search).
  if (searchComparator(Call))
    return Child == Call->getArg(1) ? std::optional(UseVerdict::of(
                                          {UseKind::HandleFlow, Child, Handle}))
                                    : std::nullopt;
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
  if (!isElementSize(Call->getArg(2), RD))
    return UseVerdict::refused(Call->getExprLoc(),
                               "qsort whose element size is not sizeof(" +
                                   recordName(RD) + ")");
  HandleUse U{UseKind::LibrarySort, Call, Handle, Call->getArg(1)};
  U.Value = Call->getArg(3);
  U.Offset = Offset;
  return checked(UseVerdict::of(U), "a qsort");
}

/// memcpy(b, a, n * sizeof(T)), memmove(...), memset(a, c, n * sizeof(T)):
/// \p Child is the destination (the call's site) or the source (rendered
/// with it).
std::optional<UseVerdict> UseClassifier::bytewise(const RecordDecl *RD,
                                                  const Expr *Handle,
                                                  const CallExpr *Call,
                                                  const Expr *Child,
                                                  const Expr *Offset) const {
  llvm::StringRef Name = bytewiseCall(Call);
  bool Fill = Name == "memset";
  auto Refused = [&](const std::string &Why) {
    return UseVerdict::refused(Call->getExprLoc(), "'" + recordName(RD) +
                                                       "' array passed to " +
                                                       Name.str() + " " + Why);
  };
  if (Child != Call->getArg(0) && (Fill || Child != Call->getArg(1)))
    return std::nullopt;
  auto OfRecord = [&](const Expr *E) {
    return (isHandleExpr(E) || isSubArrayOf(E, RD)) &&
           handleRecord(E->IgnoreParenCasts()->getType()) == RD;
  };
  if (!OfRecord(Call->getArg(0)) || (!Fill && !OfRecord(Call->getArg(1))))
    return Refused("with something that is not an array variable of it "
                   "(not rewritten yet)");
  // Its value (the destination) would be a handle, not a pointer.
  const Expr *Value = Call;
  const Stmt *P = semanticParent(Value);
  if (P && !isa<CompoundStmt>(P))
    return Refused("whose result is used (not rewritten yet)");
  HandleUse U{UseKind::ArrayCopy, Call,
              Offset ? Handle : ignoreVoidPointerCasts(Call->getArg(0))};
  if (!elementCount(Call->getArg(2), RD, U))
    return Refused("with a byte count that is not n * sizeof(T) in any "
                   "order or a variable or struct field set so");
  if (Child != Call->getArg(0))
    return UseVerdict::of({UseKind::HandleFlow, Child, Handle});
  U.Value = Fill ? Call->getArg(1) : ignoreVoidPointerCasts(Call->getArg(1));
  U.Offset = Offset;
  for (const Expr *F : U.Count)
    if (!spelledInFile(F->getSourceRange()))
      return Refused("with a byte count spelled inside a macro");
  return checked(UseVerdict::of(U), "a memcpy");
}

/// fwrite(a, sizeof(T), n, f), fread(a, sizeof(T), n, f): the file holds
/// the elements in AoS order, as before.
std::optional<UseVerdict> UseClassifier::fileIO(const RecordDecl *RD,
                                                const Expr *Handle,
                                                const CallExpr *Call,
                                                const Expr *Child,
                                                const Expr *Offset) const {
  if (Child != Call->getArg(0))
    return std::nullopt;
  llvm::StringRef Name = fileCall(Call);
  auto Refused = [&](const std::string &Why) {
    return UseVerdict::refused(Call->getExprLoc(), "'" + recordName(RD) +
                                                       "' array passed to " +
                                                       Name.str() + " " + Why);
  };
  if (!isElementSize(Call->getArg(1), RD))
    return Refused("with an item size other than sizeof(" + recordName(RD) +
                   ") (not rewritten yet)");
  HandleUse U{UseKind::FileIO, Call, Handle, Call->getArg(2)};
  U.Value = Call->getArg(3);
  U.Offset = Offset;
  return checked(UseVerdict::of(U), "an fwrite or fread");
}
