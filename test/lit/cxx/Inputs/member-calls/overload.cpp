// A const member function with a non-const overload, called on a const element.
#include <cstdio>
struct T {
  double x, y;
  double val() { return x; }
  double val() const { return y; }
};
static double total(const T *a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].val();
  return s;
}
int main() {
  const int n = 9;
  T *a = new T[n];
  for (int i = 0; i < n; ++i) a[i] = T{double(i), 0.5 * i};
  for (int i = 0; i < n; ++i) a[i].x += 1;
  std::printf("%.3f\n", total(a, n));
  delete[] a;
}
