// An element named through a local reference (`Particle &pi = ps[i];`,
// `auto &p = ps[i];`, `const Particle &pj = ps[j];`: how C++ and CUDA
// particle codes spell the element a loop works on) becomes an index into
// its array, `ptrdiff_t pi = i;`, and `pi.fx` the field at that index: it
// sees every write to the element, as the reference did (forces() writes
// pi's forces while pj reads the same arrays; swap_halves() assigns whole
// elements through two references). Passed by reference (bounce) or read
// whole (a copy), it is the element at that index.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record Particle --layouts 'auto soa split tiled:16' %s | FileCheck --check-prefix=SAME %s
// SAME:      auto: same output
// SAME-NEXT: soa: same output
// SAME-NEXT: split: same output
// SAME-NEXT: tiled:16: same output
//
// The analysis reads r.f as ps[i].f: every access through a reference is
// counted (step's bounce(p) reads and writes all 12 fields of the copy).
// RUN: %dl-refactor --report %s -- -std=c++17 | FileCheck --check-prefix=REPORT %s
// REPORT: forces at {{.*}}reference-variables.cpp:[[@LINE+45]]:13: 13 accesses
// REPORT: step at {{.*}}reference-variables.cpp:[[@LINE+69]]:13: 39 accesses
// RUN: cp %s %t/soa.cpp && %dl-refactor --apply --quiet --layout=Particle=soa %t/soa.cpp -- -std=c++17
// RUN: %drop-checks %t/soa.cpp | FileCheck --check-prefix=CODE %s
//
// A reference used otherwise (its address taken), or bound where its array
// is assigned while it lives: refused there with the reason, nothing
// written.
// RUN: sed 's|^    bounce(p);|    bounce(p); last = \&p;|' %s > %t/address.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/address.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=ADDRESS %s
// ADDRESS: address.cpp:[[@LINE+69]]:24: {{.*}}an element bound to the reference 'p', which the rewrite makes an index into its array: it is used other than to reach a field or as the element
// RUN: sed 's|^    bounce(p);|    bounce(p); last = \&p;|' %s | cmp - %t/address.cpp
// RUN: sed 's|^    bounce(p);|    bounce(p); ps = ps + 0;|' %s > %t/moved.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/moved.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=MOVED %s
// MOVED: moved.cpp:[[@LINE+58]]:11: {{.*}}'p'{{.*}}: 'ps' is assigned while it lives
// RUN: sed 's|^    bounce(p);|    bounce(p); auto vx = [\&p] { return p.vx; }; p.vy += 0 * vx();|' %s > %t/lambda.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/lambda.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=LAMBDA %s
// LAMBDA: lambda.cpp:[[@LINE+55]]:11: {{.*}}'p'{{.*}}: it is used in a lambda
#include <cmath>
#include <cstdio>

struct Particle {
  double x, y, z;
  double vx, vy, vz;
  double fx, fy, fz;
  double m;
  int cell, id;
};

[[maybe_unused]] static Particle *last;

static void init(Particle *ps, int n) {
  for (int i = 0; i < n; ++i) {
    Particle &p = ps[i];
    // CODE: ptrdiff_t p = i;
    p.x = (i % 17) * 0.37;
    p.y = (i % 23) * 0.29;
    p.z = (i % 11) * 0.53;
    p.vx = p.vy = p.vz = 0;
    p.m = 1.0 + (i % 3);
    p.cell = i % 7;
    p.id = i;
  }
}

static void forces(Particle *ps, int n) {
  for (int i = 0; i < n; ++i) {
    Particle &pi = ps[i];
    pi.fx = pi.fy = pi.fz = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i)
        continue;
      const Particle &pj = ps[j];
      // CODE: ptrdiff_t pj = j;
      double dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
      // CODE: double dx = ps.x[pj] - ps.x[pi], dy = ps.y[pj] - ps.y[pi], dz = ps.z[pj] - ps.z[pi];
      double inv = pj.m / std::pow(dx * dx + dy * dy + dz * dz + 0.01, 1.5);
      pi.fx += dx * inv;
      pi.fy += dy * inv;
      pi.fz += dz * inv;
    }
  }
}

// Passed by reference: the element copied out and written back.
static void bounce(Particle &p) {
  if (p.x < 0 || p.x > 8)
    p.vx = -p.vx;
}

static void step(Particle *ps, int n, double dt) {
  for (int i = 0; i < n; ++i) {
    auto &p = ps[i];
    p.vx += dt * p.fx / p.m;
    p.vy += dt * p.fy / p.m;
    p.vz += dt * p.fz / p.m;
    p.x += dt * p.vx;
    p.y += dt * p.vy;
    p.z += dt * p.vz;
    bounce(p);
    // CODE: auto dlopt_index = p; Particle dlopt_element = Particle_soa_get(ps, dlopt_index); bounce(dlopt_element); Particle_soa_set(ps, dlopt_index, dlopt_element); }{{[(][)]}};
  }
}

