#include "particles.h"

void particles_init(Particle *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    p[i].x = (double)(seed % 1000) / 1000.0;
    p[i].y = (double)((seed >> 10) % 1000) / 1000.0;
    p[i].z = (double)((seed >> 20) % 1000) / 1000.0;
    p[i].vx = p[i].vy = p[i].vz = 0.0;
    p[i].mass = 1.0 + (double)(i % 3);
    p[i].species = (int)(i % 3);
  }
}

void particles_drift(Particle *p, size_t n, double dt) {
  for (size_t i = 0; i < n; ++i) {
    p[i].x += p[i].vx * dt;
    p[i].y += p[i].vy * dt;
    p[i].z += p[i].vz * dt;
  }
}

double particles_energy(const Particle *p, size_t n) {
  double e = 0.0;
  for (size_t i = 0; i < n; ++i)
    e += 0.5 * p[i].mass *
         (p[i].vx * p[i].vx + p[i].vy * p[i].vy + p[i].vz * p[i].vz);
  return e;
}
