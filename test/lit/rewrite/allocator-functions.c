// The program's own allocator and release functions, as real codes write
// them: xmalloc exits with a message when memory runs out, aligned_malloc
// rounds its size up for aligned_alloc (the Parallel Research Kernels'
// prk_malloc), xfree tests for null, zmalloc and zfree call them in turn,
// xcalloc(count, size) is calloc's counterpart (from xmalloc and memset),
// xrealloc(p, bytes) realloc's (exiting when memory runs out).
// An array from them takes the new layout, each of its blocks from the same
// function (alignment and the failure message stay the program's) and
// released through the program's release function; when one block cannot
// be had, those got before go back through the C library's release of the
// function's blocks (free here). A function that prints every size it
// allocates, or counts the bytes in a global, is no allocator for the
// rewrite: its arrays keep their layout, with the reason.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl-refactor --report %s -- | FileCheck --check-prefix=REPORT %s
// REPORT:      struct body at {{.*}}allocator-functions.c:
// REPORT:        arrays:
// REPORT-NEXT:     bodies (allocated by xmalloc) at
// REPORT-NEXT:     copy (allocated by aligned_malloc) at
// REPORT-NEXT:     zero (allocated by zmalloc) at
// REPORT-NEXT:     cleared (allocated by xcalloc) at
// REPORT-NOT:    not transformable
// REPORT:        plan: body:
// REPORT:      struct cell at {{.*}}allocator-functions.c:
// REPORT:        not transformable:
// REPORT-NEXT:     {{.*}}allocator-functions.c:{{[0-9]+}}:{{[0-9]+}}: pointer from 'logged_malloc', which is not a known allocator (malloc, calloc, realloc, or the program's own that allocates as they do): it passes its size to 'printf'
// REPORT-NEXT:     {{.*}}allocator-functions.c:{{[0-9]+}}:{{[0-9]+}}: pointer from 'counted_malloc', which is not a known allocator (malloc, calloc, realloc, or the program's own that allocates as they do): it writes 'allocated', a global variable
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %s -o %t/orig && %t/orig > %t/orig.out
// RUN: cp %s %t/soa.c && %dl-refactor --apply --quiet --layout=body=soa %t/soa.c --
// RUN: %drop-checks %t/soa.c | FileCheck --check-prefix=SOA %s
// SOA:      static inline body_soa body_soa_alloc_by(size_t n, void *(*alloc)(size_t),
// SOA-NEXT:   void (*release)(void *)) {
// SOA:          if (release) {
// SOA-NEXT:       release(h.x);
// SOA:      static inline body_soa body_soa_calloc_by(size_t n,
// SOA-NEXT:   void *(*alloc)(size_t, size_t),
// SOA-NEXT:   void (*release)(void *)) {
// SOA-NEXT:   body_soa h;
// SOA-NEXT:   h.x = (double *)alloc(n, sizeof *h.x);
// SOA: static inline void body_soa_free_by(body_soa h, void (*release)(void *)) {
// SOA:      static inline body_soa body_soa_realloc_by(body_soa *h, size_t n,
// SOA-NEXT:   void *(*by)(void *, size_t)) {
// SOA-NEXT:   body_soa r = *h;
// SOA-NEXT:   r.x = (double *)by(h->x, n * sizeof *h->x);
// SOA: body_soa bodies = body_soa_alloc_by(n, xmalloc, free);
// SOA: body_soa copy = body_soa_alloc_by(n, aligned_malloc, free);
// SOA: body_soa zero = body_soa_alloc_by(n, zmalloc, free);
// SOA: body_soa cleared = body_soa_calloc_by(n, xcalloc, free);
// SOA: bodies = body_soa_realloc_by(&bodies, (size_t)2 * n, xrealloc);
// SOA: body_soa_free_by(copy, xfree);
// SOA: body_soa_free_by(zero, zfree);
// SOA: body_soa_free(bodies);
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/soa.c -o %t/soa && %t/soa > %t/soa.out
// RUN: diff %t/orig.out %t/soa.out
// RUN: cp %s %t/tiled.c && %dl-refactor --apply --quiet --layout=body=tiled:4 %t/tiled.c --
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/tiled.c -o %t/tiled && %t/tiled > %t/tiled.out
// RUN: diff %t/orig.out %t/tiled.out
// RUN: cp %s %t/split.c && %dl-refactor --apply --quiet --layout='body=split:{x,y}{vx,vy,m}' %t/split.c --
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/split.c -o %t/split && %t/split > %t/split.out
// RUN: diff %t/orig.out %t/split.out
// RUN: not %dl-refactor --apply --quiet --layout=cell=soa %t/split.c -- 2>&1 | FileCheck --check-prefix=FORCED %s
// FORCED: struct cell cannot be transformed: pointer from 'logged_malloc'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct body {
  double x, y, vx, vy, m;
};

