//===- PartitionTest.cpp - Clustering at the cache-line threshold ---------===//
#include "analysis/Partition.h"
#include "gtest/gtest.h"

using namespace dlopt;

namespace {
Kdlg graph(unsigned N) {
  std::vector<Field> Fields;
  for (unsigned I = 0; I < N; ++I)
    Fields.push_back({std::string(1, 'a' + I), 4, 4 * I});
  Kdlg G(Fields);
  for (unsigned I = 0; I < N; ++I)
    G.setAccessed(I);
  return G;
}

std::vector<std::vector<unsigned>> fieldsOf(const std::vector<Cluster> &Cs) {
  std::vector<std::vector<unsigned>> Out;
  for (const Cluster &C : Cs)
    Out.push_back(C.Fields);
  return Out;
}

TEST(PartitionTest, ThresholdIsStrict) {
  Kdlg G = graph(2);
  G.setDelta(0, 1, 63);
  EXPECT_EQ(fieldsOf(partitionKdlg(G, 64)),
            (std::vector<std::vector<unsigned>>{{0, 1}}));
  G.setDelta(0, 1, 64);
  EXPECT_EQ(fieldsOf(partitionKdlg(G, 64)),
            (std::vector<std::vector<unsigned>>{{0}, {1}}));
  EXPECT_EQ(fieldsOf(partitionKdlg(G, 65)),
            (std::vector<std::vector<unsigned>>{{0, 1}}));
}

TEST(PartitionTest, EveryEdgeInsideAClusterIsBelowEpsilon) {
  // a-b and b-c are close, a-c is far: single linkage would chain all three.
  Kdlg G = graph(3);
  G.setDelta(0, 1, 8);
  G.setDelta(1, 2, 4);
  G.setDelta(0, 2, 100);
  std::vector<Cluster> Cs = partitionKdlg(G, 64);
  EXPECT_EQ(fieldsOf(Cs), (std::vector<std::vector<unsigned>>{{0}, {1, 2}}));
  EXPECT_EQ(Cs[1].MaxDelta, 4);
}

TEST(PartitionTest, PaperExample) {
  // delta(a,b)=4, delta(c,b)=252, delta(c,a)=256, d never read.
  Kdlg G = graph(4);
  G.setDelta(0, 1, 4);
  G.setDelta(1, 2, 252);
  G.setDelta(0, 2, 256);
  G.setAccessed(3, false);
  std::vector<Cluster> Cs = partitionKdlg(G, 64);
  EXPECT_EQ(fieldsOf(Cs),
            (std::vector<std::vector<unsigned>>{{0, 1}, {2}, {3}}));
  EXPECT_FALSE(Cs[0].Cold);
  EXPECT_TRUE(Cs[2].Cold);
  // With a threshold above 256 everything read is one cluster.
  EXPECT_EQ(fieldsOf(partitionKdlg(G, 257)),
            (std::vector<std::vector<unsigned>>{{0, 1, 2}, {3}}));
}

TEST(PartitionTest, ColdFieldsShareOneCluster) {
  Kdlg G = graph(4);
  G.setAccessed(1, false);
  G.setAccessed(3, false);
  G.setDelta(0, 2, 8);
  std::vector<Cluster> Cs = partitionKdlg(G, 64);
  EXPECT_EQ(fieldsOf(Cs), (std::vector<std::vector<unsigned>>{{0, 2}, {1, 3}}));
  EXPECT_TRUE(Cs[1].Cold);
}
} // namespace
