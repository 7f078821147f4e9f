//===- LayoutPlan.h - What the analysis decided, and why --------*- C++ -*-===//
//
// The analysis result handed to the front doors and, later, the rewriter: per
// candidate record its arrays, kernels, KDLG, clusters with a layout each and
// the numbers behind every decision, or the uses that block a rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_LAYOUTPLAN_H
#define DLOPT_ANALYSIS_LAYOUTPLAN_H

#include "analysis/ClusterFeatures.h"
#include "analysis/Kdlg.h"
#include "analysis/Layout.h"
#include "analysis/Partition.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlopt {

/// A source position as "file:line:col".
using SourcePos = std::string;

/// Where objects of the record live in arrays.
struct ArrayRoot {
  std::string Name;
  /// "global array", "static array", "local array", "malloc", "calloc",
  /// "realloc", "allocated by F" (the program's own allocator F), "new[]",
  /// "parameter", "field of R" (an array or pointer member of record R).
  std::string Kind;
  SourcePos Location;
  /// Number of elements when known at compile time, else 0.
  uint64_t Length = 0;
  /// Ends the Kind of a member of a record that an earlier run rewrote
  /// ("field of R (rewritten)"): its generated records hold the member.
  static constexpr const char *RewrittenMark = " (rewritten)";
};

/// How the arrays of a record with OpenCL buffers take a new layout
/// (docs/opencl.md): the whole program (host arrays and buffers alike), or
/// at the boundary (the host keeps its arrays as they are, and transfers
/// convert between them and buffers in the new layout).
enum class Strategy { Whole, Boundary };
/// "whole", "boundary".
const char *strategyName(Strategy S);
std::optional<Strategy> strategyNamed(llvm::StringRef Name);

/// A use of the record's arrays the rewriter cannot handle.
struct Blocker {
  std::string Reason;
  SourcePos Location;
  /// The strategy it blocks: the whole-program rewrite only (a use of the
  /// host's own arrays, which the boundary strategy leaves as written),
  /// the boundary strategy only (a transfer it cannot convert), or both.
  enum Scope { Both, WholeOnly, BoundaryOnly };
  /// Found by resolving ExternalSymbols over the program (so a merge of
  /// several translation units resolves them again), not by one file alone.
  bool FromLinkage = false;
  /// A use without a kind on the line of an ExternalSymbol: while that
  /// symbol does not resolve, its reason says more and this one is not
  /// shown; once it resolves, this one still blocks.
  bool Shadowed = false;
  /// A use spelled in the body of the macro invoked at MacroInvocation
  /// Location: gone once that invocation is expanded in place.
  bool InMacro = false;
  Scope Blocks = Both;
  /// The use handles the record's objects as bytes, or as code the
  /// analysis does not see or rewrite (a cast to another type than void *,
  /// a union, a branch the preprocessor skipped, a symbol no analyzed file
  /// resolves unless ExternalSymbol::Carried): not only its arrays but the
  /// record's representation must stay, and with it every member holding
  /// another record's elements (KeptHolders.cpp).
  bool Bytes = false;
  /// Whether it blocks strategy \p S.
  bool blocks(Strategy S) const { return blocks(Blocks, S); }
  static bool blocks(Scope Sc, Strategy S) {
    return Sc == Both || (S == Strategy::Whole) == (Sc == WholeOnly);
  }
  /// The scopes' names in a report: "both", "whole", "boundary".
  static const char *scopeName(Scope S);
  static std::optional<Scope> scopeNamed(llvm::StringRef Name);
};

/// A macro invocation whose body spells a use of the record: expanded in
/// place before the rewrite, where the record's layout changes (the
/// rewriter's MacroExpander; docs/rewriting.md).
struct MacroInvocation {
  std::string Macro;
  /// Where the invocation starts ("file:line:col"), as blockers say it.
  SourcePos Location;
  /// The file (as the unit opened it) and the invocation's offsets in it.
  std::string File;
  unsigned Begin = 0, End = 0;
};

