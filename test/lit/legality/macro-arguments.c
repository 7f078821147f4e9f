// A macro argument its expansion names more than once is one text, which
// one rendering replaces: every use of it must be of one kind. glibc's
// assert(p != NULL) names p twice as a null test, which is fine; here the
// handle is passed on (sum(h, 4)) and tested ((h) ? ...) from one spelling.
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s
#include <assert.h>
#include <stdlib.h>

#define USE(h) (sum(h, 4) + ((h) ? 1.0f : 0.0f))

struct P { float a, b; }; // expected-remark {{struct P (8 B, 2 fields, 3 arrays): not transformable: a macro argument its macro uses twice, in two ways (handle passed on, null test)}}
struct Q { float a, b; }; // expected-remark {{struct Q (8 B, 2 fields, 2 arrays, 1 kernel): {a} SoA | {b} AoS}}

static float sum(struct P *p, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += p[i].a * p[i].b;
  return s;
}

static float twice(struct P *arr, struct Q *q) {
  assert(q != NULL);
  float s = 0;
  for (int i = 0; i < 64; i++)
    s += q[i].a;
  return s + USE(arr); // expected-note {{blocks the rewrite: a macro argument its macro uses twice, in two ways (handle passed on, null test)}}
}

int main(void) {
  struct P *p = calloc(4, sizeof(struct P));
  struct Q *q = calloc(64, sizeof(struct Q));
  return (int)twice(p, q);
}
