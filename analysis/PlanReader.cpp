//===- PlanReader.cpp - A plan JSON read back into a LayoutPlan -----------===//
#include "analysis/PlanReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include <optional>

using namespace dlopt;
namespace json = llvm::json;

/// json::ObjectMapper maps 64-bit integers only.
static bool mapUnsigned(json::ObjectMapper &O, llvm::StringLiteral Name,
                        unsigned &Out) {
  uint64_t V = 0;
  if (!O.map(Name, V) || V > ~0u)
    return false;
  Out = V;
  return true;
}

namespace dlopt {

static bool fromJSON(const json::Value &E, Field &F, json::Path P) {
  json::ObjectMapper O(E, P);
  // "type" is absent from the plans of older versions.
  return O && O.map("name", F.Name) && O.map("size", F.Size) &&
         O.map("offset", F.Offset) && O.mapOptional("type", F.Type);
}

static bool fromJSON(const json::Value &E, ArrayRoot &A, json::Path P) {
  json::ObjectMapper O(E, P);
  return O && O.map("name", A.Name) && O.map("kind", A.Kind) &&
         O.map("location", A.Location) && O.map("length", A.Length);
}

static bool fromJSON(const json::Value &E, Blocker &B, json::Path P) {
  json::ObjectMapper O(E, P);
  std::string Scope = "both";
  if (!O || !O.map("reason", B.Reason) || !O.map("location", B.Location) ||
      !O.mapOptional("linkage", B.FromLinkage) ||
      !O.mapOptional("shadowed", B.Shadowed) ||
      !O.mapOptional("bytes", B.Bytes) || !O.mapOptional("blocks", Scope))
    return false;
  std::optional<Blocker::Scope> S = Blocker::scopeNamed(Scope);
  if (!S) {
    P.field("blocks").report("expected \"both\", \"whole\" or \"boundary\"");
    return false;
  }
  B.Blocks = *S;
  return true;
}

static bool fromJSON(const json::Value &E, ExternalSymbol &S, json::Path P) {
  json::ObjectMapper O(E, P);
  std::string Kind;
  if (!O || !O.map("kind", Kind) || !O.map("symbol", S.Symbol) ||
      !O.map("reason", S.Reason) || !O.map("location", S.Location) ||
      !O.mapOptional("host", S.Host) || !O.mapOptional("carried", S.Carried))
    return false;
  std::optional<ExternalSymbol::Kind> K = ExternalSymbol::kindNamed(Kind);
  if (!K) {
    P.field("kind").report("expected \"use\", \"definition\", "
                           "\"sorted-with\", \"comparator\", "
                           "\"kernel-argument\" or \"kernel-parameter\"");
    return false;
  }
  S.K = *K;
  return true;
}

static bool fromJSON(const json::Value &E, HeaderView &H, json::Path P) {
  json::ObjectMapper O(E, P);
  return O && O.map("file", H.File) && O.map("name", H.Name) &&
         O.map("unit", H.Unit) && O.map("uses", H.Uses) &&
         O.mapOptional("language", H.Language);
}

static bool fromJSON(const json::Value &E, LoopInfo &L, json::Path P) {
  json::ObjectMapper O(E, P);
  return O && O.map("location", L.Location) &&
         mapUnsigned(O, "depth", L.Depth) && O.map("trip_count", L.TripCount) &&
         O.map("trip_source", L.TripSource);
}

} // namespace dlopt

/// An access names its field; the index comes from the record's fields.
/// The index of the field named \p Name, reported at \p P if there is none.
static std::optional<unsigned> fieldIndex(const std::vector<Field> &Fields,
                                          llvm::StringRef Name, json::Path P) {
  auto It =
      llvm::find_if(Fields, [&](const Field &F) { return F.Name == Name; });
  if (It == Fields.end()) {
    P.report("not a field of the record");
    return std::nullopt;
  }
  return It - Fields.begin();
}