// Takes the element by a non-const reference but only reads it: called in
// an expression on a copy (nothing written back).
static long moved;
static bool moving(Particle &p) { return p.vx != 0 || p.vy != 0; }

// Whole elements read and written through references.
static void swap_halves(Particle *ps, int n) {
  for (int i = 0; i < n / 2; ++i) {
    Particle &a = ps[i];
    Particle &b = ps[n - 1 - i];
    // CODE: ptrdiff_t b = (n - 1 - i);
    Particle t = a;
    a = b;
    b = t;
    moved += moving(b) ? 1 : 0;
    // CODE: Particle t = Particle_soa_get(ps, a);
    // CODE-NEXT: Particle_soa_set(ps, a, Particle_soa_get(ps, b));
    // CODE-NEXT: Particle_soa_set(ps, b, t);
    // CODE: moved += [&] { Particle dlopt_element = Particle_soa_get(ps, b); return moving(dlopt_element); }{{[(][)]}} ? 1 : 0;
  }
}

int main() {
  const int n = 300;
  Particle *ps = new Particle[n];
  init(ps, n);
  for (int s = 0; s < 5; ++s) {
    forces(ps, n);
    step(ps, n, 0.001);
  }
  swap_halves(ps, n);
  double e = 0;
  long ids = 0;
  for (int i = 0; i < n; ++i) {
    const Particle &p = ps[i];
    e += 0.5 * p.m * (p.vx * p.vx + p.vy * p.vy + p.vz * p.vz) + p.x * 1e-3;
    ids += (long)p.id * (i + 1) + p.cell;
  }
  printf("energy %.9e ids %ld moved %ld\n", e, ids, moved);
  delete[] ps;
  return 0;
}

// Two references passed to one function that only reads them: each would be
// copied for the call, one copy not seeing the other's element; refused. A
// reference named by an OpenMP clause (firstprivate copies the element, the
// rewrite would copy the index): refused. Nothing written either time.
// RUN: sed 's|^static bool moving(Particle &p) {|static bool same(Particle \&p, Particle \&q) { return p.x == q.x; } &|; s|moved += moving(b) ? 1 : 0;|moved += same(a, b) ? 1 : 0;|' %s > %t/two.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/two.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=TWO %s
// TWO: two.cpp:{{[0-9]+}}:{{[0-9]+}}: {{.*}}non-const reference parameter of 'same': another argument reaches an array of the record
// RUN: sed 's|^    bounce(p);|    bounce(p);\n#pragma omp parallel for firstprivate(p)\n    for (int k = 0; k < 2; ++k) p.vy += 0;|' %s > %t/clause.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/clause.cpp -- -std=c++17 -fopenmp 2>&1 | FileCheck --check-prefix=CLAUSE %s
// CLAUSE: clause.cpp:{{[0-9]+}}:{{[0-9]+}}: {{.*}}the reference 'p' to an element is named by an OpenMP clause
// RUN: sed 's|^    bounce(p);|    bounce(p);\n#pragma omp parallel for firstprivate(p)\n    for (int k = 0; k < 2; ++k) p.vy += 0;|' %s | cmp - %t/clause.cpp
//
// References declared together (`Particle &a = ps[i], &b = ps[j];`) are
// indices declared together; with a variable that is not one (a copy), the
// shared specifiers cannot change: refused, nothing written.
// RUN: sed 'N;s|^    Particle &a = ps\[i\];\n    Particle &b = ps\[n - 1 - i\];|    Particle \&a = ps[i], \&b = ps[n - 1 - i];|;P;D' %s > %t/together.cpp
// RUN: grep -q 'Particle &a = ps\[i\], &b = ps\[n - 1 - i\];' %t/together.cpp
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record Particle --layouts 'soa tiled:16' %t/together.cpp | FileCheck --check-prefix=TOGETHER %s
// TOGETHER:      soa: same output
// TOGETHER-NEXT: tiled:16: same output
// RUN: cp %t/together.cpp %t/together-soa.cpp && %dl-refactor --apply --quiet --layout=Particle=soa %t/together-soa.cpp -- -std=c++17
// RUN: %drop-checks %t/together-soa.cpp | FileCheck --check-prefix=TOGETHER-CODE %s
// TOGETHER-CODE: ptrdiff_t a = i, b = (n - 1 - i);
// RUN: sed 's|^    Particle &a = ps\[i\];|    Particle \&a = ps[i], c = ps[0];|' %s > %t/copy.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/copy.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=WITH-COPY %s
// WITH-COPY: {{.*}}'a'{{.*}}: it is declared together with variables that are not such references
// RUN: sed 's|^    Particle &a = ps\[i\];|    Particle \&a = ps[i], c = ps[0];|' %s | cmp - %t/copy.cpp
