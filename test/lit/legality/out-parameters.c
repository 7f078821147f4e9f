// Out-parameters (`struct V **out`, a function storing an array into the
// caller's variable) are rewritten; what else reaches such a pointer keeps
// the record, each with its place: a function pointer's parameter of that
// type (the function's type would change under it), a local pointer to a
// pointer (and the access through it), and an argument that is not the
// address of an array variable.
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s
#include <stdlib.h>

struct V { double a, b; }; // expected-remark {{not transformable: pointer to pointer in a function's type (a function pointer's parameter, say) (and 4 more)}}

static int make(size_t n, struct V **out) {
  *out = calloc(n, sizeof(struct V));
  return *out == NULL;
}

int main(void) {
  int (*maker)(size_t, struct V **) = make; // expected-note {{blocks the rewrite: pointer to pointer in a function's type (a function pointer's parameter, say)}}
  struct V *vs;
  struct V *pair[2];
  if (make(8, &vs) || make(8, &pair[0]) || !maker) // expected-note {{blocks the rewrite: argument of 'make', which stores a 'V' array through it, is not the address of an array variable or member (not rewritten yet)}}
    return 1;
  struct V **alias = &vs; // expected-note {{blocks the rewrite: pointer to pointer 'alias'}} expected-note {{blocks the rewrite: address of the array or pointer variable taken}}
  double s = 0;
  for (int i = 0; i < 8; i++)
    s += vs[i].a + (*alias)[i].b + pair[0][i].a; // expected-note {{blocks the rewrite: access through an expression that is not an array variable}}
  free(vs);
  free(pair[0]);
  return s > 0;
}
