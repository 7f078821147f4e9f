//===- RecordRewriter.cpp - A LayoutPlan becomes source edits -------------===//
//
// Collects the sites of every record to rewrite (see LayoutRewriter.h),
// drops the records any of whose uses were refused, and applies the rest.
//
//===----------------------------------------------------------------------===//
#include "analysis/UseWalker.h"
#include "rewriter/LayoutRewriter.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

LayoutRewriter::LayoutRewriter(ASTContext &Ctx,
                               std::vector<RewriteTarget> &Targets)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
      Uses(Ctx,
           [this](const RecordDecl *RD) { return Layouts.count(RD) > 0; }) {
  for (RewriteTarget &T : Targets)
    Layouts[T.Decl] = T.Layout.get();
}

const RecordDecl *LayoutRewriter::handleRecord(QualType T) const {
  return Uses.handleRecord(T); // Wanted: the records in Layouts.
}

void LayoutRewriter::applySites(EditSet &ES, unsigned Begin, unsigned End,
                                const LaneContext *Lane,
                                const Site *Enclosing) {
  auto ByBegin = [](const Site *S, unsigned Offset) {
    return S->Begin < Offset;
  };
  // Strip-mined loops never nest, so the only loop that can hold a site is
  // the last one starting at or before it.
  auto InsideOtherLoop = [&](const Site &S) {
    auto It = std::upper_bound(
        ActiveLoops.begin(), ActiveLoops.end(), S.Begin,
        [](unsigned Offset, const Site *L) { return Offset < L->Begin; });
    if (It == ActiveLoops.begin())
      return false;
    const Site *L = *std::prev(It);
    return L != &S && L != Enclosing && L->Begin >= Begin && L->End <= End &&
           S.End <= L->End;
  };
  std::vector<const Site *> Todo;
  auto Collect = [&](const std::vector<const Site *> &Sorted) {
    for (auto It =
             std::lower_bound(Sorted.begin(), Sorted.end(), Begin, ByBegin);
         It != Sorted.end() && (*It)->Begin < End; ++It)
      if (*It != Enclosing && (*It)->End <= End && !InsideOtherLoop(**It))
        Todo.push_back(*It);
  };
  Collect(ActiveSites);
  Collect(ActiveLoops);
  std::stable_sort(Todo.begin(), Todo.end(), [](const Site *A, const Site *B) {
    return A->End - A->Begin < B->End - B->Begin;
  });
  for (const Site *S : Todo)
    if (llvm::Error E = ES.replace(S->Begin, S->End, S->Render(ES, Lane)))
      ApplyErrors.push_back({S->Record, llvm::toString(std::move(E))});
}

/// Just after the `;` that ends the record's definition
/// (UseClassifier::definitionEnd), or after the end of its line when
/// nothing else follows there.
std::optional<std::pair<FileID, unsigned>>
LayoutRewriter::insertionPoint(const RecordDecl *RD) {
  std::variant<SourceLocation, UseVerdict> End = Uses.definitionEnd(RD);
  if (const auto *V = std::get_if<UseVerdict>(&End)) {
    cannotRender(RD, V->Loc, V->Refusal);
    return std::nullopt;
  }
  SourceLocation Semi = std::get<SourceLocation>(End);
  FileID File = SM.getFileID(Semi);
  unsigned Off = SM.getFileOffset(Semi) + 1;
  StringRef Text = SM.getBufferData(File);
  size_t EOL = Text.find('\n', Off);
  if (EOL != StringRef::npos && Text.slice(Off, EOL).trim().empty())
    return std::make_pair(File, unsigned(EOL + 1));
  return std::make_pair(File, Off);
}

class SiteCollector : public UseWalker<SiteCollector> {
public:
  explicit SiteCollector(LayoutRewriter &R) : R(R) {}
  bool VisitDeclaratorDecl(DeclaratorDecl *D) {
    R.declaration(D);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    R.functionReturn(FD);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    R.reference(DRE);
    return true;
  }
  bool VisitForStmt(ForStmt *For) {
    R.loop(For);
    return true;
  }
  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Outer = Function;
    Function = FD;
    bool Continue = UseWalker::TraverseFunctionDecl(FD);
    Function = Outer;
    return Continue;
  }
  bool VisitReturnStmt(ReturnStmt *RS) {
    R.returnValue(RS, Function);
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    Arrays.push_back(E);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    R.memberReference(E);
    Arrays.push_back(E);
    return true;
  }
  bool VisitInitListExpr(InitListExpr *E) {
    R.initList(E);
    return true;
  }

  // std::vector<T>: its spellings (UseWalker.h), the loops over it and the
  // variables bound to its elements.
  bool containerTypeLoc(QualType T, SourceRange Range,
                        bool InTemplateArgument) {
    return R.vectorType(T, Range, InTemplateArgument);
  }
  bool VisitUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) {
    R.sizeofVector(E);
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    R.rangeFor(S);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    R.variable(VD);
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    R.memberCall(Call);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    R.libraryCall(Call);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    R.containerSubscript(Op);
    return true;
  }
  std::vector<const Expr *> Arrays;

private:
  LayoutRewriter &R;
  const FunctionDecl *Function = nullptr;
};

const FunctionDecl *LayoutRewriter::instantiation() const {
  return Walk ? Walk->instantiation() : nullptr;
}

