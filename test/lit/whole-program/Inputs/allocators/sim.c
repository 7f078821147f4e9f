#include "sim.h"

void init_particles(Particle *p, int n) {
  for (int i = 0; i < n; ++i) {
    p[i].x = i * 0.5;
    p[i].y = i * 0.25;
    p[i].z = 1.0 / (i + 1);
    p[i].vx = 0.1 * (i % 5);
    p[i].vy = 0.2;
    p[i].vz = -0.3 * (i % 3);
    p[i].mass = 1.0 + (i % 7);
    p[i].id = i;
    p[i].kind = i % 3;
  }
}

void drift(Particle *p, int n, double dt) {
  for (int i = 0; i < n; ++i) {
    p[i].x += dt * p[i].vx;
    p[i].y += dt * p[i].vy;
    p[i].z += dt * p[i].vz;
  }
}

double kinetic(const Particle *p, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += 0.5 * p[i].mass *
         (p[i].vx * p[i].vx + p[i].vy * p[i].vy + p[i].vz * p[i].vz);
  return e;
}
