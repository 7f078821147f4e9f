// The element's index is a structured binding.
#include <cstdio>
#include <utility>
struct T {
  double x, y;
  void advance(double dt) { x += vx() * dt; y += 1; }
  double vx() { return 0.5 + y; }
};
int main() {
  const int n = 8;
  T *a = new T[n];
  for (int i = 0; i < n; ++i) a[i] = T{double(i), 0.5 * i};
  std::pair<int, double> jobs[3] = {{1, 0.1}, {4, 0.2}, {6, 0.3}};
  for (auto [k, dt] : jobs) { a[k].advance(dt); }
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].x * (i + 1) + a[i].y;
  std::printf("%.3f\n", s);
  delete[] a;
}
