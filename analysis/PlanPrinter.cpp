//===- PlanPrinter.cpp - LayoutPlan as text, JSON and DOT -----------------===//
#include "analysis/PlanPrinter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include <cmath>

using namespace dlopt;
using namespace llvm;

std::string dlopt::formatDistance(double D) {
  if (std::isinf(D))
    return "inf";
  if (D < 1e7)
    return std::to_string(static_cast<uint64_t>(std::llround(D)));
  std::string S;
  raw_string_ostream(S) << format("%.2g", D);
  return S;
}

static std::string fieldList(const RecordPlan &R, const Cluster &C) {
  std::string S = "{";
  for (unsigned I = 0; I < C.Fields.size(); ++I)
    S += (I ? "," : "") + R.Fields[C.Fields[I]].Name;
  return S + "}";
}

static double clusterBytes(const RecordPlan &R, const Cluster &C) {
  double B = 0;
  for (unsigned F : C.Fields)
    B += R.Fields[F].Size;
  return B;
}

std::string dlopt::describeCluster(const RecordPlan &R, const ClusterPlan &C) {
  std::string S;
  raw_string_ostream OS(S);
  OS << fieldList(R, C.Fields) << " " << C.Chosen.str()
     << ": sigma=" << formatDistance(clusterBytes(R, C.Fields)) << " B";
  if (!C.Fields.Cold && C.Fields.Fields.size() > 1)
    OS << ", max delta=" << formatDistance(C.Fields.MaxDelta) << " B";
  if (!C.Why.empty())
    OS << " (" << join(C.Why, ", ") << ")";
  return OS.str();
}

KdlgEdges dlopt::edgesWithin(const RecordPlan &R, double Epsilon) {
  KdlgEdges Out;
  for (unsigned A = 0; A < R.Fields.size(); ++A)
    for (unsigned B = A + 1; B < R.Fields.size(); ++B) {
      double D = R.Graph.delta(A, B);
      if (std::isinf(D))
        ++Out.Never;
      else if (D >= Epsilon)
        ++Out.Far;
      else
        Out.Near.push_back({A, B, D});
    }
  return Out;
}

std::string dlopt::summarizeRecord(const RecordPlan &R, unsigned CacheLine) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "struct " << R.Name << " (" << R.Size << " B, " << R.Fields.size()
     << " fields, " << R.Arrays.size()
     << (R.Arrays.size() == 1 ? " array" : " arrays");
  if (!R.transformable()) {
    OS << "): not transformable: " << R.Blockers.front().Reason;
    if (R.Blockers.size() > 1)
      OS << " (and " << R.Blockers.size() - 1 << " more)";
    return OS.str();
  }
  OS << ", " << R.Kernels.size()
     << (R.Kernels.size() == 1 ? " kernel): " : " kernels): ")
     << R.notation().substr(R.Name.size() + 2);
  if (R.unchanged())
    OS << " (keep as is)";
  OS << " at epsilon=" << (R.Epsilon ? R.Epsilon : CacheLine) << " B";
  if (R.hasDeviceArrays() && R.How == Strategy::Boundary && !R.unchanged())
    OS << (R.hasBuffers() ? ", at the OpenCL boundary"
                          : ", at the CUDA copies' boundary")
       << " (host arrays keep their layout)";
  return OS.str();
}

