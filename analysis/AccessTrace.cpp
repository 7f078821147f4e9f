//===- AccessTrace.cpp - A kernel's memory accesses in program order ------===//
#include "analysis/AccessTrace.h"
#include <algorithm>
#include <cassert>
#include <cmath>

using namespace dlopt;

AccessTrace::AccessTrace() {
  Nodes.push_back(Node(Node::Sequence));
  Open.push_back(0);
}

unsigned AccessTrace::addNode(Node N) {
  unsigned Id = Nodes.size();
  Nodes.push_back(std::move(N));
  Nodes[Open.back()].Children.push_back(Id);
  return Id;
}

void AccessTrace::addAccess(const MemoryAccess &A) {
  Node N{Node::Access};
  N.Data = A;
  addNode(std::move(N));
}

void AccessTrace::beginLoop(double TripCount) {
  Node N{Node::Loop};
  N.TripCount = std::max(TripCount, 0.0);
  Open.push_back(addNode(std::move(N)));
}

void AccessTrace::endLoop() {
  assert(Open.size() > 1 && Nodes[Open.back()].K == Node::Loop);
  Open.pop_back();
}

void AccessTrace::markOpenLoopScalar() {
  for (auto It = Open.rbegin(); It != Open.rend(); ++It)
    if (Nodes[*It].K == Node::Loop) {
      markScalar(*It);
      return;
    }
}

void AccessTrace::markScalar(unsigned Id) {
  for (unsigned Child : Nodes[Id].Children) {
    if (Nodes[Child].K == Node::Access)
      Nodes[Child].Data.InVectorizableLoop = false;
    else if (Nodes[Child].K != Node::Loop) // An inner loop decides its own.
      markScalar(Child);
  }
}

void AccessTrace::beginBranch() { Open.push_back(addNode(Node(Node::Branch))); }

void AccessTrace::beginAlternative() {
  // An alternative is a sequence directly under the branch.
  if (Nodes[Open.back()].K == Node::Sequence && Open.size() > 1 &&
      Nodes[Open[Open.size() - 2]].K == Node::Branch)
    Open.pop_back();
  assert(Nodes[Open.back()].K == Node::Branch && "alternative outside branch");
  Open.push_back(addNode(Node(Node::Sequence)));
}

void AccessTrace::endBranch() {
  if (Nodes[Open.back()].K == Node::Sequence)
    Open.pop_back();
  assert(Nodes[Open.back()].K == Node::Branch && "unbalanced endBranch");
  Open.pop_back();
}

bool AccessTrace::empty() const { return Nodes.size() == 1; }

double AccessTrace::place(unsigned Id, double Start, double Executions,
                          unsigned Depth, unsigned Loop,
                          std::vector<double> &Outer,
                          std::vector<PlacedAccess> *Out) const {
  const Node &N = Nodes[Id];
  switch (N.K) {
  case Node::Access:
    if (Out) {
      double Runs = Executions;
      if (N.Data.CapDepth < Outer.size())
        Runs = std::min(Runs, Outer[N.Data.CapDepth] * N.Data.Cap);
      Out->push_back({N.Data, Start, Runs, Depth, Loop});
    }
    return N.Data.Bytes;
  case Node::Sequence: {
    double Pos = Start;
    for (unsigned C : N.Children)
      Pos += place(C, Pos, Executions, Depth, Loop, Outer, Out);
    return Pos - Start;
  }
  case Node::Loop: {
    // The body is placed once (its first iteration); the loop as a whole
    // spans TripCount iterations for whatever follows it.
    double Body = 0;
    Outer.push_back(Executions);
    for (unsigned C : N.Children)
      Body += place(C, Start + Body, Executions * N.TripCount, Depth + 1, Id,
                    Outer, Out);
    Outer.pop_back();
    return Body * N.TripCount;
  }
  case Node::Branch: {
    // Every alternative starts at the same position; the longest path is
    // what separates what comes before from what comes after.
    double Longest = 0;
    for (unsigned C : N.Children)
      Longest = std::max(Longest,
                         place(C, Start, Executions, Depth, Loop, Outer, Out));
    return Longest;
  }
  }
  return 0;
}

std::vector<PlacedAccess> AccessTrace::place() const {
  std::vector<PlacedAccess> Out;
  std::vector<double> Outer;
  place(0, 0, 1, 0, PlacedAccess::NoLoop, Outer, &Out);
  return Out;
}

double AccessTrace::totalBytes() const {
  std::vector<double> Outer;
  return place(0, 0, 1, 0, PlacedAccess::NoLoop, Outer, nullptr);
}

/// The largest distance from an access in \p From to its nearest access in
/// \p To.
static double directedDistance(const std::vector<double> &From,
                               const std::vector<double> &To) {
  double Max = 0;
  for (double P : From) {
    double Nearest = InfiniteDistance;
    for (double Q : To)
      Nearest = std::min(Nearest, std::fabs(P - Q));
    Max = std::max(Max, Nearest);
  }
  return Max;
}

double dlopt::memoryDistance(const std::vector<PlacedAccess> &Placed,
                             unsigned F1, unsigned F2) {
  std::vector<double> P1, P2;
  for (const PlacedAccess &A : Placed) {
    if (A.Access.Field == F1)
      P1.push_back(A.Position);
    else if (A.Access.Field == F2)
      P2.push_back(A.Position);
  }
  if (P1.empty() || P2.empty())
    return InfiniteDistance;
  return std::max(directedDistance(P1, P2), directedDistance(P2, P1));
}
