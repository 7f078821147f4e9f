//===- HandleMemberTest.cpp - How generated layouts spell an element ------===//
#include "rewriter/HandleMember.h"
#include "gtest/gtest.h"

using namespace dlopt;

namespace {
HandleMember fieldArray() {
  return {HandleMember::FieldArray, "x", {0}, 0, ""};
}
HandleMember group() { return {HandleMember::Group, "g", {0, 1}, 0, "P_g"}; }
HandleMember tiles(uint64_t T) {
  return {HandleMember::Tiles, "t", {0, 1}, T, "P_tile_t"};
}

TEST(HandleMemberTest, Parenthesize) {
  EXPECT_EQ(parenthesize("i"), "i");
  EXPECT_EQ(parenthesize("w.n"), "w.n");
  EXPECT_EQ(parenthesize("p->n"), "p->n");
  EXPECT_EQ(parenthesize("v.size()"), "v.size()");
  EXPECT_EQ(parenthesize("i + 1"), "(i + 1)");
  EXPECT_EQ(parenthesize("f(i)"), "(f(i))");
}

TEST(HandleMemberTest, ElementOfEachKind) {
  EXPECT_EQ(fieldArray().element("h", "i", "x"), "h.x[i]");
  EXPECT_EQ(group().element("h", "i", "y"), "h.g[i].y");
  EXPECT_EQ(tiles(16).element("fields", "i", "y"),
            "fields.t[i / 16].y[i % 16]");
}

TEST(HandleMemberTest, IndicesAreParenthesizedOnlyForTheDivision) {
  EXPECT_EQ(fieldArray().element("h", "i + 1", "x"), "h.x[i + 1]");
  EXPECT_EQ(group().element("h", "i + 1", "x"), "h.g[i + 1].x");
  EXPECT_EQ(tiles(4).element("h", "i + 1", "x"),
            "h.t[(i + 1) / 4].x[(i + 1) % 4]");
  // What the program wrote, parentheses included, is kept.
  EXPECT_EQ(tiles(4).element("h", "(i)", "x"), "h.t[((i)) / 4].x[((i)) % 4]");
}

TEST(HandleMemberTest, ConstantIndicesIntoTilesAreDivided) {
  EXPECT_EQ(tiles(4).element("h", "0", "x"), "h.t[0].x[0]");
  EXPECT_EQ(tiles(4).element("h", "9", "y"), "h.t[2].y[1]");
  EXPECT_EQ(fieldArray().element("h", "9", "x"), "h.x[9]");
}

TEST(HandleMemberTest, LaneFormInTheLoopsTileSize) {
  EXPECT_EQ(tiles(16).lane("h", "i_tile", "i_lane", 16, "x"),
            "h.t[i_tile].x[i_lane]");
}

TEST(HandleMemberTest, OtherMembersIndexTheElementInTheLanes) {
  EXPECT_EQ(fieldArray().lane("fields", "tile", "lane", 16, "x"),
            "fields.x[(tile * 16 + lane)]");
  EXPECT_EQ(group().lane("fields", "tile", "lane", 16, "y"),
            "fields.g[(tile * 16 + lane)].y");
  EXPECT_EQ(tiles(4).lane("fields", "tile", "lane", 16, "y"),
            "fields.t[(tile * 16 + lane) / 4].y[(tile * 16 + lane) % 4]");
}

TEST(HandleMemberTest, LengthCountsTiles) {
  EXPECT_EQ(fieldArray().length("n"), "n");
  EXPECT_EQ(group().length("N + 1"), "N + 1");
  EXPECT_EQ(tiles(16).length("n"), "(n + 15) / 16");
  EXPECT_EQ(tiles(4).length("N + 1"), "((N + 1) + 3) / 4");
}
} // namespace
