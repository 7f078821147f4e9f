// Function templates over containers of Body, for the template test: a
// deduced container parameter (also instantiated with another record), and
// a container spelled without template parameters.
#include <cstdio>
#include <vector>

struct Body {
  float x, y, vx, vy;
  float speed2() const { return vx * vx + vy * vy; }
  void move(float dt) {
    x += vx * dt;
    y += vy * dt;
  }
};

struct Other {
  double a;
};

// Deduced container: the rewritten one for std::vector<Body>.
template <class V> void step(V &v, float dt) {
  for (auto &b : v)
    b.move(dt);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i].vy -= 9.8f * dt;
}

template <class V> double energy(const V &v) {
  double e = 0;
  for (const auto &b : v)
    e += b.speed2();
  for (typename V::const_iterator it = v.begin(); it != v.end(); ++it)
    e += it->x;
  return e;
}

template <class V> std::size_t count(const V &v) { return v.size(); }

// A spelling without template parameters.
template <int Scale> float scaled(const std::vector<Body> &v) {
  float s = 0;
  for (const Body &b : v)
    s += Scale * b.x;
  return s;
}

int main() {
  std::vector<Body> bodies;
  for (int i = 0; i < 37; ++i)
    bodies.push_back({float(i), float(-i), 1.0f + i % 3, 0.5f});
  std::vector<Other> others(3, Other{2.5});
  for (int s = 0; s < 5; ++s)
    step(bodies, 0.01f);
  std::printf("%.4f %zu %zu %.3f\n", energy(bodies), count(bodies),
              count(others), scaled<3>(bodies));
  return 0;
}
