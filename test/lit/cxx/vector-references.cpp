// A non-const reference to an element of a std::vector outside a range-for
// (`auto &q = v[i];`, `P &a = v.at(i);`) binds the generated container's
// proxy, `auto &&q = v[i];`, whose fields are references into the
// container's arrays: writes through it reach the element, whole-element
// copies and assignments go through the proxy's conversions. The analysis
// reads q.f as v[i].f (moved's loop: 4 accesses through q).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record P --layouts 'auto soa split tiled:16' %s | FileCheck --check-prefix=SAME %s
// SAME:      auto: same output
// SAME-NEXT: soa: same output
// SAME-NEXT: split: same output
// SAME-NEXT: tiled:16: same output
// RUN: %dl-refactor --report %s -- -std=c++17 | FileCheck --check-prefix=REPORT %s
// REPORT: move at {{.*}}vector-references.cpp:[[@LINE+24]]:13: 4 accesses
// RUN: cp %s %t/soa.cpp && %dl-refactor --apply --quiet --layout=P=soa %t/soa.cpp -- -std=c++17
// RUN: %drop-checks %t/soa.cpp | FileCheck --check-prefix=CODE %s
#include <cstdio>
#include <vector>

struct P {
  float x, y, vx, vy, m;
  int id;
};

static void init(std::vector<P> &v) {
  for (size_t i = 0; i < v.size(); ++i) {
    auto &q = v[i];
    // CODE: auto &&q = v[i];
    q.x = i;
    q.y = 2.0f * i;
    q.vx = 1;
    q.vy = 0.5f;
    q.m = 1;
    q.id = (int)i;
  }
}

static void move(std::vector<P> &v, float dt) {
  for (size_t i = 0; i < v.size(); ++i) {
    P &q = v[i];
    // CODE: auto &&q = v[i];
    q.x += q.vx * dt;
    q.y += q.vy * dt;
  }
}

static void swap_pairs(std::vector<P> &v) {
  for (size_t i = 0; i + 1 < v.size(); i += 2) {
    P &a = v[i];
    P &b = v.at(i + 1);
    P t = a;
    a = b;
    b = t;
  }
}

int main() {
  std::vector<P> v(1000);
  init(v);
  for (int s = 0; s < 10; ++s)
    move(v, 0.1f);
  swap_pairs(v);
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const P &q = v[i];
    s += q.x + q.y + q.vx + q.id * (double)(i + 1);
  }
  printf("%f\n", s);
  return 0;
}
