// Non-const member functions called on elements of containers of Body,
// for the member-function test: through v[i], front(), back(), a range-for
// variable, and a std::array element; one defined out of the class.
#include <cstdio>
#include <vector>
#include <array>

struct Body {
  float x, y, vx, vy;
  void move(float dt) {
    x += vx * dt;
    y += vy * dt;
  }
  float slow(float f);
  int bounce(int wall) {
    if (x > wall) {
      vx = -vx;
      return 1;
    }
    return 0;
  }
  Body &self() { return *this; }
  void reset() { *this = Body{0, 0, 1, 1}; }
  float kinetic() const { return vx * vx + vy * vy; }
};

float Body::slow(float f) {
  vx *= f;
  vy *= f;
  return kinetic();
}

int main() {
  std::vector<Body> v;
  for (int i = 0; i < 37; ++i)
    v.push_back({float(i), float(2 * i), 1.5f, -0.5f});
  std::array<Body, 5> a{};
  int hits = 0;
  float e = 0;
  for (int s = 0; s < 10; ++s) {
    for (auto &b : v)
      b.move(0.1f);
    for (std::size_t i = 0; i < v.size(); ++i)
      hits += v[i].bounce(30);
    e += v.front().slow(0.99f);
    for (auto &b : a)
      b.move(1.0f);
  }
  v.back().reset();
  a[2].reset();
  double sum = 0;
  for (const Body &b : v)
    sum += b.x + b.y + b.kinetic();
  std::printf("%.3f %d %.3f %.3f\n", sum, hits, e, a[2].x + a[3].x);
  return 0;
}
