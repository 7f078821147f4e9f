// Arrays of a record held by classes: allocated in a constructor's
// initializer list, set to null there, passed to a constructor, copied
// deeply by a copy constructor, released in a destructor, reached from
// member functions as this->pts[i] and pts[i].
#include <cstdio>

struct P {
  double x, y;
};

class Cloud {
public:
  int n;
  P *pts;
  explicit Cloud(int n) : n(n), pts(new P[n]) {
    for (int i = 0; i < n; ++i) {
      pts[i].x = i;
      pts[i].y = 2.0 * i;
    }
  }
  Cloud(const Cloud &o) : n(o.n), pts(new P[o.n]) {
    for (int i = 0; i < n; ++i)
      pts[i] = o.pts[i];
  }
  Cloud &operator=(const Cloud &) = delete;
  ~Cloud() { delete[] pts; }
  void shift(double d) {
    for (int i = 0; i < n; ++i)
      this->pts[i].x += d;
  }
  double sum() const {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += pts[i].x * pts[i].y;
    return s;
  }
};

class View {
public:
  P *pts;
  int n;
  View() : pts(nullptr), n(0) {}
  View(P *p, int n) : pts(p), n(n) {}
  double first() const { return pts ? pts[0].x + pts[n - 1].y : -1.0; }
};

int main() {
  Cloud a(100);
  Cloud b = a;
  b.shift(0.5);
  b.pts[3].x = 7;
  View none;
  View v(a.pts, a.n);
  printf("%.3f %.3f %.3f %.3f\n", a.sum(), b.sum(), v.first(), none.first());
  return 0;
}
