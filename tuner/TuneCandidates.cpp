//===- TuneCandidates.cpp - The plans dl-refactor --tune measures ---------===//
#include "tuner/TuneCandidates.h"
#include "llvm/ADT/StringExtras.h"
#include <set>

using namespace dlopt;

static std::string optionLayout(const Layout &L) {
  switch (L.Kind) {
  case LayoutKind::AoS:
    return "aos";
  case LayoutKind::SoA:
    return "soa";
  case LayoutKind::Tiled:
    return "tiled:" + std::to_string(L.Tile);
  }
  return "aos";
}

std::string dlopt::layoutOption(const RecordPlan &R,
                                const std::vector<Layout> &Layouts) {
  // Clusters that are all SoA are the record's SoA: one array per field.
  if (llvm::all_of(Layouts,
                   [](const Layout &L) { return L.Kind == LayoutKind::SoA; }))
    return R.Name + "=soa";
  if (R.Clusters.size() == 1 &&
      R.Clusters[0].Fields.Fields.size() == R.Fields.size())
    return R.Name + "=" + optionLayout(Layouts[0]);
  std::string Text = R.Name + "=split:";
  for (unsigned C = 0; C < R.Clusters.size(); ++C)
    Text += R.fieldSet(R.Clusters[C].Fields) + optionLayout(Layouts[C]);
  return Text;
}

/// What \p R's plan with its clusters given \p Layouts puts in memory, and
/// how its loops run. A cluster of one field is one array of that field in
/// AoS and in SoA alike, reached alike (a[i].f against f[i]), and a SoA
/// cluster is its fields' one-field clusters; the clusters are separate
/// arrays, in no order. A tiled cluster of one field is the same array too,
/// but the rewrite strip-mines its loops, which the compiler may vectorize
/// otherwise: it stays a plan of its own. Plans with the same key would
/// only spend the tuning's time twice on one program: cluster-cpp's
/// automatic plan, four one-field clusters in AoS, had the record's SoA
/// and four one-field SoA neighbours.
static std::string memoryKey(const RecordPlan &R,
                             const std::vector<Layout> &Layouts) {
  std::vector<std::string> Arrays;
  for (unsigned C = 0; C < R.Clusters.size(); ++C) {
    const Cluster &Fields = R.Clusters[C].Fields;
    bool Tiled = Layouts[C].Kind == LayoutKind::Tiled;
    if (Layouts[C].Kind == LayoutKind::SoA ||
        (Fields.Fields.size() == 1 && !Tiled)) {
      for (unsigned F : Fields.Fields)
        Arrays.push_back(R.fieldSet(Cluster{{F}}));
      continue;
    }
    Arrays.push_back(R.fieldSet(Fields) + optionLayout(Layouts[C]));
  }
  llvm::sort(Arrays);
  return R.Name + "=" + llvm::join(Arrays, "");
}

/// Whether \p R was planned for a GPU: as RecordPlanner chooses the CUDA
/// model, a significant kernel of it is a CUDA kernel.
static bool onGpu(const RecordPlan &R) {
  return llvm::any_of(R.Kernels, [](const KernelSummary &K) {
    return K.Significant && K.Cuda;
  });
}

/// The tile of the plans that tile clusters the model did not. On a CPU,
/// small tiles: md-split's clusters all tiled by 4 to 16 ran alike, by 64
/// or 256 8 % slower than its automatic plan. On a GPU a tile is a
/// multiple of the warp's 32 threads and the CUDA model's tiled clusters
/// take 128 (docs/cuda.md); the oracle searches on an H100 and an H200
/// found the whole record in tiles of 64 or 128 fastest for mosquito-cu
/// and lavaMD-cu, whose automatic plans split or keep it.
static uint64_t untriedTile(const RecordPlan &R) { return onGpu(R) ? 128 : 16; }

