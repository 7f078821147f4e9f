// A function that keeps its work array across calls in a static local:
// the rewrite keeps the storage class wherever it is spelled, before the
// type or after it (`struct cell static *work;`), so the array is
// allocated once and its contents carried from call to call.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %s -o %t/orig && %t/orig > %t/orig.out
// RUN: cp %s %t/soa.c && %dl-refactor --apply --quiet --layout=cell=soa %t/soa.c --
// RUN: %drop-checks %t/soa.c | FileCheck --check-prefix=SOA %s
// SOA: static cell_soa work;
// SOA: static cell_soa history;
// SOA: static cell_soa last;
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/soa.c -o %t/soa && %t/soa > %t/soa.out
// RUN: diff %t/orig.out %t/soa.out
// RUN: cp %s %t/tiled.c && %dl-refactor --apply --quiet --layout=cell=tiled:4 %t/tiled.c --
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/tiled.c -o %t/tiled && %t/tiled > %t/tiled.out
// RUN: diff %t/orig.out %t/tiled.out
// A thread-local array keeps the record: its storage and the handle into it
// would both have to be per thread.
// RUN: sed 's/^static double step/static _Thread_local struct cell scratch[NCELLS];\nstatic double step/; s/history\[i\].energy = work/scratch[i].energy = history[i].energy = work/' %s > %t/tls.c
// RUN: grep -q 'scratch\[i\].energy = history' %t/tls.c
// RUN: %dl-refactor --report %t/tls.c -- | FileCheck --check-prefix=TLS %s
// TLS: not transformable:
// TLS-NEXT: {{.*}}tls.c:{{[0-9]+}}:{{[0-9]+}}: array 'scratch' is thread-local (not rewritten yet)
#include <stdio.h>
#include <stdlib.h>

#define NCELLS 64

struct cell {
  double mass, energy;
  int hits;
};

static double step(int round) {
  struct cell static *work;
  static struct cell *history;
  // A read-only view that remembers the array it last walked.
  const static struct cell *last;
  if (!work) {
    work = calloc(NCELLS, sizeof(struct cell));
    history = calloc(NCELLS, sizeof(struct cell));
    if (!work || !history)
      exit(1);
  }
  double total = 0;
  for (int i = 0; i < NCELLS; i++) {
    work[i].mass += 0.5 * (i % 7) + round;
    work[i].energy += work[i].mass * 0.25;
    work[i].hits++;
    history[i].energy = work[i].energy;
    total += work[i].energy + history[i].mass;
  }
  if (last)
    total += last[round].energy;
  last = history;
  return total;
}

int main(void) {
  double sum = 0;
  for (int round = 0; round < 10; round++)
    sum += step(round);
  printf("%.3f\n", sum);
  return 0;
}
