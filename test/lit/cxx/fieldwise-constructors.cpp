// A class with no default constructor whose constructor takes every field
// in order and only stores it (`Body(double x, ...) : x(x), ... {}`, as the
// benchmarks-game n-body programs write it): the new layout builds an
// element with that constructor (the element proxy's conversion, a plain
// array's get), and the generated vector has no constructor or resize that
// would make elements from nothing (the original could not call them
// either). Before, such a class was refused ("no default constructor").
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record Body --layouts 'auto soa split tiled:4' %s | FileCheck --check-prefix=SAME %s
// SAME:      auto: same output
// SAME-NEXT: soa: same output
// SAME-NEXT: split: same output
// SAME-NEXT: tiled:4: same output
// RUN: cp %s %t/soa.cpp && %dl-refactor --apply --quiet --layout=Body=soa %t/soa.cpp -- -std=c++17
// RUN: %drop-checks %t/soa.cpp | FileCheck --check-prefix=CODE %s
// CODE: return Body(h.x[i], h.y[i], h.vx[i], h.vy[i], h.mass[i]);
// CODE: operator Body() const { return Body(x, y, vx, vy, mass); }
// CODE-NOT: {{void resize\(size_type n\) \{}}
//
// A constructor that converts a field's value (an int parameter for a
// double field) is no such constructor: refused as before.
// RUN: sed 's|Body(double x, double y,|Body(int x, double y,|' %s > %t/converts.cpp
// RUN: not %dl-refactor --apply --layout=Body=soa %t/converts.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=CONVERTS %s
// CONVERTS: struct Body cannot be transformed: no default constructor
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Body {
  double x, y, vx, vy, mass;
  Body(double x, double y, double vx, double vy, double mass)
      : x(x), y(y), vx(vx), vy(vy), mass(mass) {}
};

static void advance(std::vector<Body> &bodies, double dt) {
  size_t n = bodies.size();
  for (size_t i = 0; i < n; i++) {
    Body &bi = bodies[i];
    for (size_t j = i + 1; j < n; j++) {
      Body &bj = bodies[j];
      double dx = bi.x - bj.x, dy = bi.y - bj.y;
      double d2 = dx * dx + dy * dy + 0.01;
      double mag = dt / (d2 * std::sqrt(d2));
      bi.vx -= dx * bj.mass * mag;
      bi.vy -= dy * bj.mass * mag;
      bj.vx += dx * bi.mass * mag;
      bj.vy += dy * bi.mass * mag;
    }
  }
  for (Body &b : bodies) {
    b.x += dt * b.vx;
    b.y += dt * b.vy;
  }
}

// A plain array of them: an element read whole is built from its fields.
static Body *probes;

static double sample(int n) {
  double s = 0;
  for (int k = 0; k < n; ++k) {
    Body p = probes[k];
    probes[k].x += p.vx;
    s += p.x * p.mass;
  }
  return s;
}

int main() {
  probes = (Body *)std::malloc(4 * sizeof(Body));
  for (int k = 0; k < 4; ++k)
    probes[k] = Body(k, k + 1, 0.5 * k, 1, 2 + k);
  std::printf("%.6f\n", sample(4) + sample(4));
  std::free(probes);
  std::vector<Body> bodies = {Body(0, 0, 0, 0, 40), Body(4.8, -1.2, 0.6, 2.8, 0.04)};
  for (int k = 0; k < 30; ++k)
    bodies.push_back(Body(k * 0.3, k * 0.1 - 1, 0, 0.01 * k, 0.001 * (k + 1)));
  for (int step = 0; step < 200; ++step)
    advance(bodies, 0.01);
  Body last = bodies.back();
  double e = 0;
  for (const Body &b : bodies)
    e += 0.5 * b.mass * (b.vx * b.vx + b.vy * b.vy);
  std::printf("%.9f %.6f %.6f\n", e, last.x, last.y);
  return 0;
}

// A std::array of such a class: its generated container fills the elements
// with T() first; refused with the reason.
// RUN: printf '#include <array>\n#include <cstdio>\nstruct Body {\n  double x, m;\n  Body(double x, double m) : x(x), m(m) {}\n};\nint main() {\n  std::array<Body, 2> a = {Body(1, 2), Body(3, 4)};\n  for (int s = 0; s < 9; ++s)\n    for (size_t i = 0; i < a.size(); ++i) a[i].x += a[i].m;\n  std::printf("%%f\\n", a[0].x + a[1].x);\n}\n' > %t/array.cpp
// RUN: not %dl-refactor --apply --layout=Body=soa %t/array.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=ARRAY %s
// ARRAY: array.cpp:8:23: {{.*}}std::array<Body, 2> 'a' of a class without a default constructor (not rewritten yet)
