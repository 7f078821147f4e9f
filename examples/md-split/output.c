/* Energies and the final summary. */
#include <stdio.h>
#include "particles.h"

double kinetic_energy(const particle_t *p, int n) {
  double e = 0.0;
  for (int i = 0; i < n; ++i)
    e += 0.5 * p[i].mass *
         (p[i].vx * p[i].vx + p[i].vy * p[i].vy + p[i].vz * p[i].vz);
  return e;
}

void write_summary(const particle_t *p, int n) {
  double q = 0.0, r = 0.0, x = 0.0;
  long ids = 0, species = 0;
  for (int i = 0; i < n; ++i) {
    q += p[i].charge;
    r += p[i].radius;
    x += p[i].x + p[i].y + p[i].z;
    ids += p[i].id;
    species += p[i].species;
  }
  printf("charge %.3f radius %.4f position %.6f ids %ld species %ld\n", q, r,
         x, ids, species);
}
