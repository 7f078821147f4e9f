// A record whose arrays all have a length known at compile time, no longer
// than a tile, is not tiled: the tile would only pad (a thread's 4 complex
// factors in a tile of 64 take 16 times their memory, on a CPU's stack or
// in a GPU thread's local memory). The model's leaf names its best layout
// without tiles instead, and the report says why. A record with an array
// of unknown length keeps the tiled choice.
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '{"format": "dlopt-model", "version": 1, "target": "test", "cache_line": 64, "tree": {"layout": "Tiled(64)", "untiled": "SoA"}}' > %t/tiled.json
// RUN: %dl-refactor --report --model=%t/tiled.json %s -- | FileCheck %s
// CHECK:      struct Complex at {{.*}}short-arrays.c:[[@LINE+15]]:8
// CHECK:        {r,i} SoA: {{.*}}not Tiled(64) (its arrays hold at most 4 elements, no more than a tile): the leaf's best layout without tiles)
// CHECK-NEXT:   plan: Complex: {r,i} SoA
// CHECK:      struct Sample at {{.*}}short-arrays.c:[[@LINE+13]]:8
// CHECK:        {x,w} Tiled(64): {{[^(]*}}
// CHECK-NEXT:   plan: Sample: {x,w} Tiled(64)
//
// The rewrite keeps its output.
// RUN: cp %s %t/short.c && %dl-refactor --apply --quiet --model=%t/tiled.json %t/short.c --
// RUN: %cc -O2 -Wall -Werror %s -o %t/orig -lm && %t/orig > %t/orig.out
// RUN: %cc -O2 -Wall -Werror %t/short.c -o %t/short -lm && %t/short > %t/short.out
// RUN: diff %t/orig.out %t/short.out
#include <stdio.h>
#include <stdlib.h>

struct Complex { double r, i; };
struct Sample { double x, w; };

static void factors(double e, struct Complex *f) {
  for (int l = 0; l < 4; ++l) {
    f[l].r = e * (l + 1);
    f[l].i = e / (l + 1);
  }
}

int main(void) {
  int n = 1000;
  struct Sample *s = malloc(n * sizeof(struct Sample));
  for (int k = 0; k < n; ++k) {
    s[k].x = k * 0.5;
    s[k].w = 1.0 / (k + 1);
  }
  double sum = 0;
  for (int k = 0; k < n; ++k) {
    struct Complex f[4];
    factors(s[k].x, f);
    for (int l = 0; l < 4; ++l)
      sum += (f[l].r + f[l].i) * s[k].w;
  }
  printf("%.6f\n", sum);
  free(s);
  return 0;
}
