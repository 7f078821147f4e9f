// A grid whose byte counts main.c computes once and cells.c allocates and
// copies with (byte-count-field.test).
#ifndef GRID_H
#define GRID_H
#include <stddef.h>

typedef struct Cell {
  double mass;
  double heat;
  int hits;
} Cell;

typedef struct Grid {
  long cells;
  size_t cell_bytes;
} Grid;

Cell *make_cells(Grid g);
Cell *copy_cells(Grid g, const Cell *from);

#endif
