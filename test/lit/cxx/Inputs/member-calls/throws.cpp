// The member function throws after writing the element.
#include <cstdio>
#include <stdexcept>
struct T {
  double x, y;
  void advance(double dt) {
    x += y * dt;
    if (x > 5) throw std::runtime_error("out of range");
    y += 1;
  }
};
int main() {
  const int n = 9;
  T *a = new T[n];
  for (int i = 0; i < n; ++i) a[i] = T{double(i), 0.5 * i};
  int errors = 0;
  for (int i = 0; i < n; ++i) {
    try {
      a[i].advance(0.5);
    } catch (const std::exception &) {
      ++errors;
    }
  }
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].x * (i + 1) + a[i].y;
  std::printf("%d %.3f\n", errors, s);
  delete[] a;
}
