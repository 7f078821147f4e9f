// With one cluster tiled, only the loops that reach a tiled field are
// strip-mined: the pair loop below reads the SoA positions alone and keeps
// its form (strip-mined into 8-lane tiles, each tile would end with three
// horizontal sums: 3.7x slower in n-body), while the loops that update the
// tiled velocities go over whole tiles. Same output in each layout.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --record Body --layouts 'split:{x,y,z,m}soa{vx,vy,vz}tiled:8 tiled:8' %s | FileCheck --check-prefix=DIFF %s
// DIFF:      split:{x,y,z,m}soa{vx,vy,vz}tiled:8: same output
// DIFF-NEXT: tiled:8: same output
//
// RUN: cp %s %t.cpp
// RUN: %dl-refactor --apply '--layout=Body=split:{x,y,z,m}soa{vx,vy,vz}tiled:8' %t.cpp -- -std=c++17
// RUN: %drop-checks %t.cpp | FileCheck --check-prefix=CODE %s
// CODE:      for (std::size_t i = 0; i < n; ++i) {
// CODE-NEXT:   float ax = 0.0f, ay = 0.0f, az = 0.0f;
// CODE-NEXT:   for (std::size_t j = 0; j < n; ++j) {
// CODE-NEXT:     float dx = bodies[j].x - bodies[i].x;
// CODE:          float s = bodies[j].m / (d2 * d2);
// CODE:        bodies[i].vx += dt * ax;
// CODE:      for (std::size_t i_tile = 0; i_tile < bodies.size() / 8; ++i_tile) {
// CODE-NEXT:   for (std::size_t i_lane = 0; i_lane < 8; ++i_lane) {
// CODE-NEXT:     bodies.element(i_tile, i_lane).x +=
// CODE-NEXT:         dt * bodies.element(i_tile, i_lane).vx;
#include <cstdio>
#include <vector>

struct Body {
  float x, y, z, m;
  float vx, vy, vz;
};

static void forces(std::vector<Body> &bodies, float dt) {
  const std::size_t n = bodies.size();
  for (std::size_t i = 0; i < n; ++i) {
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (std::size_t j = 0; j < n; ++j) {
      float dx = bodies[j].x - bodies[i].x;
      float dy = bodies[j].y - bodies[i].y;
      float dz = bodies[j].z - bodies[i].z;
      float d2 = dx * dx + dy * dy + dz * dz + 0.01f;
      float s = bodies[j].m / (d2 * d2);
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    bodies[i].vx += dt * ax;
    bodies[i].vy += dt * ay;
    bodies[i].vz += dt * az;
  }
}

static void update(std::vector<Body> &bodies, float dt) {
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    bodies[i].x += dt * bodies[i].vx;
    bodies[i].y += dt * bodies[i].vy;
    bodies[i].z += dt * bodies[i].vz;
  }
}

int main() {
  std::vector<Body> bodies(37);
  for (std::size_t i = 0; i < bodies.size(); ++i)
    bodies[i] = {float(i % 7), float(i % 5), float(i % 3), 1.0f + i % 2,
                 0.0f, 0.0f, 0.0f};
  for (int step = 0; step < 3; ++step) {
    forces(bodies, 0.01f);
    update(bodies, 0.01f);
  }
  double sum = 0;
  for (const Body &b : bodies)
    sum += b.x + b.y + b.z + b.vx + b.vy + b.vz;
  std::printf("%.6f\n", sum);
  return 0;
}
