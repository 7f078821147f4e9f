/* The particles of a small simulation, and the loader functions io.c
 * defines: each allocates the array and hands it back through a pointer to
 * the caller's variable, the caller owning it from then on. */
#ifndef PARTICLE_H
#define PARTICLE_H
#include <stddef.h>

typedef struct particle {
  double x, y;
  double vx, vy;
  double mass;
  int id;
} particle_t;

/* Parses "x y mass" triples; 0 on success, the count in *count. */
int parse_particles(const char *text, particle_t **out, size_t *count);
/* n particles on a lattice. */
int create_lattice(size_t n, particle_t **out);
/* Releases the array and clears the caller's variable. */
void destroy_particles(particle_t **ps);

#endif
