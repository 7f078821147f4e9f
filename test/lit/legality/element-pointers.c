// Element pointers that escape, or whose array could change under them,
// stay refused, with the reason where they are; the record is kept. A
// pointer used as an array (passed on, indexed) stays what it always was, a
// handle, and the address of one element cannot be one.
// RUN: %dl-refactor --report %s -- | FileCheck %s
#include <stdlib.h>

typedef struct { float x, y; } P;

static float first(const P *p) { return p->x; }

static float use(P *a, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i].x * a[i].y;
  // CHECK: struct P at
  // CHECK: not transformable:
  // CHECK-DAG: element-pointers.c:[[@LINE+1]]:{{[0-9]+}}: address of an element kept in 'q', which is then used as an array (line [[@LINE+1]]: passed on, indexed, returned or tested): an element pointer is only rewritten where it reaches, compares and steps elements
  P *q = &a[1]; s += first(q);
  // Indexed as an array (a sub-array: not rewritten yet).
  // CHECK-DAG: element-pointers.c:[[@LINE+1]]:{{[0-9]+}}: address of an element kept in 'r', which is then used as an array (line [[@LINE+1]]:
  P *r = &a[2]; s += r[1].x;
  // Tested for null.
  // CHECK-DAG: element-pointers.c:[[@LINE+1]]:{{[0-9]+}}: address of an element kept in 't', which is then used as an array (line [[@LINE+2]]:
  P *t = &a[3];
  if (t)
    s += t->y;
  // Declared together with a pointer used as an array: they share `P *`.
  // CHECK-DAG: element-pointers.c:[[@LINE+1]]:{{[0-9]+}}: element pointer 'u' declared together with variables that are not element pointers
  P *u = &a[0], *v = a;
  s += u->x + v[1].x;
  return s;
}

// The array changes while the pointer lives: it would point into the old one.
static float grow(P *a, int n) {
  // CHECK-DAG: element-pointers.c:[[@LINE+1]]:{{[0-9]+}}: address of an element of 'a' kept in 'w' while 'a' is assigned (realloc?): an element pointer must point into one array
  P *w = &a[0];
  a = realloc(a, 2 * n * sizeof(P));
  float s = w->x + a[0].y;
  free(a);
  return s;
}

int main(void) {
  P *a = calloc(8, sizeof(P));
  float s = use(a, 8);
  return (int)(s + grow(a, 8));
}
