// Member functions loop to a count the class keeps (`p < nump` in mesh
// codes): strip-mined where nothing the body does or calls can change it,
// member functions and the element's operators followed (MemoryBounds.cpp).
// RUN: rm -rf %t && mkdir %t && cp %s %t/mb.cpp
// RUN: %dl-refactor --apply --layout=V=tiled:4 %t/mb.cpp -- -std=c++17
// RUN: grep -v CHECK %t/mb.cpp | FileCheck %s
// RUN: %clang -std=c++17 -Wall -Wextra -Werror -fsyntax-only %t/mb.cpp
// RUN: %clangxx -std=c++17 -O1 -o %t/mb %t/mb.cpp && %t/mb | FileCheck --check-prefix=OUT %s
// RUN: %clangxx -std=c++17 -O1 -o %t/orig %s && %t/orig | FileCheck --check-prefix=OUT %s
// OUT: 30 10
#include <cstdio>

struct V {
  double x, y;
  V &operator+=(const V &o) {
    x += o.x;
    y += o.y;
    return *this;
  }
};

class Cloud {
public:
  int n = 0;
  V *v = nullptr;
  double scale = 1;

  explicit Cloud(int count) : n(count), v(new V[count]) {
    // CHECK-LABEL: explicit Cloud(int count)
    // CHECK: for (int i_tile = 0; i_tile < n / 4; ++i_tile)
    for (int i = 0; i < n; ++i) {
      v[i].x = i * 0.5;
      v[i].y = 1.0;
    }
  }
  ~Cloud() { delete[] v; }

  // CHECK-LABEL: void shift(const V &d)
  // CHECK: for (int i_tile = 0; i_tile < this->n / 4; ++i_tile)
  void shift(const V &d) {
    for (int i = 0; i < this->n; ++i) {
      v[i] += d; // The element's operator, followed.
      v[i].x *= scale;
      bump();
    }
  }
  // CHECK-LABEL: void bump()
  void bump() { scale *= 1.0; }

  // A member function that shrinks the count: the flat form.
  // CHECK-LABEL: void drop_far()
  // CHECK-NOT: _tile
  // CHECK-LABEL: double sum() const
  void drop_far() {
    for (int i = 0; i < n; ++i)
      if (v[i].x > 100)
        shrink();
  }
  void shrink() { --n; }

  double sum() const {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += v[i].x + v[i].y;
    return s;
  }
};

int main() {
  Cloud c(10);
  c.shift(V{0.25, -0.5});
  c.drop_far();
  std::printf("%g %d\n", c.sum(), c.n);
  return 0;
}