struct cell {
  double mass, charge;
};

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

static void *aligned_malloc(size_t bytes) {
  size_t padded = bytes;
  size_t excess = bytes % 64;
  if (excess > 0)
    padded += 64 - excess;
  return aligned_alloc(64, padded);
}

static void xfree(void *p) {
  if (p)
    free(p);
}

static void *zmalloc(size_t bytes) {
  void *p = xmalloc(bytes);
  memset(p, 0, bytes);
  return p;
}

static void zfree(void *p) { xfree(p); }

static void *xrealloc(void *p, size_t bytes) {
  void *q = realloc(p, bytes);
  if (!q) {
    fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return q;
}

static void *xcalloc(size_t count, size_t size) {
  void *p = xmalloc(count * size);
  memset(p, 0, count * size);
  return p;
}

static void *logged_malloc(size_t bytes) {
  printf("allocating %zu bytes\n", bytes);
  return malloc(bytes);
}

static size_t allocated;

static void *counted_malloc(size_t bytes) {
  allocated += bytes;
  return malloc(bytes);
}

static double total(const struct cell *c, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n; i++)
    m += c[i].mass + c[i].charge;
  return m;
}

int main(void) {
  size_t n = 1000;
  struct body *bodies = (struct body *)xmalloc(n * sizeof(struct body));
  struct body *copy = aligned_malloc(n * sizeof(struct body));
  struct body *zero = zmalloc(sizeof *zero * n);
  struct body *cleared = xcalloc(n, sizeof *cleared);
  for (size_t i = 0; i < n; i++) {
    bodies[i].x = i;
    bodies[i].y = 2.0 * i;
    bodies[i].vx = 1;
    bodies[i].vy = -0.5;
    bodies[i].m = 1 + i % 3;
  }
  for (int step = 0; step < 10; step++)
    for (size_t i = 0; i < n; i++) {
      bodies[i].x += bodies[i].vx * bodies[i].m;
      bodies[i].y += bodies[i].vy * bodies[i].m;
    }
  for (size_t i = 0; i < n; i++)
    copy[i] = bodies[i];
  double sx = 0, sy = 0;
  for (size_t i = 0; i < n; i++) {
    sx += copy[i].x;
    sy += copy[i].y;
  }
  for (size_t i = 0; i < n; i += 7)
    zero[i].m = copy[i].m;
  for (size_t i = 0; i < n; i += 3)
    cleared[i].vy = copy[i].vy + zero[i].m;
  double sm = 0;
  for (size_t i = 0; i < n; i++)
    sm += zero[i].m + zero[i].x + cleared[i].vy + cleared[i].x;
  bodies = xrealloc(bodies, 2 * n * sizeof(struct body));
  for (size_t i = n; i < 2 * n; i++)
    bodies[i] = bodies[i - n];
  for (size_t i = 0; i < 2 * n; i++)
    sm += bodies[i].x - bodies[i].m;
  printf("%.1f %.1f %.1f\n", sx, sy, sm);
  xfree(copy);
  zfree(zero);
  xfree(cleared);
  free(bodies);

  struct cell *cells = logged_malloc(n * sizeof(struct cell));
  struct cell *more = counted_malloc(n * sizeof(struct cell));
  for (size_t i = 0; i < n; i++) {
    cells[i].mass = i;
    cells[i].charge = -1.0 * i;
    more[i] = cells[i];
  }
  printf("%.1f %.1f %zu\n", total(cells, n), total(more, n), allocated);
  free(cells);
  free(more);
  return 0;
}
