// C++20 for the cxx20 test: a range-for with an init-statement, and the
// element proxies, which C++20 no longer treats as aggregates once they
// declare their copy constructor.
#include <cstdio>
#include <vector>

struct P {
  float x, y;
};

int main() {
  std::vector<P> v(10, P{1, 2});
  for (float k = 2; auto &p : v)
    p.x *= k;
  for (auto &p : v)
    p.y += p.x;
  float s = 0;
  for (const P &p : v)
    s += p.x + p.y;
  std::printf("%g\n", s);
}
