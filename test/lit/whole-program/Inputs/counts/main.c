#include "grid.h"
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  Grid g;
  g.cells = 1000;
  g.cell_bytes = g.cells * sizeof(Cell);
  Cell *c = make_cells(g);
  for (int step = 0; step < 20; ++step)
    for (long i = 0; i < g.cells; ++i) {
      c[i].heat += 0.5 * c[i].mass;
      c[i].hits += (c[i].heat > 10.0);
    }
  Cell *keep = copy_cells(g, c);
  double sum = 0;
  long hits = 0;
  for (long i = 0; i < g.cells; ++i) {
    sum += keep[i].heat;
    hits += keep[i].hits;
  }
  printf("heat %.2f hits %ld\n", sum, hits);
  free(c);
  free(keep);
  return 0;
}
