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
                          unsigned Depth,
                          std::vector<PlacedAccess> *Out) const {
  const Node &N = Nodes[Id];
  switch (N.K) {
  case Node::Access:
    if (Out)
      Out->push_back({N.Data, Start, Executions, Depth});
    return N.Data.Bytes;
  case Node::Sequence: {
    double Pos = Start;
    for (unsigned C : N.Children)
      Pos += place(C, Pos, Executions, Depth, Out);
    return Pos - Start;
  }
  case Node::Loop: {
    // The body is placed once (its first iteration); the loop as a whole
    // spans TripCount iterations for whatever follows it.
    double Body = 0;
    for (unsigned C : N.Children)
      Body += place(C, Start + Body, Executions * N.TripCount, Depth + 1, Out);
    return Body * N.TripCount;
  }
  case Node::Branch: {
    // Every alternative starts at the same position; the longest path is
    // what separates what comes before from what comes after.
    double Longest = 0;
    for (unsigned C : N.Children)
      Longest = std::max(Longest, place(C, Start, Executions, Depth, Out));
    return Longest;
  }
  }
  return 0;
}

std::vector<PlacedAccess> AccessTrace::place() const {
  std::vector<PlacedAccess> Out;
  place(0, 0, 1, 0, &Out);
  return Out;
}

double AccessTrace::totalBytes() const { return place(0, 0, 1, 0, nullptr); }

double dlopt::memoryDistance(const std::vector<PlacedAccess> &Placed,
                             unsigned F1, unsigned F2) {
  bool Seen1 = false, Seen2 = false;
  double Max = 0;
  for (const PlacedAccess &A : Placed) {
    if (A.Access.Field != F1)
      continue;
    Seen1 = true;
    for (const PlacedAccess &B : Placed) {
      if (B.Access.Field != F2)
        continue;
      Seen2 = true;
      Max = std::max(Max, std::fabs(A.Position - B.Position));
    }
  }
  return Seen1 && Seen2 ? Max : InfiniteDistance;
}
