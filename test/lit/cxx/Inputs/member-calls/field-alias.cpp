// An argument refers to a field of the element the call is made on.
#include <cstdio>
struct T {
  double x, y;
  void pull(double &o) { x += 1; o += x; }
};
int main() {
  const int n = 8;
  T *a = new T[n];
  for (int i = 0; i < n; ++i) a[i] = T{double(i), 0.5 * i};
  for (int i = 0; i < n; ++i) {
    double &rx = a[i].x;
    a[i].pull(rx);
  }
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].x + a[i].y;
  std::printf("%.3f\n", s);
  delete[] a;
}
