// main.cpp - calls step() from body.cpp; see body.h.
#include "body.h"
#include <cstdio>
int main() {
  std::vector<Body> v(20, Body{1, 2, 0.5f, 0.25f});
  for (int s = 0; s < 10; ++s)
    step(v, 0.1f);
  double e = 0;
  for (const Body &b : v)
    e += b.x + b.y + b.speed2();
  std::printf("%.4f\n", e);
}
