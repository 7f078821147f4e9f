//===- AccessTraceTest.cpp - Memory distance on hand-computed traces ------===//
#include "analysis/AccessTrace.h"
#include "gtest/gtest.h"

using namespace dlopt;

namespace {
enum { A, B, C, D };

MemoryAccess read(unsigned Field, double Bytes = 4) {
  return MemoryAccess{Field, Bytes};
}

// The example of Kofler et al.: a and b read one after the other inside a
// 32-iteration loop reading 2 x 4 bytes per iteration, c read after the loop,
// d never read.
TEST(AccessTraceTest, PaperExample) {
  AccessTrace T;
  T.beginLoop(32);
  T.addAccess(read(A));
  T.addAccess(read(B));
  T.endLoop();
  T.addAccess(read(C));
  std::vector<PlacedAccess> P = T.place();
  EXPECT_EQ(memoryDistance(P, A, B), 4);
  EXPECT_EQ(memoryDistance(P, C, B), 252);
  EXPECT_EQ(memoryDistance(P, C, A), 256);
  EXPECT_EQ(memoryDistance(P, A, C), 256);
  EXPECT_EQ(memoryDistance(P, D, A), InfiniteDistance);
  EXPECT_EQ(memoryDistance(P, D, C), InfiniteDistance);
  EXPECT_EQ(T.totalBytes(), 260);
}

TEST(AccessTraceTest, CapBoundsExecutionsBelowItsLoop) {
  // for t < 10 { for x < 100 { for y < 100 { a[k++] } } }: a runs at most
  // 500 times per iteration of t (the x loop, depth 1, is the cap's).
  AccessTrace T;
  T.beginLoop(10);
  T.beginLoop(100);
  T.beginLoop(100);
  MemoryAccess Capped = read(A);
  Capped.Cap = 500;
  Capped.CapDepth = 1;
  T.addAccess(Capped);
  MemoryAccess Loose = read(B);
  Loose.Cap = 1e6; // Above the loops' own count: no bound.
  Loose.CapDepth = 1;
  T.addAccess(Loose);
  T.addAccess(read(C));
  T.endLoop();
  T.endLoop();
  T.endLoop();
  std::vector<PlacedAccess> P = T.place();
  ASSERT_EQ(P.size(), 3u);
  EXPECT_EQ(P[0].Executions, 5000);
  EXPECT_EQ(P[1].Executions, 100000);
  EXPECT_EQ(P[2].Executions, 100000);
  // Positions do not change: the first iteration is placed as before.
  EXPECT_EQ(memoryDistance(P, A, B), 4);
}

TEST(AccessTraceTest, OtherMemoryAddsDistance) {
  AccessTrace T;
  T.addAccess(read(A));
  T.addAccess(MemoryAccess{MemoryAccess::NoField, 100});
  T.addAccess(read(B, 8));
  EXPECT_EQ(memoryDistance(T.place(), A, B), 104);
  EXPECT_EQ(T.totalBytes(), 112);
}

TEST(AccessTraceTest, NestedLoopsMultiplyTripCounts) {
  // for i < 10 { a; for j < 5 { b (8 B) }; c }
  AccessTrace T;
  T.beginLoop(10);
  T.addAccess(read(A));
  T.beginLoop(5);
  T.addAccess(read(B, 8));
  T.endLoop();
  T.addAccess(read(C));
  T.endLoop();
  std::vector<PlacedAccess> P = T.place();
  ASSERT_EQ(P.size(), 3u);
  EXPECT_EQ(P[1].Executions, 50);
  EXPECT_EQ(P[1].LoopDepth, 2u);
  EXPECT_EQ(P[2].Executions, 10);
  // a and c share the outer loop's body, b is in the inner one's.
  EXPECT_EQ(P[0].Loop, P[2].Loop);
  EXPECT_NE(P[1].Loop, P[0].Loop);
  EXPECT_NE(P[1].Loop, PlacedAccess::NoLoop);
  EXPECT_EQ(memoryDistance(P, A, B), 4);
  EXPECT_EQ(memoryDistance(P, A, C), 44); // 4 + 5 x 8
  EXPECT_EQ(memoryDistance(P, B, C), 40);
  EXPECT_EQ(T.totalBytes(), 480);
}

TEST(AccessTraceTest, LongLoopSeparatesWhatSurroundsIt) {
  // An unknown bound estimated at 512e3 iterations between a and c.
  AccessTrace T;
  T.addAccess(read(A));
  T.beginLoop(512e3);
  T.addAccess(read(B));
  T.endLoop();
  T.addAccess(read(C));
  std::vector<PlacedAccess> P = T.place();
  EXPECT_EQ(memoryDistance(P, A, C), 4 + 512e3 * 4);
  EXPECT_EQ(memoryDistance(P, A, B), 4);
}

TEST(AccessTraceTest, BranchesTakeTheLongestPath) {
  // a; if (...) { b; 64 B of other memory } else { c }; d
  AccessTrace T;
  T.addAccess(read(A));
  T.beginBranch();
  T.beginAlternative();
  T.addAccess(read(B));
  T.addAccess(MemoryAccess{MemoryAccess::NoField, 64});
  T.beginAlternative();
  T.addAccess(read(C));
  T.endBranch();
  T.addAccess(read(D));
  std::vector<PlacedAccess> P = T.place();
  EXPECT_EQ(memoryDistance(P, A, B), 4);
  EXPECT_EQ(memoryDistance(P, A, C), 4);
  EXPECT_EQ(memoryDistance(P, A, D), 72); // 4 + max(68, 4)
  EXPECT_EQ(memoryDistance(P, C, D), 68);
}

TEST(AccessTraceTest, FarthestAccessFromItsNearestPartnerCounts) {
  // a read twice: next to b once, far from any b once; the far read counts.
  AccessTrace T;
  T.addAccess(read(A));
  T.addAccess(read(B));
  T.addAccess(MemoryAccess{MemoryAccess::NoField, 1000});
  T.addAccess(read(A));
  EXPECT_EQ(memoryDistance(T.place(), A, B), 1004);
  EXPECT_EQ(memoryDistance(T.place(), B, A), 1004);
}

TEST(AccessTraceTest, TwoLoopsOverTheSameFieldsKeepThemTogether) {
  // for (...) { a; b }  for (...) { b (8 B); a }: each access has its partner
  // within 8 bytes, although the loops are 1e6 x 8 B apart.
  AccessTrace T;
  T.beginLoop(1e6);
  T.addAccess(read(A));
  T.addAccess(read(B));
  T.endLoop();
  T.beginLoop(1e6);
  T.addAccess(read(B, 8));
  T.addAccess(read(A));
  T.endLoop();
  EXPECT_EQ(memoryDistance(T.place(), A, B), 8);
}

TEST(AccessTraceTest, EmptyLoopAndZeroTrips) {
  AccessTrace T;
  EXPECT_TRUE(T.empty());
  T.addAccess(read(A));
  T.beginLoop(0);
  T.addAccess(read(B, 1000));
  T.endLoop();
  T.addAccess(read(C));
  EXPECT_FALSE(T.empty());
  EXPECT_EQ(memoryDistance(T.place(), A, C), 4);
}
} // namespace
