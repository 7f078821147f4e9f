#include "grid.h"
#include <stdlib.h>
#include <string.h>

Cell *make_cells(Grid g) {
  Cell *c = malloc(g.cell_bytes);
  memset(c, 0, g.cell_bytes);
  for (long i = 0; i < g.cells; ++i)
    c[i].mass = 1.0 + (double)(i % 7);
  return c;
}

Cell *copy_cells(Grid g, const Cell *from) {
  Cell *c = malloc(g.cell_bytes);
  memcpy(c, from, g.cell_bytes);
  return c;
}
