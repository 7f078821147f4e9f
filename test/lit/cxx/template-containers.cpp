// A function template taking a std::vector spelled with its parameters
// (`const std::vector<T> &`) gets an overload of its own for the record,
// as those taking `T *` do (function-templates.test): the container is
// renamed there and T spelled as the record; the template stays for
// std::vector<float> (bytes). A deduced `V &` keeps one shared text
// (vector-templates.cpp).
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --cflags "-std=c++17 -Wall -Wextra -Werror" --record P --layouts 'soa tiled:4' %s | FileCheck --check-prefix=DIFF %s
// DIFF:      soa: same output
// DIFF-NEXT: tiled:4: same output
// RUN: cp %s %t.cpp
// RUN: %dl-refactor --apply --layout=P=soa %t.cpp -- -std=c++17
// RUN: %drop-checks %t.cpp | FileCheck %s
#include <cstdio>
#include <vector>

struct P {
  float x, y;
};

// CHECK:      template <class T> float sum(const std::vector<T> &v) {
// CHECK:      float sum(const P_soa_vector &v) {
// CHECK-NEXT:   float s = 0;
// CHECK-NEXT:   for (const auto &e : v)
template <class T> float sum(const std::vector<T> &v) {
  float s = 0;
  for (const auto &e : v)
    s += e.x;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i].y;
  return s;
}

// CHECK:      void grow(P_soa_vector &v, int n) {
// CHECK-NEXT:   for (int i = 0; i < n; ++i) {
// CHECK-NEXT:     P t{1.0f * i, 2.0f};
template <class T> void grow(std::vector<T> &v, int n) {
  for (int i = 0; i < n; ++i) {
    T t{1.0f * i, 2.0f};
    v.push_back(t);
  }
}

// CHECK:      std::size_t bytes(const P_soa_vector &v) {
// CHECK-NEXT:   return v.size() * sizeof(P);
template <class T> std::size_t bytes(const std::vector<T> &v) {
  return v.size() * sizeof(T);
}

int main() {
  std::vector<P> ps;
  grow(ps, 100);
  std::vector<float> fs(3, 1.5f);
  std::printf("%f %f\n", sum(ps), sum(std::vector<P>{}));
  std::printf("%zu %zu\n", bytes(ps), bytes(fs));
  return 0;
}
