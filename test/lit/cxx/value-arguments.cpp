// An element passed to a non-const reference parameter is copied for the
// call and written back after it. Another argument passed by value as a
// number (`kick(ps[i], dt / ps[i].m)`) is computed before the call and
// reaches nothing while it runs: the element is rewritten so. Computing it
// may not write the arrays (`ps[i].hits++`: the copy may be taken before
// the increment and written back over it): refused, nothing written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record Particle --layouts 'auto soa tiled:16' %s | FileCheck --check-prefix=SAME %s
// SAME:      {{auto: (same output|unchanged)}}
// SAME-NEXT: soa: same output
// SAME-NEXT: tiled:16: same output
// RUN: sed 's|kick(ps\[i\], dt / ps\[i\].m);|kick(ps[i], ps[i].hits++);|' %s > %t/writes.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/writes.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=WRITES %s
// WRITES: writes.cpp:[[@LINE+26]]:7: {{.*}}non-const reference parameter of 'kick': another argument reaches an array of the record
// RUN: sed 's|kick(ps\[i\], dt / ps\[i\].m);|kick(ps[i], ps[i].hits++);|' %s | cmp - %t/writes.cpp
#include <cstdio>

struct Particle {
  double x, v, f, m;
  int hits;
};

static void kick(Particle &p, double dtm) {
  p.v += p.f * dtm;
  p.x += p.v;
  if (p.x > 10.0) {
    p.x -= 10.0;
    ++p.hits;
  }
}

int main() {
  const int n = 1000;
  Particle *ps = new Particle[n];
  for (int i = 0; i < n; ++i)
    ps[i] = {0.01 * i, 0.0, 1.0 - 0.002 * i, 1.0 + i % 4, 0};
  const double dt = 0.01;
  for (int step = 0; step < 100; ++step)
    for (int i = 0; i < n; ++i)
      kick(ps[i], dt / ps[i].m);
  double e = 0;
  long hits = 0;
  for (int i = 0; i < n; ++i) {
    e += 0.5 * ps[i].m * ps[i].v * ps[i].v + ps[i].x;
    hits += ps[i].hits;
  }
  std::printf("%.9e %ld\n", e, hits);
  delete[] ps;
  return 0;
}
