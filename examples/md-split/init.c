/* Set-up: every field of every particle, once. */
#include "particles.h"

static double draw(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return (double)(*seed % 10000) / 10000.0 - 0.5;
}

void init_particles(particle_t *p, int n, unsigned seed) {
  for (int i = 0; i < n; ++i) {
    p[i].x = draw(&seed);
    p[i].y = draw(&seed);
    p[i].z = draw(&seed);
    p[i].vx = 0.1 * draw(&seed);
    p[i].vy = 0.1 * draw(&seed);
    p[i].vz = 0.1 * draw(&seed);
    p[i].fx = p[i].fy = p[i].fz = 0.0;
    p[i].mass = 1.0 + 0.5 * draw(&seed);
    p[i].id = i;
    p[i].species = i % 3;
    p[i].charge = (i % 2) ? 1.0 : -1.0;
    p[i].radius = 0.01 * (1 + i % 3);
  }
}
