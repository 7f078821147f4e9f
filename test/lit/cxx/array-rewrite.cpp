// A std::array<P, N> becomes the generated class template P_<layout>_array
// with N as written (a constant, an expression), over one std::array per
// field or group: indexing, at, front, back, size, fill, range-for, the
// sorting algorithms and swap keep their spelling; default and {}
// initialization keep their meaning, and a list of elements is spelled
// for the container's initializer_list constructor. Same output in every
// layout.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --record P --layouts 'soa split tiled:4 tiled:16 split:{x,y}tiled:4{id}soa{w}' %S/Inputs/array-constructs.cpp | FileCheck --check-prefix=DIFF %s
// DIFF:      soa: same output
// DIFF-NEXT: split: same output
// DIFF-NEXT: tiled:4: same output
// DIFF-NEXT: tiled:16: same output
// DIFF-NEXT: split:{x,y}tiled:4{id}soa{w}: same output

// RUN: cp %S/Inputs/array-constructs.cpp %t.cpp
// RUN: %dl-refactor-rules --apply '--layout=P=split:{x,y}tiled:4{id}soa{w}' %t.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=TOOL %s
// TOOL: struct P rewritten as P_split
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// CODE:      template <std::size_t N> class P_split_array {
// CODE:        P_split_array() = default;
// CODE-NEXT:   P_split_array(std::initializer_list<P> init) {
// CODE-NEXT:     fill(P());
// CODE-NEXT:     size_type i = 0;
// CODE-NEXT:     for (const P &e : init)
// CODE-NEXT:       (*this)[i++] = e;
// CODE-NEXT:   }
// CODE:        static constexpr size_type size() { return N; }
// CODE:        struct {
// CODE-NEXT:     std::array<P_tile_x_y, (N + 3) / 4> x_y;
// CODE-NEXT:     std::array<int, N> id;
// CODE-NEXT:     std::array<double, N> w;
// CODE-NEXT:   } fields;
// CODE-NOT:  class P_split_vector
// CODE:      static P_split_array<kCount> global;
// CODE-NEXT: using Small = P_split_array<7>;
// CODE:        P_split_array<(kCount > 8 ? 2 * 8 : 4)> ps;
// CODE:      static void fill(P_split_array<kCount> &a) {
// A loop over the tiled group, `a.at(i)` included, is strip-mined; its
// variable's type names the new container.
// CODE:      static double sum(const P_split_array<kCount> &a) {
// CODE-NEXT:   double s = 0;
// CODE-NEXT:   for (P_split_array<kCount>::size_type i_tile = 0; i_tile < a.size() / 4;
// CODE:          for (P_split_array<kCount>::size_type i_lane = 0; i_lane < 4; ++i_lane) {
// CODE-NEXT:       P_split_array<kCount>::size_type i = i_tile * 4 + i_lane;
// CODE-NEXT:       s += a.element(i_tile, i_lane).x * a.element(i_tile, i_lane).w +
// CODE-NEXT:            a.element(i_tile, i_lane).y * (i + 1);
// CODE:        for (P_split_array<kCount>::size_type i = a.size() / 4 * 4; i < a.size(); ++i)
// CODE-NEXT:     s += a[i].x * a[i].w + a.at(i).y * (i + 1);
// CODE:        P_split_array<4> given = {P{1, 2, 3, 4.5}, P{5, 6, 7, 8.5}};
// CODE-NEXT:   P_split_array<3> flat = {P{1, 2, 3, 4}, P{5, 6, 0, 0}};
// CODE-NEXT:   P_split_array<2> made{global[2], P{9, 10, 11, 12}};

// Uses a std::array's replacement could not keep are refused.
// RUN: %dl-refactor-rules --report %s -- -std=c++17 | FileCheck --check-prefix=REFUSED %s
// REFUSED: struct Q at
// REFUSED: arrays:
// REFUSED-NEXT: qs (std::array, 64 elements) at
// REFUSED: not transformable:
// REFUSED-DAG: array-rewrite.cpp:[[@LINE+11]]:{{[0-9]+}}: initializer of std::array<Q, 64> 'copy' (only default initialization and lists of elements are rewritten)
// REFUSED-DAG: array-rewrite.cpp:[[@LINE+10]]:{{[0-9]+}}: std::array<Q, 64> 'qs' is used other than by indexing
// REFUSED-DAG: array-rewrite.cpp:[[@LINE+10]]:{{[0-9]+}}: 'data()' of a std::array<Q, 64>: the pointer to its elements escapes the container
#include <array>

struct Q { float x, y; };

int main() {
  std::array<Q, 64> qs{};
  for (std::size_t i = 0; i < qs.size(); ++i) qs[i].x = i;
  std::array<Q, 3> init = {{{1, 2}, {3, 4}, {5, 6}}};
  std::array<Q, 64> copy = qs;
  Q *raw = qs.data();
  return (int)(init[0].x + copy[1].y + raw->x);
}