/// A function or array through which the record's arrays cross a
/// translation-unit boundary. Whether that is fine depends on the whole
/// program (see resolveExternals in WholeProgram.h).
struct ExternalSymbol {
  enum Kind {
    /// An externally visible definition: code outside the analyzed files
    /// could call or use it unless the program (main()) is analyzed.
    Definition,
    /// A use of a symbol this file does not define: another analyzed file
    /// must define it.
    Use,
    /// A qsort with a comparator this file does not define: another
    /// analyzed file must define it as a Comparator of the same record.
    SortedWith,
    /// A comparator this file defines for no qsort of its own: fine if
    /// another analyzed file sorts the record's arrays with it
    /// (SortedWith); its body works on copies of elements, as written.
    Comparator,
    /// OpenCL host code binds a buffer of the record to an argument of a
    /// kernel (Symbol "kernel#index"): an analyzed kernel file must take
    /// the record's array there (KernelParameter).
    KernelArgument,
    /// An OpenCL kernel takes the record's array as an argument (Symbol
    /// "kernel#index"): analyzed host code must bind a buffer of the
    /// record to it (KernelArgument), or the array comes from code that
    /// would not change with it.
    KernelParameter,
    /// A byte count read from a struct's field (Symbol "Record.field") as a
    /// number of whole elements of the record, which a rewrite divides by
    /// the element's size: every write of that field in the program must
    /// store n * sizeof(record) (LayoutPlan::FieldBytes).
    ByteCount,
    /// The record's array allocated by a function this file declares and
    /// does not define, of an allocator function's type (`void *F(size_t)`,
    /// `void *F(size_t, size_t)`, `void *F(void *, size_t)`; Symbol: its
    /// callableName): another analyzed file must define it as one
    /// (LayoutPlan::Allocators, AllocatorFunctions.h), and none as none.
    Allocator,
    /// Likewise an array released by such a `void F(void *)`: another
    /// analyzed file must define it as a release function
    /// (LayoutPlan::ReleaseFunctions).
    Release,
  };
  Kind K = Use;
  /// The kinds' names in a report: "use", "definition", "sorted-with",
  /// "comparator", "kernel-argument", "kernel-parameter", "byte-count",
  /// "allocator", "release".
  static const char *kindName(Kind K);
  static std::optional<Kind> kindNamed(llvm::StringRef Name);
  std::string Symbol;
  /// The blocker's reason if the symbol does not resolve.
  std::string Reason;
  SourcePos Location;
  /// Seen from OpenCL host code's own arrays (not its buffers): unresolved,
  /// it blocks only the whole-program strategy.
  bool Host = false;
  /// The function only carries the pointer to the program's own code
  /// (pthread_create's argument, to its start routine): unresolved, it
  /// blocks the record's arrays but reads none of its bytes (its blocker is
  /// not Blocker::Bytes).
  bool Carried = false;
};

/// What one translation unit sees of a record in one header it includes:
/// the uses it classified there. Every unit rewrites the header alike only
/// if all of them see the same uses (a header included under different
/// macros may not), which the whole program checks (mergeUnits).
struct HeaderView {
  /// The header's real path: what identifies it across units.
  std::string File;
  /// The unit (main file) that sees it so.
  std::string Unit;
  /// "line:col: kind" of each use, sorted.
  std::vector<std::string> Uses;
  /// How messages name the header.
  std::string Name;
  /// The unit's language ("C", "C++", "CUDA", "OpenCL"): the code a rewrite
  /// generates in a header is written for it.
  std::string Language;
};

struct LoopInfo {
  SourcePos Location;
  unsigned Depth = 1;
  double TripCount = 0;
  /// "profile" (measured), "constant", "array length", "openmp over
  /// array", "NDRange", "NDRange (shared out)" (an OpenCL kernel that reads
  /// get_global_size: its launches' sizes do not replace the guess),
  /// "grid" (a CUDA kernel's constant launch sizes), "global size" (an
  /// OpenCL kernel's, LayoutPlan::KernelWorkItems), "grid-stride", "call",
  /// "halving", "heuristic".
  std::string TripSource;
};

