// An array of a record used inside a template instantiation is refused, at
// the template's declaration: one template text serves every instantiation
// and a dependent parameter type (`T *v`) cannot name the handle, so the
// rewrite would not compile (it used to stop with exit 5). A record only
// used outside templates is still rewritten.
// RUN: %dl-refactor-rules --report %s -- -std=c++17 | FileCheck %s
// RUN: cp %s %t.cpp
// RUN: not %dl-refactor-rules --apply --layout=P=soa %t.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=FORCED %s
// RUN: diff %s %t.cpp
// RUN: %dl-refactor-rules --apply --layout=Q=soa %t.cpp -- -std=c++17
// RUN: %clangxx -std=c++17 -fsyntax-only -Wall -Wextra -Werror %t.cpp
#include <cstdio>

struct P { float x, y, z, w; };
struct R { float x, y, z, w; };
struct Q { float x, y; };

// CHECK: struct P at
// CHECK: not transformable:
// CHECK-NEXT: template-refused.cpp:[[@LINE+1]]:{{[0-9]+}}: 'v' in an instantiation of template 'sumx': arrays used in templates are not rewritten yet
template <typename T> float sumx(const T *v, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i].x;
  return s;
}

// CHECK-NEXT: template-refused.cpp:[[@LINE+3]]:{{[0-9]+}}: 'v' in an instantiation of template 'scale'
// CHECK: struct R at
// CHECK: template-refused.cpp:[[@LINE+1]]:{{[0-9]+}}: 'v' in an instantiation of template 'scale'
template <typename T> void scale(T *v, int n) {
  for (int i = 0; i < n; ++i)
    v[i].x *= 2;
}
// FORCED: --layout P=soa: struct P cannot be transformed: 'v' in an instantiation of template 'sumx'

// CHECK: struct Q at
// CHECK-NOT: not transformable
// CHECK: plan: Q:
static P ps[1024];
static R rs[1024];
static Q qs[1024];

int main() {
  for (int i = 0; i < 1024; ++i) {
    ps[i].x = rs[i].x = qs[i].x = i;
    ps[i].y = rs[i].w = qs[i].y = 1;
  }
  scale(ps, 1024);
  scale(rs, 1024);
  float s = sumx(ps, 1024);
  for (int i = 0; i < 1024; ++i)
    s += ps[i].y + rs[i].w + qs[i].x * qs[i].y;
  std::printf("%f\n", s);
  return 0;
}
