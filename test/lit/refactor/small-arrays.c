// A record whose arrays are all small, of lengths known at compile time
// (here 560 bytes: a scene of nine spheres, as small path tracers keep it,
// and room for MORE, 1 by default),
// keeps its layout where no loop that reaches it vectorizes: the arrays
// stay in the L1 cache in any layout, and the report says so. The model
// still decides for a small array a vectorizable loop reaches (Spark), and
// for arrays of more than 4096 bytes in all (-DMORE=65: 74 spheres, 4144
// bytes; with 73, 4088 bytes, they are kept).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl-refactor --report %s -- -O3 | FileCheck %s
// CHECK:      struct Sphere at {{.*}}small-arrays.c:[[@LINE+23]]:8: 56 B, 8 fields
// CHECK:        {r,px,py,pz,emit,refl,kind,pad} AoS: {{.*}}(kept as is: its arrays take 560 bytes in all (at most 4096), which stay in the L1 cache in any layout, and no loop that reaches them vectorizes)
// CHECK-NEXT:   plan: Sphere: {r,px,py,pz,emit,refl,kind,pad} AoS (keep as is)
// CHECK:      struct Spark at
// CHECK-NOT:  kept as is
// CHECK:        plan: Spark: {{.*}}SoA
// RUN: %dl-refactor --report %s -- -O3 -DMORE=65 | FileCheck --check-prefix=MORE %s
// MORE:     struct Sphere at
// MORE-NOT: kept as is
// MORE:       plan: Sphere: {{.*}}SoA
// RUN: %dl-refactor --report %s -- -O3 -DMORE=64 | FileCheck --check-prefix=EDGE %s
// EDGE:     kept as is: its arrays take 4088 bytes in all
//
// --apply does what the report says, and the program prints what it did.
// RUN: cp %s %t/small.c && %dl-refactor --apply %t/small.c -- -O3 2>&1 | FileCheck --check-prefix=APPLY %s
// APPLY: small.c:[[@LINE+8]]:8: struct Sphere kept: the plan is AoS
// APPLY: struct Spark rewritten as Spark_soa
// RUN: %cc -O2 -Wall -Werror %s -o %t/orig -lm && %t/orig > %t/orig.out
// RUN: %cc -O2 -Wall -Werror %t/small.c -o %t/small -lm && %t/small > %t/small.out
// RUN: diff %t/orig.out %t/small.out
#include <math.h>
#include <stdio.h>

struct Sphere {
  double r, px, py, pz; // radius, centre
  double emit, refl;    // emission, reflectance
  int kind, pad;
};

static const struct Sphere scene[9] = {
    {1e5, 1e5 + 1, 40.8, 81.6, 0, 0.75, 0, 0},
    {1e5, -1e5 + 99, 40.8, 81.6, 0, 0.25, 0, 0},
    {1e5, 50, 40.8, 1e5, 0, 0.75, 0, 0},
    {1e5, 50, 40.8, -1e5 + 170, 0, 0, 0, 0},
    {1e5, 50, 1e5, 81.6, 0, 0.75, 0, 0},
    {1e5, 50, -1e5 + 81.6, 81.6, 0, 0.75, 0, 0},
    {16.5, 27, 16.5, 47, 0, 0.999, 1, 0},
    {16.5, 73, 16.5, 78, 0, 0.999, 2, 0},
    {600, 50, 681.33, 81.6, 12, 0, 0, 0},
};

struct Spark {
  float x, v;
};
static struct Spark sparks[256];

#ifndef MORE
#define MORE 1
#endif
struct Sphere more[MORE];

// The distance along the ray (o, d) to sphere s, or 0 if it misses.
static double intersect(const struct Sphere *s, const double o[3],
                        const double d[3]) {
  double op[3] = {s->px - o[0], s->py - o[1], s->pz - o[2]};
  double b = op[0] * d[0] + op[1] * d[1] + op[2] * d[2];
  double det = b * b - (op[0] * op[0] + op[1] * op[1] + op[2] * op[2]) +
               s->r * s->r;
  if (det < 0)
    return 0;
  det = sqrt(det);
  if (b - det > 1e-4)
    return b - det;
  return b + det > 1e-4 ? b + det : 0;
}

int main(void) {
  double light = 0;
  double o[3] = {50, 52, 295.6};
  for (int y = 0; y < 48; ++y)
    for (int x = 0; x < 64; ++x) {
      double d[3] = {(x - 32) / 64.0, (24 - y) / 64.0, -1};
      double n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      d[0] /= n, d[1] /= n, d[2] /= n;
      double best = 1e20;
      int id = -1;
      for (int i = 0; i < 9; ++i) {
        double t = intersect(&scene[i], o, d);
        if (t > 0 && t < best) {
          best = t;
          id = i;
        }
      }
      if (id >= 0)
        light += scene[id].emit + scene[id].refl * (scene[id].kind + 1) / best;
    }
  for (int i = 0; i < 256; ++i)
    sparks[i].v = (float)i / 256;
  for (int s = 0; s < 100; ++s)
    for (int i = 0; i < 256; ++i)
      sparks[i].x += sparks[i].v * 0.01f;
  printf("%.6f %.6f\n", light, sparks[255].x);
  return 0;
}
