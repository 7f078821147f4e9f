// Fields and member functions whose types the record declares itself
// (`using real = float;`) are spelled `Body::real` in the generated code,
// which lives outside the record: the proxies, the forwarders and the
// storage. Same output in every layout.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --record Body --layouts 'soa split tiled:4' %s | FileCheck %s
// CHECK:      soa: same output
// CHECK-NEXT: split: same output
// CHECK-NEXT: tiled:4: same output
// RUN: cp %s %t.cpp
// RUN: %dl-refactor --apply --layout=Body=soa %t.cpp -- -std=c++17
// RUN: %drop-checks %t.cpp | FileCheck --check-prefix=CODE %s
// CODE:      struct Body_soa_ref {
// CODE-NEXT:   Body::real &x;
// CODE-NEXT:   Body::real &y;
// CODE-NEXT:   Body::Count &n;
// CODE:        void scale(Body::real a0) {
// CODE:        Body::real sum() const { return Body(*this).sum(); }
// CODE:        std::vector<Body::real> x;
#include <cstdio>
#include <vector>

struct Body {
  using real = float;
  typedef int Count;
  real x, y;
  Count n;
  void scale(real f) {
    x *= f;
    y *= f;
  }
  real sum() const { return x + y + n; }
};

int main() {
  std::vector<Body> v(5, Body{1, 2, 3});
  for (auto &b : v)
    b.scale(2);
  Body::real s = 0;
  for (const Body &b : v)
    s += b.sum();
  std::printf("%g\n", s);
}
