// A non-const member function calling a const one on its object.
#include <cstdio>
struct T {
  double x, y;
  double speed() const { return y * 2; }
  void advance(double dt) { x += speed() * dt; }
};
int main() {
  const int n = 9;
  T *a = new T[n];
  for (int i = 0; i < n; ++i) a[i] = T{double(i), 0.5 * i};
  for (int i = 0; i < n; ++i) a[i].advance(0.5);
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].x * (i + 1) + a[i].y;
  std::printf("%.3f\n", s);
  delete[] a;
}
