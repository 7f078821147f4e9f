//===- WholeProgram.cpp - Unit plans merged into one program plan ---------===//
#include "analysis/WholeProgram.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <tuple>

using namespace dlopt;

std::string dlopt::recordKey(llvm::StringRef DefinedIn, llvm::StringRef Name) {
  return (DefinedIn + llvm::Twine('\0') + Name).str();
}

template <typename T, typename Same>
static void appendUnique(std::vector<T> &To, const std::vector<T> &From,
                         Same IsSame) {
  for (const T &X : From)
    if (llvm::none_of(To, [&](const T &Y) { return IsSame(X, Y); }))
      To.push_back(X);
}

static bool sameFields(const std::vector<Field> &A,
                       const std::vector<Field> &B) {
  return A.size() == B.size() && llvm::all_of(llvm::zip(A, B), [](auto P) {
           const Field &X = std::get<0>(P), &Y = std::get<1>(P);
           return X.Name == Y.Name && X.Size == Y.Size && X.Offset == Y.Offset;
         });
}

/// "file:line:col" ordered by file, then line and column as numbers.
static std::tuple<llvm::StringRef, unsigned, unsigned>
positionKey(llvm::StringRef Pos) {
  auto [Rest, Col] = Pos.rsplit(':');
  auto [File, Line] = Rest.rsplit(':');
  unsigned L = 0, C = 0;
  if (Line.getAsInteger(10, L) || Col.getAsInteger(10, C))
    return {Pos, 0, 0};
  return {File, L, C};
}

static void sortBlockers(std::vector<Blocker> &Bs) {
  llvm::stable_sort(Bs, [](const Blocker &A, const Blocker &B) {
    return positionKey(A.Location) < positionKey(B.Location);
  });
}

void dlopt::resolveExternals(LayoutPlan &Plan) {
  llvm::StringSet<> Defined;
  for (const RecordPlan &R : Plan.Records)
    for (const ExternalSymbol &S : R.Externals)
      if (S.K == ExternalSymbol::Definition)
        Defined.insert(S.Symbol);
  for (RecordPlan &R : Plan.Records) {
    llvm::erase_if(R.Blockers, [](const Blocker &B) { return B.FromLinkage; });
    for (const ExternalSymbol &S : R.Externals) {
      bool Fine = S.K == ExternalSymbol::Use ? Defined.contains(S.Symbol)
                                             : Plan.HasMain;
      if (!Fine)
        R.Blockers.push_back({S.Reason, S.Location, /*FromLinkage=*/true});
    }
    sortBlockers(R.Blockers);
  }
}

LayoutPlan dlopt::mergeUnits(std::vector<LayoutPlan> Units,
                             const AnalysisOptions &Opts) {
  LayoutPlan Out;
  Out.CacheLine = Opts.CacheLine;
  Out.Model = (Opts.Model ? *Opts.Model : DecisionTree::builtin()).name();
  llvm::StringMap<unsigned> Index;
  for (LayoutPlan &U : Units) {
    Out.HasMain |= U.HasMain;
    appendUnique(
        Out.Units, U.Units,
        [](const std::string &A, const std::string &B) { return A == B; });
    for (RecordPlan &R : U.Records) {
      auto [It, New] = Index.try_emplace(recordKey(R), Out.Records.size());
      if (New) {
        Out.Records.push_back(std::move(R));
        continue;
      }
      RecordPlan &M = Out.Records[It->second];
      if (!sameFields(M.Fields, R.Fields)) {
        M.Blockers.push_back(
            {"the struct's definition differs between translation units (" +
                 llvm::join(M.Units, ", ") + " and " +
                 llvm::join(R.Units, ", ") + ": different macros?)",
             R.Location});
        continue;
      }
      M.Indexed |= R.Indexed;
      appendUnique(
          M.Units, R.Units,
          [](const std::string &A, const std::string &B) { return A == B; });
      appendUnique(M.Arrays, R.Arrays,
                   [](const ArrayRoot &A, const ArrayRoot &B) {
                     return A.Name == B.Name && A.Location == B.Location;
                   });
      // A kernel in a header (a static inline function) is seen by every
      // file that includes it, but runs as one kernel per call site only in
      // the files that call it; it counts once.
      appendUnique(M.Kernels, R.Kernels,
                   [](const KernelSummary &A, const KernelSummary &B) {
                     return A.Name == B.Name && A.Location == B.Location;
                   });
      appendUnique(M.Blockers, R.Blockers,
                   [](const Blocker &A, const Blocker &B) {
                     return A.Reason == B.Reason && A.Location == B.Location;
                   });
      appendUnique(M.Externals, R.Externals,
                   [](const ExternalSymbol &A, const ExternalSymbol &B) {
                     return A.K == B.K && A.Symbol == B.Symbol &&
                            A.Location == B.Location;
                   });
    }
  }
  resolveExternals(Out);
  llvm::erase_if(Out.Records, [](const RecordPlan &R) { return !R.Indexed; });
  for (RecordPlan &R : Out.Records) {
    R.Graph = Kdlg();
    R.Clusters.clear();
    // Nothing is proposed for a record that cannot be rewritten.
    if (R.transformable())
      planRecord(R, Opts);
    else
      R.Kernels.clear();
  }
  return Out;
}
