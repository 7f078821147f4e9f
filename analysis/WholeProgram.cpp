//===- WholeProgram.cpp - Unit plans merged into one program plan ---------===//
#include "analysis/WholeProgram.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

using namespace dlopt;

std::string dlopt::recordKey(llvm::StringRef Name) { return Name.str(); }

template <typename T, typename Same>
static void appendUnique(std::vector<T> &To, const std::vector<T> &From,
                         Same IsSame) {
  for (const T &X : From)
    if (llvm::none_of(To, [&](const T &Y) { return IsSame(X, Y); }))
      To.push_back(X);
}

std::string dlopt::definitionDifference(const RecordPlan &A,
                                        const RecordPlan &B) {
  if (A.Fields.size() != B.Fields.size())
    return std::to_string(A.Fields.size()) + " fields against " +
           std::to_string(B.Fields.size());
  for (unsigned I = 0; I < A.Fields.size(); ++I) {
    const Field &X = A.Fields[I], &Y = B.Fields[I];
    std::string Which = "field " + std::to_string(I + 1) + " is ";
    if (X.Name != Y.Name)
      return Which + "'" + X.Name + "' against '" + Y.Name + "'";
    // Plans read from older reports carry no field types.
    if (X.Type != Y.Type && !X.Type.empty() && !Y.Type.empty())
      return Which + "'" + X.Type + " " + X.Name + "' against '" + Y.Type +
             " " + Y.Name + "'";
    if (X.Size != Y.Size || X.Offset != Y.Offset)
      return Which + "'" + X.Name + "' of " + std::to_string(X.Size) +
             " B at offset " + std::to_string(X.Offset) + " against " +
             std::to_string(Y.Size) + " B at " + std::to_string(Y.Offset);
  }
  if (A.Size != B.Size)
    return std::to_string(A.Size) + " B against " + std::to_string(B.Size) +
           " B";
  return "";
}

static std::string firstUnit(const RecordPlan &R) {
  return R.Units.empty() ? "one file" : R.Units.front();
}

/// The blocker for \p R, a definition of \p M's record that differs by
/// \p Difference.
static Blocker differentDefinition(const RecordPlan &M, const RecordPlan &R,
                                   const std::string &Difference) {
  std::string Reason = "struct " + R.Name + " is defined differently in ";
  // One header under different macros: the same place, read two ways.
  if (M.Location == R.Location)
    Reason += M.Location + " as " + firstUnit(M) + " and " + firstUnit(R) +
              " see it (different macros?)";
  else
    Reason += M.Location + " and " + R.Location;
  return {Reason + ": " + Difference, R.Location};
}

/// A record whose header C files share with C++ or CUDA files gets
/// generated code written for all of them (RecordPlan::sharedWithC), which
/// has no C++ containers: a std::vector or std::array of it in the C++
/// files or the CUDA files' host code would have nothing to become.
static void blockContainersInSharedHeaders(LayoutPlan &Program) {
  for (RecordPlan &R : Program.Records) {
    if (!R.sharedWithC())
      continue;
    for (const ArrayRoot &A : R.Arrays)
      if (llvm::StringRef(A.Kind).starts_with("std::"))
        R.Blockers.push_back(
            {"'" + A.Name + "' is a " + A.Kind.substr(0, A.Kind.find(' ')) +
                 " of '" + R.Name +
                 "', whose header C files include too: the code generated "
                 "there is shared with C and has no C++ containers (not "
                 "rewritten yet)",
             A.Location});
  }
}

/// Whether a unit of \p Language is an OpenCL kernel file: a header it
/// shares with host files is rewritten for each side apart, the kernels'
/// code under the OpenCL compiler's macro (ProgramRefactor's merge).
static bool kernelSide(llvm::StringRef Language) {
  return Language == "OpenCL";
}

