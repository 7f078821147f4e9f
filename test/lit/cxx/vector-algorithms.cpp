// std::sort and the other algorithms that move, swap and compare whole
// elements run on the generated container's iterator; std::swap of two
// elements becomes the proxy's swap and a sort by operator< gets
// std::less<T>. The program prints the same in every layout.
// (Clang warns about libstdc++'s own get_temporary_buffer in stable_sort.)
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --cflags '-O1 -Wno-deprecated-declarations' --record P --layouts 'soa split tiled:4 tiled:16 split:{x,y}tiled:4{id}soa{w}' %S/Inputs/vector-algorithms.cpp | FileCheck --check-prefix=DIFF %s
// DIFF:      soa: same output
// DIFF-NEXT: split: same output
// DIFF-NEXT: tiled:4: same output
// DIFF-NEXT: tiled:16: same output
// DIFF-NEXT: split:{x,y}tiled:4{id}soa{w}: same output

// RUN: cp %S/Inputs/vector-algorithms.cpp %t.cpp
// RUN: %dl-refactor-rules --apply --layout=P=soa %t.cpp -- -std=c++17 -Wno-deprecated-declarations 2>&1 | FileCheck --check-prefix=TOOL %s
// TOOL: struct P rewritten as P_soa
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// CODE: #include <functional>
// CODE: struct P_soa_ref {
// CODE:   P_soa_ref(const P_soa_ref &) = default;
// CODE:   {{\[\[maybe_unused\]\]}} friend void swap(P_soa_ref a, P_soa_ref b) {
// CODE:      std::sort(v.begin(), v.end(), byX);
// CODE:      std::sort(v.begin(), v.end(), std::less<P>()); // operator<
// CODE:      swap(v[0], v[199]);
// CODE-NEXT: swap(v.front(), v.at(5));
// CODE-NEXT: for (auto &&p : v)
// CODE-NEXT:   if (p.id % 2)
// CODE-NEXT:     swap(p, v[p.id % 200]);

// The analysis sees the sort read and write every field, w included,
// which no loop of this program touches.
// RUN: %dl-refactor-rules --report %s -- -std=c++17 | FileCheck --check-prefix=PLAN %s
// PLAN: struct Q at
// PLAN-NOT: not transformable
// PLAN-NOT: cold
// PLAN: plan: Q:
#include <algorithm>
#include <vector>

struct Q {
  float x;
  double w;
};

int main() {
  std::vector<Q> q(1000);
  for (std::size_t i = 0; i < q.size(); ++i)
    q[i].x = (i * 37) % 101;
  std::sort(q.begin(), q.end(),
            [](const Q &a, const Q &b) { return a.x < b.x; });
  return q[0].x > 0;
}
