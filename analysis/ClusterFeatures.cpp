//===- ClusterFeatures.cpp - What the decision tree sees of a cluster -----===//
#include "analysis/ClusterFeatures.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace dlopt;

static const FeatureInfo Features[] = {
    {"cluster_bytes", "sigma(c): bytes of one element of the cluster"},
    {"cluster_fields", "number of fields in the cluster"},
    {"cluster_share", "cluster bytes / record bytes"},
    {"max_field_bytes", "size of the cluster's largest field"},
    {"record_bytes", "sizeof the whole record"},
    {"touched_fraction",
     "largest share of the record's bytes one kernel touching the cluster "
     "accesses"},
    {"gather_fraction",
     "share of executed cluster accesses whose index is not affine in the "
     "loop variable"},
    {"write_fraction", "share of executed cluster accesses that write"},
    {"log2_executions", "log2 of how often the hottest cluster access runs"},
    {"vectorizable",
     "share of executed cluster accesses in innermost loops that can "
     "vectorize under the compile flags (no opaque calls, no early exits or "
     "continue, no float reductions without fast-math)"},
    {"loop_index_fraction",
     "share of executed cluster accesses a[i] indexed by the loop variable of "
     "an innermost loop for (i = 0; i < n; ++i) (what a tiled layout reaches "
     "without a division)"},
    {"reduction_fraction",
     "share of executed cluster accesses in innermost loops that accumulate "
     "into a scalar (s += x: a strip-mined tile ends with a horizontal "
     "reduction)"},
    {"accumulators",
     "scalars the innermost loops around the cluster's accesses accumulate "
     "into, averaged over its executed accesses in loops (each is one more "
     "horizontal reduction per strip-mined tile)"},
    {"co_streamed_fields",
     "fields outside the cluster that the innermost loops around its "
     "accesses also access, averaged over its executed accesses in loops (a "
     "loop that streams more arrays than the cluster's when it is SoA)"},
};

llvm::ArrayRef<FeatureInfo> dlopt::knownFeatures() { return Features; }

bool dlopt::isKnownFeature(llvm::StringRef Name) {
  for (const FeatureInfo &F : Features)
    if (Name == F.Name)
      return true;
  return false;
}

/// Whether the access to field \p Id of kernel \p K is to a field of \p C.
static bool inCluster(const KernelAccesses &K, const Cluster &C, unsigned Id) {
  return llvm::any_of(C.Fields,
                      [&](unsigned F) { return K.FieldIds[F] == Id; });
}

/// Executed accesses of kernel \p K to the fields of \p C.
static double clusterExecutions(const KernelAccesses &K, const Cluster &C) {
  double Executed = 0;
  for (const PlacedAccess &A : K.Placed)
    if (inCluster(K, C, A.Access.Field))
      Executed += A.Executions;
  return Executed;
}

/// The fields outside \p C that each innermost loop of kernel \p K
/// accesses, by loop.
static std::map<unsigned, std::set<unsigned>>
otherFieldsByLoop(const KernelAccesses &K, const Cluster &C) {
  std::map<unsigned, std::set<unsigned>> Out;
  for (const PlacedAccess &A : K.Placed) {
    if (A.Loop == PlacedAccess::NoLoop || inCluster(K, C, A.Access.Field))
      continue;
    auto It = llvm::find(K.FieldIds, A.Access.Field);
    if (It != K.FieldIds.end())
      Out[A.Loop].insert(It - K.FieldIds.begin());
  }
  return Out;
}

/// Which kernels speak for cluster \p C: those whose accesses to it run at
/// least \p Significance x as often as the busiest kernel's. The KDLG drops
/// kernels that are light for the whole record; a cluster's layout is
/// decided by the code that touches the cluster, so a light kernel that is
/// the cluster's only other loop (n-body's position update, the one
/// vectorizable loop over the velocities) counts here, and a one-off set-up
/// loop does not.
static std::vector<bool> kernelsForCluster(llvm::ArrayRef<KernelAccesses> Ks,
                                           const Cluster &C,
                                           double Significance) {
  std::vector<double> Executed;
  double Most = 0;
  for (const KernelAccesses &K : Ks) {
    Executed.push_back(clusterExecutions(K, C));
    Most = std::max(Most, Executed.back());
  }
  std::vector<bool> Counts;
  for (double E : Executed)
    Counts.push_back(E > 0 && E >= Significance * Most);
  return Counts;
}

