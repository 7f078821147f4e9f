// Fixed-size arrays (global, static, local), heap arrays and parameters are
// candidates once a loop indexes them.
// RUN: %clang %dlopt -fsyntax-only %s 2>&1 | FileCheck %s
#include <stdlib.h>

// CHECK: array-kinds.c:[[@LINE+1]]:8: remark: dlopt: struct Global (8 B, 2 fields, 1 array, 1 kernel)
struct Global { float a, b; };
struct Global globals[64];

// CHECK: remark: dlopt: struct Static (8 B, 2 fields, 1 array, 1 kernel)
struct Static { float a, b; };
static struct Static statics[64];

// CHECK: remark: dlopt: struct Local (8 B, 2 fields, 1 array, 1 kernel)
struct Local { float a, b; };
// CHECK: remark: dlopt: struct Heap (8 B, 2 fields, 3 arrays, 1 kernel)
struct Heap { float a, b; };
// CHECK: remark: dlopt: struct Param (8 B, 2 fields, 1 array, 1 kernel)
typedef struct Param { float a, b; } Param;
// No loop indexes it: not a candidate.
// CHECK-NOT: struct Idle
struct Idle { float a, b; };
struct Idle idle[4];

static float sum(Param *p, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i].a;
  return s;
}

int main(void) {
  struct Local locals[64];
  struct Heap *m = malloc(64 * sizeof(struct Heap));
  struct Heap *c = calloc(64, sizeof *c);
  struct Heap *r = NULL;
  r = realloc(r, 64 * sizeof(struct Heap));
  float s = idle[0].a;
  for (int i = 0; i < 64; ++i) {
    locals[i].a = globals[i].a + statics[i].b;
    s += locals[i].a + m[i].a + c[i].b + r[i].a;
  }
  free(m);
  free(c);
  free(r);
  return (int)(s + sum(0, 0));
}
