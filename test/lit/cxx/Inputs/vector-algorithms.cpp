// The standard algorithms that move, swap and compare whole elements of a
// std::vector<P>, over its begin() and end(): the program prints the same
// after the rewrite into each layout.
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

struct P {
  float x, y;
  int id;
  double w;
  bool operator<(const P &o) const { return id < o.id; }
};

static bool byX(const P &a, const P &b) { return a.x < b.x; }

struct ByW {
  bool operator()(P a, P b) const { return a.w < b.w; }
};

static double checksum(const std::vector<P> &v) {
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (v[i].x + 2 * v[i].y + v[i].w) * (i + 1) + v[i].id * 0.5;
  return s;
}

int main() {
  std::vector<P> v;
  for (int i = 0; i < 200; ++i) {
    P p;
    p.x = (i * 37) % 101;
    p.y = i % 13;
    p.id = (i * 71) % 200;
    p.w = (i * 29) % 53 * 0.25;
    v.push_back(p);
  }
  std::sort(v.begin(), v.end(), byX);
  std::printf("sort by x %.2f\n", checksum(v));
  std::stable_sort(v.begin(), v.end(),
                   [](const P &a, const P &b) { return a.id % 7 < b.id % 7; });
  std::printf("stable_sort %.2f\n", checksum(v));
  std::sort(v.begin(), v.end()); // operator<
  std::printf("sort %.2f\n", checksum(v));
  std::sort(v.begin(), v.end(), ByW());
  std::partial_sort(v.begin(), v.begin() + 20, v.end(),
                    [](const auto &a, const auto &b) { return a.y > b.y; });
  std::printf("partial_sort %.2f\n", checksum(v));
  std::nth_element(v.begin(), v.begin() + 100, v.end(), byX);
  std::printf("nth_element %.2f %g\n", checksum(v), v[100].x);
  std::reverse(v.begin(), v.end());
  std::rotate(v.begin(), v.begin() + 17, v.end());
  std::printf("reverse, rotate %.2f\n", checksum(v));
  std::mt19937 rng(42);
  std::shuffle(v.begin(), v.end(), rng);
  std::printf("shuffle %.2f\n", checksum(v));
  std::swap(v[0], v[199]);
  std::swap(v.front(), v.at(5));
  for (auto &p : v)
    if (p.id % 2)
      std::swap(p, v[p.id % 200]);
  std::printf("swap %.2f %d %d\n", checksum(v), v[0].id, v[199].id);
  return 0;
}
