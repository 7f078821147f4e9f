/* Usage: md [particles [steps]]: prints the kinetic energy every 100 steps
   and a summary at the end. */
#include <stdio.h>
#include <stdlib.h>
#include "particles.h"

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2000;
  int steps = argc > 2 ? atoi(argv[2]) : 300;
  if (n <= 0 || steps < 0) {
    fprintf(stderr, "usage: %s [particles [steps]]\n", argv[0]);
    return 2;
  }
  particle_t *p = malloc((size_t)n * sizeof *p);
  if (!p)
    return 1;
  init_particles(p, n, 7u);
  for (int s = 0; s < steps; ++s) {
    compute_forces(p, n, 0.5);
    integrate(p, n, 0.01);
    if (s % 100 == 0)
      printf("step %d kinetic %.6f\n", s, kinetic_energy(p, n));
  }
  write_summary(p, n);
  free(p);
  return 0;
}
