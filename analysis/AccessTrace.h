//===- AccessTrace.h - A kernel's accesses in program order -----*- C++ -*-===//
//
// The part of a kernel the KDLG needs: which memory is touched, in which
// order, inside which loops (with their trip counts) and which branches.
// It knows nothing of Clang, so the memory-distance arithmetic can be tested
// on hand-written traces; AccessCollector builds traces from the AST.
//
// Memory distance follows Kofler et al. (Euro-Par 2015): every access is
// placed at the byte position of its first execution in the linearized
// kernel, where a loop occupies trip x (bytes of one iteration) and a branch
// the bytes of its longest alternative; the distance between two accesses is
// the difference of their positions (see memoryDistance for the pairing).
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_ACCESSTRACE_H
#define DLOPT_ANALYSIS_ACCESSTRACE_H

#include <cstdint>
#include <limits>
#include <vector>

namespace dlopt {

/// A distance that no program path realizes: the two fields are never
/// accessed together.
constexpr double InfiniteDistance = std::numeric_limits<double>::infinity();

/// One static memory instruction.
struct MemoryAccess {
  /// Field identifier chosen by the producer of the trace, or NoField for
  /// memory that is not a field of interest (it only adds distance).
  unsigned Field;
  /// Bytes moved.
  double Bytes;
  bool IsWrite = false;
  /// True if the element index is not an affine function of the innermost
  /// loop's induction variable (e.g. a[idx[i]]): a gather or scatter.
  bool IsGather = false;
  /// True if the innermost enclosing loop can vectorize under the compile
  /// flags (no opaque calls, no float reduction without fast-math).
  bool InVectorizableLoop = true;
  /// True if the element is a[i] with i the induction variable of the
  /// innermost enclosing loop, `for (i = 0; i < n; ++i)` without loops
  /// inside: the accesses a Tiled layout reaches through a strip-mined loop,
  /// without a division.
  bool IsLoopIndexed = false;
  /// True if it is loop-indexed through a handle that keeps the lanes also
  /// where a tiled handle counts the elements its tiles skip (a record the
  /// program takes sub-arrays of; see peels in StripMining.h).
  bool LanesWhenMoved = false;
  /// True if it is part of a copy of the whole element (`T t = a[i]`,
  /// `f(a[i])`, `a[i] = t`): one access per field.
  bool WholeElement = false;
  /// How many scalars the innermost enclosing loop accumulates into
  /// (s += x); 0 if it is no reduction.
  unsigned Accumulators = 0;
  /// At most this many executions per execution of the enclosing loop at
  /// depth CapDepth (0 the outermost), whatever the loops inside it count:
  /// a[k] with a running index k++ visits each element once there.
  double Cap = std::numeric_limits<double>::infinity();
  unsigned CapDepth = 0;

  static constexpr unsigned NoField = ~0u;
};

/// A placed access: the static instruction plus where it lands.
struct PlacedAccess {
  MemoryAccess Access;
  /// Byte position of its first execution in the linearized kernel.
  double Position;
  /// Product of the trip counts of the enclosing loops: how often it runs.
  double Executions;
  /// Number of enclosing loops.
  unsigned LoopDepth;
  /// The innermost enclosing loop: an identifier unique within the trace,
  /// NoLoop outside loops. Accesses with the same one run in the same loop
  /// body (the streams one loop reads and writes together).
  unsigned Loop = NoLoop;

  static constexpr unsigned NoLoop = ~0u;
};

/// A tree of sequences, loops and branches over memory accesses. Built with
/// the begin/end calls in program order.
class AccessTrace {
public:
  AccessTrace();

  void addAccess(const MemoryAccess &A);
  /// Opens a loop executing \p TripCount times; closed by endLoop().
  void beginLoop(double TripCount);
  void endLoop();
  /// The accesses so far directly in the innermost open loop (in its
  /// branches, not in loops inside it) are in a loop that cannot vectorize
  /// after all: something later in its body showed it.
  void markOpenLoopScalar();
  /// Opens a branch; each alternative starts with beginAlternative().
  void beginBranch();
  void beginAlternative();
  void endBranch();

  /// Every access with its position and execution count, in program order.
  std::vector<PlacedAccess> place() const;
  /// Bytes of one execution of the whole trace (the longest path).
  double totalBytes() const;
  bool empty() const;

private:
  struct Node {
    enum Kind { Sequence, Loop, Branch, Access } K;
    explicit Node(Kind K) : K(K) {}
    double TripCount = 1;
    MemoryAccess Data{MemoryAccess::NoField, 0};
    std::vector<unsigned> Children;
  };
  std::vector<Node> Nodes;    // Nodes[0] is the root sequence.
  std::vector<unsigned> Open; // Stack of nodes being filled.

  unsigned addNode(Node N);
  void markScalar(unsigned Id);
  /// \p Outer holds the executions of each open loop's parent (for Cap).
  double place(unsigned Id, double Start, double Executions, unsigned Depth,
               unsigned Loop, std::vector<double> &Outer,
               std::vector<PlacedAccess> *Out) const;
};

/// delta(F1, F2) within one kernel: the largest distance from any static
/// access of one field to the nearest access of the other (the Hausdorff
/// distance of their positions); InfiniteDistance if either is not accessed.
///
/// The paper takes "the maximum over all pairs of memory instructions"; on
/// its example both readings agree. Taken literally over all pairs, a kernel
/// with two loops over the same two fields would split them however close
/// they are in each loop; the nearest partner is what decides whether the
/// other field's bytes are still in the cache line.
double memoryDistance(const std::vector<PlacedAccess> &Placed, unsigned F1,
                      unsigned F2);

} // namespace dlopt

#endif
