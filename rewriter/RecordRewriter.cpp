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
    : State(Ctx, Targets), Shared(State), Use(State), OpenCL(State),
      Declarations(State, OpenCL), Loops(State), Containers(State, Loops),
      SM(Ctx.getSourceManager()) {
  State.Render = [this](const RecordDecl *RD, const UseVerdict &V) {
    render(RD, V);
  };
}

/// Renders one use the analysis classified (UseClassifier.h). A use it
/// refused cannot reach here for a record being rewritten, since Legality
/// blocks the record on the same verdict: if one does, that is a bug.
void LayoutRewriter::render(const RecordDecl *RD, const UseVerdict &V) {
  if (!V.Use)
    return Shared.cannotRender(RD, V.Loc, V.Refusal);
  const HandleUse &U = *V.Use;
  switch (U.Kind) {
  case UseKind::FieldAccess:
  case UseKind::ElementRead:
  case UseKind::ElementWrite:
  case UseKind::Allocation:
  case UseKind::Release:
  case UseKind::NullTest:
  case UseKind::NullValue:
  case UseKind::ElementSize:
  case UseKind::ElementAddress:
  case UseKind::SubArray:
  case UseKind::LibrarySort:
  case UseKind::LibrarySearch:
  case UseKind::ArrayCopy:
  case UseKind::FileIO:
  case UseKind::HandleComparison:
  case UseKind::HandleStep:
  case UseKind::CudaCall:
  case UseKind::TemplateCall:
  case UseKind::HandleCast:
    return Use.renderUse(RD, U);
  case UseKind::ContainerCall:
  case UseKind::ElementBinding:
  case UseKind::ElementCall:
  case UseKind::ElementSwap:
  case UseKind::ArrayContainerInit:
    return Containers.renderUse(RD, U);
  case UseKind::AllocationPart:
  case UseKind::WalkingPointer:
  case UseKind::ProxyCall:
  case UseKind::HandleFlow:
  case UseKind::ElementPointer:
  case UseKind::OpenCLCall:
  case UseKind::KernelParameter:
    return; // Rendered with the allocation, the loop, the declarations or
            // the OpenCL call, or as written.
  }
}

