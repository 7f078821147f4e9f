// Functions that hand an array back through a pointer to the caller's
// variable (`body_t **out`), in one file: a loader passes its pointer on to
// the function that fills it, a release function clears the caller's
// variable, a null pointer for the pointer is tested. The parameters become
// `body_soa *`, each `*out` a use of the array it points to ((*out)[i].x
// becomes (*out).x[i]). Any other use of such a pointer keeps the record,
// with the place: cell's `pair[1]` (two arrays through one pointer), and a
// pointer that is not the address of an array variable.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl-refactor --report %s -- | FileCheck --check-prefix=REPORT %s
// REPORT:      struct body at {{.*}}out-parameters.c:
// REPORT:        arrays:
// REPORT:          bodies (filled by load_bodies) at
// REPORT-NOT:    not transformable
// REPORT:        plan: body:
// REPORT:      struct cell at {{.*}}out-parameters.c:
// REPORT:        not transformable:
// REPORT-NEXT:     {{.*}}out-parameters.c:{{[0-9]+}}:3: use of 'pair', a pointer to an array of 'cell', other than *pair, null tests and passing it on to such a parameter (not rewritten yet)
// REPORT:          {{.*}}out-parameters.c:{{[0-9]+}}:21: argument of 'make_cells', which stores a 'cell' array through it, is not the address of an array variable or member (not rewritten yet)
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %s -o %t/orig && %t/orig > %t/orig.out
// RUN: cp %s %t/soa.c && %dl-refactor --apply --quiet --layout=body=soa %t/soa.c --
// RUN: %drop-checks %t/soa.c | FileCheck --check-prefix=SOA %s
// SOA:      static int fill_bodies(size_t n, body_soa *out) {
// SOA-NEXT:   *out = body_soa_alloc(n);
// SOA-NEXT:   if (!(*out).x)
// SOA:          (*out).x[i] = (double)(i % 7);
// SOA:      static int load_bodies(size_t n, body_soa *out) {
// SOA-NEXT:   if (out == NULL)
// SOA-NEXT:     return -1;
// SOA-NEXT:   return fill_bodies(n, out);
// SOA:      static void release_bodies(body_soa *b) {
// SOA-NEXT:   body_soa_free(*b);
// SOA-NEXT:   *b = (body_soa){0};
// SOA:        body_soa bodies;
// SOA:        if (load_bodies(n, &bodies))
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/soa.c -o %t/soa && %t/soa > %t/soa.out
// RUN: diff %t/orig.out %t/soa.out
// RUN: cp %s %t/tiled.c && %dl-refactor --apply --quiet --layout=body=tiled:4 %t/tiled.c --
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/tiled.c -o %t/tiled && %t/tiled > %t/tiled.out
// RUN: diff %t/orig.out %t/tiled.out
// RUN: cp %s %t/split.c && %dl-refactor --apply --quiet --layout='body=split:{x,y}{vx,vy,m}' %t/split.c --
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/split.c -o %t/split && %t/split > %t/split.out
// RUN: diff %t/orig.out %t/split.out
// RUN: not %dl-refactor --apply --quiet --layout=cell=soa %t/split.c -- 2>&1 | FileCheck --check-prefix=FORCED %s
// FORCED: struct cell cannot be transformed: use of 'pair'
#include <stdio.h>
#include <stdlib.h>

typedef struct body {
  double x, y, vx, vy, m;
} body_t;

typedef struct cell {
  double mass, charge;
} cell_t;

static int fill_bodies(size_t n, body_t **out) {
  *out = malloc(n * sizeof(body_t));
  if (!*out)
    return -1;
  for (size_t i = 0; i < n; i++) {
    (*out)[i].x = (double)(i % 7);
    (*out)[i].y = (double)(i % 5);
    (*out)[i].vx = (*out)[i].vy = 0.0;
    (*out)[i].m = 1.0 + (double)(i % 3);
  }
  return 0;
}

static int load_bodies(size_t n, body_t **out) {
  if (out == NULL)
    return -1;
  return fill_bodies(n, out);
}

static void release_bodies(body_t **b) {
  free(*b);
  *b = NULL;
}

/* Two arrays through one pointer: pair[0] and pair[1]. */
static int make_cells(size_t n, cell_t **pair) {
  pair[0] = calloc(n, sizeof(cell_t));
  pair[1] = calloc(n, sizeof(cell_t));
  return pair[0] && pair[1] ? 0 : -1;
}

static double total(const cell_t *c, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += c[i].mass + c[i].charge;
  return s;
}

int main(void) {
  size_t n = 1001;
  body_t *bodies;
  if (load_bodies(n, &bodies))
    return 1;
  for (int s = 0; s < 20; s++)
    for (size_t i = 0; i < n; i++) {
      bodies[i].vx += 0.01 * (3.0 - bodies[i].x) / bodies[i].m;
      bodies[i].vy += 0.01 * (2.0 - bodies[i].y) / bodies[i].m;
      bodies[i].x += 0.01 * bodies[i].vx;
      bodies[i].y += 0.01 * bodies[i].vy;
    }
  double e = 0;
  for (size_t i = 0; i < n; i++)
    e += bodies[i].m * (bodies[i].vx * bodies[i].vx + bodies[i].vy * bodies[i].vy);
  release_bodies(&bodies);
  cell_t *cells[2];
  if (make_cells(n, cells))
    return 1;
  for (size_t i = 0; i < n; i++)
    cells[0][i].mass = cells[1][i].charge = (double)i;
  printf("%.6f %.1f %s\n", e, total(cells[0], n) + total(cells[1], n),
         bodies == NULL ? "released" : "kept");
  free(cells[0]);
  free(cells[1]);
  return 0;
}