void LayoutRewriter::collectSites() {
  SiteCollector Collector(*this);
  Walk = &Collector;
  Collector.TraverseAST(Ctx);
  Walk = nullptr;
  for (const Expr *E : Collector.Arrays)
    arrayExpression(E);
  for (const CandidateLoop &L : PendingLoops)
    loopSite(L);
}

std::vector<LayoutRewriter::Insertion>
LayoutRewriter::insertions(std::vector<RewriteTarget> &Targets) {
  std::vector<Insertion> Insertions;
  for (RewriteTarget &T : Targets)
    if (auto At = insertionPoint(T.Decl)) {
      Insertions.push_back({T.Decl, At->first, At->second});
      // A header's text must not depend on which file includes it: every
      // helper is generated (static inline, so unused ones cost nothing).
      if (At->first != SM.getMainFileID())
        T.Layout->useAllHelpers();
    }
  return Insertions;
}

void LayoutRewriter::refuseNamespacedHandles() {
  llvm::SmallPtrSet<const RecordDecl *, 4> Namespaced;
  for (const Site &S : Sites)
    if (const HandleLayout *L = Layouts.lookup(S.Record);
        L && (S.Needs & HandleLayout::HandleType) && L->inNamedNamespace() &&
        Namespaced.insert(S.Record).second)
      cannotRender(S.Record, S.Record->getLocation(),
                   "plain arrays of a record in a named namespace");
}

void LayoutRewriter::dropRefusedRecords() {
  for (const Refusal &R : Refusals)
    Layouts.erase(R.Record);
  for (const auto &[RD, Message] : ApplyErrors) {
    // Two sites overlapping is a bug of the sites, not a reason the
    // analysis could give.
    Refusals.push_back({RD, "conflicting rewrites: " + Message,
                        RD->getLocation(), /*Internal=*/true});
    Layouts.erase(RD);
  }
  ApplyErrors.clear();
}

/// Those with a site here, and those defined in a header (whose
/// declarations every includer must agree on).
llvm::SmallPtrSet<const RecordDecl *, 4>
LayoutRewriter::usedRecords(const std::vector<Insertion> &Insertions) const {
  llvm::SmallPtrSet<const RecordDecl *, 4> Used;
  for (const Site &S : Sites)
    if (Layouts.count(S.Record))
      Used.insert(S.Record);
  for (const Insertion &I : Insertions)
    if (Layouts.count(I.Record) && I.File != SM.getMainFileID())
      Used.insert(I.Record);
  return Used;
}

std::vector<const Site *>
LayoutRewriter::activeSites(const std::vector<Site> &All, FileID File) const {
  std::vector<const Site *> Out;
  for (const Site &S : All)
    if (S.File == File && Layouts.count(S.Record))
      Out.push_back(&S);
  llvm::stable_sort(
      Out, [](const Site *A, const Site *B) { return A->Begin < B->Begin; });
  return Out;
}

std::vector<EditSet>
LayoutRewriter::applyAll(const std::vector<Insertion> &Insertions,
                         const llvm::SmallPtrSet<const RecordDecl *, 4> &Used) {
  std::vector<FileID> Files;
  for (const Site &S : Sites)
    Files.push_back(S.File);
  for (const Site &S : LoopSites)
    Files.push_back(S.File);
  for (const Insertion &I : Insertions)
    if (Used.count(I.Record))
      Files.push_back(I.File);
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  for (const std::vector<Site> *All : {&Sites, &LoopSites})
    for (const Site &S : *All)
      if (const HandleLayout *L = Layouts.lookup(S.Record))
        L->use(HandleLayout::Helper(S.Needs));
  std::vector<EditSet> Edits;
  for (FileID File : Files) {
    useStyleOf(File);
    ActiveSites = activeSites(Sites, File);
    ActiveLoops = activeSites(LoopSites, File);
    StringRef Text = SM.getBufferData(File);
    // Absolute: a compilation database names files relative to each
    // command's directory, not dl-refactor's.
    EditSet ES(absolutePath(SM, File), Text);
    applySites(ES, 0, Text.size(), nullptr, nullptr);
    for (const Insertion &I : Insertions)
      if (I.File == File && Used.count(I.Record))
        ES.insert(I.Offset,
                  "\n" + format(Layouts.lookup(I.Record)->declarations(), 0));
    if (!ES.empty())
      Edits.push_back(std::move(ES));
  }
  return Edits;
}

RewriteResult LayoutRewriter::run(std::vector<RewriteTarget> &Targets) {
  RewriteResult Result;
  collectSites();
  std::vector<Insertion> Insertions = insertions(Targets);
  refuseNamespacedHandles();
  // Refused records keep their layout; retry until the rest applies cleanly.
  while (true) {
    dropRefusedRecords();
    llvm::SmallPtrSet<const RecordDecl *, 4> Used = usedRecords(Insertions);
    std::vector<EditSet> Edits = applyAll(Insertions, Used);
    if (!ApplyErrors.empty())
      continue;
    for (RewriteTarget &T : Targets)
      if (Used.count(T.Decl))
        Result.Rewritten.push_back(T.Decl);
    llvm::sort(Edits, [](const EditSet &A, const EditSet &B) {
      return A.path() < B.path();
    });
    Result.Edits = std::move(Edits);
    break;
  }
  Result.Refusals = std::move(Refusals);
  return Result;
}

} // namespace dlopt::rewrite

RewriteResult dlopt::rewriteRecords(ASTContext &Ctx,
                                    std::vector<RewriteTarget> &Targets) {
  rewrite::LayoutRewriter R(Ctx, Targets);
  return R.run(Targets);
}
