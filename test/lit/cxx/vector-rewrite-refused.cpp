// The container rewrite is not implemented yet: a record held in a
// std::vector is planned and reported, and --apply refuses it with the
// reason, writing nothing (exit 3 for a forced plan).
// RUN: cp %s %t.cpp
// RUN: not %dl-refactor-rules --apply --layout=P=soa %t.cpp -- -std=c++17 2>&1 | FileCheck %s
// RUN: diff %s %t.cpp
// CHECK: 'v' is a std::vector<P>: the analysis plans it, but the container rewrite is not implemented yet
#include <vector>

struct P { float x, y; };

int main() {
  std::vector<P> v(100);
  float s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i].x;
  return s > 0;
}
