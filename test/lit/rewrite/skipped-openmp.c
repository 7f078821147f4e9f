// OpenMP codes spell a directive twice for different builds (`#if __GNUC__
// < 9`, older gcc refusing const variables in clauses; a schedule chosen at
// build time). The branch the preprocessor skips names the array only in a
// `shared` clause, which names the handle after the rewrite: the record is
// rewritten, and the program prints what it printed, built either way
// (clauses that copy or map an array are read from the text wherever they
// are: rewrite/openmp-clauses.c).
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp %s %t/shared.c
// RUN: %dl-refactor --apply --layout=cell=tiled:16 %t/shared.c -- 2>&1 | FileCheck --check-prefix=SHARED %s
// SHARED: struct cell rewritten as cell_tiled
// RUN: %cc -O1 -fopenmp %s -o %t/orig && env OMP_NUM_THREADS=2 %t/orig > %t/orig.out
// RUN: %cc -O1 -fopenmp -DSTATIC_SCHEDULE %s -o %t/orig-static && env OMP_NUM_THREADS=2 %t/orig-static > %t/orig-static.out
// RUN: %cc -O1 -fopenmp %t/shared.c -o %t/new && env OMP_NUM_THREADS=2 %t/new | diff %t/orig.out -
// RUN: %cc -O1 -fopenmp -DSTATIC_SCHEDULE %t/shared.c -o %t/new-static && env OMP_NUM_THREADS=2 %t/new-static | diff %t/orig-static.out -
// RUN: grep -q '^#pragma omp parallel for schedule(static) default(none) shared(cells, n) reduction' %t/shared.c
#include <stdio.h>
#include <stdlib.h>

struct cell {
  float mass, energy;
  int count;
};

int main(void) {
  const int n = 1000;
  struct cell *cells = malloc(n * sizeof *cells);
  for (int i = 0; i < n; i++) {
    cells[i].mass = 1.0f + i % 5;
    cells[i].energy = 0;
    cells[i].count = i % 3;
  }
  double total = 0;
  for (int step = 0; step < 20; step++) {
#ifdef STATIC_SCHEDULE
#pragma omp parallel for schedule(static) default(none) shared(cells, n) reduction(+ : total)
#else
#pragma omp parallel for default(none) shared(cells, n) reduction(+ : total)
#endif
    for (int i = 0; i < n; i++) {
      cells[i].energy += 0.5f * cells[i].mass * cells[i].count;
      total += cells[i].count;
    }
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += cells[i].energy;
  printf("%.1f %.1f\n", total, e);
  free(cells);
  return 0;
}
