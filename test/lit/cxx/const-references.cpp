// An element bound to a local const reference (`const Body &bj = b[j];`,
// common in C++ and CUDA particle codes) is an index into its array where
// the reference is used only as the element (reference-variables.cpp).
// Given to a function template, which the rewrite cannot retype (here
// `mass(bj)`), it is read through a copy in the new layout, `const Body &bj
// = Body_soa_get(b, j);`, the copy living as long as the reference: that
// stands for the element while nothing writes the record's arrays from the
// binding to the reference's last use (main's update writes the element
// after it) and the reference does not outlive it (its address taken,
// bound to another reference, returned). Otherwise refused with the
// reason. The analysis counts the binding as a read of the whole element,
// as for a copy (`Body bj = b[j];`).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record Body --layouts 'auto soa split tiled:16' %s | FileCheck --check-prefix=SAME %s
// SAME:      {{auto: (same output|unchanged)}}
// SAME-NEXT: soa: same output
// SAME-NEXT: split: same output
// SAME-NEXT: tiled:16: same output
// RUN: %dl-refactor --report %s -- -std=c++17 | FileCheck --check-prefix=REPORT %s
// REPORT: forces at {{.*}}const-references.cpp:[[@LINE+28]]:13: 13 accesses
// RUN: cp %s %t/soa.cpp && %dl-refactor --apply --quiet --layout=Body=soa %t/soa.cpp -- -std=c++17
// RUN: %drop-checks %t/soa.cpp | FileCheck --check-prefix=CODE %s
//
// A write to the array in the reference's scope (here through a call that
// keeps the element's address), or the reference bound to another:
// refused, nothing written.
// RUN: sed 's|^      ax += d.x \* s;|      ax += d.x * s; keep(\&bj);|' %s > %t/write.cpp
// RUN: not %dl-refactor --apply --layout=Body=soa %t/write.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=WRITE %s
// WRITE: write.cpp:[[@LINE+23]]:19: {{.*}}an element bound to the const reference 'bj', which the rewrite binds to a copy of it: the record's arrays may be written while it is in use, which the copy would not see
// RUN: sed 's|^      ax += d.x \* s;|      ax += d.x * s; const Body \&again = bj; ay += again.m * 0;|' %s > %t/escape.cpp
// RUN: not %dl-refactor --apply --layout=Body=soa %t/escape.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=ESCAPE %s
// ESCAPE: escape.cpp:[[@LINE+20]]:19: {{.*}}'bj'{{.*}}: it is passed on by address, bound to another reference or returned
// A write under an OpenMP region (its body outlined into a CapturedStmt)
// counts as well.
// RUN: sed 's|^      const Body \&bj = b\[j\];|&\n#pragma omp parallel for\n      for (int k = 0; k < n; ++k) b[k].m += 0;|' %s > %t/omp.cpp
// RUN: not %dl-refactor --apply --layout=Body=soa %t/omp.cpp -- -std=c++17 -fopenmp 2>&1 | FileCheck --check-prefix=OMP %s
// OMP: omp.cpp:[[@LINE+15]]:19: {{.*}}'bj'{{.*}}: the record's arrays may be written while it is in use
#include <cmath>
#include <cstdio>

struct Body { double x, y, z, m, vx, vy, vz; };
struct V3 { double x, y, z; };

static const Body *kept;
template <class T> static double mass(const T &b) { return b.m; }
[[maybe_unused]] static void keep(const Body *b) { kept = b; }

static void forces(Body *b, int n, double dt) {
  for (int i = 0; i < n; ++i) {
    double ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; ++j) {
      const Body &bj = b[j];
      // CODE: const Body &bj = Body_soa_get(b, j);
      V3 d = {bj.x - b[i].x, bj.y - b[i].y, bj.z - b[i].z};
      double s = mass(bj) / std::pow(d.x * d.x + d.y * d.y + d.z * d.z + 0.01, 1.5);
      ax += d.x * s;
      ay += d.y * s;
      az += d.z * s;
    }
    b[i].vx += dt * ax;
    b[i].vy += dt * ay;
    b[i].vz += dt * az;
  }
}

int main() {
  const int n = 300;
  Body *b = new Body[n];
  for (int i = 0; i < n; ++i)
    b[i] = {std::sin(i * 1.0), std::cos(i * 2.0), i * 0.01, 1.0 + i % 3, 0, 0, 0};
  for (int step = 0; step < 3; ++step) {
    forces(b, n, 0.01);
    for (int i = 0; i < n; ++i) {
      const Body &bi = b[i];
      double x = bi.x + 0.01 * bi.vx;
      b[i].x = x; // written after bi's last use
    }
  }
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += b[i].m * (b[i].vx * b[i].vx + b[i].vy * b[i].vy + b[i].vz * b[i].vz);
  std::printf("energy %.9e\n", e);
  delete[] b;
  return 0;
}