struct AccessInfo {
  unsigned Field = 0;
  bool IsWrite = false;
  bool IsGather = false;
  unsigned LoopDepth = 0;
  bool InVectorizableLoop = true;
  bool IsLoopIndexed = false;
  /// Loop-indexed also where the record's tiled handles count skipped
  /// elements (MemoryAccess::LanesWhenMoved).
  bool LanesWhenMoved = false;
  /// Scalars the innermost enclosing loop accumulates into (s += x).
  unsigned Accumulators = 0;
  /// Part of a copy of the whole element (MemoryAccess::WholeElement).
  bool WholeElement = false;
  /// The innermost enclosing loop (PlacedAccess::Loop), numbered in the
  /// order of the kernel's accesses to the record; NoLoop outside loops.
  unsigned Loop = NoLoop;
  double Position = 0;
  double Executions = 0;
  SourcePos Location;

  static constexpr unsigned NoLoop = ~0u;
};

/// Fields of one element that a loop of a kernel treats as a group: keeps
/// in registers while they share one base pointer (HeldElements.h), or
/// stores as one vector while they lie side by side (VectorStores.h).
struct FieldGroup {
  /// Field indices, ascending.
  std::vector<unsigned> Fields;
  /// The first write among them.
  SourcePos Location;
};

/// Runs of a function per run of each entry point of its translation unit
/// that other files may call (a function no function of the unit calls),
/// by the entry's linkage name; "" stands for the entry points no other
/// file can call (main, static functions), which run once.
using EntryShares = std::map<std::string, double>;

/// A function whose loops index the record's arrays.
struct KernelSummary {
  std::string Name;
  SourcePos Location;
  /// Estimated bytes of the record the kernel moves over the program's run:
  /// per run of the kernel, times Frequency.
  double Weight = 0;
  /// How often the kernel runs: the loops around its call sites in the
  /// translation unit (1 if nothing here calls it).
  double Frequency = 1;
  /// True if Frequency is the profile's count of the kernel's calls.
  bool FrequencyMeasured = false;
  /// True if Frequency is known: measured, counted from call sites in the
  /// translation unit, or the kernel is main (a function nothing in its
  /// unit calls may run in another file's loop).
  bool FrequencyKnown = false;
  /// Unit plans: a function without loops that its unit runs once, but
  /// another file may call in a loop (`kick(p, i)` per element from
  /// main.c). The merge keeps it as a kernel only if calls from other
  /// files make it run more than once.
  bool LoopFree = false;
  /// A LoopFree function the merge kept: other files call it in their
  /// loops, once per element, passing the record's arrays at each call.
  bool CalledPerElement = false;
  /// Unit plans: Frequency's shares by the unit's entry points (empty where
  /// it is measured, and for OpenCL kernels). The program's merge scales
  /// Frequency by how often other files call them (LayoutPlan::
  /// ExternalCalls), and clears it.
  EntryShares Entries;
  /// False if the merge ignored it as too light (see mergeKernelGraphs).
  bool Significant = true;
  /// An OpenCL __kernel: host code launches it (LayoutPlan::KernelLaunches).
  bool OpenCL = false;
  /// CUDA device code: a __global__ or __device__ function.
  bool Cuda = false;
  std::vector<LoopInfo> Loops;
  /// The record's field accesses, in program order.
  std::vector<AccessInfo> Accesses;
  std::vector<FieldGroup> Held;
  std::vector<FieldGroup> VectorStores;
  Kdlg Graph;
};

struct ClusterPlan {
  Cluster Fields;
  Layout Chosen;
  FeatureVector Features;
  /// The decision-tree tests that led to the layout, or why no tree was asked.
  std::vector<std::string> Why;
};

