// An element pointer declared together with a pointer used as an array
// (they share `P *`) is refused where it is; the record is kept. (Pointers
// to one element that escape are sub-arrays: rewrite/sub-arrays.test.)
// RUN: %dl-refactor --report %s -- | FileCheck %s
#include <stdlib.h>

typedef struct { float x, y; } P;

static float use(P *a, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i].x * a[i].y;
  // CHECK: struct P at
  // CHECK: not transformable:
  // CHECK-NEXT: element-pointers.c:[[@LINE+1]]:{{[0-9]+}}: element pointer 'u' declared together with variables that are not element pointers
  P *u = &a[0], *v = a;
  s += u->x + v[1].x;
  return s;
}

int main(void) {
  P *a = calloc(8, sizeof(P));
  float s = use(a, 8);
  free(a);
  return (int)s;
}
