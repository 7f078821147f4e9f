//===- EditSetTest.cpp - Nested edits flattened to replacements -----------===//
#include "rewriter/EditSet.h"
#include "gtest/gtest.h"

using namespace dlopt;

namespace {

TEST(EditSetTest, EnclosingEditSeesAndAbsorbsInnerEdits) {
  EditSet ES("f.c", "a[b[i].k].x");
  ASSERT_FALSE(bool(ES.replace(2, 8, "b.k[i]")));
  EXPECT_EQ(ES.textOf(0, 11), "a[b.k[i]].x");
  ASSERT_FALSE(bool(ES.replace(0, 11, "a.x[" + ES.textOf(2, 8) + "]")));
  EXPECT_EQ(ES.apply(), "a.x[b.k[i]]");
  auto R = ES.toReplacements();
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(R->size(), 1u);
}

TEST(EditSetTest, OverlappingEditsAreAnError) {
  EditSet ES("f.c", "abcdef");
  ASSERT_FALSE(bool(ES.replace(1, 4, "X")));
  llvm::Error E = ES.replace(3, 5, "Y");
  EXPECT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
}

// A site that renders its original text (v[i] outside a strip-mined loop)
// leaves no edit behind, so --diff shows no unchanged lines.
TEST(EditSetTest, OriginalTextLeavesNoEdit) {
  EditSet ES("f.cpp", "s += v[i].x;");
  ASSERT_FALSE(bool(ES.replace(6, 9, ES.textOf(6, 9))));
  EXPECT_TRUE(ES.empty());
  // An enclosing edit back to the original text drops the edits inside.
  ASSERT_FALSE(bool(ES.replace(5, 11, "w")));
  ASSERT_FALSE(bool(ES.replace(0, 12, "s += v[i].x;")));
  EXPECT_TRUE(ES.empty());
  EXPECT_EQ(ES.apply(), "s += v[i].x;");
}

} // namespace