/// The blocker for two units of different languages that include one
/// header of record \p R (views \p A and \p B of the same file), null if
/// the header has one text for both. The code generated in a header is
/// written in its unit's language (C compound literals, C++ namespaces and
/// containers), but for a record whose header C files include, which every
/// C, C++ and CUDA unit writes in HandleLayout's language-neutral form
/// (RecordPlan::sharedWithC), and the OpenCL kernels' code, which goes
/// under a test of the OpenCL compiler's macro. A header that neither
/// defines the record nor uses its arrays is not rewritten.
static std::optional<Blocker>
twoLanguages(const RecordPlan &R, const HeaderView &A, const HeaderView &B) {
  if (A.Language == B.Language || A.Language.empty() || B.Language.empty() ||
      kernelSide(A.Language) != kernelSide(B.Language))
    return std::nullopt;
  llvm::StringRef DefinedIn = llvm::StringRef(R.Location).rsplit(':').first;
  DefinedIn = DefinedIn.rsplit(':').first;
  if (A.Uses.empty() && B.Uses.empty() && DefinedIn != A.Name &&
      DefinedIn != B.Name)
    return std::nullopt;
  auto Neutral = [](llvm::StringRef L) {
    return L == "C" || L == "C++" || L == "CUDA";
  };
  if (R.sharedWithC() && Neutral(A.Language) && Neutral(B.Language))
    return std::nullopt;
  return Blocker{A.Name + " would be rewritten differently for " + A.Unit +
                     " (" + A.Language + ") and for " + B.Unit + " (" +
                     B.Language +
                     "): the code a rewrite generates in a header is "
                     "written for one language (a header of the struct "
                     "shared by files of two languages other than C with "
                     "C++ or CUDA is not rewritten yet)",
                 R.Location};
}

/// The first header of \p R that two languages would rewrite apart.
static std::optional<Blocker> headerOfTwoLanguages(const RecordPlan &R) {
  for (unsigned I = 0; I < R.Headers.size(); ++I)
    for (unsigned J = I + 1; J < R.Headers.size(); ++J)
      if (R.Headers[I].File == R.Headers[J].File)
        if (std::optional<Blocker> B =
                twoLanguages(R, R.Headers[I], R.Headers[J]))
          return B;
  return std::nullopt;
}

/// Blocks each record with a header two languages would rewrite apart,
/// once the program's units are merged: whether the header is shared with
/// C depends on all of them.
static void blockHeadersOfTwoLanguages(LayoutPlan &Program) {
  for (RecordPlan &R : Program.Records)
    if (std::optional<Blocker> B = headerOfTwoLanguages(R))
      R.Blockers.push_back(*B);
}

/// The blocker for two units that see different uses of a record in one
/// header (\p A and \p B of the same file): each would rewrite it its own
/// way, and a file has one text. Null if they see the same.
static std::optional<Blocker>
differentViews(const RecordPlan &M, const HeaderView &A, const HeaderView &B) {
  if (A.Uses == B.Uses)
    return std::nullopt;
  // The first use only one of them sees.
  std::vector<std::string> OnlyA, OnlyB;
  std::set_difference(A.Uses.begin(), A.Uses.end(), B.Uses.begin(),
                      B.Uses.end(), std::back_inserter(OnlyA));
  std::set_difference(B.Uses.begin(), B.Uses.end(), A.Uses.begin(),
                      A.Uses.end(), std::back_inserter(OnlyB));
  bool FromA = !OnlyA.empty() && (OnlyB.empty() || OnlyA[0] < OnlyB[0]);
  const std::string &Use = FromA ? OnlyA[0] : OnlyB[0];
  auto [Where, Kind] = llvm::StringRef(Use).split(": ");
  std::string Location = A.Name + ":" + Where.str();
  return Blocker{
      A.Name + " would be rewritten differently for " + A.Unit + " and for " +
          B.Unit + ": only " + (FromA ? A.Unit : B.Unit) + " sees this " +
          Kind.str() + " of struct " + M.Name +
          " (is the header included under different macros, or a template "
          "of it instantiated for the struct in only one of them?)",
      Location};
}

/// Adds what \p R, another unit's view of \p M's record, knows.
/// A copy of a header's function its file does not call: its frequency is
/// the default of an entry point no other file can call, not a count.
static bool uncalledCopy(const KernelSummary &K) {
  return !K.FrequencyKnown && !K.FrequencyMeasured &&
         llvm::all_of(K.Entries, [](const auto &E) { return E.first.empty(); });
}

/// Two files' copies of one kernel (a function in a header): the runs of
/// each file's entry points add up (applyCallsAcrossFiles scales \p Into
/// by them), and a file that does not call it adds nothing.
static void mergeKernelCopies(KernelSummary &Into, const KernelSummary &From) {
  if (uncalledCopy(From))
    return;
  if (uncalledCopy(Into)) {
    Into = From;
    return;
  }
  for (const auto &[Entry, Runs] : From.Entries)
    Into.Entries[Entry] += Runs;
  Into.FrequencyKnown |= From.FrequencyKnown;
}

