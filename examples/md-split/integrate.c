/* Symplectic Euler. */
#include "particles.h"

void integrate(particle_t *p, int n, double dt) {
  for (int i = 0; i < n; ++i) {
    double inv = dt / p[i].mass;
    p[i].vx += p[i].fx * inv;
    p[i].vy += p[i].fy * inv;
    p[i].vz += p[i].fz * inv;
    p[i].x += p[i].vx * dt;
    p[i].y += p[i].vy * dt;
    p[i].z += p[i].vz * dt;
  }
}
