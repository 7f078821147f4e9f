// Explicit iterator loops and the algorithms that read elements, over
// containers of P, for the iterator test.
#include <algorithm>
#include <cstdio>
#include <vector>

struct P {
  float x, y;
  int id;
  float norm() const { return x * x + y * y; }
  void shift(float d) { x += d; }
};

static void update(std::vector<P> &v, float dt) {
  for (auto it = v.begin(); it != v.end(); ++it) {
    it->x += it->y * dt;
    (*it).id += 1;
  }
  for (std::vector<P>::iterator it = v.begin(); it != v.end(); it++)
    it->shift(0.5f);
}

static double sum(const std::vector<P> &v) {
  double s = 0;
  for (std::vector<P>::const_iterator it = v.begin(); it != v.end(); ++it)
    s += it->x + it->norm() + (*it).norm();
  for (auto it = v.cbegin(); it != v.cend(); ++it) {
    const P &p = *it;
    P copy = *it;
    s += p.id + copy.y;
  }
  return s;
}

int main() {
  std::vector<P> v;
  for (int i = 0; i < 37; ++i)
    v.push_back({float(i), float(2 * i), i});
  update(v, 0.25f);
  auto last = v.end();
  --last;
  last->y = 7;
  long big = std::count_if(v.begin(), v.end(),
                           [](const P &p) { return p.x > 20; });
  auto found = std::find_if(v.cbegin(), v.cend(), [](P p) { return p.id > 30; });
  bool any = std::any_of(v.begin(), v.end(), [](const P &p) { return p.y < 0; });
  float total = 0;
  std::for_each(v.begin(), v.end(), [&total](const P &p) { total += p.x; });
  if (found != v.cend())
    std::printf("found %d %.3f\n", found->id, found->norm());
  std::printf("%.3f %g %ld %d %.3f\n", sum(v), v.back().y, big, int(any), total);
  return 0;
}
