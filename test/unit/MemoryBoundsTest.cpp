//===- MemoryBoundsTest.cpp - Which counts in memory a loop keeps ---------===//
//
// Each case is a function `f` whose first `for` loop is bounded by a count
// in memory; the test asks whether the body could change it.
//
//===----------------------------------------------------------------------===//
#include "analysis/MemoryBounds.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace dlopt;

namespace {

/// The first for loop of function f.
class FirstLoop : public RecursiveASTVisitor<FirstLoop> {
public:
  const ForStmt *Loop = nullptr;
  bool InF = false;
  bool TraverseFunctionDecl(FunctionDecl *FD) {
    bool Was = InF;
    InF = FD->getName() == "f";
    RecursiveASTVisitor::TraverseFunctionDecl(FD);
    InF = Was;
    return true;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    return TraverseFunctionDecl(MD);
  }
  bool VisitForStmt(ForStmt *For) {
    if (InF && !Loop)
      Loop = For;
    return true;
  }
};

/// Whether the bound of f's first loop holds still, \p Code compiled as
/// C++17.
bool keeps(const std::string &Code) {
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"}, "input.cpp");
  EXPECT_TRUE(AST);
  if (!AST)
    return false;
  FirstLoop Finder;
  Finder.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
  EXPECT_TRUE(Finder.Loop);
  if (!Finder.Loop)
    return false;
  const auto *Cond = cast<BinaryOperator>(Finder.Loop->getCond());
  return isStableMemoryBound(Cond->getRHS(), Finder.Loop->getBody(),
                             AST->getASTContext());
}

const char *Globals = "int n; float a[64]; int counts[64];\n"
                      "struct Box { int n; int flags; };\n";

std::string withGlobals(const std::string &Code) { return Globals + Code; }

TEST(MemoryBoundsTest, StoresOfOtherTypesKeepAGlobalCount) {
  EXPECT_TRUE(keeps(withGlobals("void f(long *w) { for (int i = 0; i < n; ++i) "
                                "{ a[i] = 0; *w = 1; } }")));
  EXPECT_TRUE(keeps(
      withGlobals("void f() { for (int i = 0; i < n; ++i) counts[i] = 0; }")));
}

TEST(MemoryBoundsTest, StoresThatCouldAliasTheCount) {
  EXPECT_FALSE(keeps(
      withGlobals("void f(int *w) { for (int i = 0; i < n; ++i) *w += 1; }")));
  EXPECT_FALSE(keeps(withGlobals(
      "void f(char *w) { for (int i = 0; i < n; ++i) w[i] = 0; }")));
  EXPECT_FALSE(keeps(withGlobals(
      "void f(Box *b, Box c) { for (int i = 0; i < n; ++i) *b = c; }")));
  EXPECT_FALSE(keeps(withGlobals("void f(Box *b, Box c) { for (int i = 0; i < "
                                 "n; ++i) b->operator=(c); }")));
  EXPECT_FALSE(keeps(withGlobals(
      "void f() { int &r = n; for (int i = 0; i < n; ++i) r = i; }")));
  EXPECT_FALSE(keeps(withGlobals(
      "void f() { for (int i = 0; i < n; ++i) { int *q = &n; (void)q; } }")));
  EXPECT_FALSE(keeps(withGlobals("void f() { for (int i = 0; i < n; ++i) "
                                 "if (a[i] > 1) n = i; }")));
}

TEST(MemoryBoundsTest, CallsAreFollowedOrRefused) {
  EXPECT_FALSE(keeps(
      withGlobals("void g(); void f() { for (int i = 0; i < n; ++i) g(); }")));
  EXPECT_FALSE(keeps(withGlobals("void (*hook)(); void f() { for (int i = 0; "
                                 "i < n; ++i) hook(); }")));
  EXPECT_FALSE(
      keeps(withGlobals("static void h() { --n; } static void g() { h(); }\n"
                        "void f() { for (int i = 0; i < n; ++i) g(); }")));
  EXPECT_TRUE(
      keeps(withGlobals("static void h(int i) { counts[i & 63] = 1; }\n"
                        "static void g(int i) { h(i); if (i > 0) g(i - 1); }\n"
                        "void f() { for (int i = 0; i < n; ++i) g(i); }")));
  // Library functions: by what they are given.
  EXPECT_TRUE(keeps(withGlobals("void f() { for (int i = 0; i < n; ++i) a[i] "
                                "= __builtin_sqrtf(a[i]); }")));
  EXPECT_FALSE(keeps(withGlobals("void f(float *p) { for (int i = 0; i < n; "
                                 "++i) __builtin_memset(p, 0, 4); }")));
  // A reference parameter could be bound to the count.
  EXPECT_FALSE(keeps(withGlobals("static void g(int &k) { k = 0; }\n"
                                 "void f() { for (int i = 0; i < n; ++i) { "
                                 "int j = i; g(j); } }")));
}

TEST(MemoryBoundsTest, MembersOfThis) {
  const char *Class =
      "struct V { double x, y; V &operator+=(const V &o) { x += o.x; y += "
      "o.y; return *this; } };\n"
      "struct C {\n"
      "  int n; double scale; V *v;\n"
      "  void bump() { scale *= 2; }\n"
      "  void shrink() { --n; }\n"
      "  virtual void hook() {}\n";
  EXPECT_TRUE(keeps(std::string(Class) +
                    "  void f(V d) { for (int i = 0; i < n; ++i) { v[i] += d; "
                    "bump(); } }\n};"));
  EXPECT_FALSE(
      keeps(std::string(Class) +
            "  void f() { for (int i = 0; i < n; ++i) shrink(); }\n};"));
  EXPECT_FALSE(keeps(std::string(Class) +
                     "  void f() { for (int i = 0; i < n; ++i) hook(); }\n};"));
  EXPECT_FALSE(keeps(std::string(Class) +
                     "  void f(C *o) { for (int i = 0; i < this->n; ++i) "
                     "o->n = 0; }\n};"));
}

TEST(MemoryBoundsTest, WhatTheBoundMayBe) {
  EXPECT_FALSE(keeps("volatile int n; float a[8];\n"
                     "void f() { for (int i = 0; i < n; ++i) a[i] = 0; }"));
  EXPECT_FALSE(keeps("int m(); float a[8];\n"
                     "void f() { for (int i = 0; i < m(); ++i) a[i] = 0; }"));
  EXPECT_TRUE(keeps(withGlobals("void f(const Box *b) { for (int i = 0; i < "
                                "b->n * 2 - 1; ++i) a[i] = 0; }")));
}

TEST(MemoryBoundsTest, MembersOfMembers) {
  const char *Sim = "struct G { int n; float w; }; struct S { G grid; };\n"
                    "float a[8];\n";
  EXPECT_TRUE(keeps(std::string(Sim) + "void f(S *s) { for (int i = 0; i < "
                                       "s->grid.n; ++i) { a[i] = 0; "
                                       "s->grid.w = 1; } }"));
  EXPECT_FALSE(keeps(std::string(Sim) + "void f(S *s, G g) { for (int i = 0; "
                                        "i < s->grid.n; ++i) s->grid = g; }"));
  EXPECT_FALSE(keeps(std::string(Sim) + "void f(S *s, S *t) { for (int i = 0; "
                                        "i < s->grid.n; ++i) s = t; }"));
}

TEST(MemoryBoundsTest, DestructorsRun) {
  EXPECT_FALSE(keeps(withGlobals(
      "struct Guard { ~Guard() { n = 0; } };\n"
      "void f() { for (int i = 0; i < n; ++i) { Guard g; a[i] = 0; } }")));
  EXPECT_TRUE(keeps(withGlobals(
      "struct Guard { ~Guard() { counts[0] = 0; } };\n"
      "void f() { for (int i = 0; i < n; ++i) { Guard g; a[i] = 0; } }")));
}

} // namespace
