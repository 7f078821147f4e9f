//===- EditSetTest.cpp - Nested edits flattened to replacements -----------===//
#include "rewriter/EditSet.h"
#include "rewriter/ExpansionFormat.h"
#include "rewriter/MacroExpander.h"
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

// A CUDA file's host and device sides: the edits both made once, those of
// one side added; an edit of the same text that differs, or overlaps one
// of the other side, is a conflict that leaves the set as it was.
TEST(EditSetTest, MergeTakesEachSidesEditsAndRefusesConflicts) {
  EditSet Host("k.cu", "p[i].x; #if A p[i].y #endif q[0].z;");
  EditSet Device = Host.emptyCopy();
  ASSERT_FALSE(bool(Host.replace(0, 6, "p.x[i]")));
  ASSERT_FALSE(bool(Device.replace(0, 6, "p.x[i]")));
  ASSERT_FALSE(bool(Device.replace(14, 20, "p.y[i]")));
  Host.insert(35, "/* helpers */");
  ASSERT_FALSE(bool(Host.merge(Device)));
  EXPECT_EQ(Host.apply(), "p.x[i]; #if A p.y[i] #endif q[0].z;/* helpers */");

  EditSet Other = Host.emptyCopy();
  ASSERT_FALSE(bool(Other.replace(0, 6, "p.x[i] ")));
  llvm::Error Differs = Host.merge(Other);
  EXPECT_TRUE(bool(Differs));
  llvm::consumeError(std::move(Differs));
  EditSet Inside = Host.emptyCopy();
  ASSERT_FALSE(bool(Inside.replace(2, 3, "j")));
  llvm::Error Overlaps = Host.merge(Inside);
  EXPECT_TRUE(bool(Overlaps));
  llvm::consumeError(std::move(Overlaps));
  EXPECT_EQ(Host.apply(), "p.x[i]; #if A p.y[i] #endif q[0].z;/* helpers */");
}

// A header OpenCL kernel files share with host files: the declarations
// each side generates after the record go under a test of the kernels'
// macro, a replacement of a branch one side alone sees as it is, an edit
// both make alike once; two replacements that differ are an error.
TEST(EditSetTest, MergeSidesGuardsWhatEachSideGenerates) {
  const char *Text = "struct P { float x; };\n"
                     "#ifdef K\nfloat f(P *p);\n#else\nvoid g(P *p);\n#endif\n"
                     "enum { S = sizeof(P) };\n";
  EditSet Host("p.h", Text);
  EditSet Kernel = Host.emptyCopy();
  Host.insert(22, "\n/* host */\n");
  Kernel.insert(22, "\n/* kernel */\n");
  ASSERT_FALSE(bool(Kernel.replace(40, 44, "P_soa p")));
  ASSERT_FALSE(bool(Host.replace(60, 64, "P_soa p")));
  ASSERT_FALSE(bool(Host.replace(85, 94, "sizeof(Q)")));
  ASSERT_FALSE(bool(Kernel.replace(85, 94, "sizeof(Q)")));
  // Offsets 32-46 are the kernels' branch, 53-67 the host's.
  auto OnlySide = [](unsigned Offset, bool Kernel) {
    return Kernel ? Offset >= 32 && Offset < 46 : Offset >= 53 && Offset < 67;
  };
  llvm::Expected<EditSet> Merged =
      EditSet::mergeSides(Host, Kernel, "KERNEL", OnlySide);
  ASSERT_TRUE(bool(Merged));
  EXPECT_EQ(Merged->apply(), "struct P { float x; };\n"
                             "#if KERNEL\n/* kernel */\n"
                             "#else\n/* host */\n#endif\n"
                             "#ifdef K\nfloat f(P_soa p);\n#else\n"
                             "void g(P_soa p);\n#endif\n"
                             "enum { S = sizeof(Q) };\n");

  // One side's declarations only (the host keeps its layout): the other
  // side does not see them. At a line's start, the block is lines of its
  // own before that line.
  EditSet None = Host.emptyCopy(), Before = Host.emptyCopy();
  Before.insert(23, "/* kernel */\n");
  Merged = EditSet::mergeSides(None, Before, "KERNEL", OnlySide);
  ASSERT_TRUE(bool(Merged));
  EXPECT_EQ(Merged->apply().substr(0, 55),
            "struct P { float x; };\n#if KERNEL\n/* kernel */\n#endif\n#");

  EditSet Other = Host.emptyCopy();
  ASSERT_FALSE(bool(Other.replace(85, 94, "sizeof(R)")));
  Merged = EditSet::mergeSides(Host, Other, "KERNEL", OnlySide);
  EXPECT_FALSE(bool(Merged));
  llvm::consumeError(Merged.takeError());
  // A replacement of code both sides build that one side alone makes.
  EditSet Alone = Host.emptyCopy();
  ASSERT_FALSE(bool(Alone.replace(85, 94, "sizeof(Q)")));
  Merged = EditSet::mergeSides(Alone, Host.emptyCopy(), "KERNEL", OnlySide);
  EXPECT_FALSE(bool(Merged));
  llvm::consumeError(Merged.takeError());
  // Insertions that would share a line with the text around them.
  EditSet Mid = Host.emptyCopy(), MidK = Host.emptyCopy();
  Mid.insert(7, "/*h*/");
  MidK.insert(7, "/*k*/");
  Merged = EditSet::mergeSides(Mid, MidK, "KERNEL", OnlySide);
  EXPECT_FALSE(bool(Merged));
  llvm::consumeError(Merged.takeError());
}

