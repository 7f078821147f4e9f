// Every use of a std::array<P, N> that the container rewrite keeps: the
// program prints the same after the rewrite into each layout.
#include <algorithm>
#include <array>
#include <cstdio>

struct P {
  float x, y;
  int id;
  double w;
  float norm2() const { return x * x + y * y; }
};

constexpr std::size_t kCount = 45;
static std::array<P, kCount> global;
using Small = std::array<P, 7>;

struct World {
  std::array<P, (kCount > 8 ? 2 * 8 : 4)> ps;
  int steps;
};

static void fill(std::array<P, kCount> &a) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i].x = i * 0.5f;
    a[i].y = 1.0f - i;
    a[i].id = (int)((i * 7) % kCount);
    a[i].w = i % 3;
  }
}

static double sum(const std::array<P, kCount> &a) {
  double s = 0;
  for (std::array<P, kCount>::size_type i = 0; i < a.size(); ++i)
    s += a[i].x * a[i].w + a.at(i).y * (i + 1);
  for (const P &p : a)
    s += p.id;
  for (P p : a)
    s += p.norm2();
  return s + a.front().x + a.back().y;
}

int main() {
  fill(global);
  for (auto &p : global)
    p.x += p.y * 0.25f;
  std::printf("sum %.3f empty %d\n", sum(global), (int)global.empty());
  std::sort(global.begin(), global.end(),
            [](const P &a, const P &b) { return a.id < b.id; });
  std::reverse(global.begin() + 3, global.end() - 2);
  std::swap(global[0], global[kCount - 1]);
  std::printf("sorted %.3f %d\n", sum(global), global[4].id);

  // Lists of elements (the rest value-initialized), braces elided or not.
  std::array<P, 4> given = {{{1, 2, 3, 4.5}, {5, 6, 7, 8.5}}};
  std::array<P, 3> flat = {1, 2, 3, 4, 5, 6};
  std::array<P, 2> made{{global[2], {9, 10, 11, 12}}};
  double lists = 0;
  for (const P &p : given)
    lists += p.x + 2 * p.y + 3 * p.id + 4 * p.w;
  for (const P &p : flat)
    lists += p.x + 2 * p.y + 3 * p.id + 4 * p.w;
  for (const P &p : made)
    lists += p.x + 2 * p.y + 3 * p.id + 4 * p.w;
  std::printf("lists %.3f\n", lists);

  Small local{};
  local.fill(global[3]);
  local[2].w = 7;
  World world;
  world.steps = 3;
  for (std::size_t i = 0; i < world.ps.size(); ++i) {
    world.ps[i].x = local[i % local.size()].x + i;
    world.ps[i].y = 2;
    world.ps[i].id = (int)i;
    world.ps[i].w = local[i % 7].w;
  }
  double t = 0;
  for (int s = 0; s < world.steps; ++s)
    for (auto &&p : world.ps)
      t += p.x * p.y + p.w;
  std::printf("local %.3f world %.3f\n", local[6].w + local[0].x, t);
  return 0;
}
