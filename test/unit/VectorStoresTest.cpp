//===- VectorStoresTest.cpp - Which stores a loop makes as one vector -----===//
//
// Each case is a function `f` over arrays of
// `struct F { float x, y, z; double d; float w; }`; the test lists the
// groups of fields that f's loops store as one vector, as "x,y" per group.
//
//===----------------------------------------------------------------------===//
#include "analysis/VectorStores.h"
#include "FieldGroupsOfF.h"

using namespace dlopt;

namespace {

std::vector<std::string> stored(const std::string &Body) {
  return fieldGroupsOfF("#include <vector>\n"
                        "struct F { float x, y, z; double d; float w; };\n"
                        "float next(unsigned *s);\n"
                        "float c(float); float s(float);\n" +
                            Body,
                        findVectorStores, {"x", "y", "z", "d", "w"});
}

using Groups = std::vector<std::string>;

TEST(VectorStores, PairUpdatedByValuesOfOneShape) {
  // The random walk: the two calls are values the vector is built from.
  EXPECT_EQ(stored("void f(F *a, int n, unsigned *seed) {\n"
                   "  for (int i = 0; i < n; i++) {\n"
                   "    float h = next(seed);\n"
                   "    a[i].x += a[i].w * c(h);\n"
                   "    a[i].y += a[i].w * s(h);\n"
                   "  }\n"
                   "}\n"),
            Groups{"x,y"});
}

TEST(VectorStores, FieldsLoadedAtOneDistance) {
  // x and y each from the field one place on: {y,z} loads as one vector
  // and {x,y} stores as one; z from the field two places back does not.
  EXPECT_EQ(stored("void f(F *a, int n, float t) {\n"
                   "  for (int i = 0; i < n; i++) {\n"
                   "    a[i].x = a[i].y * t;\n"
                   "    a[i].y = a[i].z * t;\n"
                   "    a[i].z = a[i].x * t;\n"
                   "  }\n"
                   "}\n"),
            Groups{"x,y"});
  // Each its own field, in any order of the statements.
  EXPECT_EQ(stored("void f(F *a, int n, float t) {\n"
                   "  for (int i = 0; i < n; i++) {\n"
                   "    a[i].z = a[i].z - t;\n"
                   "    a[i].x = a[i].x - t;\n"
                   "    a[i].y = a[i].y - t;\n"
                   "  }\n"
                   "}\n"),
            Groups{"x,y,z"});
}

TEST(VectorStores, ShapesThatDiffer) {
  // Another operator, another assignment, another element, another type.
  for (const char *Body : {"    a[i].x += t;\n    a[i].y -= t;\n",
                           "    a[i].x += t;\n    a[i].y = t;\n",
                           "    a[i].x += t;\n    a[i + 1].y += t;\n",
                           "    a[i].x = t + 1;\n    a[i].y = t * 1;\n",
                           "    a[i].x += a[i].x;\n    a[i].y += a[i].w;\n",
                           "    a[i].z += t;\n    a[i].d += t;\n"})
    EXPECT_EQ(stored(std::string("void f(F *a, int n, float t) {\n"
                                 "  for (int i = 0; i < n; i++) {\n") +
                     Body + "  }\n}\n"),
              Groups{})
        << Body;
}

TEST(VectorStores, FieldsApartInMemory) {
  // x and z have y between them; z and w have d.
  EXPECT_EQ(stored("void f(F *a, int n, float t) {\n"
                   "  for (int i = 0; i < n; i++) {\n"
                   "    a[i].x *= t;\n"
                   "    a[i].z *= t;\n"
                   "    a[i].w *= t;\n"
                   "  }\n"
                   "}\n"),
            Groups{});
}

TEST(VectorStores, OneBasicBlock) {
  // A branch between the stores ends the block; stores under one branch
  // form a group of their own.
  EXPECT_EQ(stored("void f(F *a, int n, float t) {\n"
                   "  for (int i = 0; i < n; i++) {\n"
                   "    a[i].x += t;\n"
                   "    if (a[i].x > 1) a[i].w = 0;\n"
                   "    a[i].y += t;\n"
                   "    if (t > 0) {\n"
                   "      a[i].y *= t;\n"
                   "      a[i].z *= t;\n"
                   "    }\n"
                   "  }\n"
                   "}\n"),
            Groups{"y,z"});
}

TEST(VectorStores, InnermostLoopsOnly) {
  EXPECT_EQ(stored("void f(F *a, int n, float t) {\n"
                   "  for (int i = 0; i < n; i++) {\n"
                   "    a[i].x += t;\n"
                   "    a[i].y += t;\n"
                   "    for (int j = 0; j < n; j++)\n"
                   "      t += a[j].w;\n"
                   "  }\n"
                   "}\n"),
            Groups{});
}

TEST(VectorStores, ElementsByPointerReferenceAndContainer) {
  EXPECT_EQ(stored("void f(std::vector<F> &v, F *a, int n, float t) {\n"
                   "  for (F &e : v) {\n"
                   "    e.x += t;\n"
                   "    e.y += t;\n"
                   "  }\n"
                   "  for (int i = 0; i < n; i++) {\n"
                   "    F *p = &a[i];\n"
                   "    p->y = p->y * t;\n"
                   "    p->z = p->z * t;\n"
                   "  }\n"
                   "  for (int i = 0; i < n; i++) {\n"
                   "    v[i].x = t;\n"
                   "    v[i].y = t;\n"
                   "  }\n"
                   "}\n"),
            (Groups{"x,y", "y,z", "x,y"}));
}

TEST(VectorStores, NotAnArrayElement) {
  // A local copy keeps its layout whatever the plan.
  EXPECT_EQ(stored("void f(F *a, int n, float t) {\n"
                   "  for (int i = 0; i < n; i++) {\n"
                   "    F e = a[i];\n"
                   "    e.x += t;\n"
                   "    e.y += t;\n"
                   "    a[i] = e;\n"
                   "  }\n"
                   "}\n"),
            Groups{});
}

} // namespace
