// An OpenMP clause that gives each thread a copy of an array of the record
// (private, firstprivate, threadprivate, ...) or maps an array or pointer to
// a device keeps the record: the copy would be its handle's, the storage
// shared by every thread (a data race the original does not have), and a
// device would get host pointers. `shared` and a pointer's private copy
// are fine. Without -fopenmp clang skips the pragmas: their text is read,
// and the record kept, asking for -fopenmp.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl-refactor --report %s -- -fopenmp | FileCheck --check-prefix=SHARED %s
// RUN: %dl-refactor --report %s -- | FileCheck --check-prefix=SHARED %s
// SHARED: struct cell at
// SHARED-NOT: not transformable
// SHARED: plan: cell:
// RUN: sed 's/shared(work, grid)/private(work) shared(grid)/' %s > %t/private.c
// RUN: grep -q 'private(work)' %t/private.c
// RUN: %dl-refactor --report %t/private.c -- -fopenmp | FileCheck --check-prefix=PRIVATE %s
// PRIVATE: not transformable:
// PRIVATE-NEXT: private.c:{{[0-9]+}}:{{[0-9]+}}: array 'work' in OpenMP clause 'private' (each thread's copy would be the handle's, its storage shared: not rewritten yet)
// RUN: %dl-refactor --report %t/private.c -- | FileCheck --check-prefix=PRIVATE-TEXT %s
// PRIVATE-TEXT: not transformable:
// PRIVATE-TEXT-NEXT: private.c:{{[0-9]+}}:{{[0-9]+}}: 'work' is named by clause 'private' of the '#pragma omp' at {{.*}}:{{[0-9]+}}, which is not parsed without -fopenmp (analyze with -fopenmp)
// RUN: cp %t/private.c %t/private-before.c
// RUN: not %dl-refactor --apply --layout=cell=soa %t/private.c -- 2>&1 | FileCheck --check-prefix=FORCED %s
// FORCED: cannot be transformed: 'work' is named by clause 'private'
// RUN: cmp %t/private.c %t/private-before.c
// A continued pragma line, and a pointer mapped to a device.
// RUN: sed 's/^#pragma omp parallel for shared(work, grid)/#pragma omp parallel for \\\n    firstprivate(work) shared(grid)/' %s > %t/continued.c
// RUN: %dl-refactor --report %t/continued.c -- | FileCheck --check-prefix=CONTINUED %s
// CONTINUED: 'work' is named by clause 'firstprivate' of the '#pragma omp' at {{.*}}:{{[0-9]+}}
// RUN: sed 's/^  double total = 0;/  double total = 0;\n#pragma omp target update to(grid[0:n])/' %s > %t/mapped.c
// RUN: %dl-refactor --report %t/mapped.c -- -fopenmp | FileCheck --check-prefix=MAPPED %s
// MAPPED: pointer 'grid' in OpenMP clause 'to' (a device would get the handle's host pointers: not rewritten yet)
// RUN: %dl-refactor --report %t/mapped.c -- | FileCheck --check-prefix=MAPPED-TEXT %s
// MAPPED-TEXT: the '#pragma omp target' at mapped.c:{{[0-9]+}} may copy or map 'grid'
// A task copies the arrays it uses, unnamed; _Pragma is read as #pragma.
// RUN: sed 's/^#pragma omp parallel for shared(work, grid)/#pragma omp task\n  {}\n#pragma omp parallel for shared(work, grid)/' %s > %t/task.c
// RUN: %dl-refactor --report %t/task.c -- | FileCheck --check-prefix=TASK %s
// TASK: not transformable:
// TASK-NEXT: task.c:{{[0-9]+}}:{{[0-9]+}}: the '#pragma omp task' at task.c:{{[0-9]+}} may copy or map 'work', which is not parsed without -fopenmp (analyze with -fopenmp)
// RUN: sed 's/^#pragma omp parallel for shared(work, grid)/  _Pragma("omp parallel for firstprivate(work)")/' %s > %t/operator.c
// RUN: %dl-refactor --report %t/operator.c -- | FileCheck --check-prefix=OPERATOR %s
// OPERATOR: 'work' is named by clause 'firstprivate' of the '#pragma omp' at operator.c:{{[0-9]+}}
#include <stdio.h>
#include <stdlib.h>

#define NW 16

struct cell {
  double mass, heat;
  int hits;
};

int main(void) {
  int n = 4096;
  struct cell *grid = malloc(n * sizeof(struct cell));
  struct cell work[NW];
  if (!grid)
    return 1;
  for (int i = 0; i < n; i++) {
    grid[i].mass = i % 13;
    grid[i].heat = 0.5 * i;
    grid[i].hits = 0;
  }
  for (int k = 0; k < NW; k++)
    work[k] = grid[k];
  double total = 0;
#pragma omp parallel for shared(work, grid)
  for (int i = 0; i < n; i++) {
    grid[i].heat += work[i % NW].mass;
    grid[i].hits++;
  }
  for (int i = 0; i < n; i++)
    total += grid[i].heat * grid[i].hits;
  printf("%.1f\n", total);
  free(grid);
  return 0;
}
