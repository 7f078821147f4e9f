//===- KdlgTest.cpp - Per-kernel graphs and their merge -------------------===//
#include "analysis/Kdlg.h"
#include "gtest/gtest.h"

using namespace dlopt;

namespace {
std::vector<Field> fourFields() {
  return {{"a", 4, 0}, {"b", 4, 4}, {"c", 4, 8}, {"d", 4, 12}};
}
const std::vector<unsigned> Ids = {10, 11, 12, 13};

std::vector<PlacedAccess> trace(std::initializer_list<unsigned> Fields) {
  AccessTrace T;
  for (unsigned F : Fields)
    T.addAccess(MemoryAccess{F, 4});
  return T.place();
}

TEST(KdlgTest, ForKernelUsesFieldIds) {
  Kdlg G = Kdlg::forKernel(fourFields(), Ids, trace({10, 11, 12}));
  EXPECT_EQ(G.delta(0, 1), 4);
  EXPECT_EQ(G.delta(1, 0), 4);
  EXPECT_EQ(G.delta(0, 2), 8);
  EXPECT_EQ(G.delta(0, 3), InfiniteDistance);
  EXPECT_EQ(G.delta(2, 2), 0);
  EXPECT_TRUE(G.accessed(0));
  EXPECT_FALSE(G.accessed(3));
}

TEST(KdlgTest, MergeTakesTheMaximumAndSplitsFieldsUsedApart) {
  // Kernel 1 reads a, b; kernel 2 reads a, b (far apart) and c.
  std::vector<KernelGraph> K = {
      {Kdlg::forKernel(fourFields(), Ids, trace({10, 11})), 100},
      {Kdlg::forKernel(fourFields(), Ids, trace({10, 12, 12, 11})), 100}};
  Kdlg M = mergeKernelGraphs(fourFields(), K);
  EXPECT_EQ(M.delta(0, 1), 12);
  // Kernel 1 reads a without c: grouping them would drag c through its
  // cache lines.
  EXPECT_EQ(M.delta(0, 2), InfiniteDistance);
  EXPECT_EQ(M.delta(0, 3), InfiniteDistance);
  EXPECT_FALSE(M.accessed(3));
}

TEST(KdlgTest, LightKernelsAreIgnored) {
  // A set-up loop touching a and d, 1000x lighter than the hot loop on a, b.
  std::vector<KernelGraph> K = {
      {Kdlg::forKernel(fourFields(), Ids, trace({10, 11})), 1e6},
      {Kdlg::forKernel(fourFields(), Ids, trace({10, 13})), 1e3}};
  EXPECT_EQ(significantKernels(K), std::vector<bool>({true, false}));
  Kdlg M = mergeKernelGraphs(fourFields(), K);
  EXPECT_EQ(M.delta(0, 1), 4);
  EXPECT_FALSE(M.accessed(3));
  // At 1% it would count, and split a from b.
  Kdlg Strict = mergeKernelGraphs(fourFields(), K, /*Significance=*/1e-4);
  EXPECT_EQ(Strict.delta(0, 1), InfiniteDistance);
  EXPECT_TRUE(Strict.accessed(3));
}
} // namespace
