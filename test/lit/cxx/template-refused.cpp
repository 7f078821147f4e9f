// Function template instantiations taking a record's array get an overload
// of their own (function-templates.test); where no overload can serve the
// calls, the record is refused with the reason, at the template or the
// call, and a forced plan writes nothing. Q's template is the control (a
// call spelling <Q>, which the arguments deduce, loses it).
// RUN: %dl-refactor-rules --report %s -- -std=c++17 > %t.report
// RUN: %drop-checks %t.report | FileCheck --check-prefix=P %s
// RUN: %drop-checks %t.report | FileCheck --check-prefix=R %s
// RUN: %drop-checks %t.report | FileCheck --check-prefix=S %s
// RUN: %drop-checks %t.report | FileCheck --check-prefix=U %s
// RUN: %drop-checks %t.report | FileCheck --check-prefix=V %s
// RUN: %drop-checks %t.report | FileCheck --check-prefix=W %s
// RUN: %drop-checks %t.report | FileCheck --check-prefix=Q %s
// RUN: cp %s %t.cpp
// RUN: not %dl-refactor-rules --apply --layout=P=soa %t.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=FORCED %s
// RUN: diff %s %t.cpp
// RUN: %dl-refactor-rules --apply --layout=Q=soa %t.cpp -- -std=c++17
// RUN: %clangxx -std=c++17 -fsyntax-only -Wall -Wextra -Werror %t.cpp
// RUN: %drop-checks %t.cpp | FileCheck --check-prefix=CODE %s
#include <cstdio>

// Defined before the record: its overload would name the handle first.
// R-LABEL: struct R at
// R: not transformable:
// R-NEXT: template-refused.cpp:[[@LINE+1]]:{{[0-9]+}}: 'v' in an instantiation of template 'early': no overload can be rewritten for it: its template argument 'R' is declared after the template
template <typename T> float early(const T *v) { return v[0].x; }

struct P { float x, y, z, w; };
struct R { float x, y, z, w; };
struct S { float x, y; };
struct U { float x, y; };
struct V { float x, y; };
struct W { float x, y; };
struct Q { float x, y; };

template <typename T> float sumx(const T *v, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i].x;
  return s;
}

// The arguments do not deduce Acc: the call must spell it, and so names
// the template alone.
template <typename Acc, typename T> Acc sumy(const T *v, int n) {
  Acc s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i].y;
  return s;
}

// Declared apart from its definition: calls in between would not see an
// overload declared after the definition.
// S-LABEL: struct S at
// S: not transformable:
// S-NEXT: template-refused.cpp:[[@LINE+1]]:{{[0-9]+}}: 'v' in an instantiation of template 'later': no overload can be rewritten for it: declared apart from its definition
template <typename T> float later(const T *v);

// A member of a class template.
template <typename T> struct Box {
  // U-LABEL: struct U at
  // U: not transformable:
  // U-NEXT: template-refused.cpp:[[@LINE+1]]:{{[0-9]+}}: 'v' in an instantiation of template 'Box<U>::scale': no overload can be rewritten for it: a member of a class template
  void scale(T *v, int n) {
    for (int i = 0; i < n; ++i)
      v[i].x *= 2;
  }
};

// Deduced as a pointer, T cannot be spelled for its uses in the text.
// V-LABEL: struct V at
// V: not transformable:
// V-NEXT: template-refused.cpp:[[@LINE+1]]:{{[0-9]+}}: 'v' in an instantiation of template 'first': no overload can be rewritten for it: its template argument 'V *' cannot replace the parameter's name in the text
template <typename T> float first(T v) { return v[0].x; }

static P ps[64];
static R rs[64];
static S ss[64];
static U us[64];
static V vs[64];
static W ws[64];
static Q qs[64];

int main() {
  for (int i = 0; i < 64; ++i) {
    ps[i].x = rs[i].x = ss[i].x = us[i].x = vs[i].x = ws[i].x = qs[i].x = i;
    ps[i].y = rs[i].y = ss[i].y = us[i].y = vs[i].y = ws[i].y = qs[i].y = 1;
  }
  Box<U>().scale(us, 64);
  // Explicit template arguments choose the template over any overload;
  // where the call's arguments deduce them they are dropped (Q below).
  // P-LABEL: struct P at
  // P: not transformable:
  // P-NEXT: template-refused.cpp:[[@LINE+2]]:{{[0-9]+}}: template 'sumy' called with explicit template arguments, which choose the template over the overload rewritten for the array (the call's arguments do not deduce them all)
  // FORCED: .cpp:[[@LINE+1]]:{{[0-9]+}}: --layout P=soa: struct P cannot be transformed: template 'sumy' called with explicit template arguments
  float s = sumy<float>(ps, 64) + early(rs) + later(ss) + first(vs);
  // The address of the instantiation: calls through it would not choose
  // the overload.
  // W-LABEL: struct W at
  // W: not transformable:
  // W-NEXT: template-refused.cpp:[[@LINE+1]]:{{[0-9]+}}: template 'sumx' instantiated for the array named other than by a call
  float (*f)(const W *, int) = sumx;
  // Q-LABEL: struct Q at
  // Q-NOT: not transformable
  // Q: plan: Q:
  // CODE: float sumx(Q_soa v, int n) {
  // CODE-NEXT:   float s = 0;
  // CODE-NEXT:   for (int i = 0; i < n; ++i)
  // CODE-NEXT:     s += v.x[i];
  // CODE-NEXT:   return s;
  // CODE-NEXT: }
  // CODE: s += f(ws, 64) + sumx(qs, 64) + sumx(qs, 32);
  s += f(ws, 64) + sumx(qs, 64) + sumx<Q>(qs, 32);
  std::printf("%f\n", s);
  return 0;
}

template <typename T> float later(const T *v) { return v[0].y; }
