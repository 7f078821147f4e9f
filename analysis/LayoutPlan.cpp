//===- LayoutPlan.cpp - What the analysis decided, and why ----------------===//
#include "analysis/LayoutPlan.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace dlopt;

const char *ExternalSymbol::kindName(Kind K) {
  switch (K) {
  case Use:
    return "use";
  case Definition:
    return "definition";
  case SortedWith:
    return "sorted-with";
  case Comparator:
    return "comparator";
  case KernelArgument:
    return "kernel-argument";
  case KernelParameter:
    return "kernel-parameter";
  case ByteCount:
    return "byte-count";
  case Allocator:
    return "allocator";
  case Release:
    return "release";
  }
  llvm_unreachable("all external symbol kinds are named");
}

std::optional<ExternalSymbol::Kind>
ExternalSymbol::kindNamed(llvm::StringRef Name) {
  for (Kind K : {Use, Definition, SortedWith, Comparator, KernelArgument,
                 KernelParameter, ByteCount, Allocator, Release})
    if (Name == kindName(K))
      return K;
  return std::nullopt;
}

const char *dlopt::strategyName(Strategy S) {
  return S == Strategy::Whole ? "whole" : "boundary";
}

std::optional<Strategy> dlopt::strategyNamed(llvm::StringRef Name) {
  for (Strategy S : {Strategy::Whole, Strategy::Boundary})
    if (Name == strategyName(S))
      return S;
  return std::nullopt;
}

const char *Blocker::scopeName(Scope S) {
  switch (S) {
  case Both:
    return "both";
  case WholeOnly:
    return "whole";
  case BoundaryOnly:
    return "boundary";
  }
  llvm_unreachable("all scopes are named");
}

std::optional<Blocker::Scope> Blocker::scopeNamed(llvm::StringRef Name) {
  for (Scope S : {Both, WholeOnly, BoundaryOnly})
    if (Name == scopeName(S))
      return S;
  return std::nullopt;
}

bool RecordPlan::hasBuffers() const {
  return llvm::any_of(Externals, [](const ExternalSymbol &S) {
    return S.K == ExternalSymbol::KernelArgument;
  });
}

bool RecordPlan::sharedWithC() const {
  auto Seen = [&](llvm::StringRef Language) {
    return llvm::any_of(
        Headers, [&](const HeaderView &H) { return H.Language == Language; });
  };
  return Seen("C") && (Seen("CUDA") || Seen("C++"));
}

bool RecordPlan::unchanged() const {
  return Clusters.size() == 1 && Clusters[0].Chosen == Layout::aos();
}

std::string RecordPlan::fieldSet(const Cluster &C) const {
  std::string S = "{";
  for (unsigned I = 0; I < C.Fields.size(); ++I)
    S += (I ? "," : "") + Fields[C.Fields[I]].Name;
  return S + "}";
}

std::string RecordPlan::notation() const {
  std::string S = Name + ":";
  for (unsigned C = 0; C < Clusters.size(); ++C)
    S += (C ? " | " : " ") + fieldSet(Clusters[C].Fields) + " " +
         Clusters[C].Chosen.str();
  return S;
}

std::vector<unsigned> dlopt::blockPlanDependentUses(LayoutPlan &Plan) {
  auto Changes = [](const RecordPlan &R) {
    return R.transformable() && !R.unchanged();
  };
  std::vector<unsigned> Blocked;
  for (unsigned I = 0; I < Plan.Records.size(); ++I) {
    RecordPlan &R = Plan.Records[I];
    // At the boundary the host's arrays keep their layout: no handle moves,
    // no member holding one changes.
    if (!Changes(R) || R.How == Strategy::Boundary)
      continue;
    // OpenCL buffers and CUDA copies transfer from the start of an array;
    // a tiled handle moved by a sub-array starts inside a tile.
    // The automatic plan avoids this (RecordPlanner); a forced one is
    // refused here.
    bool Tiled = llvm::any_of(R.Clusters, [](const ClusterPlan &C) {
      return C.Chosen.Kind == LayoutKind::Tiled;
    });
    if (Tiled && R.tilesBlockedByTransfers()) {
      R.Blockers.push_back(
          {R.hasBuffers() ? "sub-array of a record with OpenCL buffers in a "
                            "tiled layout (its transfers are not rewritten "
                            "yet)"
                          : "sub-array of a record whose arrays CUDA runtime "
                            "calls copy, in a tiled layout (not rewritten "
                            "yet; from " +
                                R.CudaCallAt + ")",
           R.SubArrayAt});
      Blocked.push_back(I);
      continue;
    }
    for (const ArrayRoot &A : R.Arrays) {
      llvm::StringRef Outer(A.Kind);
      if (!Outer.consume_front("field of "))
        continue;
      bool Rewritten = Outer.consume_back(ArrayRoot::RewrittenMark);
      bool OuterChanges = llvm::any_of(Plan.Records, [&](const RecordPlan &O) {
        return &O != &R && O.Name == Outer && Changes(O);
      });
      if (OuterChanges || Rewritten) {
        R.Blockers.push_back({"member '" + A.Name + "' of '" + Outer.str() +
                                  "', whose own " +
                                  (Rewritten ? "layout an earlier run rewrote"
                                             : "layout changes too"),
                              A.Location});
        Blocked.push_back(I);
        break;
      }
    }
  }
  return Blocked;
}
