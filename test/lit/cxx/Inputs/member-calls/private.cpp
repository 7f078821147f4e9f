// A class whose fields are all private.
#include <cstdio>
class T {
  double x_, y_;
public:

  void set(double x, double y) { x_ = x; y_ = y; }
  void advance(double dt) { x_ += y_ * dt; }
  double x() const { return x_; }
  double y() const { return y_; }
};
int main() {
  const int n = 9;
  T *a = new T[n];
  for (int i = 0; i < n; ++i) a[i].set(double(i), 0.5 * i);
  for (int i = 0; i < n; ++i) a[i].advance(0.1);
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].x() * (i + 1) + a[i].y();
  std::printf("%.3f\n", s);
  delete[] a;
}
