// A function without loops that a loop calls is a kernel as the loop's body
// is (XSBench's calculate_micro_xs, called per nuclide per lookup): its
// accesses count as often as the calls. interpolate reads lo and hi of the
// element its caller found, 2000 times per step; setup, run once, is not a
// kernel: its accesses are no loop's.
// RUN: %dl-refactor-rules --report %s -- | FileCheck %s
// CHECK:      struct Point
// CHECK:      kernels:
// CHECK-NEXT:   interpolate at {{.*}}loop-free-helper.c:[[@LINE+13]]:15: 6 accesses, 0 loops, runs 4000000 times
// CHECK-NEXT:   main at {{.*}}
// CHECK-NOT:    setup at
// CHECK:        KDLG
// CHECK-NEXT:   energy lo hi weight spare
// CHECK-NEXT:   energy - 24 32 inf inf
#include <stdio.h>
#include <stdlib.h>

struct Point {
  double energy, lo, hi, weight, spare[4];
};

static double interpolate(const struct Point *p, int i, double e) {
  double f = (e - p[i].energy) / (p[i + 1].energy - p[i].energy);
  return p[i].lo + f * (p[i].hi - p[i].lo);
}

static void setup(struct Point *p, int n) {
  p[n / 2].weight = 1;
}

int main(void) {
  int n = 4096;
  struct Point *p = calloc(n + 1, sizeof *p);
  for (int i = 0; i <= n; i++) {
    p[i].energy = i;
    p[i].lo = i * 0.5;
    p[i].hi = i * 0.25;
  }
  setup(p, n);
  double sum = 0;
  for (int step = 0; step < 2000; step++)
    for (int k = 0; k < 2000; k++)
      sum += interpolate(p, (k * 7919) % n, (k * 7919) % n + 0.5);
  printf("%f\n", sum);
  free(p);
  return 0;
}
