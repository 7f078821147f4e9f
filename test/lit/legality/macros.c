// A use spelled inside a macro body cannot be rewritten at its expansion;
// a use passed as a macro argument can.
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s
#define GET_A(arr, i) ((arr)[i].a)
#define TWICE(x) (2 * (x))

// The plugin sees the code as written; dl-refactor expands GET_A here.
struct M { int a, b; }; // expected-remark {{not transformable: use spelled inside the body of macro 'GET_A'}} expected-note {{every use that blocks it is spelled in a macro's body: 'dl-refactor --report' expands those invocations where it can and plans struct M with them}}
static struct M ms[8];

int main(void) {
  int s = 0;
  for (int i = 0; i < 8; ++i)
    s += GET_A(ms, i) + TWICE(ms[i].b); // expected-note {{blocks the rewrite: use spelled inside the body of macro 'GET_A'}}
  return s;
}