FeatureVector dlopt::computeFeatures(const Kdlg &G, const Cluster &C,
                                     uint64_t RecordBytes,
                                     llvm::ArrayRef<KernelAccesses> Kernels) {
  double Bytes = 0, MaxField = 0;
  for (unsigned F : C.Fields) {
    Bytes += G.fields()[F].Size;
    MaxField = std::max<double>(MaxField, G.fields()[F].Size);
  }

  double Executed = 0, Gathered = 0, Written = 0, MaxExecutions = 0;
  double Touched = 0, InVectorLoops = 0, LoopIndexed = 0, InReductions = 0;
  double InLoops = 0, Accumulators = 0, CoStreamed = 0;
  std::vector<bool> Counts = kernelsForCluster(Kernels, C, DefaultSignificance);
  for (unsigned I = 0; I < Kernels.size(); ++I) {
    if (!Counts[I])
      continue;
    // A kernel that counts runs some access to the cluster.
    const KernelAccesses &K = Kernels[I];
    std::map<unsigned, std::set<unsigned>> Others = otherFieldsByLoop(K, C);
    for (const PlacedAccess &A : K.Placed) {
      if (!inCluster(K, C, A.Access.Field))
        continue;
      Executed += A.Executions;
      if (A.Access.IsGather)
        Gathered += A.Executions;
      if (A.Access.IsWrite)
        Written += A.Executions;
      MaxExecutions = std::max(MaxExecutions, A.Executions);
      if (A.LoopDepth > 0 && A.Access.InVectorizableLoop)
        InVectorLoops += A.Executions;
      if (A.Access.IsLoopIndexed)
        LoopIndexed += A.Executions;
      if (A.LoopDepth > 0) {
        InLoops += A.Executions;
        Accumulators += A.Access.Accumulators * A.Executions;
        if (A.Access.Accumulators > 0)
          InReductions += A.Executions;
        auto Other = Others.find(A.Loop);
        if (Other != Others.end())
          CoStreamed += Other->second.size() * A.Executions;
      }
    }
    double KernelBytes = 0;
    for (unsigned F = 0; F < G.size(); ++F)
      if (std::any_of(K.Placed.begin(), K.Placed.end(),
                      [&](const PlacedAccess &A) {
                        return A.Access.Field == K.FieldIds[F];
                      }))
        KernelBytes += G.fields()[F].Size;
    Touched = std::max(Touched, KernelBytes);
  }

  double Record = std::max<double>(RecordBytes, 1);
  FeatureVector V;
  V["cluster_bytes"] = Bytes;
  V["cluster_fields"] = C.Fields.size();
  V["cluster_share"] = Bytes / Record;
  V["max_field_bytes"] = MaxField;
  V["record_bytes"] = RecordBytes;
  V["touched_fraction"] = Touched / Record;
  V["gather_fraction"] = Executed > 0 ? Gathered / Executed : 0;
  V["write_fraction"] = Executed > 0 ? Written / Executed : 0;
  V["log2_executions"] = MaxExecutions > 0 ? std::log2(MaxExecutions) : 0;
  V["vectorizable"] = Executed > 0 ? InVectorLoops / Executed : 0;
  V["loop_index_fraction"] = Executed > 0 ? LoopIndexed / Executed : 0;
  V["reduction_fraction"] = Executed > 0 ? InReductions / Executed : 0;
  V["accumulators"] = InLoops > 0 ? Accumulators / InLoops : 0;
  V["co_streamed_fields"] = InLoops > 0 ? CoStreamed / InLoops : 0;
  return V;
}
