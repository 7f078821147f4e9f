// Pointer members whose handle a rewrite cannot follow are refused where
// they are: in a union, declared together with another member, set by an
// initializer of the struct to a sub-array (to an array of the record, an
// allocation or a null pointer, it is rewritten: rewrite/thread-arguments.c;
// a sub-array of the member, b.items + 1, is too: rewrite/sub-arrays.test).
// RUN: %dl-refactor --report %s -- | FileCheck %s
#include <stdlib.h>

typedef struct { float x, y; } P;

// CHECK: struct P at
// CHECK: not transformable:
typedef struct {
  int n;
  // CHECK-DAG: pointer-members.c:[[@LINE+1]]:{{[0-9]+}}: pointer member 'a' declared together with other members (not rewritten yet)
  P *a, *b;
} Pair;

typedef union {
  // CHECK-DAG: pointer-members.c:[[@LINE+1]]:{{[0-9]+}}: pointer member 'p' of union 'Either'
  P *p;
  float *f;
} Either;

typedef struct {
  int n;
  P *items;
} Bag;

static float sum(P *p, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i].x * p[i].y;
  return s;
}

int main(void) {
  P *made = calloc(8, sizeof(P));
  // CHECK-DAG: pointer-members.c:[[@LINE+1]]:{{[0-9]+}}: initializer of 'Bag' sets its pointer member 'items' to something that is not an allocation, a null pointer or another array of 'P'
  Bag b = {7, made + 1};
  Pair q = {8, made, made};
  Either e;
  e.p = made;
  float s = sum(b.items, b.n) + sum(q.a, 8) + sum(e.p, 8);
  free(made);
  return (int)s;
}
