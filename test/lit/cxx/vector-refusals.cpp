// Uses of a std::vector<T> (and of its elements) that a rewritten
// container could not keep are refused with the reason, where they are.
// RUN: %dl-refactor-rules --report %s -- -std=c++17 | FileCheck %s
// RUN: %dl-refactor-rules --report %s -- -std=c++17 | FileCheck --check-prefix=PEEK %s
#include <algorithm>
#include <vector>

struct P {
  float x, y;
  float norm() const { return x * x + y * y; }
  void scale(float f) { x *= f; }
  const float &xref() const { return x; }
  float &yref() { return y; }
  void grow(float f = 2) { y *= f; }
  void keep(std::vector<P *> &seen) { seen.push_back(this); }
  template <class F> void apply(F f) { x = f(x); }
  void later();
};

template <class T> static float first(T e) { return e.x; }
template <class V> static float total(V &v) {
  float t = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    t += v[i].y;
  return t;
}

static void touch(P &p) { p.x += 1; }
static float peek(const P &p) { return p.y; }

int main() {
  std::vector<P> v(100);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i].x = i;
  // CHECK: struct P at
  // CHECK: not transformable:
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: 'data()' of a std::vector<P>: the pointer to its elements escapes the container
  P *raw = v.data();
  // Sorting is rewritten (vector-algorithms.cpp), not with a comparison
  // that could write to the elements, nor other iterators.
  std::sort(v.begin(), v.end(), [](const P &a, const P &b) { return a.x < b.x; });
  // PEEK-NOT: vector-refusals.cpp:[[@LINE-1]]:
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: the comparison passed to 'sort' takes the element as 'P &' (only const references and copies are rewritten)
  std::sort(v.begin(), v.end(), [](P &a, P &b) { return a.x < b.x; });
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: the comparison passed to 'stable_sort' takes the element as 'auto' (only const references and copies are rewritten)
  std::stable_sort(v.begin(), v.end(), [](auto a, auto b) { return a.x < b.x; });
  bool (*cmp)(P &, P &) = nullptr;
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: the comparison passed to 'sort' takes the element as 'P &'
  std::sort(v.begin(), v.end(), cmp);
  for (auto it = v.begin(); it != v.end(); ++it) // rewritten (vector-iterators.cpp)
    it->y = 0;
  // PEEK-NOT: vector-refusals.cpp:[[@LINE-2]]:
  // PEEK-NOT: vector-refusals.cpp:[[@LINE-2]]:
  long positive = std::count_if(v.begin(), v.end(), [](const P &p) { return p.x > 0; });
  // PEEK-NOT: vector-refusals.cpp:[[@LINE-1]]:
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: the function passed to 'for_each' takes the element as 'P &' (only const references and copies are rewritten)
  std::for_each(v.begin(), v.end(), [](P &p) { p.x = 0; });
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: iterators of std::vector<P> other than an iterator variable's start and end (auto it = v.begin(); it != v.end(); ++it) and v.begin(), v.end() passed to std::sort, stable_sort, partial_sort, nth_element, reverse, rotate or shuffle (not rewritten yet)
  auto middle = v.begin() + 2;
  auto start = v.begin();
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: iterator 'start' of std::vector<P> used other than to step, compare, dereference or reach a member (not rewritten yet)
  auto again = start;
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: iterator 'start' of std::vector<P> used other than to step
  positive += (middle - again) + (middle - start);
  std::vector<P> other(4);
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: iterators of std::vector<P> other than
  std::sort(v.begin(), other.end(), [](const P &a, const P &b) { return a.x < b.x; });
  P local{};
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: std::swap of an element of std::vector<P> with an object that is not one (not rewritten yet)
  std::swap(v[0], local);
  float n = v[3].norm(); // const: called on a copy
  // PEEK-NOT: vector-refusals.cpp:[[@LINE-1]]:
  v[3].scale(2); // non-const: forwarded by the proxy to a copy assigned back
  // PEEK-NOT: vector-refusals.cpp:[[@LINE-1]]:
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: member function 'yref' returns a reference or pointer, which could point into the element (called on an element of std::vector<P>)
  n += v[3].yref();
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: member function 'grow' has default arguments (not rewritten yet) (called on an element of std::vector<P>)
  v[3].grow();
  std::vector<P *> seen;
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: member function 'keep' passes 'this' on: it would point to a copy of the element (called on an element of std::vector<P>)
  v[3].keep(seen);
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: member function template 'apply' (not rewritten yet) (called on an element of std::vector<P>)
  v[3].apply([](float f) { return f + 1; });
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: member function 'later' is not defined in this file: dlopt cannot see what it does with the element (called on an element of std::vector<P>)
  v[3].later();
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: member function 'xref' called on an element of std::vector<P> returns a reference or pointer into it
  n += v[3].xref();
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: an element of std::vector<P> passed to template 'first' (elements passed to templates are not rewritten yet)
  n += first(v[2]);
  n += total(v); // a deduced container parameter (vector-templates.cpp)
  // PEEK-NOT: vector-refusals.cpp:21:{{[0-9]+}}: std::vector<P> 'v' in an instantiation
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: structured binding of an element of std::vector<P> (not rewritten yet)
  auto [bx, by] = v[1];
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: structured binding of an element of std::vector<P> (not rewritten yet)
  for (const auto &[ex, ey] : v)
    n += ex * ey;
  n += bx + by;
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: address of an element of std::vector<P>
  P *one = &v[4];
  P &ref = v[5]; // binds the proxy: fine (reference-variables.cpp)
  // PEEK-NOT: vector-refusals.cpp:[[@LINE-1]]:
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: an element of std::vector<P> bound to a non-const reference 'P &'
  touch(v[6]);
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: std::vector<P> 'v' is used other than by indexing, range-for, size and growth operations or passing it by reference
  std::vector<P> copy = v;
  float s = peek(v[7]); // A const reference binds to a copy: fine.
  // PEEK-NOT: vector-refusals.cpp:[[@LINE-1]]:
  struct World { std::vector<P> ps; } w{v};
  w.ps[0].x = 1; // indexing a member vector: fine
  // PEEK-NOT: vector-refusals.cpp:[[@LINE-1]]:
  // CHECK-DAG: vector-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: std::vector<P> 'ps' is used other than by indexing
  std::vector<P> taken = w.ps;
  return (int)(raw->x + n + one->y + ref.x + copy[0].x + s + taken[0].x +
               positive);
}