static bool readAccess(const json::Value &E, const std::vector<Field> &Fields,
                       AccessInfo &A, json::Path P) {
  json::ObjectMapper O(E, P);
  std::string FieldName, Kind;
  if (!O || !O.map("field", FieldName) || !O.map("kind", Kind) ||
      !O.map("gather", A.IsGather) ||
      !O.mapOptional("vectorizable", A.InVectorizableLoop) ||
      !O.mapOptional("loop_indexed", A.IsLoopIndexed) ||
      !O.mapOptional("lanes_when_moved", A.LanesWhenMoved) ||
      !O.mapOptional("whole_element", A.WholeElement) ||
      !mapUnsigned(O, "accumulators", A.Accumulators) ||
      !mapUnsigned(O, "loop_depth", A.LoopDepth) ||
      !O.map("position", A.Position) || !O.map("executions", A.Executions) ||
      !O.map("location", A.Location))
    return false;
  std::optional<int64_t> Loop;
  if (!O.mapOptional("within_loop", Loop))
    return false;
  if (Loop && *Loop >= 0 && *Loop < AccessInfo::NoLoop)
    A.Loop = *Loop;
  std::optional<unsigned> Field =
      fieldIndex(Fields, FieldName, P.field("field"));
  if (!Field)
    return false;
  A.Field = *Field;
  A.IsWrite = Kind == "write";
  return true;
}

static bool readGroup(const json::Value &E, const std::vector<Field> &Fields,
                      FieldGroup &H, json::Path P) {
  json::ObjectMapper O(E, P);
  std::vector<std::string> Names;
  if (!O || !O.map("fields", Names) || !O.map("location", H.Location))
    return false;
  for (const std::string &Name : Names) {
    std::optional<unsigned> Field = fieldIndex(Fields, Name, P.field("fields"));
    if (!Field)
      return false;
    H.Fields.push_back(*Field);
  }
  return true;
}

static bool readKernel(const json::Value &E, const std::vector<Field> &Fields,
                       KernelSummary &K, json::Path P) {
  json::ObjectMapper O(E, P);
  if (!O || !O.map("name", K.Name) || !O.map("location", K.Location) ||
      !O.map("weight", K.Weight) || !O.mapOptional("frequency", K.Frequency) ||
      !O.mapOptional("frequency_measured", K.FrequencyMeasured) ||
      !O.mapOptional("frequency_known", K.FrequencyKnown) ||
      !O.mapOptional("entries", K.Entries) ||
      !O.mapOptional("loop_free", K.LoopFree) ||
      !O.mapOptional("called_per_element", K.CalledPerElement) ||
      !O.mapOptional("opencl", K.OpenCL) || !O.mapOptional("cuda", K.Cuda) ||
      !O.mapOptional("loops", K.Loops))
    return false;
  const json::Array *Accesses = E.getAsObject()->getArray("accesses");
  if (!Accesses) {
    P.field("accesses").report("expected an array");
    return false;
  }
  for (size_t I = 0; I < Accesses->size(); ++I) {
    AccessInfo A;
    if (!readAccess((*Accesses)[I], Fields, A, P.field("accesses").index(I)))
      return false;
    K.Accesses.push_back(std::move(A));
  }
  for (auto [Key, Groups] : {std::pair("held", &K.Held),
                             std::pair("vector_stores", &K.VectorStores)})
    if (const json::Array *A = E.getAsObject()->getArray(Key))
      for (size_t I = 0; I < A->size(); ++I) {
        FieldGroup G;
        if (!readGroup((*A)[I], Fields, G, P.field(Key).index(I)))
          return false;
        Groups->push_back(std::move(G));
      }
  return true;
}

