// Member functions of the record called on its elements. A const one,
// ps[i].energy(), runs on a copy; a non-const one as a statement,
// ps[i].advance(dt);, on a copy written back (also (*p).f() through an
// element pointer and r.f() through an element reference). The analysis
// counts them at the call, in the caller's loop: every field read, and
// written for a non-const function; the functions' own x, this->y reach
// the caller's object, not an array, and are no kernels of their own.
// Refused with the reason, nothing written: a call through a pointer to an
// element (p->f(), ps->f(), (ps + i)->f(); this crashed the rewriter), a
// non-const call whose value is used, one that keeps its object, one given
// another element.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record Particle --layouts 'soa split tiled:4' %s | FileCheck --check-prefix=SAME %s
// SAME:      soa: same output
// SAME-NEXT: split: same output
// SAME-NEXT: tiled:4: same output

// RUN: %dl-refactor --report %s -- -std=c++17 | FileCheck --check-prefix=REPORT %s
// REPORT:      kernels:
// REPORT-NEXT:   step at {{.*}}member-function-calls.cpp:[[@LINE+56]]:{{[0-9]+}}: 17 accesses, 1 loops
// REPORT-NEXT:   total at {{.*}}member-function-calls.cpp:[[@LINE+63]]:{{[0-9]+}}: 9 accesses, 1 loops
// REPORT-NEXT:   main at

// RUN: sed 's|^    ps\[i\].advance(dt);|    Particle *p = \&ps[i]; p->advance(dt);|' %s > %t/pointer.cpp
// RUN: cp %t/pointer.cpp %t/pointer.orig
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/pointer.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=POINTER %s
// POINTER: pointer.cpp:[[@LINE+52]]:{{[0-9]+}}: --layout Particle=soa: struct Particle cannot be transformed: member function 'advance' called through a pointer to an element (not rewritten yet; (*p).advance() is)
// POINTER: nothing written
// RUN: cmp %t/pointer.cpp %t/pointer.orig
// RUN: sed 's|^    ps\[i\].advance(dt);|    (ps + i)->advance(dt);|' %s > %t/sum.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/sum.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=SUM %s
// SUM: sum.cpp:[[@LINE+47]]:{{[0-9]+}}: --layout Particle=soa: struct Particle cannot be transformed: member function 'advance' called through
// RUN: sed 's|^  return ps\[0\].energy() + e;|  return ps->energy() + e;|' %s > %t/first.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/first.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=FIRST %s
// FIRST: first.cpp:[[@LINE+53]]:{{[0-9]+}}: --layout Particle=soa: struct Particle cannot be transformed: member function 'energy' called through

// (*p).f() through an element pointer, and r.f() through an element
// reference, are a[i].f().
// RUN: sed 's|^    ps\[i\].advance(dt);|    Particle *p = \&ps[i]; (*p).advance(dt);|' %s > %t/deref.cpp
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record Particle --layouts 'soa tiled:4' %t/deref.cpp | FileCheck --check-prefix=SAME2 %s
// RUN: sed 's|^    ps\[i\].advance(dt);|    Particle \&r = ps[i]; r.advance(dt);|' %s > %t/reference.cpp
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record Particle --layouts 'soa tiled:4' %t/reference.cpp | FileCheck --check-prefix=SAME2 %s
// SAME2:      soa: same output
// SAME2-NEXT: tiled:4: same output

// Refused, with the reason, nothing written: the call's value used, a
// function that keeps its object, another element given to it.
// RUN: sed 's|^  Particle \&bounce() {|  double advanced(double dt) { advance(dt); return x; }\n&|; s|^    ps\[i\].bounce();|    if (ps[i].advanced(0) > 1e9) return;|' %s > %t/value.cpp
// RUN: cp %t/value.cpp %t/value.orig
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/value.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=VALUE %s
// VALUE: non-const member function 'advanced' called on an element: the call's value is used
// RUN: cmp %t/value.cpp %t/value.orig
// RUN: sed 's|^  Particle \&bounce() {|  void track() { note(); }\n  void note() { watched = \&vy; }\n&|; s|^struct Particle {|static double *watched;\n&|; s|^    ps\[i\].bounce();|    ps[i].track();|' %s > %t/keeps.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/keeps.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=KEEPS %s
// KEEPS: non-const member function 'track' called on an element: it keeps its object
// RUN: sed 's|^  Particle \&bounce() {|  void pull(const Particle \&o) { vx += 0.01 * (o.x - x); }\n&|; s|^    ps\[i\].bounce();|    ps[i].pull(ps[0]);|' %s > %t/other.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/other.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=OTHER %s
// OTHER: non-const member function 'pull' called on an element: an argument reaches an array of the record

#include <cstdio>

struct Particle {
  double x, y, vx, vy;
  void advance(double dt) {
    x += vx * dt;
    this->y += vy * dt;
  }
  double energy() const { return 0.5 * (vx * vx + vy * vy); }
  Particle &bounce() {
    if (y < 0)
      vy = -vy;
    return *this;
  }
};

static void step(Particle *ps, int n, double dt) {
  for (int i = 0; i < n; ++i) {
    ps[i].vy -= 9.8 * dt;
    ps[i].advance(dt);
    ps[i].bounce();
  }
}

static double total(const Particle *ps, int n) {
  double e = 0;
  for (int i = 1; i < n; ++i)
    e += ps[i].energy() + ps[i].y;
  return ps[0].energy() + e;
}

int main() {
  const int n = 37;
  Particle *ps = new Particle[n];
  for (int i = 0; i < n; ++i)
    ps[i] = Particle{double(i), 0.5 * i, 1.0 + i % 3, 2.0};
  for (int s = 0; s < 10; ++s)
    step(ps, n, 0.01);
  std::printf("%.6f %.6f\n", total(ps, n), ps[n - 1].y);
  delete[] ps;
  return 0;
}
