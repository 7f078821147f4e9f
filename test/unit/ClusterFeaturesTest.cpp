//===- ClusterFeaturesTest.cpp - Features the decision tree sees ----------===//
#include "analysis/ClusterFeatures.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace dlopt;

namespace {
TEST(ClusterFeaturesTest, StreamingAndGatheredAccessesAreWeighted) {
  // struct { float a, b; double c; } with cluster {a, b}.
  std::vector<Field> Fields = {{"a", 4, 0}, {"b", 4, 4}, {"c", 8, 8}};
  AccessTrace T;
  T.beginLoop(100);
  MemoryAccess A{0, 4};
  A.IsLoopIndexed = true;
  A.Accumulators = 3; // e.g. a force's three components
  T.addAccess(A);
  MemoryAccess B{1, 4};
  B.IsWrite = true;
  B.IsGather = true;
  B.InVectorizableLoop = false;
  T.beginLoop(3); // b is written 3x as often as a is read.
  T.addAccess(B);
  T.endLoop();
  T.endLoop();
  KernelAccesses K{T.place(), {0, 1, 2}};
  Kdlg G = Kdlg::forKernel(Fields, K.FieldIds, K.Placed);
  Cluster C{{0, 1}, 4, false};

  FeatureVector F = computeFeatures(G, C, 16, {K});
  EXPECT_EQ(F["cluster_bytes"], 8);
  EXPECT_EQ(F["cluster_fields"], 2);
  EXPECT_EQ(F["cluster_share"], 0.5);
  EXPECT_EQ(F["max_field_bytes"], 4);
  EXPECT_EQ(F["record_bytes"], 16);
  EXPECT_EQ(F["touched_fraction"], 0.5);
  EXPECT_EQ(F["gather_fraction"], 0.75);
  EXPECT_EQ(F["write_fraction"], 0.75);
  EXPECT_DOUBLE_EQ(F["log2_executions"], std::log2(300.0));
  EXPECT_EQ(F["vectorizable"], 0.25);
  EXPECT_EQ(F["loop_index_fraction"], 0.25);
  EXPECT_EQ(F["reduction_fraction"], 0.25);
  EXPECT_EQ(F["accumulators"], 0.75); // 3 per access of a, 0 per access of b
  EXPECT_EQ(F["co_streamed_fields"], 0); // c is in no loop with a or b
  for (const auto &[Name, Value] : F)
    EXPECT_TRUE(isKnownFeature(Name)) << Name;
  EXPECT_EQ(F.size(), knownFeatures().size());
}

TEST(ClusterFeaturesTest, FieldsOutsideTheClusterInItsLoopsAreCounted) {
  // struct { float a, b, c, d; }: an integration step's loop updates a, b
  // and c (and, in a loop nested in it, d); a second loop reads a alone,
  // three times as often; d is also read outside any loop.
  std::vector<Field> Fields = {
      {"a", 4, 0}, {"b", 4, 4}, {"c", 4, 8}, {"d", 4, 12}};
  AccessTrace T;
  T.beginLoop(100);
  for (unsigned F : {0u, 1u, 2u})
    T.addAccess({F, 4});
  T.beginLoop(2);
  T.addAccess({3, 4});
  T.endLoop();
  T.endLoop();
  T.beginLoop(300);
  T.addAccess({0, 4});
  T.endLoop();
  T.addAccess({3, 4});
  KernelAccesses K{T.place(), {0, 1, 2, 3}};
  Kdlg G = Kdlg::forKernel(Fields, K.FieldIds, K.Placed);
  // {a}: 100 executions beside b and c, 300 alone.
  EXPECT_EQ(computeFeatures(G, {{0}, 4, false}, 16, {K})["co_streamed_fields"],
            0.5);
  // {b}: always beside a and c; {a,b,c}: nothing else in its loops (d's
  // loop is another one); {d}: alone in its loop.
  EXPECT_EQ(computeFeatures(G, {{1}, 4, false}, 16, {K})["co_streamed_fields"],
            2);
  EXPECT_EQ(
      computeFeatures(G, {{0, 1, 2}, 12, false}, 16, {K})["co_streamed_fields"],
      0);
  EXPECT_EQ(computeFeatures(G, {{3}, 4, false}, 16, {K})["co_streamed_fields"],
            0);
}

/// A trace of one loop of \p Trips iterations reading field \p Field,
/// gathered or not.
static KernelAccesses oneLoop(double Trips, unsigned Field, bool Gather) {
  AccessTrace T;
  T.beginLoop(Trips);
  MemoryAccess A{Field, 4};
  A.IsGather = Gather;
  T.addAccess(A);
  T.endLoop();
  return {T.place(), {0, 1}};
}

TEST(ClusterFeaturesTest, KernelsCountByTheirAccessesToTheCluster) {
  // struct { float a, b; }: a hot kernel reads a 10^6 times; a kernel 1000x
  // lighter for the record is the only other one, and gathers b.
  std::vector<Field> Fields = {{"a", 4, 0}, {"b", 4, 4}};
  KernelAccesses Hot = oneLoop(1e6, 0, false);
  KernelAccesses Light = oneLoop(1e3, 1, true);
  Kdlg G = Kdlg::forKernel(Fields, Hot.FieldIds, Hot.Placed);
  // For {b}, the light kernel is the busiest: it decides b's features.
  EXPECT_EQ(
      computeFeatures(G, {{1}, 4, false}, 8, {Hot, Light})["gather_fraction"],
      1);
  // For {a, b} it weighs under 1% of the hot kernel's accesses: left out.
  EXPECT_EQ(computeFeatures(G, {{0, 1}, 8, false}, 8,
                            {Hot, Light})["gather_fraction"],
            0);
  // At 1% or more it counts, weighted by its executions.
  KernelAccesses Warm = oneLoop(1e5, 1, true);
  EXPECT_DOUBLE_EQ(
      computeFeatures(G, {{0, 1}, 8, false}, 8, {Hot, Warm})["gather_fraction"],
      1e5 / 1.1e6);
}
} // namespace
