//===- Analyzer.cpp - The analysis pipeline over one translation unit -----===//
#include "analysis/Analyzer.h"
#include "analysis/AccessCollector.h"
#include "analysis/AstUtil.h"
#include "analysis/Candidates.h"
#include "analysis/Legality.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecordLayout.h"

using namespace clang;
using namespace dlopt;

static std::vector<Field> fieldsOf(ASTContext &Ctx, const RecordDecl *RD) {
  std::vector<Field> Fields;
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
  for (const FieldDecl *FD : RD->fields()) {
    Field F;
    F.Name = FD->getNameAsString();
    if (F.Name.empty())
      F.Name = "<anonymous " + std::to_string(FD->getFieldIndex()) + ">";
    if (!FD->getType()->isIncompleteType())
      F.Size = Ctx.getTypeSizeInChars(FD->getType()).getQuantity();
    F.Offset = Layout.getFieldOffset(FD->getFieldIndex()) / Ctx.getCharWidth();
    Fields.push_back(std::move(F));
  }
  return Fields;
}

namespace {
/// Builds one RecordPlan from the kernels of the translation unit.
class RecordPlanner {
public:
  RecordPlanner(ASTContext &Ctx, const AccessCollector &Ids,
                const std::vector<KernelTrace> &Kernels,
                const std::vector<std::vector<PlacedAccess>> &Placed,
                const AnalysisOptions &Opts, const DecisionTree &Model)
      : Ctx(Ctx), Ids(Ids), Kernels(Kernels), Placed(Placed), Opts(Opts),
        Model(Model) {}

  void plan(const RecordDecl *RD, RecordPlan &R) {
    std::vector<unsigned> FieldIds;
    for (unsigned F = 0; F < R.Fields.size(); ++F)
      FieldIds.push_back(Ids.fieldId(RD, F));

    std::vector<KernelGraph> Graphs;
    std::vector<KernelAccesses> Accesses;
    for (unsigned K = 0; K < Kernels.size(); ++K) {
      KernelSummary S = summarize(Kernels[K], Placed[K], FieldIds);
      if (S.Accesses.empty())
        continue;
      S.Graph = Kdlg::forKernel(R.Fields, FieldIds, Placed[K]);
      Graphs.push_back({S.Graph, S.Weight});
      Accesses.push_back({Placed[K], FieldIds, true});
      R.Kernels.push_back(std::move(S));
    }
    std::vector<bool> Significant = significantKernels(Graphs);
    for (unsigned K = 0; K < R.Kernels.size(); ++K) {
      R.Kernels[K].Significant = Significant[K];
      Accesses[K].Significant = Significant[K];
    }
    R.Graph = mergeKernelGraphs(R.Fields, Graphs);

    for (Cluster &C : partitionKdlg(R.Graph, Opts.CacheLine)) {
      ClusterPlan P;
      P.Features = computeFeatures(R.Graph, C, R.Size, Accesses);
      if (C.Cold) {
        // Nothing reads these fields in a loop: they only need to be out of
        // the hot clusters' cache lines, and one small record keeps them.
        P.Chosen = Layout::aos();
        P.Why.push_back("cold: no kernel accesses these fields");
      } else {
        Decision D = Model.decide(P.Features);
        P.Chosen = D.Chosen;
        P.Why = std::move(D.Path);
      }
      P.Fields = std::move(C);
      R.Clusters.push_back(std::move(P));
    }
  }

private:
  KernelSummary summarize(const KernelTrace &K,
                          const std::vector<PlacedAccess> &Accesses,
                          const std::vector<unsigned> &FieldIds) const {
    const SourceManager &SM = Ctx.getSourceManager();
    KernelSummary S;
    S.Name = K.Function->getNameAsString();
    S.Location = formatLoc(SM, K.Function->getLocation());
    S.Loops = K.Loops;
    for (unsigned I = 0; I < Accesses.size(); ++I) {
      const PlacedAccess &A = Accesses[I];
      auto It = std::find(FieldIds.begin(), FieldIds.end(), A.Access.Field);
      if (It == FieldIds.end())
        continue;
      AccessInfo Info;
      Info.Field = It - FieldIds.begin();
      Info.IsWrite = A.Access.IsWrite;
      Info.IsGather = A.Access.IsGather;
      Info.LoopDepth = A.LoopDepth;
      Info.Position = A.Position;
      Info.Executions = A.Executions;
      Info.Location = formatLoc(SM, K.AccessLocs[I]);
      S.Weight += A.Access.Bytes * A.Executions;
      S.Accesses.push_back(std::move(Info));
    }
    return S;
  }

  ASTContext &Ctx;
  const AccessCollector &Ids;
  const std::vector<KernelTrace> &Kernels;
  const std::vector<std::vector<PlacedAccess>> &Placed;
  const AnalysisOptions &Opts;
  const DecisionTree &Model;
};
} // namespace

AnalysisResult dlopt::analyzeTranslationUnit(ASTContext &Ctx,
                                             const AnalysisOptions &Opts) {
  const DecisionTree &Model =
      Opts.Model ? *Opts.Model : DecisionTree::builtin();
  AnalysisResult Result;
  Result.Plan.CacheLine = Opts.CacheLine;
  Result.Plan.Model = Model.name();

  std::vector<CandidateRecord> Candidates = findCandidates(Ctx);
  std::vector<std::vector<LegalityIssue>> Issues =
      checkLegality(Ctx, Candidates);

  std::vector<const RecordDecl *> Decls;
  for (const CandidateRecord &C : Candidates)
    Decls.push_back(C.Decl);
  AccessCollector Collector(Ctx, Decls);
  std::vector<KernelTrace> Kernels = Collector.collect();
  std::vector<std::vector<PlacedAccess>> Placed;
  for (const KernelTrace &K : Kernels)
    Placed.push_back(K.Trace.place());
  RecordPlanner Planner(Ctx, Collector, Kernels, Placed, Opts, Model);

  const SourceManager &SM = Ctx.getSourceManager();
  for (unsigned I = 0; I < Candidates.size(); ++I) {
    const RecordDecl *RD = Candidates[I].Decl;
    RecordPlan R;
    R.Name = recordName(RD);
    if (R.Name.empty())
      R.Name = "<anonymous>";
    R.Location = formatLoc(SM, RD->getLocation());
    R.Size = Ctx.getTypeSizeInChars(Ctx.getRecordType(RD)).getQuantity();
    R.Fields = fieldsOf(Ctx, RD);
    R.Arrays = Candidates[I].Arrays;
    std::vector<SourceLocation> Locs;
    for (const LegalityIssue &Issue : Issues[I]) {
      R.Blockers.push_back({Issue.Reason, formatLoc(SM, Issue.Loc)});
      Locs.push_back(Issue.Loc);
    }
    // Nothing is proposed for a record that cannot be rewritten.
    if (R.transformable())
      Planner.plan(RD, R);
    Result.Plan.Records.push_back(std::move(R));
    Result.Decls.push_back(RD);
    Result.BlockerLocs.push_back(std::move(Locs));
  }
  return Result;
}
