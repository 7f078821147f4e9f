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

// New lines take the file's line ending, once: text built from textOf()
// already has "\r\n", and replacements that render the original text are
// still no edits.
TEST(EditSetTest, NewLinesFollowACRLFFile) {
  EditSet ES("f.c", "int a;\r\nint b;\r\n");
  EXPECT_TRUE(ES.crlf());
  ES.insert(0, "/* x */\n");
  ASSERT_FALSE(bool(ES.replace(8, 14, "{\n" + ES.textOf(8, 14) + "\n}")));
  EXPECT_EQ(ES.apply(), "/* x */\r\nint a;\r\n{\r\nint b;\r\n}\r\n");
  ASSERT_FALSE(bool(ES.replace(8, 16, ES.textOf(8, 16) + "\n")));
  EXPECT_EQ(ES.apply(), "/* x */\r\nint a;\r\n{\r\nint b;\r\n}\r\n\r\n");

  EditSet Copy = ES.emptyCopy();
  EXPECT_TRUE(Copy.crlf());
  ASSERT_FALSE(bool(Copy.replace(0, 8, "int a;\r\n")));
  EXPECT_TRUE(Copy.empty());
  Copy.insert(0, "/* new */\n");
  auto R = Copy.toReplacements();
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(R->begin()->getReplacementText(), "/* new */\r\n");
}

TEST(EditSetTest, NewLinesFollowTheMajorityOfLineEndings) {
  EditSet LF("f.c", "a\nb\r\nc\n");
  EXPECT_FALSE(LF.crlf());
  LF.insert(0, "x\n");
  EXPECT_EQ(LF.apply(), "x\na\nb\r\nc\n");
  EXPECT_TRUE(EditSet("f.c", "a\r\nb\r\nc\n").crlf());
  EXPECT_FALSE(EditSet("f.c", "no newline").crlf());
  // A copied line of a mixed file that ends in a bare "\n" is no edit.
  EditSet Mixed("f.c", "a\r\nb\nc\r\n");
  ASSERT_FALSE(bool(Mixed.replace(3, 5, Mixed.textOf(3, 5))));
  EXPECT_TRUE(Mixed.empty());
}

} // namespace