/// Just after the `;` that ends the record's definition
/// (UseClassifier::definitionEnd), or after the end of its line when
/// nothing else follows there.
std::optional<std::pair<FileID, unsigned>>
LayoutRewriter::insertionPoint(const RecordDecl *RD) {
  std::variant<SourceLocation, UseVerdict> End = State.Uses.definitionEnd(RD);
  if (const auto *V = std::get_if<UseVerdict>(&End)) {
    Shared.cannotRender(RD, V->Loc, V->Refusal);
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

/// The walk Legality makes too (UseWalker.h): each node to its renderer.
class SiteCollector : public UseWalker<SiteCollector> {
public:
  SiteCollector(RewriteState &State, UseRenderer &Use,
                DeclarationRenderer &Declarations, LoopRenderer &Loops,
                ContainerRenderer &Containers)
      : State(State), Use(Use), Declarations(Declarations), Loops(Loops),
        Containers(Containers) {}

  bool keptAsWritten(const FunctionDecl *FD) const {
    return Use.keptAsWritten(FD);
  }
  bool clonedInstantiation(const FunctionDecl *FD) const {
    return State.Uses.clonedInstantiation(FD);
  }
  /// The sites of an instantiation given an overload are its overload's
  /// (Site::Clone), rendered into a copy of the template's text.
  bool TraverseDecl(Decl *D) {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (clone() || !clonedInstantiation(FD))
      return UseWalker::TraverseDecl(D);
    size_t First = State.Sites.size();
    bool Continue = UseWalker::TraverseDecl(D);
    for (size_t I = First; I < State.Sites.size(); ++I)
      State.Sites[I].Clone = FD;
    State.Clones.push_back(FD);
    return Continue;
  }
  bool VisitDeclaratorDecl(DeclaratorDecl *D) {
    Declarations.declaration(D);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    Declarations.functionReturn(FD);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    Use.reference(DRE);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    Use.dereference(UO);
    return true;
  }
  bool VisitForStmt(ForStmt *For) {
    Loops.loop(For);
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
    Use.returnValue(RS, Function);
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    Arrays.push_back(E);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    Use.memberReference(E);
    Arrays.push_back(E);
    return true;
  }
  void constructorInitializer(const CXXCtorInitializer *Init) {
    Use.memberInitializer(Init);
  }
  bool VisitInitListExpr(InitListExpr *E) {
    Containers.initList(E);
    Use.memberArrayInitializers(E);
    return true;
  }

  // std::vector<T>: its spellings (UseWalker.h), the loops over it and the
  // variables bound to its elements.
  bool containerTypeLoc(QualType T, SourceRange Range,
                        bool InTemplateArgument) {
    return Containers.containerType(T, Range, InTemplateArgument);
  }
  bool VisitUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) {
    Containers.sizeofContainer(E);
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    Containers.rangeFor(S);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    Containers.variable(VD);
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    Containers.memberCall(Call);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    Containers.libraryCall(Call);
    Use.templateCall(Call);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    Containers.subscript(Op);
    return true;
  }
  /// Array expressions, checked once the walk is done (arrayExpression).
  std::vector<const Expr *> Arrays;

private:
  RewriteState &State;
  UseRenderer &Use;
  DeclarationRenderer &Declarations;
  LoopRenderer &Loops;
  ContainerRenderer &Containers;
  const FunctionDecl *Function = nullptr;
};

void LayoutRewriter::collectSites() {
  SiteCollector Collector(State, Use, Declarations, Loops, Containers);
  State.Walk = &Collector;
  Collector.TraverseAST(State.Ctx);
  State.Walk = nullptr;
  for (const Expr *E : Collector.Arrays)
    Use.arrayExpression(E);
  keepHostArrays();
  OpenCL.hostCalls();
  Loops.stripMineLoops();
}

/// Host code of records taken at the OpenCL boundary keeps its arrays as
/// they are: of the walk's sites, refusals included (the analysis blocked
/// only the other strategy with them), none stays. Their buffers' calls
/// are rendered next (OpenCLRenderer::hostCalls). A CUDA unit's host
/// arrays were never rendered (RewriteState::keptOnHost): its device arrays
/// share the host code.
void LayoutRewriter::keepHostArrays() {
  if (State.Boundary.empty() || State.Ctx.getLangOpts().OpenCL ||
      State.Ctx.getLangOpts().CUDA)
    return;
  auto Kept = [&](const RecordDecl *RD) {
    return State.Boundary.count(RD) > 0;
  };
  llvm::erase_if(State.Sites, [&](const Site &S) { return Kept(S.Record); });
  llvm::erase_if(State.LoopSites,
                 [&](const Site &S) { return Kept(S.Record); });
  llvm::erase_if(State.TiledIndexUses,
                 [&](const TiledUse &U) { return Kept(U.Record); });
  llvm::erase_if(State.Refusals,
                 [&](const Refusal &R) { return Kept(R.Record); });
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
  for (const Site &S : State.Sites)
    if (const HandleLayout *L = State.Layouts.lookup(S.Record);
        L && (S.Needs & HandleLayout::HandleType) && L->inNamedNamespace() &&
        Namespaced.insert(S.Record).second)
      Shared.cannotRender(S.Record, S.Record->getLocation(),
                          "plain arrays of a record in a named namespace");
}

void LayoutRewriter::dropRefusedRecords() {
  for (const Refusal &R : State.Refusals)
    State.Layouts.erase(R.Record);
  for (const auto &[RD, Message] : State.ApplyErrors) {
    // Two sites overlapping is a bug of the sites, not a reason the
    // analysis could give.
    State.Refusals.push_back({RD, "conflicting rewrites: " + Message,
                              RD->getLocation(), /*Internal=*/true});
    State.Layouts.erase(RD);
  }
  State.ApplyErrors.clear();
}

/// Those with a site here, and those defined in a header (whose
/// declarations every includer must agree on).
llvm::SmallPtrSet<const RecordDecl *, 4>
LayoutRewriter::usedRecords(const std::vector<Insertion> &Insertions) const {
  llvm::SmallPtrSet<const RecordDecl *, 4> Used;
  for (const Site &S : State.Sites)
    if (State.Layouts.count(S.Record))
      Used.insert(S.Record);
  for (const Insertion &I : Insertions)
    if (State.Layouts.count(I.Record) && I.File != SM.getMainFileID())
      Used.insert(I.Record);
  return Used;
}

std::vector<const Site *>
LayoutRewriter::activeSites(const std::vector<Site> &All, FileID File,
                            const FunctionDecl *Clone) const {
  std::vector<const Site *> Out;
  for (const Site &S : All)
    if (S.File == File && S.Clone == Clone && State.Layouts.count(S.Record))
      Out.push_back(&S);
  llvm::stable_sort(Out, [](const Site *A, const Site *B) {
    return std::tie(A->Begin, A->End) < std::tie(B->Begin, B->End);
  });
  // A macro argument the expansion names twice (assert's, in glibc) is one
  // text: the analysis classified both uses alike (Legality), so the first
  // renders it.
  Out.erase(std::unique(Out.begin(), Out.end(),
                        [](const Site *A, const Site *B) {
                          return A->Begin == B->Begin && A->End == B->End &&
                                 A->Record == B->Record;
                        }),
            Out.end());
  return Out;
}

std::vector<EditSet>
LayoutRewriter::applyAll(const std::vector<Insertion> &Insertions,
                         const llvm::SmallPtrSet<const RecordDecl *, 4> &Used) {
  std::vector<FileID> Files;
  for (const Site &S : State.Sites)
    Files.push_back(S.File);
  for (const Site &S : State.LoopSites)
    Files.push_back(S.File);
  for (const Insertion &I : Insertions)
    if (Used.count(I.Record))
      Files.push_back(I.File);
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  for (const std::vector<Site> *All : {&State.Sites, &State.LoopSites})
    for (const Site &S : *All)
      if (const HandleLayout *L = State.Layouts.lookup(S.Record))
        L->use(HandleLayout::Helper(S.Needs));
  std::vector<EditSet> Edits;
  for (FileID File : Files) {
    Shared.useStyleOf(File);
    State.ActiveSites = activeSites(State.Sites, File);
    State.ActiveLoops = activeSites(State.LoopSites, File);
    StringRef Text = SM.getBufferData(File);
    // Absolute: a compilation database names files relative to each
    // command's directory, not dl-refactor's.
    EditSet ES(absolutePath(SM, File), Text);
    Shared.applySites(ES, 0, Text.size(), nullptr, nullptr);
    insertClones(ES, File);
    for (const Insertion &I : Insertions)
      if (I.File == File && Used.count(I.Record))
        ES.insert(
            I.Offset,
            "\n" + Shared.format(State.Layouts.lookup(I.Record)->declarations(),
                                 0));
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
    if (!State.ApplyErrors.empty())
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
  Result.Refusals = std::move(State.Refusals);
  return Result;
}

} // namespace dlopt::rewrite

RewriteResult
dlopt::rewriteRecords(ASTContext &Ctx, std::vector<RewriteTarget> &Targets,
                      const std::map<std::string, std::string> *KnownBuffers,
                      const std::map<std::string, std::string> *Allocators) {
  rewrite::LayoutRewriter R(Ctx, Targets);
  R.knowBuffers(KnownBuffers);
  R.knowAllocators(Allocators);
  return R.run(Targets);
}
