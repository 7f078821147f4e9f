// An element passed to a non-const reference parameter by a call that is a
// statement (PENNANT's `project(pu[p], vfix)`) is copied out, the call made
// on the copy and the copy written back:
//   [&] { double2 dlopt_element = double2_soa_get(pu, i);
//         project(dlopt_element, nrm); double2_soa_set(pu, i, dlopt_element); }()
// where that is what the call did: the callee defined here, keeping no
// reference to the element and reaching no array of the record (directly or
// through the functions it calls), no other argument reaching one, the
// call's value unused. Otherwise refused with the reason.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record double2 --layouts 'soa tiled:16' %s | FileCheck --check-prefix=DIFF %s
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --cflags "-std=c++20 -O2 -Wall -Wextra -Werror" --record double2 --layouts 'soa tiled:16' %s | FileCheck --check-prefix=DIFF %s
// DIFF:      soa: same output
// DIFF-NEXT: tiled:16: same output
// RUN: cp %s %t.cpp
// RUN: %dl-refactor --apply --layout=double2=soa %t.cpp -- -std=c++17
// RUN: %drop-checks %t.cpp | FileCheck --check-prefix=CODE %s
// RUN: %dl-refactor --report %s -- -std=c++17 | FileCheck --check-prefix=REPORT %s
#include <cstdio>

struct double2 {
  double x, y;
  double2() {}
  double2(double a, double b) : x(a), y(b) {}
  double norm2() const { return x * x + y * y; }
};

// The velocity's component along the normal removed.
static void project(double2 &v, const double2 &n) {
  double d = v.x * n.x + v.y * n.y;
  v.x -= d * n.x;
  v.y -= d * n.y;
}

struct Mesh {
  int n;
  double2 *pu;
  void fix(const double2 &nrm) {
    for (int i = 0; i < n; ++i)
      if (i % 3 == 0)
        // CODE: [&] { auto dlopt_index = i; double2 dlopt_element = double2_soa_get(pu, dlopt_index); project(dlopt_element, nrm); double2_soa_set(pu, dlopt_index, dlopt_element); }{{[(][)]}};
        project(pu[i], nrm);
  }
};

struct Q {
  float a, b;
};
static Q qs[8];
// REPORT-LABEL: struct Q at
// REPORT:       not transformable:
static void touches(Q &q) { q.a += qs[0].b; }
static Q &pick(Q &q) { return q; }
static float scale(Q &q, float s) { return q.a *= s; }

int main() {
  Mesh m;
  m.n = 100;
  m.pu = new double2[m.n];
  for (int i = 0; i < m.n; ++i)
    m.pu[i] = double2(1.0 * i, 2.0 - i);
  m.fix(double2(0.6, 0.8));
  double s = 0;
  for (int i = 0; i < m.n; ++i)
    s += m.pu[i].norm2();
  delete[] m.pu;
  for (int i = 0; i < 8; ++i) {
    qs[i].a = i;
    qs[i].b = 1;
  }
  // REPORT-DAG: element-references.cpp:[[@LINE+1]]:{{[0-9]+}}: an element passed to a non-const reference parameter of 'touches': it may reach the record's arrays itself
  touches(qs[1]);
  // REPORT-DAG: element-references.cpp:[[@LINE+1]]:{{[0-9]+}}: an element passed to a non-const reference parameter of 'pick': it keeps the reference
  pick(qs[2]);
  // REPORT-DAG: element-references.cpp:[[@LINE+1]]:{{[0-9]+}}: an element passed to a non-const reference parameter of 'scale': the call's value is used
  float r = scale(qs[3], 2);
  std::printf("%.6f %.1f %.1f %.1f\n", s, qs[1].a, qs[2].a, r);
  return 0;
}
