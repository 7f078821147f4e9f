// --profile and set-up loops: with measured counts a loop that initializes
// every field once can weigh more than the 1 % below which the merge
// ignores a kernel (init here is 1/8 of the triad's time steps). The fields
// only it reaches then keep the record's layout, as without the profile,
// where init is ignored: a new layout could only change that one pass, and
// one write stream per field slowed it (bench/stream_aos.c, the whole run
// 0.81x with all fields SoA). The triad's fields move.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -O2 -fprofile-instr-generate -fcoverage-mapping %s -o %t/prog
// RUN: env LLVM_PROFILE_FILE=%t/prog.profraw %t/prog
// RUN: llvm-profdata merge -o %t/prog.profdata %t/prog.profraw
// RUN: %dl-refactor-rules --report %s -- | FileCheck --check-prefix=GUESS %s
// RUN: %dl-refactor-rules --report --profile=%t/prog.profdata \
// RUN:   --profile-binary=%t/prog %s -- | FileCheck --check-prefix=MEASURED %s
// RUN: cp %s %t/applied.c
// RUN: %dl-refactor-rules --apply --quiet --profile=%t/prog.profdata \
// RUN:   --profile-binary=%t/prog %t/applied.c --
// RUN: %cc -O2 -Wall -Wextra -Werror %t/applied.c -o %t/rewritten
// RUN: %t/prog > %t/before.txt
// RUN: %t/rewritten > %t/after.txt
// RUN: diff %t/before.txt %t/after.txt

// GUESS: init at {{.*}} (ignored: under 1% of the heaviest kernel)
// GUESS: {mass,charge,spin,age} AoS: {{.*}}cold: no kernel accesses these fields
// GUESS: plan: Cell: {a,b,c} SoA | {mass,charge,spin,age} AoS

// MEASURED: init at {{.*}}: 7 accesses, 1 loops, runs 1 times (profile), weight
// MEASURED-NOT: ignored
// MEASURED: triad at {{.*}}: 3 accesses, 1 loops, runs 8 times (profile), weight
// MEASURED: {mass,charge,spin,age} AoS: {{.*}}(set-up data: the significant kernels reach these fields once per element over the run
// MEASURED: plan: Cell: {a,b,c} SoA | {mass,charge,spin,age} AoS

#include <stdio.h>
#include <stdlib.h>

struct Cell {
  double a, b, c;              /* the triad */
  double mass, charge, spin, age; /* set once, read at the end */
};

static void init(struct Cell *cells, long n) {
  for (long i = 0; i < n; ++i) {
    cells[i].a = 0;
    cells[i].b = (double)(i % 7);
    cells[i].c = (double)(i % 5) * 0.5;
    cells[i].mass = 1.0 + (double)(i % 3);
    cells[i].charge = (i % 2) ? -1.0 : 1.0;
    cells[i].spin = 0.5;
    cells[i].age = 0;
  }
}

static void triad(struct Cell *cells, long n, double s) {
  for (long i = 0; i < n; ++i)
    cells[i].a = cells[i].b + s * cells[i].c;
}

static double summary(const struct Cell *cells, long n) {
  double sum = 0;
  for (long i = 0; i < n; i += 64)
    sum += cells[i].a * cells[i].mass + cells[i].charge * cells[i].spin +
           cells[i].age;
  return sum;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1 << 16;
  int steps = argc > 2 ? atoi(argv[2]) : 8;
  struct Cell *cells = malloc((size_t)n * sizeof *cells);
  if (!cells)
    return 1;
  init(cells, n);
  for (int r = 0; r < steps; ++r)
    triad(cells, n, 3.0);
  printf("%.3f\n", summary(cells, n));
  free(cells);
  return 0;
}
