// In a file without main(), arrays and functions visible to other
// translation units block the rewrite; an extern array is defined elsewhere.
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s

struct E { int a, b; }; // expected-remark {{not transformable: extern array 'ext' is defined in another translation unit (and 2 more)}}
extern struct E ext[16]; // expected-note {{blocks the rewrite: extern array 'ext' is defined in another translation unit}}
struct E shared[16]; // expected-note {{blocks the rewrite: array 'shared' has external linkage in a file without main(): other translation units may use it (make it static)}}

int total(struct E *e, int n) { // expected-note {{blocks the rewrite: function 'total' has external linkage in a file without main(): callers in other translation units would break}}
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += e[i].a + ext[i].b + shared[i].b;
  return s;
}
