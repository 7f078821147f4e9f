/* md-split: particles in a harmonic trap with drag, integrated by
   symplectic Euler. The time-step loop calls the kernels of forces.c and
   integrate.c; init.c and output.c run once (dlopt counts their calls
   across files: docs/analysis.md).

   Usage: md [--small] [particles [steps]]: prints the kinetic energy every
   100 steps and a summary at the end, identical for every layout of
   particle_t. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "particles.h"

int main(int argc, char **argv) {
  int n = 1000000, steps = 100;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    n = 2000;
    steps = 30;
    ++arg;
  }
  if (arg < argc)
    n = atoi(argv[arg++]);
  if (arg < argc)
    steps = atoi(argv[arg++]);
  if (n <= 0 || steps < 0) {
    fprintf(stderr, "usage: %s [--small] [particles [steps]]\n", argv[0]);
    return 2;
  }
  particle_t *p = malloc((size_t)n * sizeof *p);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
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