static void mergeRecord(RecordPlan &M, const RecordPlan &R) {
  M.Indexed |= R.Indexed;
  auto SameString = [](const std::string &A, const std::string &B) {
    return A == B;
  };
  // A CUDA file is analyzed for the host and for the device: two unit
  // plans of one file, whose copies of a kernel are one count.
  bool SameFile = llvm::all_of(R.Units, [&](const std::string &U) {
    return llvm::is_contained(M.Units, U);
  });
  appendUnique(M.Units, R.Units, SameString);
  // Two .c files may each give the struct a typedef of their own.
  appendUnique(M.Aliases, R.Aliases, SameString);
  // The uses are merged all the same, so that the report lists every other
  // reason too; R's kernels index R's fields, which M does not have.
  std::string Difference = definitionDifference(M, R);
  if (!Difference.empty())
    appendUnique(M.Blockers, {differentDefinition(M, R, Difference)},
                 [](const Blocker &A, const Blocker &B) {
                   return A.Reason == B.Reason && A.Location == B.Location;
                 });
  appendUnique(M.Arrays, R.Arrays, [](const ArrayRoot &A, const ArrayRoot &B) {
    return A.Name == B.Name && A.Location == B.Location;
  });
  // A kernel in a header (a static inline function) is seen by every
  // file that includes it, but runs as one kernel per call site only in
  // the files that call it; it counts once, as often as they call it.
  if (Difference.empty())
    for (const KernelSummary &K : R.Kernels) {
      auto Same = llvm::find_if(M.Kernels, [&](const KernelSummary &A) {
        return A.Name == K.Name && A.Location == K.Location;
      });
      if (Same == M.Kernels.end())
        M.Kernels.push_back(K);
      else if (!SameFile)
        mergeKernelCopies(*Same, K);
    }
  auto SameBlocker = [](const Blocker &A, const Blocker &B) {
    return A.Reason == B.Reason && A.Location == B.Location;
  };
  for (const HeaderView &V : R.Headers) {
    // The kernels and the host see a header they share each under its own
    // macros, and their code in it is rewritten apart.
    auto Seen = llvm::find_if(M.Headers, [&](const HeaderView &H) {
      return H.File == V.File &&
             kernelSide(H.Language) == kernelSide(V.Language);
    });
    if (Seen == M.Headers.end())
      M.Headers.push_back(V);
    else if (std::optional<Blocker> B = differentViews(M, *Seen, V);
             B && Difference.empty())
      appendUnique(M.Blockers, {*B}, SameBlocker);
    // A view of a second language: the plan says the header is shared
    // (RecordPlan::sharedWithC()).
    else if (llvm::none_of(M.Headers, [&](const HeaderView &H) {
               return H.File == V.File && H.Language == V.Language;
             }))
      M.Headers.push_back(V);
  }
  appendUnique(M.Blockers, R.Blockers, SameBlocker);
  appendUnique(M.LeftAsWritten, R.LeftAsWritten, SameBlocker);
  if (M.SubArrayAt.empty())
    M.SubArrayAt = R.SubArrayAt;
  M.Restrict &= R.Restrict;
  if (M.SharedArrays.empty()) {
    M.SharedArrays = R.SharedArrays;
    M.SharedArraysAt = R.SharedArraysAt;
  }
  if (M.CudaCallAt.empty())
    M.CudaCallAt = R.CudaCallAt;
  if (M.FileIOAt.empty())
    M.FileIOAt = R.FileIOAt;
  appendUnique(M.MacroUses, R.MacroUses,
               [](const MacroInvocation &A, const MacroInvocation &B) {
                 return A.File == B.File && A.Begin == B.Begin;
               });
  appendUnique(M.Externals, R.Externals,
               [](const ExternalSymbol &A, const ExternalSymbol &B) {
                 return A.K == B.K && A.Symbol == B.Symbol &&
                        A.Location == B.Location;
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

/// Whether external symbol \p S of \p R resolves in \p Plan: a use is
/// defined by some file (one of \p Defined), a definition has all its
/// callers in the program (main() is analyzed), a qsort's comparator is
/// defined by some file as a comparator of the same record, and such a
/// comparator has a qsort.
static bool resolves(const LayoutPlan &Plan, const llvm::StringSet<> &Defined,
                     const RecordPlan &R, const ExternalSymbol &S) {
  auto Has = [&](ExternalSymbol::Kind K, llvm::StringRef Symbol) {
    return llvm::any_of(R.Externals, [&](const ExternalSymbol &X) {
      return X.K == K && X.Symbol == Symbol;
    });
  };
  // Kernel symbols are "kernel#index"; "kernel#*" binds an argument whose
  // index was not followed (refused there): it meets any of its parameters.
  auto KernelOf = [](llvm::StringRef Symbol) {
    return Symbol.rsplit('#').first;
  };
  switch (S.K) {
  case ExternalSymbol::Use:
    return Defined.contains(S.Symbol);
  case ExternalSymbol::Definition:
    return Plan.HasMain;
  case ExternalSymbol::SortedWith:
    return Has(ExternalSymbol::Comparator, S.Symbol);
  case ExternalSymbol::Comparator:
    return Has(ExternalSymbol::SortedWith, S.Symbol);
  case ExternalSymbol::KernelArgument:
    if (!llvm::StringRef(S.Symbol).ends_with("#*"))
      return Has(ExternalSymbol::KernelParameter, S.Symbol);
    return llvm::any_of(R.Externals, [&](const ExternalSymbol &X) {
      return X.K == ExternalSymbol::KernelParameter &&
             KernelOf(X.Symbol) == KernelOf(S.Symbol);
    });
  case ExternalSymbol::KernelParameter:
    return Has(ExternalSymbol::KernelArgument, S.Symbol) ||
           Has(ExternalSymbol::KernelArgument,
               (KernelOf(S.Symbol) + "#*").str());
  case ExternalSymbol::ByteCount: {
    auto It = Plan.FieldBytes.find(S.Symbol);
    return It != Plan.FieldBytes.end() && It->second == recordKey(R);
  }
  // A function some file defines as one and another (an overload in
  // another program of the database) as none is none.
  case ExternalSymbol::Allocator:
    return Plan.Allocators.count(S.Symbol) &&
           !Plan.AllocatorMisfits.count(S.Symbol);
  case ExternalSymbol::Release:
    return llvm::is_contained(Plan.ReleaseFunctions, S.Symbol) &&
           !Plan.AllocatorMisfits.count(S.Symbol);
  }
  return false;
}

/// For a kernel argument or parameter \p S of \p R that did not resolve:
/// why, when the other end takes or binds another record's array there
/// (the host's `typedef struct {...} Atom` and the kernel file's `struct
/// _atom`, records of two names), else "".
static std::string otherRecordAtKernel(const LayoutPlan &Plan,
                                       const RecordPlan &R,
                                       const ExternalSymbol &S) {
  bool Argument = S.K == ExternalSymbol::KernelArgument;
  if ((!Argument && S.K != ExternalSymbol::KernelParameter) ||
      llvm::StringRef(S.Symbol).ends_with("#*"))
    return "";
  ExternalSymbol::Kind Other = Argument ? ExternalSymbol::KernelParameter
                                        : ExternalSymbol::KernelArgument;
  for (const RecordPlan &O : Plan.Records)
    for (const ExternalSymbol &X : O.Externals)
      if (&O != &R && X.K == Other && X.Symbol == S.Symbol)
        return S.Reason.substr(0, S.Reason.find(", which")) + ", where " +
               (Argument ? "the kernel takes an array of '"
                         : "host code binds a buffer of '") +
               O.Name + "' (" + X.Location + "), another record: the host " +
               "and kernel files must name the record alike (the same tag, " +
               "or the same typedef of an unnamed struct) and define the " +
               "same fields";
  return "";
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
      if (resolves(Plan, Defined, R, S))
        continue;
      // An allocator or release function another file defines as none: why.
      auto Misfit =
          S.K == ExternalSymbol::Allocator || S.K == ExternalSymbol::Release
              ? Plan.AllocatorMisfits.find(S.Symbol)
              : Plan.AllocatorMisfits.end();
      std::string Reason =
          Misfit != Plan.AllocatorMisfits.end() ? Misfit->second : S.Reason;
      if (std::string Why = otherRecordAtKernel(Plan, R, S); !Why.empty())
        Reason = Why;
      R.Blockers.push_back({Reason, S.Location, /*FromLinkage=*/true,
                            /*Shadowed=*/false, /*InMacro=*/false,
                            S.Host ? Blocker::WholeOnly : Blocker::Both,
                            /*Bytes=*/!S.Carried});
    }
    // A use on the line of an unresolved symbol is explained by it.
    auto Line = [](llvm::StringRef Pos) { return Pos.rsplit(':').first; };
    llvm::StringSet<> Unresolved;
    for (const Blocker &B : R.Blockers)
      if (B.FromLinkage)
        Unresolved.insert(Line(B.Location));
    llvm::erase_if(R.Blockers, [&](const Blocker &B) {
      return B.Shadowed && Unresolved.contains(Line(B.Location));
    });
    sortBlockers(R.Blockers);
  }
}

/// An OpenCL kernel runs as often as host code launches it: its frequency,
/// weight and the executions of its accesses are multiplied by the count of
/// the launches of its name, which are then spent (a plan merged again is
/// not scaled twice). Where the launches' global sizes are constants, its
/// NDRange is that many work-items instead of the guess, and the weight
/// and executions follow.
static void applyKernelLaunches(LayoutPlan &Plan) {
  for (RecordPlan &R : Plan.Records)
    for (KernelSummary &K : R.Kernels) {
      if (!K.OpenCL)
        continue;
      auto Items = Plan.KernelWorkItems.find(K.Name);
      auto NDRange = llvm::find_if(
          K.Loops, [](const LoopInfo &L) { return L.TripSource == "NDRange"; });
      if (Items != Plan.KernelWorkItems.end() && Items->second > 0 &&
          NDRange != K.Loops.end() && NDRange->TripCount > 0) {
        double Scale = Items->second / NDRange->TripCount;
        NDRange->TripCount = Items->second;
        NDRange->TripSource = "global size";
        K.Weight *= Scale;
        for (AccessInfo &A : K.Accesses)
          A.Executions *= Scale;
      }
      auto It = Plan.KernelLaunches.find(K.Name);
      if (It == Plan.KernelLaunches.end() || It->second <= 0)
        continue;
      K.Frequency *= It->second;
      K.Weight *= It->second;
      for (AccessInfo &A : K.Accesses)
        A.Executions *= It->second;
    }
  Plan.KernelLaunches.clear();
  Plan.KernelWorkItems.clear();
}

namespace {
/// How often each entry point of a unit runs per run of the program: 1
/// where no analyzed file calls it directly (main, what main's own file
/// calls, a function reached only through pointers), else the sum of the
/// calls other files make of it, each times how often the entry point it
/// is made from runs. A call that closes a cycle adds nothing.
class EntryRuns {
public:
  explicit EntryRuns(const std::map<std::string, EntryShares> &Calls)
      : Calls(Calls) {}

  /// Whether some analyzed file calls \p Entry ("" always runs once).
  bool called(const std::string &Entry) const {
    return Entry.empty() || Calls.count(Entry);
  }

  double of(const std::string &Entry) {
    auto It = Calls.find(Entry);
    if (Entry.empty() || It == Calls.end())
      return 1;
    if (auto D = Done.find(Entry); D != Done.end())
      return D->second;
    // Past the bound (a program whose files all call each other), what is
    // left counts nothing, as a call closing a cycle does.
    if (InProgress.count(Entry) || ++Evaluations > MaxEvaluations) {
      Cut = true;
      return 0;
    }
    InProgress.insert(Entry);
    bool CutAbove = std::exchange(Cut, false);
    double Runs = 0;
    for (const auto &[Caller, Count] : It->second)
      Runs += Count * of(Caller);
    InProgress.erase(Entry);
    // A count that left out a call closing a cycle depends on where the
    // walk entered the cycle: it is this walk's, not the entry point's.
    if (!Cut)
      Done[Entry] = Runs;
    Cut |= CutAbove;
    return Runs;
  }

private:
  const std::map<std::string, EntryShares> &Calls;
  std::map<std::string, double> Done;
  std::set<std::string> InProgress;
  bool Cut = false;
  static constexpr unsigned MaxEvaluations = 100000;
  unsigned Evaluations = 0;
};
} // namespace

/// A kernel another file calls in its loops (main.c's time step calling
/// step() in physics.c) runs as often as those calls, not once: its
/// frequency, weight and the executions of its accesses are scaled by how
/// often the entry points it runs from are called, and its frequency is
/// known once every such entry point is called from an analyzed file (a
/// one-off set-up call then counts as one, RecordPlanner's set-up data).
/// A function without loops that its unit kept for this (LoopFree) stays a
/// kernel only if such calls repeat it. The shares and calls are then spent (a
/// plan merged again is not scaled twice).
static void applyCallsAcrossFiles(LayoutPlan &Plan) {
  EntryRuns Runs(Plan.ExternalCalls);
  for (RecordPlan &R : Plan.Records)
    for (KernelSummary &K : R.Kernels) {
      // The count the kernel's weight and executions were made with; its
      // shares may add up more (mergeKernelCopies).
      double Before = K.Frequency, After = 0;
      bool Callable = false, AllCalled = true;
      for (const auto &[Entry, Share] : K.Entries) {
        After += Share * Runs.of(Entry);
        Callable |= !Entry.empty();
        AllCalled &= Runs.called(Entry);
      }
      K.Entries.clear();
      if (Callable && AllCalled)
        K.FrequencyKnown = true;
      // A function without loops is a kernel only where a loop repeats it
      // (the others stay LoopFree, and are dropped below).
      if (K.LoopFree && !(Before > 0 && After > Before))
        continue;
      K.CalledPerElement |= K.LoopFree;
      K.LoopFree = false;
      // Loops measured as never running leave nothing to scale by.
      if (Before <= 0 || After <= 0 || After == Before)
        continue;
      double Scale = After / Before;
      K.Frequency *= Scale;
      K.Weight *= Scale;
      for (AccessInfo &A : K.Accesses)
        A.Executions *= Scale;
    }
  for (RecordPlan &R : Plan.Records)
    llvm::erase_if(R.Kernels,
                   [](const KernelSummary &K) { return K.LoopFree; });
  Plan.ExternalCalls.clear();
}

/// The strategy of a record with OpenCL buffers or CUDA device arrays: the
/// one the user forced, else the whole program where nothing blocks it (no
/// conversion at the transfers), else the boundary. The blockers of the
/// other strategy are set aside (RecordPlan::SetAside).
static void chooseStrategy(RecordPlan &R, const AnalysisOptions &Opts) {
  R.How = Strategy::Whole;
  std::optional<Strategy> Forced;
  for (const auto &[Name, S] : Opts.Strategies)
    if (Name == R.Name || llvm::is_contained(R.Aliases, Name))
      Forced = S;
  if (!R.hasDeviceArrays()) {
    // One strategy: what blocks it blocks the record; what blocks only a
    // boundary there is none of does not.
    llvm::erase_if(R.Blockers, [](const Blocker &B) {
      return B.Blocks == Blocker::BoundaryOnly;
    });
    for (Blocker &B : R.Blockers)
      B.Blocks = Blocker::Both;
    if (Forced == Strategy::Boundary)
      R.Blockers.push_back({"the boundary strategy was asked for, but no "
                            "analyzed host code binds OpenCL buffers of '" +
                                R.Name +
                                "' to kernels or copies its arrays to a "
                                "CUDA device",
                            R.Location});
    return;
  }
  auto Blocks = [&](Strategy S) {
    return llvm::any_of(R.Blockers,
                        [&](const Blocker &B) { return B.blocks(S); });
  };
  // Neither free: every reason stays, for both.
  if (!Forced && Blocks(Strategy::Whole) && Blocks(Strategy::Boundary))
    return;
  R.How =
      Forced ? *Forced
             : (Blocks(Strategy::Whole) ? Strategy::Boundary : Strategy::Whole);
  llvm::erase_if(R.Blockers, [&](const Blocker &B) {
    if (B.blocks(R.How))
      return false;
    R.SetAside.push_back(B);
    return true;
  });
}

/// At the boundary the host's loops keep their arrays as they are: only
/// the kernels' accesses decide the layout of the buffers (or device
/// arrays).
static void planBuffers(RecordPlan &R, const AnalysisOptions &Opts) {
  if (R.How == Strategy::Boundary)
    llvm::erase_if(R.Kernels,
                   [](const KernelSummary &K) { return !K.OpenCL && !K.Cuda; });
  planRecord(R, Opts);
}

/// Kernels one file creates into a struct member or global variable and
/// another binds or launches through it: their symbols spell the holder
/// ("@Sim.move#0") until here, where the program's holders name them.
static void resolveKernelHolders(LayoutPlan &Plan) {
  auto Named = [&](llvm::StringRef Kernel) -> std::optional<std::string> {
    if (!Kernel.starts_with("@"))
      return std::nullopt;
    auto It = Plan.KernelHolders.find(Kernel.str());
    if (It == Plan.KernelHolders.end() || It->second.empty())
      return std::nullopt;
    return It->second;
  };
  for (RecordPlan &R : Plan.Records)
    for (ExternalSymbol &S : R.Externals) {
      if (S.K != ExternalSymbol::KernelArgument)
        continue;
      auto [Kernel, Index] = llvm::StringRef(S.Symbol).rsplit('#');
      std::optional<std::string> Name = Named(Kernel);
      if (!Name)
        continue;
      // The reason, should the kernel not take the array there.
      llvm::StringRef Bound =
          llvm::StringRef(S.Reason).split("the kernel held in").first;
      S.Reason = Bound.str() + "kernel '" + *Name + "' (created into '" +
                 Kernel.drop_front().str() +
                 "' by another file), which no analyzed kernel file defines "
                 "with a '" +
                 R.Name + "' array" + (Index == "*" ? "" : " there");
      S.Symbol = *Name + "#" + Index.str();
    }
  std::map<std::string, double> Launches, WorkItems;
  for (const auto &[Kernel, Count] : Plan.KernelLaunches)
    Launches[Named(Kernel).value_or(Kernel)] += Count;
  Plan.KernelLaunches = std::move(Launches);
  for (const auto &[Kernel, Items] : Plan.KernelWorkItems)
    noteKernelWorkItems(WorkItems, Named(Kernel).value_or(Kernel), Items);
  Plan.KernelWorkItems = std::move(WorkItems);
  for (auto *Sets : {&Plan.KernelArgumentsSet, &Plan.KernelArgumentsSetBySvm}) {
    std::map<std::string, std::vector<SourcePos>> Setters;
    for (auto &[Kernel, Places] : *Sets) {
      std::vector<SourcePos> &To = Setters[Named(Kernel).value_or(Kernel)];
      To.insert(To.end(), Places.begin(), Places.end());
    }
    *Sets = std::move(Setters);
  }
}

/// A kernel among \p Kernels, which take record \p R's buffers, with an
/// argument set to shared virtual memory (clSetKernelArgSVMPointer), or
/// any kernel whose name is not known with one, blocks \p R: the pointer
/// is an array in the old layout, set at an index the rewrite renumbers.
static void
blockSvmArguments(const std::map<std::string, std::vector<SourcePos>> &BySvm,
                  const std::set<std::string> &Kernels, RecordPlan &R) {
  for (const auto &[Kernel, Places] : BySvm) {
    if (Places.empty() || (Kernel != "?" && !Kernels.count(Kernel)))
      continue;
    std::string Which =
        Kernel == "?"
            ? "a kernel whose name is not known"
            : "kernel '" + Kernel + "', which takes '" + R.Name + "' buffers,";
    R.Blockers.push_back(
        {"clSetKernelArgSVMPointer sets an argument of " + Which +
             " to shared virtual memory, which is not rewritten (its "
             "arguments are renumbered and the memory keeps the old layout)",
         Places.front(), /*FromLinkage=*/true});
  }
}

/// A kernel that takes a record's buffer has its argument indices
/// renumbered file by file (OpenCLUses.cpp): its arguments must all be set
/// in one file, and no kernel whose name is not known may have any set (it
/// could be that kernel).
static void blockScatteredKernelArguments(LayoutPlan &Plan) {
  auto FileOf = [](llvm::StringRef Pos) {
    return Pos.rsplit(':').first.rsplit(':').first;
  };
  for (RecordPlan &R : Plan.Records) {
    std::set<std::string> Kernels;
    for (const ExternalSymbol &S : R.Externals)
      if (S.K == ExternalSymbol::KernelArgument)
        Kernels.insert(llvm::StringRef(S.Symbol).rsplit('#').first.str());
    if (Kernels.empty())
      continue;
    auto Unknown = Plan.KernelArgumentsSet.find("?");
    if (Unknown != Plan.KernelArgumentsSet.end() && !Unknown->second.empty())
      R.Blockers.push_back(
          {"clSetKernelArg on a kernel whose name is not known (not created "
           "from a string literal, or held where the analysis does not "
           "follow it): were it a kernel taking '" +
               R.Name + "' buffers, its argument indices would not change",
           Unknown->second.front(), /*FromLinkage=*/true});
    blockSvmArguments(Plan.KernelArgumentsSetBySvm, Kernels, R);
    for (const std::string &Kernel : Kernels) {
      auto It = Plan.KernelArgumentsSet.find(Kernel);
      if (It == Plan.KernelArgumentsSet.end())
        continue;
      std::set<llvm::StringRef> Files;
      for (const SourcePos &P : It->second)
        Files.insert(FileOf(P));
      if (Files.size() > 1)
        R.Blockers.push_back(
            {"the arguments of kernel '" + Kernel + "', which takes '" +
                 R.Name +
                 "' buffers, are set in more than one file (their indices "
                 "are renumbered file by file)",
             It->second[1], /*FromLinkage=*/true});
    }
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
    for (const auto &[Kernel, Count] : U.KernelLaunches)
      Out.KernelLaunches[Kernel] += Count;
    for (const auto &[Kernel, Items] : U.KernelWorkItems)
      noteKernelWorkItems(Out.KernelWorkItems, Kernel, Items);
    for (const auto &[Callee, Shares] : U.ExternalCalls)
      for (const auto &[Entry, Count] : Shares)
        Out.ExternalCalls[Callee][Entry] += Count;
    Out.BufferHolders.insert(U.BufferHolders.begin(), U.BufferHolders.end());
    for (const auto &[Field, Record] : U.FieldBytes)
      // Files that store counts of different records in it count none.
      if (auto [It, New] = Out.FieldBytes.try_emplace(Field, Record);
          !New && It->second != Record)
        It->second.clear();
    for (const auto &[Allocator, Release] : U.Allocators)
      // Definitions that differ (two programs in one compile database)
      // release their blocks with no function known.
      if (auto [It, New] = Out.Allocators.try_emplace(Allocator, Release);
          !New && It->second != Release)
        It->second.clear();
    Out.AllocatorMisfits.insert(U.AllocatorMisfits.begin(),
                                U.AllocatorMisfits.end());
    appendUnique(
        Out.ReleaseFunctions, U.ReleaseFunctions,
        [](const std::string &A, const std::string &B) { return A == B; });
    for (const auto &[Holder, Kernel] : U.KernelHolders)
      // Files that create different kernels into one holder name none.
      if (auto [It, New] = Out.KernelHolders.try_emplace(Holder, Kernel);
          !New && It->second != Kernel)
        It->second.clear();
    auto AppendPlaces = [](const auto &From, auto &To) {
      for (const auto &[Kernel, Places] : From)
        appendUnique(
            To[Kernel], Places,
            [](const std::string &A, const std::string &B) { return A == B; });
    };
    AppendPlaces(U.KernelArgumentsSet, Out.KernelArgumentsSet);
    AppendPlaces(U.KernelArgumentsSetBySvm, Out.KernelArgumentsSetBySvm);
    appendUnique(
        Out.Units, U.Units,
        [](const std::string &A, const std::string &B) { return A == B; });
    for (RecordPlan &R : U.Records) {
      // A plan read back from a report is decided again, with every
      // blocker.
      R.Blockers.insert(R.Blockers.end(), R.SetAside.begin(), R.SetAside.end());
      R.SetAside.clear();
      auto [It, New] = Index.try_emplace(recordKey(R), Out.Records.size());
      if (New)
        Out.Records.push_back(std::move(R));
      else
        mergeRecord(Out.Records[It->second], R);
    }
  }
  resolveKernelHolders(Out);
  resolveExternals(Out);
  blockHeadersOfTwoLanguages(Out);
  blockContainersInSharedHeaders(Out);
  blockScatteredKernelArguments(Out);
  applyKernelLaunches(Out);
  applyCallsAcrossFiles(Out);
  blockRecordsOfKeptHolders(Out);
  llvm::erase_if(Out.Records, [](const RecordPlan &R) { return !R.Indexed; });
  for (RecordPlan &R : Out.Records) {
    R.Graph = Kdlg();
    R.Clusters.clear();
    chooseStrategy(R, Opts);
    // Buffers and device arrays are copied to and from through helpers of
    // their own, which the check does not follow.
    if (R.hasDeviceArrays() && R.Restrict) {
      R.Restrict = false;
      R.SharedArrays = "OpenCL buffers or CUDA device arrays hold them";
      R.SharedArraysAt = R.Location;
    }
    // Nothing is proposed for a record that cannot be rewritten.
    if (R.transformable())
      planBuffers(R, Opts);
    else
      R.Kernels.clear();
  }
  return Out;
}
