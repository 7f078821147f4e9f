// Arrays of a record handed to the standard library's algorithms or to a
// function template (std::copy(&px[0], &px[n], &px0[0]), std::fill, an
// allocator template Memory::alloc<T>) are refused with the reason, on
// their own: the rewrite cannot change those functions' types. Before,
// the report planned the record and --apply stopped with "the rewritten
// code does not compile".
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl-refactor --report %s -- -std=c++17 | FileCheck %s
// RUN: cp %s %t/copy.cpp
// RUN: not %dl-refactor --apply --layout=P=soa %t/copy.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=FORCED %s
// RUN: cmp %s %t/copy.cpp
// FORCED: the forced plan cannot be applied; nothing written
#include <algorithm>
#include <cstdlib>

struct P {
  double x, y;
};

namespace Memory {
template <typename T> inline T *alloc(int n) {
  return (T *)std::malloc(n * sizeof(T));
}
} // namespace Memory

struct M {
  int n;
  P *px;
  P *px0;
  M(int n_) : n(n_) {
    px = (P *)std::malloc(n * sizeof(P));
    px0 = (P *)std::malloc(n * sizeof(P));
  }
  void step() {
    for (int i = 0; i < n; ++i)
      px[i].x += px0[i].y;
    // CHECK-DAG: library-algorithms.cpp:[[@LINE+1]]:5: 'P' array passed to or returned by 'std::copy', a function template instantiation or library function, whose types cannot change with the layout (not rewritten yet)
    std::copy(&px[0], &px[n], &px0[0]);
  }
};

static void reset(P *a, int n, P z) {
  // CHECK-DAG: library-algorithms.cpp:[[@LINE+1]]:13: sub-array of 'a' passed to 'std::fill', a library function or function template instantiation (the rewrite cannot change its parameter)
  std::fill(&a[0], &a[n], z);
}

int main() {
  M m(10);
  m.step();
  // CHECK-DAG: library-algorithms.cpp:[[@LINE+1]]:10: 'P' array passed to or returned by 'Memory::alloc', a function template instantiation or library function, whose types cannot change with the layout (not rewritten yet)
  P *t = Memory::alloc<P>(m.n);
  reset(t, m.n, P{1, 2});
  for (int i = 0; i < m.n; ++i)
    t[i].x += m.px[i].y;
  double s = t[0].x;
  std::free(t);
  return (int)s;
}
