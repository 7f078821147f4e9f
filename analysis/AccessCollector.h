//===- AccessCollector.h - Kernels and their field accesses -----*- C++ -*-===//
//
// Step 2 of the pipeline: for every kernel (a function with loops that index
// arrays of candidate records; a function without loops that does and that
// loops call; every OpenCL __kernel and CUDA __global__ function), the
// reads and writes of each field in evaluation order, with
// loop nesting, trip counts and whether each loop can vectorize.
//
// Trip counts: exact for constant bounds (literals, enumerators, macros and
// const variables with constant initializers). Otherwise, as in the paper's
// OpenCL heuristics adapted to CPUs: a loop whose induction variable indexes
// a fixed-size array runs its length; an OpenMP worksharing loop over an
// array of unknown length counts as the whole array (1e6); a GPU kernel body
// is a loop over the NDRange (1e6); a loop that halves a range (a binary
// search) counts as log2 of one of unknown length (19); any other loop
// counts as 512e3. The estimate only has to tell short loops from long
// ones. An access through a running index (RunningIndices.h) runs at most
// the array's length times in all of the guessed loops it runs through.
//
// With a profile (ProfileCounts), a loop the program ran has its measured
// trip count instead: how often its body ran over how often the loop was
// reached; and a function the program ran, its measured call count.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_ACCESSCOLLECTOR_H
#define DLOPT_ANALYSIS_ACCESSCOLLECTOR_H

#include "analysis/AccessTrace.h"
#include "analysis/CallFrequencies.h"
#include "analysis/HeldElements.h"
#include "analysis/LayoutPlan.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include <map>
#include <optional>
#include <vector>

namespace clang {
class OMPExecutableDirective;
} // namespace clang

namespace dlopt {

class ProfileCounts;

/// Trip-count estimates for bounds that are not constant.
constexpr double WholeArrayTrips = 1e6;
constexpr double UnknownLoopTrips = 512e3;
/// A count of trips above this, from constants (a floating loop creeping
/// up by a tiny step), is taken for no count: the estimate's products stay
/// finite.
constexpr double MaxConstantTrips = 1e15;
/// A loop that halves its range each time round (HalvingLoops.cpp): about
/// log2 of an unknown range, ceil(log2(UnknownLoopTrips)).
constexpr double HalvingLoopTrips = 19;

/// Whether the loop of condition \p Cond, body \p Body and increment
/// \p Inc (null for while and do loops) halves a range each time round: a
/// binary search, a bisection, `len /= 2` (HalvingLoops.cpp).
bool isHalvingLoop(const clang::Expr *Cond, const clang::Stmt *Body,
                   const clang::Expr *Inc);

/// The work-items of each CUDA kernel (by canonical declaration) that
/// \p Functions launch only with grids and blocks of constant size, the
/// mean over the launches; a kernel that reads gridDim is left out, its
/// launch size says nothing of its work (LaunchGrids.cpp).
std::map<const clang::FunctionDecl *, double>
launchedWorkItems(const clang::ASTContext &Ctx,
                  llvm::ArrayRef<const clang::FunctionDecl *> Functions);

/// The work-items of OpenCL launch \p Launch (a clEnqueueNDRangeKernel
/// call in \p In) when its work_dim and global sizes are constants, else
/// none (LaunchGrids.cpp).
std::optional<double> ndrangeWorkItems(const clang::ASTContext &Ctx,
                                       const clang::CallExpr *Launch,
                                       const clang::FunctionDecl *In);

/// Whether \p S reads the size of the NDRange: CUDA's gridDim, OpenCL's
/// get_global_size or get_num_groups. A kernel that does shares its work
/// out over the NDRange itself (a grid-stride loop), and its launches' size
/// says nothing of how much it does.
bool readsGlobalSize(const clang::Stmt *S);

/// gcc's limit on the run-time alias checks it versions a loop for
/// (--param vect-max-version-for-alias-checks, 10 by default).
constexpr unsigned GccAliasCheckLimit = 10;

/// Whether gcc compiles the block of OpenMP directive \p Dir into a
/// function of its own (parallel, task, teams, target: OutlinedLoops.cpp).
bool outlinesRegion(const clang::OMPExecutableDirective *Dir);

/// The run-time alias checks gcc needs to vectorize a loop of body \p Body
/// in outlined code, where a SoA handle's `restrict` does not reach: one
/// per pair of the arrays it reaches in SoA (each field of a record
/// \p IsCandidate accepts, each other array) of which one is written
/// (OutlinedLoops.cpp).
unsigned
soaAliasChecks(const clang::Stmt *Body,
               llvm::function_ref<bool(const clang::RecordDecl *)> IsCandidate);

struct KernelTrace {
  const clang::FunctionDecl *Function = nullptr;
  AccessTrace Trace;
  std::vector<LoopInfo> Loops;
  /// Location of every access in the trace, in program order (the order
  /// AccessTrace::place() returns them in).
  std::vector<clang::SourceLocation> AccessLocs;
  /// How often the function runs per run of the program's entry points:
  /// the loops around its call sites in the translation unit, through
  /// every caller (1 for a function no function here calls); or as the
  /// profile measured it.
  double Frequency = 1;
  bool FrequencyMeasured = false;
  /// Frequency is known: measured, or counted from call sites in the unit,
  /// or the function is main. (A function nothing here calls may be called
  /// from another file, in a loop.)
  bool FrequencyKnown = false;
  /// A function without loops that runs once in its unit, kept because
  /// another file may call it in a loop (KernelSummary::LoopFree).
  bool LoopFree = false;
  /// Frequency's shares by the unit's entry points other files may call
  /// (empty where Frequency is measured, and for OpenCL kernels).
  EntryShares Entries;
  /// Elements whose fields a loop of it keeps in registers.
  std::vector<ElementFields> Held;
  /// Fields of elements a loop of it stores as one vector.
  std::vector<ElementFields> VectorStores;
};

/// Assigns trace field identifiers to the fields of the records of interest
/// and walks every function body.
class AccessCollector {
public:
  /// \p Profile, if not null, gives the counts the program measured.
  AccessCollector(clang::ASTContext &Ctx,
                  llvm::ArrayRef<const clang::RecordDecl *> Records,
                  const ProfileCounts *Profile = nullptr);

