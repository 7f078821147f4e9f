// A strip-mined loop reads its bound once per tile, so a bound kept in
// memory (a global, a field) is strip-mined only where nothing in the body
// can change it: no store that could reach it, no address of it taken, no
// call of a function that could (MemoryBounds.cpp).
// RUN: rm -rf %t && mkdir %t && cp %s %t/mb.c
// RUN: %dl-refactor --apply --layout=P=tiled:4 %t/mb.c -- -Wall -Wextra
// RUN: grep -v CHECK %t/mb.c | FileCheck %s
// RUN: %clang -Wall -Wextra -Werror -fsyntax-only %t/mb.c
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct P { float x, y; };
struct Box { int n; int flags; };
struct P *ps;
int np;
volatile int vn;
int counts[64];
extern void log_step(int);

static void nothing_to_np(int i) { counts[i & 63] = 1; }
static void reset_np(void) { np = 0; }

// CHECK-LABEL: void global_bound(void)
// CHECK: for (int i_tile = 0; i_tile < np / 4; ++i_tile)
// CHECK-NEXT: for (int i_lane = 0; i_lane < 4; ++i_lane) {
// CHECK-NEXT: ps.tiles[i_tile].x[i_lane] += sqrtf(ps.tiles[i_tile].y[i_lane]);
void global_bound(void) {
  for (int i = 0; i < np; ++i)
    ps[i].x += sqrtf(ps[i].y);
}

// A call of a function defined here that stores elsewhere, and stores to
// another structure's field, keep the bound.
// CHECK-LABEL: void calls_that_keep_it(struct Box *b)
// CHECK: for (int i_tile = 0; i_tile < b->n / 4; ++i_tile)
void calls_that_keep_it(struct Box *b) {
  for (int i = 0; i < b->n; ++i) {
    ps[i].x = 0;
    b->flags = 1;
    nothing_to_np(i);
  }
}

// Each of these could change the bound: the flat form.
// CHECK-LABEL: void changes_it(int *where, struct Box *b)
// CHECK-NOT: _tile
// CHECK-LABEL: void volatile_bound(void)
void changes_it(int *where, struct Box *b) {
  for (int i = 0; i < np; ++i) // a store through an int *
    *where += (int)ps[i].x;
  for (int i = 0; i < np; ++i) // a function that assigns it
    if (ps[i].x > 1)
      reset_np();
  for (int i = 0; i < np; ++i) // a function of another file
    log_step((int)ps[i].y);
  for (int i = 0; i < np; ++i) // its address
    memset(&np, 0, (size_t)ps[i].x);
  for (int i = 0; i < b->n; ++i) // the field itself
    b->n -= (int)ps[i].y;
  for (int i = 0; i < np; ++i) // a library function given int *
    memset(counts, (int)ps[i].x, sizeof counts);
}

// CHECK-NOT: _tile
// CHECK-LABEL: int main(void)
void volatile_bound(void) {
  for (int i = 0; i < vn; ++i)
    ps[i].y = 0;
}

int main(void) {
  np = 64;
  ps = calloc(np, sizeof *ps);
  global_bound();
  free(ps);
  return 0;
}
