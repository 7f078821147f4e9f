// Every use of a std::vector<P> that the container rewrite keeps: the
// program prints the same after the rewrite into each layout.
#include <cstdio>
#include <vector>

struct P {
  float x, y;
  int id;
  double w;
  float norm2() const { return x * x + y * y; }
};

typedef std::vector<P> Cloud;
using Cloud2 = std::vector<P>;

struct World {
  std::vector<P> ps;
  int steps;
};

static void fill(std::vector<P> &v, int n) {
  v.reserve(n);
  for (int i = 0; i < n; ++i) {
    P p;
    p.x = i * 0.5f;
    p.y = 1.0f - i;
    p.id = i;
    p.w = i % 3;
    v.push_back(p);
  }
  v.emplace_back();
  v.emplace_back(v[0]);
}

static double sum(const std::vector<P> &v) {
  double s = 0;
  for (std::vector<P>::size_type i = 0; i < v.size(); ++i)
    s += v[i].x * v[i].w + v.at(i).y;
  for (const P &p : v)
    s += p.id;
  for (const auto &p : v)
    s += p.y;
  for (P p : v)
    s += p.norm2();
  return s;
}

static void move(Cloud &v, float dt) {
  for (auto &p : v) {
    p.x += p.y * dt;
    p.w *= 0.5;
  }
  for (P &p : v)
    p.id += 1;
  for (auto &&p : v)
    p.y -= dt;
}

static void shuffle(Cloud2 &v) {
  // Whole elements: copies stay copies, assignments write every field.
  for (std::size_t i = 0; i + 1 < v.size(); i += 2) {
    P a = v[i];
    auto b = v[i + 1];
    b.x += 100; // a copy: the element keeps its x
    v[i] = v[i + 1];
    v[i + 1] = a;
  }
  for (auto p : v)
    p.id = -1; // a copy too
  const P &first = v[0];
  v[0].w = 42;
  std::printf("first.w %g\n", first.w);
}

int main() {
  Cloud v;
  fill(v, 37);
  std::printf("size %zu empty %d sum %.3f\n", v.size(), (int)v.empty(),
              sum(v));
  move(v, 0.25f);
  shuffle(v);
  std::printf("front %g back %g\n", v.front().x, v.back().y);
  v.pop_back();
  v.resize(50);
  std::printf("after resize %.3f %d\n", sum(v), v[49].id);
  v.resize(20);
  v.back().id = 7;
  World w;
  w.ps = std::vector<P>(5);
  w.steps = 3;
  for (int s = 0; s < w.steps; ++s)
    for (std::size_t i = 0; i < w.ps.size(); ++i)
      w.ps[i].x += s + i;
  std::vector<P> big(40, v[3]);
  for (std::size_t i = 0; i < big.size(); ++i)
    big[i].id += i;
  std::printf("world %.3f big %.3f\n", sum(w.ps), sum(big));
  v.clear();
  std::printf("cleared %zu\n", v.size());
  try {
    v.at(3).x = 1;
  } catch (...) {
    std::printf("at threw\n");
  }
  return 0;
}
