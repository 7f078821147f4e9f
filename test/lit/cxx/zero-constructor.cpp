// A default constructor that zeroes every field (PENNANT's
// `double2() : x(0.), y(0.) {}`) or default member initializers that are
// all zero make each element of new T[n] and T a[N] zero: in the new layout
// new T[n] becomes the zeroing allocation and an array definition zeroed
// storage. Any other default constructor, or a nonzero initializer, is still
// refused with the reason.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record double2 --layouts 'soa tiled:4' %s | FileCheck --check-prefix=DIFF %s
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --cflags "-std=c++20 -O2 -Wall -Wextra -Werror" --record double2 --layouts 'soa tiled:4' %s | FileCheck --check-prefix=DIFF %s
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record Cell --layouts 'soa split' %s | FileCheck --check-prefix=CELL %s
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -O2 -Wall -Wextra -Werror" --record Node --layouts 'soa split' %s | FileCheck --check-prefix=CELL %s
// DIFF:      soa: same output
// DIFF-NEXT: tiled:4: same output
// CELL:      soa: same output
// CELL-NEXT: split: same output
// RUN: cp %s %t.cpp
// RUN: %dl-refactor --apply --layout=double2=soa --layout=Cell=soa --layout=Node=soa %t.cpp -- -std=c++17
// RUN: %drop-checks %t.cpp | FileCheck --check-prefix=CODE %s
// RUN: %dl-refactor --report %s -- -std=c++17 | FileCheck --check-prefix=REPORT %s
#include <cstdio>

struct double2 {
  double x, y;
  double2() : x(0.), y(0.) {}
  double2(double a, double b) : x(a), y(b) {}
  double2 &operator+=(const double2 &o) {
    x += o.x;
    y += o.y;
    return *this;
  }
};

struct Cell {
  float mass = 0.f;
  float heat = 0;
  int count = 0;
};

// A null pointer is a zero too, nullptr as 0.
struct Node {
  float w = 0;
  const float *weight = nullptr;
};

// REPORT-LABEL: struct Half at
// REPORT:       not transformable:
// REPORT-NEXT:  zero-constructor.cpp:[[@LINE+2]]:{{[0-9]+}}: default member initializer of 'a': plain arrays of the record are not initialized by it
struct Half {
  float a = 0;
  float b = 1;
};

static double2 fixed[64];

int main() {
  const int n = 100;
  // CODE: {{^}}  double2_soa sums = double2_soa_calloc(n);
  double2 *sums = new double2[n];
  // CODE: {{^}}  Cell_soa cells = Cell_soa_calloc(n);
  Cell *cells = new Cell[n];
  // CODE: {{^}}  Node_soa nodes = Node_soa_calloc(n);
  Node *nodes = new Node[n];
  Half *halves = new Half[n];
  // CODE:      {{^}}  struct {
  // CODE-NEXT: {{^}}    double x[16];
  // CODE-NEXT: {{^}}    double y[16];
  // CODE-NEXT: {{^}}  } local_storage = {{[{][{][}], [{][}][}]}};
  double2 local[16];
  for (int i = 0; i < 4 * n; ++i) {
    sums[i % n] += double2(0.5 * i, 1.0);
    cells[i % n].mass += 0.25f * i;
    cells[i % n].count += 1;
    halves[i % n].a += halves[i % n].b;
    nodes[i % n].w += nodes[i % n].weight ? 0.f : 0.5f;
  }
  for (int i = 0; i < n; ++i) {
    fixed[i % 64] += sums[i];
    local[i % 16] += sums[n - 1 - i];
  }
  double s = 0, t = 0;
  for (int i = 0; i < 64; ++i)
    s += fixed[i].x - fixed[i].y;
  for (int i = 0; i < 16; ++i)
    s += local[i].x * local[i].y;
  for (int i = 0; i < n; ++i)
    t += cells[i].mass * cells[i].count + cells[i].heat + halves[i].a +
         nodes[i].w;
  std::printf("%.3f %.3f\n", s, t);
  delete[] sums;
  delete[] cells;
  delete[] halves;
  delete[] nodes;
  return 0;
}
