/* Forces of a harmonic trap with a little drag: one pass per step. */
#include "particles.h"

void compute_forces(particle_t *p, int n, double k) {
  for (int i = 0; i < n; ++i) {
    p[i].fx = -k * p[i].x - 0.01 * p[i].vx;
    p[i].fy = -k * p[i].y - 0.01 * p[i].vy;
    p[i].fz = -k * p[i].z - 0.01 * p[i].vz;
  }
}
