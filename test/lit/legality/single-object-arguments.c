// A function taking a pointer to the record takes its arrays: once the
// layout changes, its parameter is a handle. Passed the address of one
// object that is no array's element (the centre of mass beside the bodies,
// a body held in another struct), it cannot be: the record is refused with
// the reason, and nothing is written; so it is where a pointer variable,
// which becomes a handle, takes such an address. Passed elements only, it
// is rewritten.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --record body --layouts 'soa tiled:16' %s | FileCheck --check-prefix=SAME %s
// SAME:      soa: same output
// SAME-NEXT: tiled:16: same output
// RUN: sed 's|^  /\* centre \*/|  drift(\&centre, 0.5);|' %s > %t/local.c
// RUN: %dl-refactor --report %t/local.c -- | FileCheck --check-prefix=LOCAL %s
// LOCAL: not transformable:
// LOCAL-NEXT: local.c:[[#@LINE+40]]:9: address of one 'body' (not an array's element) passed to 'drift', whose parameter 'b' becomes a handle of its arrays (not rewritten yet)
// RUN: cp %t/local.c %t/forced.c
// RUN: not %dl-refactor --apply --layout=body=soa %t/forced.c -- 2>&1 | FileCheck --check-prefix=FORCED %s
// FORCED: --layout body=soa: struct body cannot be transformed: address of one 'body' (not an array's element) passed to 'drift'
// RUN: cmp %t/local.c %t/forced.c
// RUN: sed 's|^  /\* centre \*/|  struct body *c = \&centre; c->x += 1;|' %s > %t/pointer.c
// RUN: %dl-refactor --report %t/pointer.c -- | FileCheck --check-prefix=POINTER %s
// POINTER: 'c' is initialized with the address of one 'body' (not an array's element; not rewritten yet)
// RUN: sed 's|^  /\* centre \*/|  struct body *c = bs; c = \&centre; c->x += 1;|' %s > %t/assigned.c
// RUN: %dl-refactor --report %t/assigned.c -- | FileCheck --check-prefix=ASSIGNED %s
// ASSIGNED: 'c' is assigned the address of one 'body' (not an array's element; not rewritten yet)
// RUN: sed 's|^  /\* centre \*/|  drift(\&sys.sun, 0.5);|' %s > %t/member.c
// RUN: %dl-refactor --report %t/member.c -- | FileCheck --check-prefix=MEMBER %s
// MEMBER: address of one 'body' (not an array's element) passed to 'drift'
#include <stdio.h>
#include <stdlib.h>

struct body {
  double x, v, m;
};

struct system {
  struct body sun;
  int n;
};

static void drift(struct body *b, double dt) { b->x += b->v * dt; }

int main(void) {
  struct system sys = {{0, 0, 1000}, 500};
  struct body *bs = malloc(sys.n * sizeof *bs);
  struct body centre = {0, 0.25, 0};
  for (int i = 0; i < sys.n; i++) {
    bs[i].x = i;
    bs[i].v = 1.0 / (i + 1);
    bs[i].m = 1 + i % 3;
  }
  for (int t = 0; t < 50; t++)
    for (int i = 0; i < sys.n; i++)
      drift(&bs[i], 0.01);
  /* centre */
  double mx = 0, m = 0;
  for (int i = 0; i < sys.n; i++) {
    mx += bs[i].m * bs[i].x;
    m += bs[i].m;
  }
  printf("%.6f %.3f %.3f\n", mx / m, centre.x, sys.sun.x);
  free(bs);
  return 0;
}
