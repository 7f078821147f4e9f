#include "particle.h"
#include <stdio.h>
#include <stdlib.h>

int parse_particles(const char *text, particle_t **out, size_t *count) {
  if (!out || !count)
    return -1;
  size_t n = 0, cap = 4;
  *out = malloc(cap * sizeof **out);
  if (*out == NULL)
    return -1;
  double x, y, m;
  int used;
  while (sscanf(text, "%lf %lf %lf%n", &x, &y, &m, &used) == 3) {
    if (n == cap) {
      cap *= 2;
      particle_t *grown = realloc(*out, cap * sizeof(particle_t));
      if (!grown)
        return -1;
      *out = grown;
    }
    (*out)[n].x = x;
    (*out)[n].y = y;
    (*out)[n].vx = 0.0;
    (*out)[n].vy = 0.0;
    (*out)[n].mass = m;
    (*out)[n].id = (int)n;
    n++;
    text += used;
  }
  *count = n;
  return 0;
}

int create_lattice(size_t n, particle_t **out) {
  particle_t *p = calloc(n, sizeof *p);
  if (!p)
    return -1;
  for (size_t i = 0; i < n; ++i) {
    p[i].x = (double)(i % 17);
    p[i].y = (double)(i / 17 % 13);
    p[i].mass = 1.0 + (double)(i % 3);
    p[i].id = (int)i;
  }
  *out = p;
  return 0;
}

void destroy_particles(particle_t **ps) {
  free(*ps);
  *ps = NULL;
}
