// In a program without main(), arrays and functions visible to other
// translation units block the rewrite; so does an extern array no analyzed
// file defines. (test/lit/whole-program/ has the same symbols resolved.)
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s

struct E { int a, b; }; // expected-remark {{not transformable: extern array 'ext' is not defined in the analyzed files (and 3 more)}}
extern struct E ext[16]; // expected-note {{blocks the rewrite: extern array 'ext' is not defined in the analyzed files}}
struct E shared[16]; // expected-note {{blocks the rewrite: array 'shared' has external linkage and no analyzed file defines main(): code outside them may use it (make it static or analyze the whole program)}}
struct E *current; // expected-note {{blocks the rewrite: pointer 'current' has external linkage and no analyzed file defines main(): code outside them may use it (make it static or analyze the whole program)}}

int total(struct E *e, int n) { // expected-note {{blocks the rewrite: function 'total' has external linkage and no analyzed file defines main(): callers outside them would break}}
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += e[i].a + ext[i].b + shared[i].b + current[i].a;
  return s;
}
