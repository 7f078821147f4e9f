//===- HeldElementsTest.cpp - Which loops hold an element's fields --------===//
//
// Each case is a function `f` over arrays of `struct F { double v, x, y; }`;
// the test lists the fields that f's loops hold in registers, as
// "v,x" per held element.
//
//===----------------------------------------------------------------------===//
#include "FieldGroupsOfF.h"

using namespace dlopt;

namespace {

std::vector<std::string> held(const std::string &Body) {
  return fieldGroupsOfF("struct F { double v, x, y; };\n"
                        "double g; double weights[8]; void touch(double *);\n"
                        "double exp_(double w) { return w; }\n" +
                            Body,
                        findHeldElements, {"v", "x", "y"});
}

using Fields = std::vector<std::string>;

TEST(HeldElements, AccumulationFromALocalTile) {
  EXPECT_EQ(held("void f(F *a, int n) {\n"
                 "  double w[8] = {0};\n"
                 "  for (int i = 0; i < n; i++)\n"
                 "    for (int j = 0; j < 8; j++) {\n"
                 "      a[i].v += w[j];\n"
                 "      a[i].x += w[j] * 2;\n"
                 "    }\n"
                 "}\n"),
            Fields{"v,x"});
}

TEST(HeldElements, ThroughAPointerAndAnInvariantIndex) {
  EXPECT_EQ(held("void f(F *a, int home, int t) {\n"
                 "  double w[8] = {0};\n"
                 "  F *p = &a[home];\n"
                 "  for (int j = 0; j < 8; j++) {\n"
                 "    p->v += w[j];\n"
                 "    p->y += w[j] * 2;\n"
                 "  }\n"
                 "  for (int j = 0; j < 8; j++)\n"
                 "    a[home + t].y = a[home + t].x * w[j];\n"
                 "}\n"),
            (Fields{"v,y", "x,y"}));
}

TEST(HeldElements, TwoElementsMayAliasEachOther) {
  // p may point at a[home + t]: in AoS too each store may change the
  // other element's fields.
  EXPECT_EQ(held("void f(F *a, int home, int t) {\n"
                 "  double w[8] = {0};\n"
                 "  F *p = &a[home];\n"
                 "  for (int j = 0; j < 8; j++) {\n"
                 "    p->v += w[j];\n"
                 "    a[home + t].y = a[home + t].x * w[j];\n"
                 "    p->y += 1;\n"
                 "  }\n"
                 "}\n"),
            Fields{});
}

TEST(HeldElements, OneFieldIsNoGroup) {
  EXPECT_EQ(held("void f(F *a, int i) {\n"
                 "  double w[8] = {0};\n"
                 "  for (int j = 0; j < 8; j++)\n"
                 "    a[i].v += w[j];\n"
                 "}\n"),
            Fields{});
}

TEST(HeldElements, OnlyReadIsNoGroup) {
  EXPECT_EQ(held("void f(F *a, int i, double *out) {\n"
                 "  double s = 0;\n"
                 "  for (int j = 0; j < 8; j++)\n"
                 "    s += a[i].v * a[i].x;\n"
                 "  *out = s;\n"
                 "}\n"),
            Fields{});
}

TEST(HeldElements, TheElementChangesInTheLoop) {
  // The loop's own variable, a variable it assigns, and an index read
  // from memory the loop may store to.
  EXPECT_EQ(held("void f(F *a, int n, int *idx) {\n"
                 "  double w[8] = {0};\n"
                 "  int k = 0;\n"
                 "  for (int j = 0; j < 8; j++) {\n"
                 "    a[j].v += w[j]; a[j].x += w[j];\n"
                 "  }\n"
                 "  for (int j = 0; j < 8; j++) {\n"
                 "    a[k].v += w[j]; a[k].x += w[j]; k = k + 1;\n"
                 "  }\n"
                 "  for (int j = 0; j < 8; j++) {\n"
                 "    a[idx[0]].v += w[j]; a[idx[0]].x += w[j];\n"
                 "  }\n"
                 "}\n"),
            Fields{});
}

TEST(HeldElements, OtherMemoryMayAliasTheElement) {
  // Reads of the array itself, a pointer's target, a global, and a call
  // that may store anywhere: the compiler keeps the fields in memory in
  // AoS too.
  EXPECT_EQ(held("void f(F *a, int i, double *q) {\n"
                 "  for (int j = 0; j < 8; j++) {\n"
                 "    a[i].v += a[j].x; a[i].x += 1;\n"
                 "  }\n"
                 "  for (int j = 0; j < 8; j++) {\n"
                 "    a[i].v += q[j]; a[i].x += 1;\n"
                 "  }\n"
                 "  for (int j = 0; j < 8; j++) {\n"
                 "    a[i].v += g; a[i].x += 1;\n"
                 "  }\n"
                 "  for (int j = 0; j < 8; j++) {\n"
                 "    a[i].v += 1; a[i].x += 1; touch(&a[i].y);\n"
                 "  }\n"
                 "}\n"),
            Fields{});
}

TEST(HeldElements, OnlyInnermostLoops) {
  // The outer loop's element changes with i; the inner loop holds a[i].
  EXPECT_EQ(held("void f(F *a, int n) {\n"
                 "  double w[8] = {0};\n"
                 "  for (int i = 0; i < n; i++) {\n"
                 "    a[i].y = 0;\n"
                 "    for (int j = 0; j < 8; j++) {\n"
                 "      a[i].v += w[j]; a[i].x -= w[j];\n"
                 "    }\n"
                 "  }\n"
                 "}\n"),
            Fields{"v,x"});
}

TEST(HeldElements, GlobalArraysAreMemory) {
  EXPECT_EQ(held("void f(F *a, int i) {\n"
                 "  for (int j = 0; j < 8; j++) {\n"
                 "    a[i].v += weights[j]; a[i].x -= weights[j];\n"
                 "  }\n"
                 "}\n"),
            Fields{});
}

} // namespace
