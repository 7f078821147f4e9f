// The array may only reach functions defined in the analyzed files:
// external functions, function pointers and varargs block the rewrite.
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s
#include <stdio.h>

struct R { int a, b; }; // expected-remark {{not transformable: 'R' array passed to 'consume', which is not defined in the analyzed files (and 2 more)}}
void consume(struct R *r, int n);
static void (*hook)(struct R *, int) = consume;
static struct R rs[8];

static int local_sum(struct R *r, int n) { // Defined here: fine.
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += r[i].a;
  return s;
}

int main(void) {
  consume(rs, 8); // expected-note {{blocks the rewrite: 'R' array passed to 'consume', which is not defined in the analyzed files}}
  hook(rs, 8); // expected-note {{blocks the rewrite: 'R' array passed through a function pointer}}
  printf("%p %d\n", rs, local_sum(rs, 8)); // expected-note {{blocks the rewrite: 'R' array passed to the variadic part of 'printf'}}
  return 0;
}
