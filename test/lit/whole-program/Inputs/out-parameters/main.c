/* Loads two sets of particles through io.c's loaders, moves them toward a
 * centre, prints their energy and releases them. */
#include "particle.h"
#include <stdio.h>

static void step(particle_t *p, size_t n, double dt) {
  for (size_t i = 0; i < n; ++i) {
    p[i].vx += dt * (8.0 - p[i].x) / p[i].mass;
    p[i].vy += dt * (6.0 - p[i].y) / p[i].mass;
  }
  for (size_t i = 0; i < n; ++i) {
    p[i].x += dt * p[i].vx;
    p[i].y += dt * p[i].vy;
  }
}

static double energy(const particle_t *p, size_t n) {
  double e = 0;
  for (size_t i = 0; i < n; ++i)
    e += 0.5 * p[i].mass * (p[i].vx * p[i].vx + p[i].vy * p[i].vy);
  return e;
}

int main(void) {
  const char *input = "0 0 1\n1 2 2\n4 4 1\n9 1 3\n2 8 1\n7 7 2\n3 5 1\n";
  particle_t *parsed = NULL, *lattice = NULL;
  size_t n = 0, m = 1001;
  if (parse_particles(input, &parsed, &n) || create_lattice(m, &lattice))
    return 1;
  for (int s = 0; s < 100; ++s) {
    step(parsed, n, 0.01);
    step(lattice, m, 0.01);
  }
  printf("%zu parsed: %.6f, %zu on the lattice: %.6f (last id %d)\n", n,
         energy(parsed, n), m, energy(lattice, m), lattice[m - 1].id);
  destroy_particles(&parsed);
  destroy_particles(&lattice);
  printf("released: %s\n", parsed == NULL && lattice == NULL ? "yes" : "no");
  return 0;
}
