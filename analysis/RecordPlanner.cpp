//===- RecordPlanner.cpp - A record's kernels become its plan -------------===//
#include "analysis/RecordPlanner.h"
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

using namespace dlopt;

/// The summary's accesses as a placed trace whose field ids are the field
/// indices: the other memory of the kernel only shifted their positions,
/// which the summary keeps. Accesses that never ran (in a loop a profiled
/// run never reached) are left out of a kernel that ran: they would bring
/// fields together that the run never used together. With \p Moved, an
/// access is loop-indexed only if it keeps its lanes where the record's
/// tiled handles count the elements their tiles skip.
static std::vector<PlacedAccess> placed(const std::vector<AccessInfo> &As,
                                        bool Moved = false) {
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
    M.IsLoopIndexed = Moved ? A.LanesWhenMoved : A.IsLoopIndexed;
    M.Accumulators = A.Accumulators;
    Out.push_back(
        {M, A.Position, A.Executions, A.LoopDepth,
         A.Loop == AccessInfo::NoLoop ? PlacedAccess::NoLoop : A.Loop});
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

/// The most elements any array of \p R holds, where every array it
/// allocates has a length known at compile time (local, static and global
/// arrays; parameters only pass those on), else 0. A tile longer than that
/// only pads: a thread's array of 4 complex numbers in a tile of 128 takes
/// 32 times its memory (a GPU thread's local memory, a CPU's stack).
static uint64_t longestFixedArray(const RecordPlan &R) {
  uint64_t Longest = 0;
  for (const ArrayRoot &A : R.Arrays) {
    if (A.Kind == "parameter")
      continue;
    if (A.Length == 0)
      return 0;
    Longest = std::max(Longest, A.Length);
  }
  return Longest;
}

/// The decision for cluster \p C of a record whose arrays the program
/// passes on as sub-arrays (at RecordPlan::SubArrayAt), where \p Tiled
/// chose a tiled layout: its handles then count the elements their tiles
/// skip, and a strip-mined loop keeps the lanes only for the handles it
/// can peel for (a local handle the body leaves alone, outside OpenMP
/// directives); other accesses take the flat form, a division and a
/// remainder. The model decides again with the loop-indexed accesses
/// that a tiled layout would meet; a tiled choice then stands.
static Decision decideMoved(const DecisionTree &Model, const RecordPlan &R,
                            const Cluster &C, const Decision &Tiled) {
  Decision D = Model.decide(clusterFeatures(R, C, /*Moved=*/true));
  if (D.Chosen.Kind == LayoutKind::Tiled)
    return Tiled;
  D.Path.insert(D.Path.begin(),
                "not " + Tiled.Chosen.str() +
                    ": the program passes sub-arrays on (" + R.SubArrayAt +
                    "), so a tiled layout reaches in lanes only the "
                    "accesses of loops that can peel to a tile boundary; "
                    "decided with those as the loop-indexed ones");
  return D;
}

/// Moves the fields of \p From into \p Into, which keeps them in
/// declaration order and the largest delta between any two of them.
static void absorb(const Kdlg &G, Cluster &Into, const Cluster &From) {
  for (unsigned A : Into.Fields)
    for (unsigned B : From.Fields)
      Into.MaxDelta = std::max(Into.MaxDelta, G.delta(A, B));
  Into.MaxDelta = std::max(Into.MaxDelta, From.MaxDelta);
  llvm::append_range(Into.Fields, From.Fields);
  llvm::sort(Into.Fields);
}

/// Joins the clusters that split a group of fields which a significant
/// kernel's loop keeps in registers (KernelSummary::Held), so that they keep
/// one base pointer. Returns, per cluster of \p Clusters, why it must not be
/// SoA ("" where nothing is held).
static std::vector<std::string>
keepHeldTogether(const RecordPlan &R, std::vector<Cluster> &Clusters) {
  std::vector<std::string> Held(Clusters.size());
  for (const KernelSummary &K : R.Kernels) {
    if (!K.Significant)
      continue;
    for (const FieldGroup &H : K.Held) {
      std::vector<unsigned> Parts;
      for (unsigned C = 0; C < Clusters.size(); ++C)
        if (llvm::any_of(H.Fields, [&](unsigned F) {
              return llvm::is_contained(Clusters[C].Fields, F);
            }))
          Parts.push_back(C);
      if (Parts.empty())
        continue;
      Cluster &Into = Clusters[Parts.front()];
      for (unsigned C : llvm::reverse(llvm::drop_begin(Parts))) {
        absorb(R.Graph, Into, Clusters[C]);
        Clusters.erase(Clusters.begin() + C);
        Held.erase(Held.begin() + C);
      }
      Held[Parts.front()] =
          "held in registers: " + K.Name + " (" + H.Location + ") keeps " +
          R.fieldSet(Cluster{H.Fields}) +
          " of one element in registers across a loop, which needs them "
          "behind one pointer (in arrays of their own each may alias the "
          "others, and every iteration loads and stores them)";
    }
  }
  return Held;
}

/// Why cluster \p C stays AoS ("" if nothing says so): a significant
/// kernel's loop stores fields of it as one vector (KernelSummary::
/// VectorStores), which needs them side by side, and at most a tenth of
/// the cluster's accesses (\p Features) lie in loops that vectorize across
/// iterations; where more do, SoA or tiles may give those wider vectors,
/// and the model decides. Host compilers only: a device vectorizes across
/// work-items.
static std::string storedAsVector(const RecordPlan &R, const Cluster &C,
                                  const FeatureVector &Features) {
  if (auto V = Features.find("vectorizable");
      V == Features.end() || V->second > 0.1)
    return "";
  for (const KernelSummary &K : R.Kernels) {
    if (!K.Significant || K.OpenCL || K.Cuda)
      continue;
    for (const FieldGroup &G : K.VectorStores) {
      bool Scalar = llvm::any_of(K.Accesses, [&](const AccessInfo &A) {
        return A.IsWrite && A.Location == G.Location && !A.InVectorizableLoop;
      });
      if (Scalar && llvm::all_of(G.Fields, [&](unsigned F) {
            return llvm::is_contained(C.Fields, F);
          }))
        return "stored as one vector: " + K.Name + " (" + G.Location +
               ") stores " + R.fieldSet(Cluster{G.Fields}) +
               " of one element by statements of one shape in a loop that "
               "does not vectorize; side by side (AoS) the compiler's SLP "
               "vectorizer makes them one vector store, in arrays of their "
               "own each stays scalar";
    }
  }
  return "";
}

/// Whether an access of kernel \p K reaches each element at most once over
/// the whole run: host code that runs once, as far as is known (a function
/// nothing in its file calls may run in another file's loop; a GPU kernel
/// runs as often as it is launched), the access in at most one loop.
static bool onePass(const KernelSummary &K, const AccessInfo &A) {
  return !K.OpenCL && !K.Cuda && K.FrequencyKnown && K.Frequency <= 1 &&
         A.LoopDepth <= 1;
}

/// Why cluster \p C keeps the record's layout as set-up or wrap-up data
/// ("" if it does not): every access the significant kernels make to it is
/// one pass over the elements (a loop that initializes them once, one that
/// sums them at the end), while they reach other fields of the record pass
/// after pass (a time-step loop). A new layout could only speed that one
/// pass, and it can slow it: initializing 4M elements was 1.4x slower with
/// eight fields in arrays of their own than with five of them side by side
/// (one write stream per field; the whole run of bench/stream_aos.c 0.81x
/// with the profile's plan). With measured counts such a loop can weigh
/// more than the 1 % below which the merge ignores a kernel.
static std::string setUpOnly(const RecordPlan &R, const Cluster &C) {
  bool Reached = false, OnePass = true, OthersRepeated = false;
  for (const KernelSummary &K : R.Kernels) {
    if (!K.Significant)
      continue;
    for (const AccessInfo &A : K.Accesses) {
      if (llvm::is_contained(C.Fields, A.Field)) {
        Reached = true;
        OnePass &= onePass(K, A);
      } else {
        OthersRepeated |= !onePass(K, A);
      }
    }
  }
  if (!Reached || !OnePass || !OthersRepeated)
    return "";
  return "set-up data: the significant kernels reach these fields once per "
         "element over the run (a kernel that runs once, in one loop), and "
         "other fields pass after pass; a new layout could only change that "
         "one pass";
}

/// Where the significant kernels reach field \p F: the (kernel, loop
/// depth, executions) of each of its accesses. Two fields with the same
/// sites are reached together: a field some loop reads once more (alone,
/// or twice in an iteration) has one site more.
static std::vector<std::tuple<unsigned, unsigned, double>>
reachedBy(const RecordPlan &R, unsigned F) {
  std::vector<std::tuple<unsigned, unsigned, double>> Sites;
  for (unsigned K = 0; K < R.Kernels.size(); ++K)
    if (R.Kernels[K].Significant)
      for (const AccessInfo &A : R.Kernels[K].Accesses)
        if (A.Field == F)
          Sites.emplace_back(K, A.LoopDepth, A.Executions);
  llvm::sort(Sites);
  return Sites;
}

/// Joins the AoS clusters whose fields the significant kernels always
/// reach together (the same loops, as often): two small records of fields
/// that every access reads together move no fewer bytes than one, and each
/// access then touches both. The partition cuts such a record where two of
/// its fields lie a cache line apart (RSBench's 72-byte poles, read whole
/// in short runs from random windows, ran 11 % slower split in two).
static void joinAlwaysTogether(RecordPlan &R) {
  using Sites = std::vector<std::tuple<unsigned, unsigned, double>>;
  // Per cluster: the sites all its fields share, if it is a hot AoS one.
  std::vector<std::optional<Sites>> Shared;
  for (const ClusterPlan &P : R.Clusters) {
    Shared.emplace_back();
    if (P.Fields.Cold || P.Chosen != Layout::aos())
      continue;
    Sites First = reachedBy(R, P.Fields.Fields.front());
    if (!First.empty() && llvm::all_of(P.Fields.Fields, [&](unsigned F) {
          return reachedBy(R, F) == First;
        }))
      Shared.back() = std::move(First);
  }
  for (unsigned I = 0; I < R.Clusters.size(); ++I) {
    if (!Shared[I])
      continue;
    ClusterPlan &Into = R.Clusters[I];
    bool Joined = false;
    for (unsigned J = R.Clusters.size(); J-- > I + 1;) {
      if (Shared[J] != Shared[I])
        continue;
      Into.Why.push_back("joined with " + R.fieldSet(R.Clusters[J].Fields) +
                         ": the same loops reach these fields together, and "
                         "two AoS records of them would move no fewer bytes");
      absorb(R.Graph, Into.Fields, R.Clusters[J].Fields);
      R.Clusters.erase(R.Clusters.begin() + J);
      Shared.erase(Shared.begin() + J);
      Joined = true;
    }
    if (Joined)
      Into.Features = clusterFeatures(R, Into.Fields);
  }
}

/// The arrays a handle of \p R's plan holds: one per SoA field, AoS group
/// and tile array.
static unsigned handleArrays(const RecordPlan &R) {
  unsigned N = 0;
  for (const ClusterPlan &C : R.Clusters)
    N += C.Chosen.Kind == LayoutKind::SoA ? C.Fields.Fields.size() : 1;
  return N;
}

/// Makes \p R's plan one AoS cluster of all its fields: the record keeps
/// its layout, for \p Why.
static void keepAsIs(RecordPlan &R, const std::string &Why) {
  ClusterPlan All;
  for (const ClusterPlan &C : R.Clusters)
    absorb(R.Graph, All.Fields, C.Fields);
  All.Chosen = Layout::aos();
  All.Features = clusterFeatures(R, All.Fields);
  All.Why.push_back("kept as is: " + Why);
  R.Clusters = {std::move(All)};
}

/// A function of another file called once per element (`kick(p, i, dt)`
/// in main.c's loop over the particles) receives the handle by value at
/// every call, where the original passed one pointer in a register. The
/// x86-64 and AArch64 ABIs pass an aggregate of more than two pointers in
/// memory, and its copy cost each call more than the layout saved: 7.8x
/// the original's time for an SoA handle of six arrays, measured; a handle
/// of two AoS groups ran as fast as the original. A callee without loops
/// vectorizes nothing, so tiles only spread an element over more cache
/// lines (1.8x). Such a record keeps its layout.
static void keepForCallsPerElement(RecordPlan &R) {
  unsigned Arrays = handleArrays(R);
  bool Tiled = llvm::any_of(R.Clusters, [](const ClusterPlan &C) {
    return C.Chosen.Kind == LayoutKind::Tiled;
  });
  if (Arrays <= 2 && !Tiled)
    return;
  auto Call = llvm::find_if(R.Kernels, [](const KernelSummary &K) {
    return K.Significant && K.CalledPerElement;
  });
  if (Call == R.Kernels.end())
    return;
  std::string Cost =
      Arrays > 2
          ? "each call would pass a handle of " + std::to_string(Arrays) +
                " arrays by value, through memory (an ABI passes at "
                "most two pointers in registers)"
          : "a function without loops vectorizes nothing, and tiles "
            "would spread each element over more cache lines";
  keepAsIs(R, "other files call '" + Call->Name + "' (" + Call->Location +
                  ") once per element, and " + Cost);
}

/// The record's arrays together take at most this many bytes (64 cache
/// lines): they stay in the L1 cache beside the rest of a loop's data
/// whatever their layout, so a new one moves no fewer bytes from memory.
static constexpr uint64_t SmallArraysBytes = 4096;

/// The bytes the arrays of \p R take where every array it allocates is a
/// local, static or global array of a length known at compile time
/// (parameters only pass those on), else 0: a member array may be one of
/// many, and the heap and containers hold what the run asks for.
static uint64_t fixedArraysBytes(const RecordPlan &R) {
  uint64_t Bytes = 0;
  for (const ArrayRoot &A : R.Arrays) {
    if (A.Kind == "parameter")
      continue;
    if (A.Length == 0 || (A.Kind != "global array" &&
                          A.Kind != "static array" && A.Kind != "local array"))
      return 0;
    Bytes += A.Length * R.Size;
  }
  return Bytes;
}

/// A record whose arrays are few and small (a table of materials, a scene
/// of nine spheres) keeps its layout where no loop that reaches its hot
/// fields vectorizes: in the L1 cache a layout can save no memory
/// traffic, and without vectors it gains nothing in the loops, while each
/// array of its own costs a pointer in every handle passed (smallpt's
/// scene, 9 spheres of 88 bytes, rendered as fast in SoA, within 1 %).
/// Where a loop vectorizes, SoA or tiles may give it wider vectors, and
/// the model decides.
static void keepSmallArrays(RecordPlan &R) {
  uint64_t Bytes = fixedArraysBytes(R);
  if (Bytes == 0 || Bytes > SmallArraysBytes || R.unchanged())
    return;
  for (const ClusterPlan &C : R.Clusters) {
    auto V = C.Features.find("vectorizable");
    if (!C.Fields.Cold && (V == C.Features.end() || V->second > 0))
      return;
  }
  keepAsIs(R, "its arrays take " + std::to_string(Bytes) +
                  " bytes in all (at most " + std::to_string(SmallArraysBytes) +
                  "), which stay in the L1 cache in any layout, and no loop "
                  "that reaches them vectorizes");
}

/// The share of the bytes a record's significant kernels move that
/// scalar loops copying its elements whole move, above which it keeps its
/// layout.
static constexpr double WholeElementShare = 0.95;

/// The bytes \p R's significant kernels move, and those of them in loops
/// that copy whole elements (`T t = a[i]`, `f(a[i])`) and do not
/// vectorize.
static std::pair<double, double> wholeElementBytes(const RecordPlan &R) {
  double All = 0, Whole = 0;
  for (const KernelSummary &K : R.Kernels) {
    if (!K.Significant)
      continue;
    // The loops of the kernel that read whole elements (NoLoop: its
    // loop-free body, run from its callers' loops).
    std::set<unsigned> Copying;
    for (const AccessInfo &A : K.Accesses)
      if (A.WholeElement && !A.IsWrite)
        Copying.insert(A.Loop);
    for (const AccessInfo &A : K.Accesses) {
      double Bytes = A.Executions * R.Fields[A.Field].Size;
      All += Bytes;
      if (Copying.count(A.Loop) && !A.InVectorizableLoop)
        Whole += Bytes;
    }
  }
  return {All, Whole};
}

/// A record whose elements the loops that weigh most copy whole, none of
/// which vectorizes, keeps its layout: there no layout moves fewer bytes
/// than the element's own, and each copy would gather every field from
/// its own array. The particle-in-cell kernel of the Parallel Research
/// Kernels passes each 72-byte particle by value to its force function:
/// every layout ran it at half the original's speed with gcc 12 (which
/// builds the copy field by field and reloads it 64 bytes at a time,
/// stalling on the stores), 0.91 with clang 19.
static void keepWholeElements(RecordPlan &R) {
  // On a GPU a warp's whole-element copies from AoS are strided loads, and
  // from SoA coalesced ones: the paper's case for the layout.
  if (R.unchanged() || llvm::any_of(R.Kernels, [](const KernelSummary &K) {
        return K.Significant && (K.OpenCL || K.Cuda);
      }))
    return;
  auto [All, Whole] = wholeElementBytes(R);
  if (All == 0 || Whole < WholeElementShare * All)
    return;
  keepAsIs(R, "scalar loops that copy its elements whole move " +
                  std::to_string(int(100 * Whole / All)) +
                  "% of its bytes: no layout moves fewer bytes there, and "
                  "each copy would gather every field from its own array");
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

FeatureVector dlopt::clusterFeatures(const RecordPlan &R, const Cluster &C,
                                     bool Moved) {
  std::vector<unsigned> Ids = identityIds(R.Fields.size());
  std::vector<KernelAccesses> Accesses;
  for (const KernelSummary &K : R.Kernels)
    Accesses.push_back({placed(K.Accesses, Moved), Ids});
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
  // out for the OpenCL device, one with a CUDA kernel for the GPU, unless a
  // model was named.
  bool OpenCL = false, Cuda = false;
  for (const KernelSummary &K : R.Kernels) {
    OpenCL |= K.Significant && K.OpenCL;
    Cuda |= K.Significant && K.Cuda;
  }
  const DecisionTree &Model = Opts.Model ? *Opts.Model
                              : Cuda     ? DecisionTree::builtinCuda()
                              : OpenCL   ? DecisionTree::builtinKernels()
                                         : DecisionTree::builtin();
  R.Model = Model.name();
  R.Epsilon = !Opts.CacheLineGiven && Model.cacheLine() ? Model.cacheLine()
                                                        : Opts.CacheLine;

  R.Clusters.clear();
  std::vector<Cluster> Clusters = partitionKdlg(R.Graph, R.Epsilon);
  std::vector<std::string> Held = keepHeldTogether(R, Clusters);
  std::string NoTiles;
  if (R.tilesBlockedByTransfers())
    NoTiles = "the program passes sub-arrays on (" + R.SubArrayAt +
              ") of arrays it " +
              (R.hasBuffers() ? "binds to OpenCL buffers"
                              : "copies with CUDA runtime calls") +
              ", which cannot carry tiles";
  uint64_t Longest = longestFixedArray(R);
  for (unsigned I = 0; I < Clusters.size(); ++I) {
    Cluster &C = Clusters[I];
    ClusterPlan P;
    P.Features = clusterFeatures(R, C);
    if (C.Cold) {
      // Nothing reads these fields in a loop: they only need to be out of
      // the hot clusters' cache lines, and one small record keeps them.
      P.Chosen = Layout::aos();
      P.Why.push_back("cold: no kernel accesses these fields");
    } else if (std::string Why = setUpOnly(R, C); !Why.empty()) {
      P.Chosen = Layout::aos();
      P.Why.push_back(std::move(Why));
    } else {
      Decision D = Model.decide(P.Features, NoTiles);
      if (D.Chosen.Kind == LayoutKind::Tiled && Longest &&
          Longest <= D.Chosen.Tile)
        D = Model.decide(P.Features, "its arrays hold at most " +
                                         std::to_string(Longest) +
                                         " elements, no more than a tile");
      if (D.Chosen.Kind == LayoutKind::Tiled && !R.SubArrayAt.empty())
        D = decideMoved(Model, R, C, D);
      P.Chosen = D.Chosen;
      P.Why = std::move(D.Path);
      if (!Held[I].empty()) {
        if (P.Chosen.Kind == LayoutKind::SoA)
          P.Chosen = Layout::aos();
        P.Why.push_back(Held[I]);
      }
      if (P.Chosen != Layout::aos())
        if (std::string Why = storedAsVector(R, C, P.Features); !Why.empty()) {
          P.Chosen = Layout::aos();
          P.Why.push_back(std::move(Why));
        }
    }
    P.Fields = std::move(C);
    R.Clusters.push_back(std::move(P));
  }
  joinAlwaysTogether(R);
  unifyTileSizes(R);
  keepForCallsPerElement(R);
  keepSmallArrays(R);
  keepWholeElements(R);
}