struct RecordPlan {
  /// The name users know the type by: the struct tag, else its typedef.
  std::string Name;
  /// The model that chose the layouts (planned records only).
  std::string Model;
  /// The epsilon its clusters were partitioned with (the model's target's,
  /// or --cache-line); 0 where it is the plan's CacheLine.
  unsigned Epsilon = 0;
  /// Other names of the type: its typedefs.
  std::vector<std::string> Aliases;
  SourcePos Location;
  /// The file of the definition: with Name, what identifies the record
  /// across translation units (a header seen from many is one record).
  std::string DefinedIn;
  /// Some loop indexes its arrays. A translation unit also reports records
  /// it only passes around, so whole-program legality sees every use.
  bool Indexed = true;
  /// The translation units (main files) that use the record.
  std::vector<std::string> Units;
  uint64_t Size = 0;
  std::vector<Field> Fields;
  std::vector<ArrayRoot> Arrays;
  std::vector<KernelSummary> Kernels;
  Kdlg Graph;
  std::vector<ClusterPlan> Clusters;
  std::vector<Blocker> Blockers;
  std::vector<ExternalSymbol> Externals;
  /// Unit plans: the headers of the program this unit includes, with the
  /// uses of the record it sees in each.
  std::vector<HeaderView> Headers;
  /// Where the first sub-array of the record's arrays is passed on
  /// (UseKind::SubArray), if any: a tiled plan's handle then counts the
  /// elements its tiles skip (the rewriter's HandleLayout::shiftName).
  SourcePos SubArrayAt;
  /// No two pointers reach one array of the record in one function (C
  /// only; SharedArrays.h): the handle's pointers are declared restrict.
  /// Else the reason, where (the first found).
  bool Restrict = false;
  std::string SharedArrays;
  SourcePos SharedArraysAt;
  /// Where the first CUDA runtime call allocates, copies or fills an array
  /// of the record (UseKind::CudaCall), if any: those copy from an array's
  /// start, as OpenCL's transfers do.
  SourcePos CudaCallAt;
  /// Where an fwrite or fread first takes the record's arrays, if any: a
  /// file then holds their bytes, so a member of the record holding another
  /// record's elements keeps that one's layout (KeptHolders.cpp).
  SourcePos FileIOAt;
  /// The macro invocations that spell uses in their bodies (each blocker
  /// of theirs is InMacro); MacroExpanded: those expanded for this plan.
  std::vector<MacroInvocation> MacroUses, MacroExpanded;
  /// Uses in branches the preprocessor skipped, which a rewrite leaves as
  /// written (AnalysisOptions::ThisConfigurationOnly; else they block).
  std::vector<Blocker> LeftAsWritten;
  /// Records with OpenCL buffers: how the rewrite takes the plan, and the
  /// blockers of the other strategy, set aside (a merge of program plans
  /// decides again with them). At the boundary, those of scope WholeOnly
  /// are the uses of the host's arrays that keep them as they are (why the
  /// whole program was not rewritten).
  Strategy How = Strategy::Whole;
  std::vector<Blocker> SetAside;

  bool transformable() const { return Blockers.empty(); }
  /// Some host code binds the record's buffers to OpenCL kernels.
  bool hasBuffers() const;
  /// Its arrays live on a device too: OpenCL buffers, or CUDA runtime calls
  /// on them (CudaCallAt). Such a record has two strategies.
  bool hasDeviceArrays() const { return hasBuffers() || !CudaCallAt.empty(); }
  /// Its transfers cannot carry a tiled layout: the whole program moves
  /// its arrays to a device and passes sub-arrays on (a tiled handle moved
  /// by a sub-array starts inside a tile, and the transfers copy from the
  /// start of an array). The planner then decides without tiles.
  bool tilesBlockedByTransfers() const {
    return How != Strategy::Boundary && hasDeviceArrays() &&
           !SubArrayAt.empty();
  }
  /// Its headers are included by C files and by C++ or CUDA files (Headers
  /// lists a view of each language): the code a rewrite generates in them
  /// must compile as each (HandleLayout's language-neutral form).
  bool sharedWithC() const;
  /// True if the plan keeps the record as it is (one AoS cluster).
  bool unchanged() const;
  /// The fields of \p C in the plan notation: `{x,y,z}`.
  std::string fieldSet(const Cluster &C) const;
  /// design.md notation: "Body: {x,y,z,m} SoA | {vx,vy,vz} Tiled(64)".
  std::string notation() const;
};