/// The other layouts a cluster of \p R laid out as \p L is tried in.
static std::vector<Layout> alternatives(const RecordPlan &R, const Layout &L) {
  std::vector<Layout> Out;
  for (Layout A : {Layout::aos(), Layout::soa()})
    if (A != L)
      Out.push_back(A);
  if (L.Kind != LayoutKind::Tiled) {
    Out.push_back(Layout::tiled(untriedTile(R)));
    return Out;
  }
  for (uint64_t T : {L.Tile / 4, L.Tile * 4})
    if (T >= 2 && T <= Layout::MaxTile)
      Out.push_back(Layout::tiled(T));
  return Out;
}

/// \p Chosen with every cluster a loop reads tiled alike (untriedTile).
/// The model decides cluster by cluster, but a loop over several clusters
/// streams one array per SoA field: md-split's integration loop over ten
/// fields in four clusters ran 1.12x faster with fast-math (1.06x without)
/// with all four tiled by 16 than with the automatic plan (three SoA, one
/// tiled), which no change of one cluster reaches.
static std::vector<Layout> uniformTiles(const RecordPlan &R,
                                        std::vector<Layout> Chosen) {
  for (unsigned C = 0; C < Chosen.size(); ++C)
    if (!R.Clusters[C].Fields.Cold)
      Chosen[C] = Layout::tiled(untriedTile(R));
  return Chosen;
}

std::vector<TuneCandidate> dlopt::tuneCandidates(const LayoutPlan &Plan,
                                                 unsigned Max) {
  std::vector<TuneCandidate> Out{{"automatic", {}}};
  std::set<std::string> Seen;
  auto Add = [&](const RecordPlan &R, const std::vector<Layout> &Layouts) {
    // Sub-arrays passed to transfers cannot carry tiles (RecordPlanner):
    // such a plan would only be refused when rendered.
    bool Tiled = llvm::any_of(
        Layouts, [](const Layout &L) { return L.Kind == LayoutKind::Tiled; });
    if (Out.size() >= Max || (Tiled && R.tilesBlockedByTransfers()) ||
        !Seen.insert(memoryKey(R, Layouts)).second)
      return;
    std::string Option = layoutOption(R, Layouts);
    llvm::Expected<PlanOverride> O = parseLayoutOption(Option);
    if (!O) { // A field name --layout cannot spell.
      llvm::consumeError(O.takeError());
      return;
    }
    Out.push_back({"--layout " + Option, {std::move(*O)}});
  };
  std::vector<const RecordPlan *> Records;
  for (const RecordPlan &R : Plan.Records)
    if (R.transformable() && !R.Clusters.empty())
      Records.push_back(&R);
  for (const RecordPlan *R : Records) {
    std::vector<Layout> Chosen;
    for (const ClusterPlan &C : R->Clusters)
      Chosen.push_back(C.Chosen);
    // The automatic plan itself, so that it is not tried again below.
    Seen.insert(memoryKey(*R, Chosen));
    RecordPlan Whole = *R;
    Whole.Clusters.resize(1);
    Whole.Clusters[0].Fields.Fields.clear();
    for (unsigned F = 0; F < R->Fields.size(); ++F)
      Whole.Clusters[0].Fields.Fields.push_back(F);
    Seen.insert(memoryKey(Whole, {Layout::aos()})); // The original.
    Add(Whole, {Layout::soa()});
    // On a GPU, the whole record tiled too: several kernels that each read
    // a few of its fields ran 3-6 % faster so in mosquito-cu than split
    // into ten arrays, which no model of one cluster predicts (and on most
    // of 15 other records with several kernels 2-5 % slower: a candidate to
    // measure, not a rule; docs/cuda.md).
    if (onGpu(*R))
      Add(Whole, {Layout::tiled(untriedTile(*R))});
    Add(*R, uniformTiles(*R, Chosen));
  }
  for (const RecordPlan *R : Records) {
    std::vector<Layout> Chosen;
    for (const ClusterPlan &C : R->Clusters)
      Chosen.push_back(C.Chosen);
    for (unsigned C = 0; C < Chosen.size(); ++C)
      for (const Layout &A : alternatives(*R, Chosen[C])) {
        std::vector<Layout> Neighbour = Chosen;
        Neighbour[C] = A;
        Add(*R, Neighbour);
      }
  }
  return Out;
}
