// In a program without main(), arrays and functions visible to other
// translation units block the rewrite; so does an extern array no analyzed
// file defines. One file cannot tell whether another defines them, so the
// plugin says so as an analysis remark, not as a missed one (the whole
// program decides: test/lit/whole-program/ has the same symbols resolved).
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify=missed %s
// RUN: %clang %dlopt -Rpass-analysis=dlopt -fsyntax-only -Xclang -verify %s
// missed-no-diagnostics

struct E { int a, b; }; // expected-remark {{struct E: its arrays reach other files; the whole program decides (dl-refactor --merge-reports over every file's report)}}
extern struct E ext[16]; // expected-note {{in this file: extern array 'ext' is not defined in the analyzed files}}
struct E shared[16]; // expected-note {{in this file: array 'shared' has external linkage and no analyzed file defines main(): code outside them may use it (make it static or analyze the whole program)}}
struct E *current; // expected-note {{in this file: pointer 'current' has external linkage and no analyzed file defines main(): code outside them may use it (make it static or analyze the whole program)}}

int total(struct E *e, int n) { // expected-note {{in this file: function 'total' has external linkage and no analyzed file defines main(): callers outside them would break}}
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += e[i].a + ext[i].b + shared[i].b + current[i].a;
  return s;
}