struct LayoutPlan {
  unsigned CacheLine = 64;
  std::string Model;
  /// The translation units (main files) analyzed.
  std::vector<std::string> Units;
  /// One of them defines main(): the program is whole, so externally
  /// visible symbols are only used from the analyzed files.
  bool HasMain = false;
  /// Unit plans (one file, before planning) carry every record with arrays;
  /// program plans only records some loop indexes, each planned.
  bool Planned = true;
  std::vector<RecordPlan> Records;
  /// Unit plans of OpenCL host code: how often it launches each kernel
  /// (clEnqueueNDRangeKernel, by the loops around the call and the calls
  /// of its function), by the kernel's name. Merging multiplies the
  /// frequency of the __kernel of that name by it, and clears it.
  std::map<std::string, double> KernelLaunches;
  /// Unit plans of OpenCL host code: the work-items each kernel's launches
  /// run, by the kernel's name, where every launch's global sizes are the
  /// same constants; -1 where they are not (noteKernelWorkItems). Merging
  /// sets the NDRange of the __kernel of that name to it, and clears it.
  std::map<std::string, double> KernelWorkItems;
  /// Unit plans: the calls of functions the unit declares and does not
  /// define, by the callee's linkage name, per run of each of its entry
  /// points (EntryShares). The merge resolves them against the entry
  /// points of the other files' kernels, and clears them.
  std::map<std::string, EntryShares> ExternalCalls;
  /// Unit plans of OpenCL host code: the kernels it creates into a member
  /// of a struct or a global variable, by the holder ("@Sim.move",
  /// "@k_move"), so that another file binding arguments through that
  /// holder names the kernel (its kernel symbols, bindings and launches
  /// spell the holder until the program's merge resolves it).
  std::map<std::string, std::string> KernelHolders;
  /// Likewise the buffers of records it creates (or transfers) into a
  /// member or global variable, by the holder: the record's name. Another
  /// file that binds or transfers through the holder knows the buffer
  /// from the program's (AnalysisOptions::BufferHolders).
  std::map<std::string, std::string> BufferHolders;
  /// The integer fields of structs the program writes, by "Record.field":
  /// the record whose whole elements every value stored counts (n *
  /// sizeof(T)), or "" where a value counts something else or the field is
  /// written another way (+=, through its address). Merged over the units,
  /// it decides their ExternalSymbol::ByteCount symbols.
  std::map<std::string, std::string> FieldBytes;
  /// The program's own allocator functions that its files define with
  /// external linkage (AllocatorFunctions.h; calloc- and realloc-like ones
  /// too), by the name other files call them by (callableName): the C library
  /// function that releases their blocks ("free", "_mm_free"; "" where that
  /// differs). They resolve other files' ExternalSymbol::Allocator, whose
  /// allocations the rewrite renders through them.
  std::map<std::string, std::string> Allocators;
  /// Likewise its release functions (ExternalSymbol::Release).
  std::vector<std::string> ReleaseFunctions;
  /// The functions of an allocator or release function's type its files
  /// define that are none, likewise by name: the reason an
  /// ExternalSymbol::Allocator or Release of one gives (it says why).
  std::map<std::string, std::string> AllocatorMisfits;
  /// Where host code sets kernels' arguments (clSetKernelArg), by kernel (a
  /// holder symbol until the merge resolves it; "?" for a kernel whose
  /// name is not known): one place per file. A kernel taking a record's
  /// buffer has its argument indices renumbered per file, so its arguments
  /// must be set in one file (WholeProgram.cpp).
  std::map<std::string, std::vector<SourcePos>> KernelArgumentsSet;
  /// Likewise where it sets them with clSetKernelArgSVMPointer: a pointer
  /// to shared virtual memory, an array in the record's old layout, which
  /// the rewrite does not follow; a kernel taking a record's buffer refuses
  /// the record then (and one whose name is not known, every record with
  /// kernels).
  std::map<std::string, std::vector<SourcePos>> KernelArgumentsSetBySvm;
};

/// The verdicts that depend on the plan, made after planning and after
/// forcing plans: an array or pointer member of record O holding record
/// R's elements is regrouped by R's plan, which cannot be rendered when O's
/// layout changes too. Blocks each such R and returns the indices of the
/// records it blocked.
std::vector<unsigned> blockPlanDependentUses(LayoutPlan &Plan);

/// Records in \p WorkItems (LayoutPlan::KernelWorkItems, or the analysis's
/// map by the kernel's holder) that launches of \p Kernel run \p Items
/// work-items (-1: not constant): kept where all of them agree, else -1.
template <typename MapT, typename KeyT>
void noteKernelWorkItems(MapT &WorkItems, const KeyT &Kernel, double Items) {
  auto [It, New] = WorkItems.try_emplace(Kernel, Items);
  if (!New && It->second != Items)
    It->second = -1;
}

} // namespace dlopt

#endif
