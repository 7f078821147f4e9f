// Pointer uses: comparisons across arrays, address of the array variable,
// pointers to pointers and offsetof block; the walking-pointer idiom does
// not.
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s
#include <stddef.h>

struct W { int a, b; }; // expected-remark {{not transformable: relational comparison of pointers into different arrays (and 4 more)}}
static struct W xs[8], ys[8];

int main(void) {
  int s = 0;
  for (struct W *p = xs; p < xs + 8; ++p) // The walking-pointer idiom.
    s += p->a;
  if (&xs[1] < &ys[2]) // expected-note {{blocks the rewrite: relational comparison of pointers into different arrays}}
    s++;
  struct W (*whole)[8] = &xs; // expected-note {{blocks the rewrite: address of the array or pointer variable taken}}
  struct W *p = ys;
  struct W **pp = &p; // expected-note {{blocks the rewrite: pointer to pointer 'pp'}} expected-note {{blocks the rewrite: address of the array or pointer variable taken}}
  return s + (int)offsetof(struct W, b) + (*whole)[0].a + (*pp)->b; // expected-note {{blocks the rewrite: offsetof: field offsets change with the layout}}
}
