// The call is spelled in a macro.
#include <cstdio>
#define ADV(arr, k, d) arr[k].advance(d)
struct T {
  double x, y;
  void advance(double dt) { x += y * dt; }
};
int main() {
  const int n = 9;
  T *a = new T[n];
  for (int i = 0; i < n; ++i) a[i] = T{double(i), 0.5 * i};
  for (int i = 0; i < n; ++i) ADV(a, i, 0.1);
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].x * (i + 1) + a[i].y;
  std::printf("%.3f\n", s);
  delete[] a;
}
