// Loops over containers of P, for the strip-mining test: which ones become
// tile and lane loops, and which stay as they are. Sizes are not multiples
// of any tile, so the loops over the last, partial tile run too.
#include <cstdio>
#include <vector>

struct P {
  float x, y;
  int id;
  double w;
  float speed() const { return x * x + y * y; }
};

struct Swarm {
  std::vector<P> ps;
  void drift(float d) {
    for (auto &p : ps)
      p.x += d;
  }
};

static int calls = 0;
static void note() { ++calls; }
static float bump(const P &p) { return p.y + 1; }

static void fill(std::vector<P> &v, int n) {
  for (int i = 0; i < n; ++i)
    v.push_back({float(i), float(2 * i), i, 0.5 * i});
}

static void update(std::vector<P> &v, float dt) {
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) {
    v[i].x += v[i].y * dt;
    v[i].w -= dt;
  }
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i].id += int(i);
  for (auto &p : v) {
    if (p.id % 3 == 0)
      continue;
    p.y *= 0.5f;
  }
  for (P &p : v)
    p.w += p.speed();
  for (int s = 0; s < 2; ++s)
    for (auto &&p : v)
      p.x -= 1;
}

static double sum(const std::vector<P> &v) {
  double s = 0;
  for (const P &p : v)
    s += p.x + p.y + p.id + p.w;
  for (auto p : v)
    s += p.speed();
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i].speed();
  return s;
}

// Loops that stay as they are, and why.
static void kept(std::vector<P> &v, std::vector<P> &other) {
  for (auto &p : v) { // Calls a function of the program.
    p.x += 1;
    note();
  }
  for (std::size_t i = 0; i < v.size(); ++i) // Passes an element on.
    v[i].y = bump(v[i]);
  for (std::size_t i = 0; i < other.size(); ++i) // Grows a container.
    if (other[i].id < 0)
      other.push_back(other[i]);
  for (auto &p : v) { // Leaves the loop.
    if (p.id > 30)
      break;
    p.w += 1;
  }
  for (auto &p : v) // Never names its variable.
    ++calls;
}

int main() {
  std::vector<P> v;
  fill(v, 37);
  update(v, 0.25f);
  std::vector<P> other(5);
  kept(v, other);
  Swarm sw;
  fill(sw.ps, 21);
  sw.drift(0.5f);
  std::printf("sum %.3f swarm %.3f other %zu calls %d\n", sum(v), sum(sw.ps),
              other.size(), calls);
  return 0;
}
