// A record in namespaces (named, inline, anonymous): the container's
// #include lines go outside them, and the uses name it with its namespace.
// Plain arrays of such a record are refused (their C-style helpers would be
// named unqualified).
// RUN: cp %s %t.cpp
// RUN: %dl-refactor-rules --apply --layout=P=soa %t.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=TOOL %s
// TOOL: struct P rewritten as P_soa
// RUN: %drop-checks %t.cpp | FileCheck %s
// RUN: %clangxx -std=c++17 -Wall -Wextra -Werror %t.cpp -o %t.bin
// RUN: %t.bin | FileCheck --check-prefix=OUT %s
// OUT: 45 2 5 12
// RUN: sed -e 's|^  // CODE-ARRAY:||' %s > %t-array.cpp
// RUN: not %dl-refactor-rules --apply --layout=P=soa %t-array.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=ARRAY %s
// ARRAY: plain arrays of a record in a named namespace are not rewritten yet (std::vector is)
#include <cstdio>
#include <vector>

namespace sim {
inline namespace v1 {
namespace {
struct P {
  float x, y;
  float sum() const { return x + y; }
};
// CHECK: } // namespace
// CHECK-NEXT: } // namespace v1
// CHECK-NEXT: } // namespace sim
// CHECK-NEXT: #include <cstddef>
// CHECK: #include <vector>
// CHECK-EMPTY:
// CHECK-NEXT: namespace sim {
// CHECK-NEXT: inline namespace v1 {
// CHECK-NEXT: namespace {
// CHECK: class P_soa_vector {
} // namespace
} // namespace v1
} // namespace sim

int main() {
  // CHECK: sim::v1::P_soa_vector v(10);
  std::vector<sim::P> v(10);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i].x = i;
  float s = 0;
  // CHECK: for (sim::v1::P p : v)
  for (auto p : v)
    s += p.sum();
  auto q = v[3];
  q.y = 5;
  // CODE-ARRAY:  sim::P *a = new sim::P[4];
  // CODE-ARRAY:  a[0].x = 1;
  // CODE-ARRAY:  delete[] a;
  std::printf("%g %g %g %g\n", s, v[2].sum(), q.y, v[9].x + v[3].x);
}