// The generated declarations after a record defined at the very end of a
// header (no newline after its `;`) are part of the new text.
TEST(EditSetTest, InsertionAtTheEndOfTheFile) {
  EditSet ES("p.h", "struct P { int x; };");
  ES.insert(20, "\ntypedef int P_h;");
  EXPECT_EQ(ES.apply(), "struct P { int x; };\ntypedef int P_h;");
  auto R = ES.toReplacements();
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(R->size(), 1u);
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

namespace {

// Macro expansion (MacroExpander.h): the rewrite edits the expanded text;
// composed, the edits apply to the file as it is, whatever their place
// relative to the expansions.
TEST(EditSetTest, RewriteOfExpandedTextComposesWithTheExpansions) {
  std::string Original = "s = D(a[i]) + a[j].x;\nE;\n";
  std::vector<Expansion> Expansions = {{4, 11, "(a[i].x * 2)"},
                                       {22, 23, "a[0].y"}};
  std::string Expanded = expandAll(Original, Expansions);
  ASSERT_EQ(Expanded, "s = (a[i].x * 2) + a[j].x;\na[0].y;\n");
  EditSet Rewrite("f.c", Expanded);
  // Inside the first expansion, outside both, an insertion where the
  // second one starts, and inside the second.
  ASSERT_FALSE(bool(Rewrite.replace(5, 11, "a.x[i]")));
  ASSERT_FALSE(bool(Rewrite.replace(19, 25, "a.x[j]")));
  Rewrite.insert(27, "/* 0 */ ");
  ASSERT_FALSE(bool(Rewrite.replace(27, 33, "a.y[0]")));
  EditSet Out = composeExpansions("f.c", Original, Expansions, Rewrite);
  EXPECT_EQ(Out.original(), Original);
  EXPECT_EQ(Out.apply(), Rewrite.apply());
  EXPECT_EQ(Out.apply(), "s = (a.x[i] * 2) + a.x[j];\n/* 0 */ a.y[0];\n");
  // An expansion the rewrite leaves alone is still made.
  EditSet Untouched("f.c", Expanded);
  EXPECT_EQ(composeExpansions("f.c", Original, Expansions, Untouched).apply(),
            Expanded);
}

TEST(EditSetTest, StatementsHoldingAnExpansionAreFormatted) {
  // The expansion of D(a[i]) is long; `int   b` is badly spaced but holds
  // no expansion, and an edit of the last line holds none either.
  std::string Original = "void f(void) {\n"
                         "  int   b = 0;\n"
                         "  s = D(a[i]) + a[j].x;\n"
                         "  t = a[k].y;\n"
                         "}\n";
  unsigned At = Original.find("D(a[i])");
  std::vector<Expansion> Expansions = {
      {At, At + 7, "(a[i].x * a[i].x + a[i].y * a[i].y + a[i].z * a[i].z)"}};
  std::string Expanded = expandAll(Original, Expansions);
  EditSet Rewrite("f.c", Expanded);
  unsigned K = Expanded.find("a[k].y");
  ASSERT_FALSE(bool(Rewrite.replace(K, K + 6, "a.y[k]")));
  EditSet Composed = composeExpansions("f.c", Original, Expansions, Rewrite);
  clang::format::FormatStyle Style = clang::format::getLLVMStyle();
  Style.ColumnLimit = 40;
  EditSet Out = formatExpansions(Composed, Expansions, Style);
  EXPECT_EQ(Out.original(), Original);
  EXPECT_EQ(Out.apply(), "void f(void) {\n"
                         "  int   b = 0;\n"
                         "  s = (a[i].x * a[i].x +\n"
                         "       a[i].y * a[i].y +\n"
                         "       a[i].z * a[i].z) +\n"
                         "      a[j].x;\n"
                         "  t = a.y[k];\n"
                         "}\n");
  // Nothing expanded: nothing formatted.
  EXPECT_EQ(formatExpansions(Rewrite, {}, Style).apply(), Rewrite.apply());
}

} // namespace
