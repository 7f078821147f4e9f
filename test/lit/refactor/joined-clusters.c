// A 72-byte record gathered and read whole (RSBench's poles: a short run
// of them from a random window per lookup). The partition cuts it where
// two fields lie a cache line apart, into two AoS records that every
// access would both touch; the planner joins such AoS clusters again when
// the same loops reach all their fields as often (split, RSBench's lookups
// ran 11 % slower). A field some loop reads alone stays apart.
// RUN: %dl-refactor-rules --report %s -- | FileCheck %s
// CHECK:      struct Pole at {{.*}}joined-clusters.c:[[@LINE+17]]:9: 72 B, 5 fields
// CHECK:      {ea,rt,ra,rf,l} AoS: sigma=66 B, max delta=64 B ({{.*}}joined with {ra,rf,l}: the same loops reach these fields together, and two AoS records of them would move no fewer bytes)
// CHECK-NEXT: plan: Pole: {ea,rt,ra,rf,l} AoS (keep as is)
//
// RUN: sed 's|^  return sum;|  for (int i = 0; i < npoles; ++i)\n    sum += poles[order[i]].ea.im;\n  return sum;|' %s > %t.c
// RUN: %dl-refactor-rules --report %t.c -- | FileCheck --check-prefix=APART %s
// APART:     plan: Pole: {ea} AoS | {rt,ra,rf,l} AoS
// APART-NOT: joined with
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double re, im;
} Complex;

// 72 bytes, read whole: fields 64 bytes apart land in one cluster only
// because every access reads them together.
typedef struct {
  Complex ea, rt, ra, rf;
  short l;
} Pole;

typedef struct {
  int start, end;
} Window;

static double sweep(const Pole *poles, const int *order, const Window *windows,
                    int nwin, int npoles, double e) {
  int w = (int)(e * nwin) % nwin;
  double sum = 0.0;
  for (int i = windows[w].start; i < windows[w].end; ++i) {
    Pole p = poles[order[w * npoles + i]];
    double d = (p.ea.re - e) * (p.ea.re - e) + p.ea.im * p.ea.im + 1.0;
    sum += (p.rt.re * p.ra.re - p.rf.im * p.ra.im) / d + p.l;
  }
  return sum;
}

int main(int argc, char **argv) {
  int nwin = 64, npoles = 16, lookups = argc > 1 ? atoi(argv[1]) : 100000;
  Pole *poles = malloc((size_t)nwin * npoles * sizeof *poles);
  Window *windows = malloc((size_t)nwin * sizeof *windows);
  int *order = malloc((size_t)nwin * npoles * sizeof *order);
  for (int i = 0; i < nwin * npoles; ++i) {
    Pole p = {{i * 0.5, 1.0}, {1.0, i * 0.25}, {0.5, 0.5}, {0.25, 1.0},
              (short)(i % 4)};
    poles[i] = p;
    order[i] = (i * 37) % (nwin * npoles);
  }
  for (int w = 0; w < nwin; ++w) {
    windows[w].start = w % 4;
    windows[w].end = npoles - w % 3;
  }
  double total = 0.0;
  unsigned seed = 1;
  for (int k = 0; k < lookups; ++k) {
    seed = seed * 1103515245u + 12345u;
    total += sweep(poles, order, windows, nwin, npoles,
                   (seed >> 8) / 16777216.0);
  }
  printf("%.6e\n", total);
  free(poles);
  free(windows);
  free(order);
  return 0;
}