static bool readRecord(const json::Value &E, RecordPlan &R, json::Path P) {
  json::ObjectMapper O(E, P);
  uint64_t Epsilon = 0;
  if (!O || !O.map("name", R.Name) || !O.map("location", R.Location) ||
      !O.map("size", R.Size) || !O.map("fields", R.Fields) ||
      !O.mapOptional("aliases", R.Aliases) ||
      !O.mapOptional("model", R.Model) || !O.mapOptional("epsilon", Epsilon) ||
      Epsilon > 4096 || !O.mapOptional("defined_in", R.DefinedIn) ||
      !O.mapOptional("units", R.Units) || !O.mapOptional("arrays", R.Arrays) ||
      !O.mapOptional("blockers", R.Blockers) ||
      !O.mapOptional("left_as_written", R.LeftAsWritten) ||
      !O.mapOptional("externals", R.Externals) ||
      !O.mapOptional("headers", R.Headers) ||
      !O.mapOptional("sub_array_at", R.SubArrayAt) ||
      !O.mapOptional("cuda_call_at", R.CudaCallAt) ||
      !O.mapOptional("file_io_at", R.FileIOAt) ||
      !O.mapOptional("indexed", R.Indexed) ||
      !O.mapOptional("set_aside", R.SetAside) ||
      !O.mapOptional("restrict", R.Restrict))
    return false;
  if (const json::Value *Shared = E.getAsObject()->get("shared_arrays")) {
    json::ObjectMapper S(*Shared, P.field("shared_arrays"));
    if (!S || !S.map("reason", R.SharedArrays) ||
        !S.map("location", R.SharedArraysAt))
      return false;
  }
  R.Epsilon = unsigned(Epsilon);
  if (const json::Array *Kernels = E.getAsObject()->getArray("kernels"))
    for (size_t I = 0; I < Kernels->size(); ++I) {
      KernelSummary K;
      if (!readKernel((*Kernels)[I], R.Fields, K, P.field("kernels").index(I)))
        return false;
      R.Kernels.push_back(std::move(K));
    }
  return true;
}

llvm::Expected<LayoutPlan> dlopt::planFromJson(const json::Value &V) {
  json::Path::Root Root("plan");
  json::Path P(Root);
  json::ObjectMapper O(V, P);
  LayoutPlan Plan;
  std::string Format, Scope = "program";
  int Version = 0;
  auto Fail = [&] {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                   llvm::toString(Root.getError()).c_str());
  };
  if (!O || !O.map("format", Format) || !O.map("version", Version))
    return Fail();
  if (Format != "dlopt-plan")
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "not a dlopt plan (format \"dlopt-plan\", "
                                   "version 1)");
  if (Version != 1)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unsupported plan version %d (this "
                                   "dl-refactor reads version 1)",
                                   Version);
  if (!mapUnsigned(O, "cache_line", Plan.CacheLine) ||
      !O.map("model", Plan.Model) || !O.mapOptional("scope", Scope) ||
      !O.mapOptional("units", Plan.Units) ||
      !O.mapOptional("has_main", Plan.HasMain) ||
      !O.mapOptional("kernel_launches", Plan.KernelLaunches) ||
      !O.mapOptional("kernel_work_items", Plan.KernelWorkItems) ||
      !O.mapOptional("external_calls", Plan.ExternalCalls) ||
      !O.mapOptional("kernel_holders", Plan.KernelHolders) ||
      !O.mapOptional("buffer_holders", Plan.BufferHolders) ||
      !O.mapOptional("field_bytes", Plan.FieldBytes) ||
      !O.mapOptional("allocator_functions", Plan.Allocators) ||
      !O.mapOptional("release_functions", Plan.ReleaseFunctions) ||
      !O.mapOptional("allocator_misfits", Plan.AllocatorMisfits) ||
      !O.mapOptional("kernel_arguments_set", Plan.KernelArgumentsSet) ||
      !O.mapOptional("kernel_arguments_set_svm", Plan.KernelArgumentsSetBySvm))
    return Fail();
  Plan.Planned = Scope != "unit";
  const json::Array *Records = V.getAsObject()->getArray("records");
  if (!Records) {
    P.field("records").report("expected an array");
    return Fail();
  }
  for (size_t I = 0; I < Records->size(); ++I) {
    RecordPlan R;
    if (!readRecord((*Records)[I], R, P.field("records").index(I)))
      return Fail();
    Plan.Records.push_back(std::move(R));
  }
  return Plan;
}

llvm::Expected<LayoutPlan> dlopt::readPlanFile(llvm::StringRef Path) {
  auto Fail = [&](const llvm::Twine &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   (Path + ": " + Why).str());
  };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return Fail(Buf.getError().message());
  llvm::Expected<json::Value> Doc = json::parse((*Buf)->getBuffer());
  if (!Doc)
    return Fail(llvm::toString(Doc.takeError()));
  llvm::Expected<LayoutPlan> Plan = planFromJson(*Doc);
  if (!Plan)
    return Fail(llvm::toString(Plan.takeError()));
  return Plan;
}
