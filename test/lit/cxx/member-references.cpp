// References to elements of a class's array member: `Particle &p =
// parts[i];` in member functions (this->parts), `auto &p =
// this->parts[i];`, `Particle &p = s->parts[i];` in a free function. Each
// becomes an index, and the member expression it was bound through is
// spelled again at each use (`parts.x[p]`, `s->parts.vx[p]`): the object
// and the member must stay the same while the reference lives.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record Particle --layouts 'auto soa split tiled:8' %s | FileCheck --check-prefix=SAME %s
// SAME:      auto: same output
// SAME-NEXT: soa: same output
// SAME-NEXT: split: same output
// SAME-NEXT: tiled:8: same output
// RUN: cp %s %t/soa.cpp && %dl-refactor --apply --quiet --layout=Particle=soa %t/soa.cpp -- -std=c++17
// RUN: %drop-checks %t/soa.cpp | FileCheck --check-prefix=CODE %s
//
// The member assigned while a reference into it lives: refused there.
// RUN: sed 's|^    p.vx += dt \* p.fx;|    p.vx += dt * p.fx; s->parts = s->parts;|' %s > %t/moved.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/moved.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=MOVED %s
// MOVED: moved.cpp:[[@LINE+52]]:15: {{.*}}'p'{{.*}}: 'parts' is assigned while it lives
#include <cstdio>

struct Particle {
  double x, y, vx, vy, fx, fy, m;
  int id;
};

class System {
public:
  explicit System(int n) : n(n), parts(new Particle[n]) {}
  ~System() { delete[] parts; }
  System(const System &) = delete;
  System &operator=(const System &) = delete;

  void init() {
    for (int i = 0; i < n; ++i) {
      Particle &p = parts[i];
      // CODE: ptrdiff_t p = i;
      p.x = (i % 13) * 0.5;
      // CODE: parts.x[p] = (i % 13) * 0.5;
      p.y = (i % 7) * 0.25;
      p.vx = p.vy = 0;
      p.m = 1 + i % 2;
      p.id = i;
    }
  }

  void forces() {
    for (int i = 0; i < n; ++i) {
      auto &p = this->parts[i];
      p.fx = -p.x * p.m;
      // CODE: this->parts.fx[p] = -this->parts.x[p] * this->parts.m[p];
      p.fy = -p.y * p.m;
    }
  }

  double energy() const {
    double e = 0;
    for (int i = 0; i < n; ++i) {
      const Particle &p = parts[i];
      e += 0.5 * p.m * (p.vx * p.vx + p.vy * p.vy) + p.id * 1e-6;
    }
    return e;
  }

  int n;
  Particle *parts;
};

static void kick(System *s, double dt) {
  for (int i = 0; i < s->n; ++i) {
    Particle &p = s->parts[i];
    if (p.id % 3 == 0)
      continue;
    p.vx += dt * p.fx;
    // CODE: s->parts.vx[p] += dt * s->parts.fx[p];
    p.vy += dt * p.fy;
    p.x += dt * p.vx;
    p.y += dt * p.vy;
  }
}

int main() {
  System s(500);
  s.init();
  for (int step = 0; step < 20; ++step) {
    s.forces();
    kick(&s, 0.01);
  }
  std::printf("energy %.9e\n", s.energy());
  return 0;
}

// The member stepped or passed on as an lvalue while a reference into it
// lives: refused too.
// RUN: sed 's|^    p.vx += dt \* p.fx;|    p.vx += dt * p.fx; ++s->parts; --s->parts;|' %s > %t/stepped.cpp
// RUN: not %dl-refactor --apply --layout=Particle=soa %t/stepped.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=STEPPED %s
// STEPPED: stepped.cpp:{{[0-9]+}}:{{[0-9]+}}: {{.*}}'p'{{.*}}: 'parts' is assigned while it lives
