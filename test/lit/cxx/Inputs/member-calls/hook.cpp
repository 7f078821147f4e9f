// The member function calls a global callback that writes an element.
#include <cstdio>
#include <functional>
static std::function<void(double)> hook;
struct T {
  double x, y;
  void bump() { x += 1; hook(x); y += x; }
};
int main() {
  const int n = 8;
  T *a = new T[n];
  for (int i = 0; i < n; ++i) a[i] = T{double(i), 0.5 * i};
  hook = [&](double v) { a[3].x += v; };
  for (int i = 0; i < n; ++i) a[i].bump();
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].x * (i + 1) + a[i].y;
  std::printf("%.3f\n", s);
  delete[] a;
}
