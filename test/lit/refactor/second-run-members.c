// A record whose elements a first run put in another record's generated
// layout (Vec, a by-value field of Body: Body's SoA handle holds arrays of
// Vec) keeps its layout on a second run: a plan for Vec would not change
// the generated code that holds those arrays. Before, such a record was
// planned again from the generated helpers' accesses, and the rewrite of
// RSBench-style CUDA code (Complex in Pole's clusters) did not compile.
// Vec's own array is small (64 bytes, no vectorizable loop): the first
// run keeps it.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/bodies.c
// RUN: %dl-refactor --apply %t/bodies.c -- -O3 2>&1 | FileCheck --check-prefix=FIRST %s
// FIRST: struct Vec kept: the plan is AoS
// FIRST: struct Body rewritten as Body_soa
// RUN: %dl-refactor --report %t/bodies.c -- -O3 | FileCheck --check-prefix=REPORT %s
// REPORT:      struct Vec at
// REPORT:        pos (field of Body_soa (rewritten)) at {{.*}}bodies.c:{{[0-9]+}}:{{[0-9]+}}
// REPORT:      not transformable:
// REPORT-NEXT:   {{.*}}bodies.c:{{[0-9]+}}:{{[0-9]+}}: member 'pos' of 'Body_soa', whose own layout an earlier run rewrote
// RUN: %dl-refactor --apply %t/bodies.c -- -O3 2>&1 | FileCheck --check-prefix=SECOND %s
// SECOND: nothing to change
// RUN: %cc -O2 -Wall -Werror %s -o %t/orig && %t/orig > %t/orig.out
// RUN: %cc -O2 -Wall -Werror %t/bodies.c -o %t/bodies && %t/bodies > %t/bodies.out
// RUN: diff %t/orig.out %t/bodies.out
#include <stdio.h>
#include <stdlib.h>

struct Vec {
  double x, y;
};
struct Body {
  struct Vec pos, vel;
  double mass;
};

static double spread(const struct Vec *corners) {
  double s = 0;
  for (int k = 0; k < 4; ++k)
    s += corners[k].x * corners[k].y;
  return s;
}

int main(void) {
  int n = 100000;
  struct Body *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; ++i) {
    b[i].pos.x = i;
    b[i].pos.y = 2 * i;
    b[i].vel.x = 1;
    b[i].vel.y = -1;
    b[i].mass = 1 + i % 3;
  }
  for (int s = 0; s < 10; ++s)
    for (int i = 0; i < n; ++i) {
      b[i].pos.x += b[i].vel.x * 0.1;
      b[i].pos.y += b[i].vel.y * 0.1;
    }
  struct Vec box[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += b[i].mass * b[i].pos.x;
  printf("%.3f %.3f\n", e, spread(box));
  free(b);
  return 0;
}
