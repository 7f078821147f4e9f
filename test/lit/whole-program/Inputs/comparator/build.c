#include "grid.h"
#include <assert.h>
#include <stdlib.h>

GridPoint *build_grids(int nuclides, int points) {
  GridPoint *grid = malloc((size_t)nuclides * points * sizeof(GridPoint));
  assert(grid != NULL);
  unsigned seed = 12345;
  for (int i = 0; i < nuclides * points; i++) {
    seed = seed * 1103515245u + 12345u;
    grid[i].energy = (double)(seed >> 8 & 0xffff) / 65536.0;
    grid[i].xs[0] = (double)(i % 17) * 0.25;
    grid[i].xs[1] = (double)(i % 5) + 1.0;
    grid[i].id = i;
  }
  /* Each nuclide's grid sorted on its own: a sub-array at a time. */
  for (int n = 0; n < nuclides; n++)
    qsort(&grid[n * points], points, sizeof(GridPoint), point_compare);
  return grid;
}
