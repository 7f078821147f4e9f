//===- LayoutTest.cpp - The layout algebra's offset formulas --------------===//
#include "analysis/Layout.h"
#include "gtest/gtest.h"
#include <set>

using namespace dlopt;

namespace {
// struct { float x; double y; char c; }: offsets 0, 8, 16; size 24.
RecordShape shape() { return RecordShape{{0, 8, 16}, {4, 8, 1}, 24}; }

TEST(LayoutTest, AoSOffsets) {
  EXPECT_EQ(elementOffset(Layout::aos(), shape(), 0, 0, 10), 0u);
  EXPECT_EQ(elementOffset(Layout::aos(), shape(), 3, 1, 10), 3 * 24 + 8u);
  EXPECT_EQ(elementOffset(Layout::aos(), shape(), 9, 2, 10), 9 * 24 + 16u);
}

TEST(LayoutTest, SoAOffsets) {
  // base(f) = N * off(f); elements of a field are contiguous.
  EXPECT_EQ(elementOffset(Layout::soa(), shape(), 0, 0, 10), 0u);
  EXPECT_EQ(elementOffset(Layout::soa(), shape(), 3, 0, 10), 12u);
  EXPECT_EQ(elementOffset(Layout::soa(), shape(), 0, 1, 10), 80u);
  EXPECT_EQ(elementOffset(Layout::soa(), shape(), 3, 1, 10), 80 + 24u);
  EXPECT_EQ(elementOffset(Layout::soa(), shape(), 9, 2, 10), 160 + 9u);
}

TEST(LayoutTest, TiledOffsets) {
  Layout T4 = Layout::tiled(4);
  // (i/T)*T*size + T*off(f) + (i%T)*size(f)
  EXPECT_EQ(elementOffset(T4, shape(), 0, 0, 16), 0u);
  EXPECT_EQ(elementOffset(T4, shape(), 3, 0, 16), 12u);
  EXPECT_EQ(elementOffset(T4, shape(), 4, 0, 16), 96u);
  EXPECT_EQ(elementOffset(T4, shape(), 5, 1, 16), 96 + 32 + 8u);
  EXPECT_EQ(elementOffset(T4, shape(), 7, 2, 16), 96 + 64 + 3u);
}

TEST(LayoutTest, TiledOfTheWholeArrayIsSoAAndTiledOfOneIsAoS) {
  for (uint64_t I = 0; I < 16; ++I)
    for (unsigned F = 0; F < 3; ++F) {
      EXPECT_EQ(elementOffset(Layout::tiled(16), shape(), I, F, 16),
                elementOffset(Layout::soa(), shape(), I, F, 16));
      EXPECT_EQ(elementOffset(Layout{LayoutKind::Tiled, 1}, shape(), I, F, 16),
                elementOffset(Layout::aos(), shape(), I, F, 16));
    }
}

TEST(LayoutTest, EveryLayoutIsABijectionIntoTheSameBytes) {
  const uint64_t N = 64;
  for (Layout L : {Layout::aos(), Layout::soa(), Layout::tiled(2),
                   Layout::tiled(8), Layout::tiled(64)}) {
    std::set<uint64_t> Bytes;
    for (uint64_t I = 0; I < N; ++I)
      for (unsigned F = 0; F < 3; ++F) {
        uint64_t Off = elementOffset(L, shape(), I, F, N);
        EXPECT_LE(Off + shape().Sizes[F], N * shape().Size) << L.str();
        for (uint64_t B = 0; B < shape().Sizes[F]; ++B)
          EXPECT_TRUE(Bytes.insert(Off + B).second)
              << L.str() << " overlaps at i=" << I << " f=" << F;
      }
  }
}

TEST(LayoutTest, PrintAndParse) {
  EXPECT_EQ(Layout::aos().str(), "AoS");
  EXPECT_EQ(Layout::soa().str(), "SoA");
  EXPECT_EQ(Layout::tiled(16).str(), "Tiled(16)");
  EXPECT_EQ(Layout::tiled(16).dims(), "[i/16, f, i%16]");
  EXPECT_EQ(Layout::soa().dims(), "[f, i]");
  for (Layout L :
       {Layout::aos(), Layout::soa(), Layout::tiled(2), Layout::tiled(32768)})
    EXPECT_EQ(Layout::parse(L.str()), L);
  EXPECT_EQ(Layout::parse("soa"), Layout::soa());
  EXPECT_EQ(Layout::parse("tiled:64"), Layout::tiled(64));
  EXPECT_EQ(Layout::parse(" AOS "), Layout::aos());
  EXPECT_FALSE(Layout::parse("tiled:12"));
  EXPECT_FALSE(Layout::parse("tiled:1"));
  EXPECT_FALSE(Layout::parse("Tiled()"));
  EXPECT_FALSE(Layout::parse("soa2"));
  EXPECT_FALSE(Layout::parse(""));
}

TEST(LayoutTest, TilesStopAtTheLargestTileClass) {
  EXPECT_EQ(Layout::parse("tiled:32768"), Layout::tiled(Layout::MaxTile));
  std::string Why;
  EXPECT_FALSE(Layout::parse("tiled:65536", &Why));
  EXPECT_EQ(Why, "layout 'tiled:65536': tile 65536 is above 32768 (2^15, the "
                 "largest tile class)");
  // 2^63 is a power of two too; its tile's byte size would overflow.
  EXPECT_FALSE(Layout::parse("Tiled(9223372036854775808)", &Why));
  EXPECT_NE(Why.find("is above 32768"), std::string::npos);
  EXPECT_FALSE(Layout::parse("tiled:99999999999999999999", &Why));
  EXPECT_EQ(Why, "unknown layout 'tiled:99999999999999999999'");
  EXPECT_FALSE(Layout::parse(" tiled:12 ", &Why));
  EXPECT_EQ(Why, "unknown layout 'tiled:12'");
}
} // namespace
