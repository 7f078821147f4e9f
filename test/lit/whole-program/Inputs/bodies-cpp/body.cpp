// body.cpp - Body::move and step(); see body.h.
#include "body.h"
void Body::move(float dt) {
  x += vx * dt;
  y += vy * dt;
}
void step(std::vector<Body> &v, float dt) {
  for (auto &b : v)
    b.move(dt);
}
