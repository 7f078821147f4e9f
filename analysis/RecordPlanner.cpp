//===- RecordPlanner.cpp - A record's kernels become its plan -------------===//
#include "analysis/RecordPlanner.h"
#include <numeric>

using namespace dlopt;

/// The summary's accesses as a placed trace whose field ids are the field
/// indices: the other memory of the kernel only shifted their positions,
/// which the summary keeps. Accesses that never ran (in a loop a profiled
/// run never reached) are left out of a kernel that ran: they would bring
/// fields together that the run never used together.
static std::vector<PlacedAccess> placed(const std::vector<AccessInfo> &As) {
  bool Ran =
      llvm::any_of(As, [](const AccessInfo &A) { return A.Executions > 0; });
  std::vector<PlacedAccess> Out;
  for (const AccessInfo &A : As) {
    if (Ran && A.Executions <= 0)
      continue;
    MemoryAccess M{A.Field, 0};
    M.IsWrite = A.IsWrite;
    M.IsGather = A.IsGather;
    M.InVectorizableLoop = A.InVectorizableLoop;
    M.IsLoopIndexed = A.IsLoopIndexed;
    M.Accumulators = A.Accumulators;
    Out.push_back({M, A.Position, A.Executions, A.LoopDepth});
  }
  return Out;
}

/// Bytes the significant kernels move through the fields of \p C.
static double clusterTraffic(const RecordPlan &R, const Cluster &C) {
  double Bytes = 0;
  for (const KernelSummary &K : R.Kernels)
    if (K.Significant)
      for (const AccessInfo &A : K.Accesses)
        if (llvm::is_contained(C.Fields, A.Field))
          Bytes += A.Executions * R.Fields[A.Field].Size;
  return Bytes;
}

/// Gives every tiled cluster of the record the tile size of the busiest
/// one. The rewriter strip-mines a loop for one tile size; a loop over
/// clusters of two sizes reaches the others through the flat form, a
/// division per access, which costs more than any tile size gains.
static void unifyTileSizes(RecordPlan &R) {
  const ClusterPlan *Busiest = nullptr;
  double Most = -1;
  for (const ClusterPlan &P : R.Clusters)
    if (P.Chosen.Kind == LayoutKind::Tiled)
      if (double T = clusterTraffic(R, P.Fields); T > Most)
        Busiest = &P, Most = T;
  if (!Busiest)
    return;
  Layout Tile = Busiest->Chosen;
  std::string Name = R.fieldSet(Busiest->Fields);
  for (ClusterPlan &P : R.Clusters)
    if (P.Chosen.Kind == LayoutKind::Tiled && P.Chosen != Tile) {
      P.Why.push_back("tile size of " + Name + " (" + Tile.str() +
                      "): one tile size per record, so that a loop over "
                      "several clusters is strip-mined once");
      P.Chosen = Tile;
    }
}

/// The decision for a cluster of a record whose arrays the program passes
/// on as sub-arrays (at \p SubArrayAt), where \p Tiled chose a tiled
/// layout: a moved tiled handle counts the elements its tiles skip, so
/// every access takes the flat form (a division and a remainder) and no
/// loop is strip-mined for it. The model decides again as if no access
/// were loop-indexed, which is what a tiled layout would meet; a tiled
/// choice then stands.
static Decision withoutStripMining(const DecisionTree &Model,
                                   const FeatureVector &Features,
                                   const Decision &Tiled,
                                   const std::string &SubArrayAt) {
  FeatureVector Flat = Features;
  Flat["loop_index_fraction"] = 0;
  Decision D = Model.decide(Flat);
  if (D.Chosen.Kind == LayoutKind::Tiled)
    return Tiled;
  D.Path.insert(D.Path.begin(),
                "not " + Tiled.Chosen.str() +
                    ": the program passes sub-arrays "
                    "on (" +
                    SubArrayAt +
                    "), so a tiled layout reaches every element through the "
                    "flat form; decided as if no access were loop-indexed");
  return D;
}

static std::vector<unsigned> identityIds(size_t N) {
  std::vector<unsigned> Ids(N);
  std::iota(Ids.begin(), Ids.end(), 0u);
  return Ids;
}

Kdlg dlopt::kernelGraph(const std::vector<Field> &Fields,
                        const std::vector<AccessInfo> &Accesses) {
  return Kdlg::forKernel(Fields, identityIds(Fields.size()), placed(Accesses));
}

FeatureVector dlopt::clusterFeatures(const RecordPlan &R, const Cluster &C) {
  std::vector<unsigned> Ids = identityIds(R.Fields.size());
  std::vector<KernelAccesses> Accesses;
  for (const KernelSummary &K : R.Kernels)
    Accesses.push_back({placed(K.Accesses), Ids, K.Significant});
  return computeFeatures(R.Graph, C, R.Size, Accesses);
}

void dlopt::planRecord(RecordPlan &R, const AnalysisOptions &Opts) {
  std::vector<KernelGraph> Graphs;
  for (KernelSummary &K : R.Kernels) {
    K.Graph = kernelGraph(R.Fields, K.Accesses);
    Graphs.push_back({K.Graph, K.Weight});
  }
  std::vector<bool> Significant = significantKernels(Graphs);
  for (unsigned K = 0; K < R.Kernels.size(); ++K)
    R.Kernels[K].Significant = Significant[K];
  R.Graph = mergeKernelGraphs(R.Fields, Graphs);
  // A record whose significant kernels include an OpenCL kernel is laid
  // out for the OpenCL device, unless a model was named.
  bool OpenCL = false;
  for (const KernelSummary &K : R.Kernels)
    OpenCL |= K.Significant && K.OpenCL;
  const DecisionTree &Model = Opts.Model ? *Opts.Model
                              : OpenCL   ? DecisionTree::builtinKernels()
                                         : DecisionTree::builtin();
  R.Model = Model.name();

  R.Clusters.clear();
  for (Cluster &C : partitionKdlg(R.Graph, Opts.CacheLine)) {
    ClusterPlan P;
    P.Features = clusterFeatures(R, C);
    if (C.Cold) {
      // Nothing reads these fields in a loop: they only need to be out of
      // the hot clusters' cache lines, and one small record keeps them.
      P.Chosen = Layout::aos();
      P.Why.push_back("cold: no kernel accesses these fields");
    } else {
      Decision D = Model.decide(P.Features);
      if (D.Chosen.Kind == LayoutKind::Tiled && !R.SubArrayAt.empty())
        D = withoutStripMining(Model, P.Features, D, R.SubArrayAt);
      P.Chosen = D.Chosen;
      P.Why = std::move(D.Path);
    }
    P.Fields = std::move(C);
    R.Clusters.push_back(std::move(P));
  }
  unifyTileSizes(R);
}
