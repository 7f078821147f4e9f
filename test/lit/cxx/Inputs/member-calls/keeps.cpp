// The member function hands a field to a function that keeps its address.
#include <cstdio>
static double *watched;
static void watch(double &d) { watched = &d; }
struct T {
  double x, y;
  void track() { x += 1; watch(y); }
};
int main() {
  const int n = 8;
  T *a = new T[n];
  for (int i = 0; i < n; ++i) a[i] = T{double(i), 0.5 * i};
  a[2].track();
  *watched = 100;
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].x + a[i].y;
  std::printf("%.3f\n", s);
  delete[] a;
}
