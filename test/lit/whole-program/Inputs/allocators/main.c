#include "sim.h"
#include "util.h"
#include <stdio.h>
#include <string.h>

int main(void) {
  int n = 20000, ncells = 512;
  Particle *p = xmalloc(n * sizeof(Particle));
  Particle *prev = aligned_xmalloc(sizeof(Particle) * n);
  Cell *cells = counted_malloc(ncells * sizeof(Cell));
  Particle *travel = xcalloc(n, sizeof(Particle));
  init_particles(p, n);
  for (int c = 0; c < ncells; ++c) {
    cells[c].heat = 0;
    cells[c].flux = 0;
    cells[c].hits = 0;
  }
  for (int s = 0; s < 20; ++s) {
    memcpy(prev, p, n * sizeof(Particle));
    drift(p, n, 0.01);
    for (int i = 0; i < n; ++i) {
      int c = (int)(p[i].x + prev[i].y) % ncells;
      cells[c].heat += p[i].mass;
      cells[c].hits++;
      travel[i].x += p[i].x - prev[i].x;
      travel[i].mass = p[i].mass;
    }
  }
  double x = 0, heat = 0;
  for (int i = 0; i < n; ++i)
    x += p[i].x + p[i].y + p[i].z + travel[i].x * travel[i].mass;
  for (int c = 0; c < ncells; ++c)
    heat += cells[c].heat + cells[c].hits;
  prev = xrealloc(prev, 2 * n * sizeof(Particle));
  for (int i = 0; i < n; ++i)
    prev[n + i] = p[n - 1 - i];
  for (int i = 0; i < 2 * n; i += 100)
    heat += prev[i].x;
  printf("x %.6f kinetic %.6f heat %.3f bytes %zu\n", x, kinetic(p, n), heat,
         bytes_allocated);
  xfree(prev);
  xfree(p);
  xfree(cells);
  xfree(travel);
  return 0;
}