  /// The kernels of the translation unit, in source order.
  std::vector<KernelTrace> collect();

  /// After collect(): how often this unit's host code launches OpenCL
  /// kernels (clEnqueueNDRangeKernel), by the variable or member holding
  /// the kernel: the loops around each launch, times how often its
  /// function runs.
  const llvm::DenseMap<const clang::ValueDecl *, double> &launches() const {
    return Launches;
  }

  /// After collect(): the work-items of those launches, by holder, where
  /// every launch's global sizes are the same constants; else -1.
  const llvm::DenseMap<const clang::ValueDecl *, double> &
  launchWorkItems() const {
    return LaunchWorkItems;
  }

  /// After collect(): the calls of functions other files define, by their
  /// linkage name, per run of each of the unit's entry points
  /// (LayoutPlan::ExternalCalls).
  const std::map<std::string, EntryShares> &externalCalls() const {
    return ExternalCalls;
  }

  /// During collect(): the work-items of CUDA kernel \p FD when its
  /// launches give them (launchedWorkItems), else none.
  std::optional<double> workItems(const clang::FunctionDecl *FD) const {
    auto It = WorkItems.find(FD->getCanonicalDecl());
    if (It == WorkItems.end())
      return std::nullopt;
    return It->second;
  }

  /// Trace identifier of field \p Index of \p RD.
  unsigned fieldId(const clang::RecordDecl *RD, unsigned Index) const {
    return FirstId.lookup(RD) + Index;
  }

private:
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::RecordDecl *, unsigned> FirstId;
  const ProfileCounts *Profile;
  llvm::DenseMap<const clang::ValueDecl *, double> Launches;
  llvm::DenseMap<const clang::ValueDecl *, double> LaunchWorkItems;
  std::map<std::string, EntryShares> ExternalCalls;
  std::map<const clang::FunctionDecl *, double> WorkItems;
};

} // namespace dlopt

#endif
