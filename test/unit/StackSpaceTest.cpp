//===- StackSpaceTest.cpp - Deep ASTs walked without running out of stack -===//
#include "analysis/StackSpace.h"
#include "analysis/Analyzer.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace dlopt;

namespace {

/// Runs \p F on a thread with clang's own stack size, as the compiler's
/// main thread has it, its bottom noted as clang's driver notes it.
template <typename Fn> void onCompilerStack(Fn &&F) {
  llvm::thread T(std::optional<unsigned>(clang::DesiredStackSize), [&] {
    clang::noteBottomOfStack();
    F();
  });
  T.join();
}

/// A recursion of \p N levels, each with a 1 KiB frame.
unsigned depth(unsigned N) {
  if (N == 0)
    return 0;
  volatile char Frame[1024];
  Frame[N % sizeof(Frame)] = 1;
  return withStackSpace([&] { return depth(N - 1); }) + Frame[N % 1024];
}

TEST(StackSpaceTest, RecursionDeeperThanOneStack) {
  // 32 MiB of frames: four stacks' worth.
  unsigned D = 0;
  onCompilerStack([&] { D = depth(32 * 1024); });
  EXPECT_EQ(D, 32u * 1024);
}

TEST(StackSpaceTest, ValuesAndVoid) {
  EXPECT_EQ(withStackSpace([] { return std::string("x"); }), "x");
  bool Ran = false;
  withStackSpace([&] { Ran = true; });
  EXPECT_TRUE(Ran);
  runOnLargeStack([&] { Ran = false; });
  EXPECT_FALSE(Ran);
}

// A 15,000-term sum in a kernel: the access walker used to need a frame
// per term and overflowed the compiler's 8 MiB.
TEST(StackSpaceTest, AnalysisOfALongSum) {
  std::string Sum = "a[0].x";
  for (unsigned I = 1; I < 15000; ++I)
    Sum += " + a[" + std::to_string(I % 64) + "].x";
  std::string Code = "struct P { float x, y; };\n"
                     "static struct P a[64];\n"
                     "float f(void) {\n"
                     "  float s = 0;\n"
                     "  for (int i = 0; i < 64; ++i)\n"
                     "    s += a[i].y + " +
                     Sum + ";\n  return s;\n}\n";
  std::unique_ptr<clang::ASTUnit> AST;
  runOnLargeStack([&] {
    AST =
        clang::tooling::buildASTFromCodeWithArgs(Code, {"-std=c11"}, "input.c");
  });
  ASSERT_TRUE(AST);
  LayoutPlan Plan;
  onCompilerStack([&] {
    Plan = analyzeTranslationUnit(AST->getASTContext(), AnalysisOptions()).Plan;
  });
  ASSERT_EQ(Plan.Records.size(), 1u);
  ASSERT_EQ(Plan.Records[0].Kernels.size(), 1u);
  EXPECT_EQ(Plan.Records[0].Kernels[0].Accesses.size(), 15001u);
}

} // namespace
