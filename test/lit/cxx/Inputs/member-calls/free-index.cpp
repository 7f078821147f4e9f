// A free function changes the index through a reference: the copy goes back to the element it came from.
#include <cstdio>
struct T {
  double x, y;
};
static void adv(T &t, int &k) { t.x += k; t.y += 1; ++k; }
int main() {
  const int n = 16;
  T *a = new T[n];
  for (int i = 0; i < n; ++i) a[i] = T{double(i), 0.5 * i};
  for (int i = 0; i < n - 1;) adv(a[i], i);
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].x * (i + 1) + a[i].y;
  std::printf("%.3f\n", s);
  delete[] a;
}