Error dlopt::writeOutputFile(StringRef Path,
                             function_ref<void(raw_ostream &)> Print) {
  return writeToOutput(Path, [&](raw_ostream &OS) {
    Print(OS);
    return Error::success();
  });
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

static void printMatrix(raw_ostream &OS, const RecordPlan &R) {
  size_t Width = 5;
  for (const Field &F : R.Fields)
    Width = std::max(Width, F.Name.size() + 1);
  for (unsigned F = 0; F < R.Fields.size(); ++F)
    Width = std::max(Width, formatDistance(R.Graph.delta(F, 0)).size() + 1);
  OS << "    " << left_justify("", Width);
  for (const Field &F : R.Fields)
    OS << right_justify(F.Name, Width + 1);
  OS << "\n";
  for (unsigned F1 = 0; F1 < R.Fields.size(); ++F1) {
    OS << "    " << left_justify(R.Fields[F1].Name, Width);
    for (unsigned F2 = 0; F2 < R.Fields.size(); ++F2) {
      std::string Cell = F1 == F2 ? "-" : formatDistance(R.Graph.delta(F1, F2));
      OS << right_justify(Cell, std::max(Width, Cell.size()) + 1);
    }
    OS << "\n";
  }
}

/// With a profile, every loop of \p K with its trip count and where the
/// count comes from: which counts were measured and which guessed.
static void printProfiledLoops(llvm::raw_ostream &OS, const KernelSummary &K) {
  bool Profiled =
      K.FrequencyMeasured || llvm::any_of(K.Loops, [](const LoopInfo &L) {
        return L.TripSource == "profile";
      });
  if (!Profiled)
    return;
  for (const LoopInfo &L : K.Loops)
    OS << "      loop at " << L.Location << ": " << formatDistance(L.TripCount)
       << " trips ("
       << (L.TripSource == "profile" ? "measured" : "guessed: " + L.TripSource)
       << ")\n";
}

void dlopt::printPlanText(raw_ostream &OS, const LayoutPlan &Plan) {
  if (Plan.Records.empty()) {
    OS << "dlopt: no candidate records (no array of structs indexed in a "
          "loop)\n";
    return;
  }
  for (const RecordPlan &R : Plan.Records) {
    OS << "struct " << R.Name << " at " << R.Location << ": " << R.Size
       << " B, " << R.Fields.size() << " fields\n";
    OS << "  arrays:\n";
    for (const ArrayRoot &A : R.Arrays) {
      OS << "    " << A.Name << " (" << A.Kind;
      if (A.Length)
        OS << ", " << A.Length << " elements";
      OS << ") at " << A.Location << "\n";
    }
    if (!R.transformable()) {
      OS << "  not transformable:\n";
      for (const Blocker &B : R.Blockers) {
        OS << "    " << B.Location << ": " << B.Reason;
        if (B.Blocks == Blocker::WholeOnly)
          OS << " (blocks the whole-program strategy)";
        else if (B.Blocks == Blocker::BoundaryOnly)
          OS << " (blocks the boundary strategy)";
        OS << "\n";
      }
      OS << "\n";
      continue;
    }
    if (R.hasDeviceArrays()) {
      OS << "  strategy: " << strategyName(R.How)
         << (R.How == Strategy::Boundary
                 ? " (host arrays keep their layout; transfers convert)\n"
             : R.hasBuffers()
                 ? " (host arrays and OpenCL buffers take the layout)\n"
                 : " (host and device arrays take the layout)\n");
      for (const Blocker &B : R.SetAside)
        if (R.How == Strategy::Boundary && B.Blocks == Blocker::WholeOnly)
          OS << "    host code keeps it: " << B.Location << ": " << B.Reason
             << "\n";
    }
    if (!R.LeftAsWritten.empty()) {
      OS << "  left as written:\n";
      for (const Blocker &B : R.LeftAsWritten)
        OS << "    " << B.Location << ": " << B.Reason << "\n";
    }
    OS << "  kernels:\n";
    for (const KernelSummary &K : R.Kernels) {
      OS << "    " << K.Name << " at " << K.Location << ": "
         << K.Accesses.size() << " accesses, " << K.Loops.size() << " loops, ";
      if (K.FrequencyMeasured)
        OS << "runs " << formatDistance(K.Frequency) << " times (profile), ";
      else if (K.Frequency != 1)
        OS << "runs " << formatDistance(K.Frequency) << " times, ";
      OS << "weight " << formatDistance(K.Weight) << " B";
      if (!K.Significant)
        OS << " (ignored: under 1% of the heaviest kernel)";
      OS << "\n";
      printProfiledLoops(OS, K);
    }
    OS << "  KDLG (delta in bytes, inf = never accessed together):\n";
    printMatrix(OS, R);
    OS << "  clusters (epsilon = " << (R.Epsilon ? R.Epsilon : Plan.CacheLine)
       << " B):\n";
    for (const ClusterPlan &C : R.Clusters)
      OS << "    " << describeCluster(R, C) << "\n";
    for (const MacroInvocation &M : R.MacroExpanded)
      OS << "  expands macro '" << M.Macro << "' at " << M.Location
         << " (a use is spelled in its body)\n";
    // The model is named where it is not the plan's (an OpenCL kernel's).
    std::vector<std::string> Notes;
    if (R.unchanged())
      Notes.push_back("keep as is");
    if (!R.Model.empty() && R.Model != Plan.Model)
      Notes.push_back("model " + R.Model);
    OS << "  plan: " << R.notation()
       << (Notes.empty() ? "" : " (" + llvm::join(Notes, ", ") + ")") << "\n";
    // Said of C handles, the only ones the check covers (it leaves no
    // reason in other languages).
    if (!R.unchanged() && R.Restrict)
      OS << "  restrict: the handle's pointers (no function reaches its "
            "arrays through two pointers)\n";
    else if (!R.unchanged() && !R.SharedArrays.empty())
      OS << "  not restrict: " << R.SharedArrays << " at " << R.SharedArraysAt
         << "\n";
    OS << "\n";
  }
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static json::Value distanceJson(double D) {
  if (std::isinf(D))
    return nullptr; // JSON has no infinity; null means "never together".
  return D;
}

static json::Array fieldNames(const RecordPlan &R,
                              const std::vector<unsigned> &Fs) {
  json::Array A;
  for (unsigned F : Fs)
    A.push_back(R.Fields[F].Name);
  return A;
}

static json::Array edgesJson(const RecordPlan &R, const Kdlg &G) {
  json::Array Edges;
  for (unsigned F1 = 0; F1 < G.size(); ++F1)
    for (unsigned F2 = F1 + 1; F2 < G.size(); ++F2)
      if (!std::isinf(G.delta(F1, F2)))
        Edges.push_back(json::Object{{"from", R.Fields[F1].Name},
                                     {"to", R.Fields[F2].Name},
                                     {"delta", G.delta(F1, F2)}});
  return Edges;
}

static json::Object sharesJson(const EntryShares &Shares) {
  json::Object O;
  for (const auto &[Entry, Runs] : Shares)
    O[Entry] = Runs;
  return O;
}

static json::Object kernelJson(const RecordPlan &R, const KernelSummary &K) {
  json::Array Loops, Accesses;
  auto GroupsJson = [&](const std::vector<FieldGroup> &Groups) {
    json::Array Out;
    for (const FieldGroup &G : Groups) {
      json::Array Names;
      for (unsigned F : G.Fields)
        Names.push_back(R.Fields[F].Name);
      Out.push_back(
          json::Object{{"fields", std::move(Names)}, {"location", G.Location}});
    }
    return Out;
  };
  for (const LoopInfo &L : K.Loops)
    Loops.push_back(json::Object{{"location", L.Location},
                                 {"depth", L.Depth},
                                 {"trip_count", L.TripCount},
                                 {"trip_source", L.TripSource}});
  for (const AccessInfo &A : K.Accesses) {
    Accesses.push_back(json::Object{{"field", R.Fields[A.Field].Name},
                                    {"kind", A.IsWrite ? "write" : "read"},
                                    {"gather", A.IsGather},
                                    {"vectorizable", A.InVectorizableLoop},
                                    {"loop_indexed", A.IsLoopIndexed},
                                    {"lanes_when_moved", A.LanesWhenMoved},
                                    {"accumulators", A.Accumulators},
                                    {"loop_depth", A.LoopDepth},
                                    {"position", A.Position},
                                    {"executions", A.Executions},
                                    {"location", A.Location}});
    if (A.Loop != AccessInfo::NoLoop)
      Accesses.back().getAsObject()->try_emplace("within_loop", A.Loop);
    if (A.WholeElement)
      Accesses.back().getAsObject()->try_emplace("whole_element", true);
  }
  return json::Object{{"name", K.Name},
                      {"location", K.Location},
                      {"weight", K.Weight},
                      {"frequency", K.Frequency},
                      {"frequency_measured", K.FrequencyMeasured},
                      {"frequency_known", K.FrequencyKnown},
                      {"entries", sharesJson(K.Entries)},
                      {"loop_free", K.LoopFree},
                      {"called_per_element", K.CalledPerElement},
                      {"significant", K.Significant},
                      {"opencl", K.OpenCL},
                      {"cuda", K.Cuda},
                      {"loops", std::move(Loops)},
                      {"accesses", std::move(Accesses)},
                      {"held", GroupsJson(K.Held)},
                      {"vector_stores", GroupsJson(K.VectorStores)},
                      {"edges", edgesJson(R, K.Graph)}};
}

static json::Array stringsJson(const std::vector<std::string> &Strings) {
  json::Array A;
  for (const std::string &S : Strings)
    A.push_back(S);
  return A;
}

static json::Object clusterJson(const RecordPlan &R, const ClusterPlan &C) {
  json::Object Features;
  for (const auto &[Name, Value] : C.Features)
    Features[Name] = Value;
  json::Array Why;
  for (const std::string &W : C.Why)
    Why.push_back(W);
  return json::Object{
      {"fields", fieldNames(R, C.Fields.Fields)},
      {"layout", C.Chosen.str()},
      {"cold", C.Fields.Cold},
      {"max_delta",
       distanceJson(C.Fields.Cold ? InfiniteDistance : C.Fields.MaxDelta)},
      {"features", std::move(Features)},
      {"why", std::move(Why)}};
}

static json::Object blockerJson(const Blocker &B) {
  json::Object O{{"reason", B.Reason}, {"location", B.Location}};
  if (B.FromLinkage)
    O["linkage"] = true;
  if (B.Shadowed)
    O["shadowed"] = true;
  if (B.Bytes)
    O["bytes"] = true;
  if (B.Blocks != Blocker::Both)
    O["blocks"] = Blocker::scopeName(B.Blocks);
  return O;
}

static json::Object recordJson(const RecordPlan &R, bool Planned) {
  json::Array Fields, Arrays, Kernels, Clusters, Blockers, Externals;
  // Blocked records are not analysed further: no graph to ask.
  bool HasGraph = Planned && R.transformable();
  for (unsigned F = 0; F < R.Fields.size(); ++F) {
    json::Object O{{"name", R.Fields[F].Name},
                   {"size", R.Fields[F].Size},
                   {"offset", R.Fields[F].Offset},
                   {"type", R.Fields[F].Type}};
    if (HasGraph)
      O["accessed"] = R.Graph.accessed(F);
    Fields.push_back(std::move(O));
  }
  for (const ArrayRoot &A : R.Arrays)
    Arrays.push_back(json::Object{{"name", A.Name},
                                  {"kind", A.Kind},
                                  {"location", A.Location},
                                  {"length", A.Length}});
  for (const KernelSummary &K : R.Kernels)
    Kernels.push_back(kernelJson(R, K));
  for (const ClusterPlan &C : R.Clusters)
    Clusters.push_back(clusterJson(R, C));
  for (const Blocker &B : R.Blockers)
    Blockers.push_back(blockerJson(B));
  for (const ExternalSymbol &S : R.Externals) {
    json::Object O{{"kind", ExternalSymbol::kindName(S.K)},
                   {"symbol", S.Symbol},
                   {"reason", S.Reason},
                   {"location", S.Location}};
    if (S.Host)
      O["host"] = true;
    if (S.Carried)
      O["carried"] = true;
    Externals.push_back(std::move(O));
  }

  json::Object O{{"name", R.Name},
                 {"location", R.Location},
                 {"aliases", stringsJson(R.Aliases)},
                 {"defined_in", R.DefinedIn},
                 {"units", stringsJson(R.Units)},
                 {"size", R.Size},
                 {"transformable", R.transformable()},
                 {"fields", std::move(Fields)},
                 {"arrays", std::move(Arrays)},
                 {"blockers", std::move(Blockers)},
                 {"externals", std::move(Externals)},
                 {"restrict", R.Restrict}};
  if (!R.SharedArrays.empty())
    O["shared_arrays"] = json::Object{{"reason", R.SharedArrays},
                                      {"location", R.SharedArraysAt}};
  if (R.hasDeviceArrays() && R.transformable()) {
    O["strategy"] = strategyName(R.How);
    // The host uses that kept the host's arrays, then every blocker of the
    // strategy not taken (read back by a merge).
    json::Array Kept, Aside;
    for (const Blocker &B : R.SetAside) {
      if (R.How == Strategy::Boundary && B.Blocks == Blocker::WholeOnly)
        Kept.push_back(
            json::Object{{"reason", B.Reason}, {"location", B.Location}});
      Aside.push_back(blockerJson(B));
    }
    O["host_kept"] = std::move(Kept);
    O["set_aside"] = std::move(Aside);
  }
  // In both scopes: the text report says so too ("expands macro").
  json::Array Expanded;
  for (const MacroInvocation &M : R.MacroExpanded)
    Expanded.push_back(
        json::Object{{"macro", M.Macro}, {"location", M.Location}});
  if (!Expanded.empty())
    O["macros_expanded"] = std::move(Expanded);
  if (!R.LeftAsWritten.empty()) {
    json::Array Left;
    for (const Blocker &B : R.LeftAsWritten)
      Left.push_back(
          json::Object{{"reason", B.Reason}, {"location", B.Location}});
    O["left_as_written"] = std::move(Left);
  }
  if (!Planned) {
    // A unit plan keeps what a whole-program merge needs to plan the record.
    O["indexed"] = R.Indexed;
    json::Array Headers;
    for (const HeaderView &H : R.Headers)
      Headers.push_back(json::Object{{"file", H.File},
                                     {"name", H.Name},
                                     {"unit", H.Unit},
                                     {"language", H.Language},
                                     {"uses", stringsJson(H.Uses)}});
    O["headers"] = std::move(Headers);
    if (!R.SubArrayAt.empty())
      O["sub_array_at"] = R.SubArrayAt;
    if (!R.CudaCallAt.empty())
      O["cuda_call_at"] = R.CudaCallAt;
    if (!R.FileIOAt.empty())
      O["file_io_at"] = R.FileIOAt;
    O["kernels"] = std::move(Kernels);
  } else if (HasGraph) {
    O["kernels"] = std::move(Kernels);
    O["edges"] = edgesJson(R, R.Graph);
    O["clusters"] = std::move(Clusters);
    O["plan"] = R.notation();
    O["model"] = R.Model;
    if (R.Epsilon)
      O["epsilon"] = R.Epsilon;
  }
  return O;
}

json::Value dlopt::planToJson(const LayoutPlan &Plan) {
  json::Array Records;
  for (const RecordPlan &R : Plan.Records)
    Records.push_back(recordJson(R, Plan.Planned));
  json::Object Launches, WorkItems, Holders;
  for (const auto &[Kernel, Count] : Plan.KernelLaunches)
    Launches[Kernel] = Count;
  for (const auto &[Kernel, Items] : Plan.KernelWorkItems)
    WorkItems[Kernel] = Items;
  json::Object Calls;
  for (const auto &[Callee, Shares] : Plan.ExternalCalls)
    Calls[Callee] = sharesJson(Shares);
  for (const auto &[Holder, Kernel] : Plan.KernelHolders)
    Holders[Holder] = Kernel;
  json::Object Buffers, Setters, SvmSetters;
  for (const auto &[Holder, Record] : Plan.BufferHolders)
    Buffers[Holder] = Record;
  json::Object FieldBytes, Allocators, Misfits;
  for (const auto &[Field, Record] : Plan.FieldBytes)
    FieldBytes[Field] = Record;
  for (const auto &[Allocator, Release] : Plan.Allocators)
    Allocators[Allocator] = Release;
  for (const auto &[Function, Why] : Plan.AllocatorMisfits)
    Misfits[Function] = Why;
  for (const auto &[Kernel, Places] : Plan.KernelArgumentsSet)
    Setters[Kernel] = stringsJson(Places);
  for (const auto &[Kernel, Places] : Plan.KernelArgumentsSetBySvm)
    SvmSetters[Kernel] = stringsJson(Places);
  return json::Object{{"format", "dlopt-plan"},
                      {"version", 1},
                      {"scope", Plan.Planned ? "program" : "unit"},
                      {"cache_line", Plan.CacheLine},
                      {"model", Plan.Model},
                      {"units", stringsJson(Plan.Units)},
                      {"has_main", Plan.HasMain},
                      {"kernel_launches", std::move(Launches)},
                      {"kernel_work_items", std::move(WorkItems)},
                      {"external_calls", std::move(Calls)},
                      {"kernel_holders", std::move(Holders)},
                      {"buffer_holders", std::move(Buffers)},
                      {"field_bytes", std::move(FieldBytes)},
                      {"allocator_functions", std::move(Allocators)},
                      {"release_functions", stringsJson(Plan.ReleaseFunctions)},
                      {"allocator_misfits", std::move(Misfits)},
                      {"kernel_arguments_set", std::move(Setters)},
                      {"kernel_arguments_set_svm", std::move(SvmSetters)},
                      {"records", std::move(Records)}};
}

//===----------------------------------------------------------------------===//
// DOT
//===----------------------------------------------------------------------===//

static std::string dotId(const RecordPlan &R, unsigned F) {
  return "\"" + R.Name + "." + R.Fields[F].Name + "\"";
}

void dlopt::printPlanDot(raw_ostream &OS, const LayoutPlan &Plan) {
  OS << "graph kdlg {\n  node [shape=box];\n";
  for (const RecordPlan &R : Plan.Records) {
    if (!R.transformable())
      continue;
    OS << "  subgraph \"cluster_" << R.Name << "\" {\n"
       << "    label=\"struct " << R.Name << " (" << R.Size << " B)\";\n";
    for (unsigned C = 0; C < R.Clusters.size(); ++C) {
      const ClusterPlan &CP = R.Clusters[C];
      OS << "    subgraph \"cluster_" << R.Name << "_" << C << "\" {\n"
         << "      label=\"" << CP.Chosen.str()
         << (CP.Fields.Cold ? " (cold)" : "") << "\";\n";
      for (unsigned F : CP.Fields.Fields)
        OS << "      " << dotId(R, F) << " [label=\"" << R.Fields[F].Name
           << "\\n"
           << R.Fields[F].Size << " B\"];\n";
      OS << "    }\n";
    }
    // Edges at or beyond epsilon bind no cluster: counted in the legend,
    // not drawn (n-body's twelve position-velocity pairs at 1.4e+07 B
    // would cover the clusters).
    double Epsilon = R.Epsilon ? R.Epsilon : Plan.CacheLine;
    KdlgEdges Edges = edgesWithin(R, Epsilon);
    for (const KdlgEdges::Edge &E : Edges.Near)
      OS << "    " << dotId(R, E.From) << " -- " << dotId(R, E.To)
         << " [label=\"" << formatDistance(E.Delta) << "\"];\n";
    OS << "    \"" << R.Name << ".legend\" [shape=note, fontsize=9, label=\""
       << "delta in bytes between accesses, drawn below epsilon = "
       << formatDistance(Epsilon) << " B\\l(" << Edges.Far
       << (Edges.Far == 1 ? " pair" : " pairs")
       << " farther apart not drawn)\\l\"];\n";
    OS << "  }\n";
  }
  OS << "}\n";
}
