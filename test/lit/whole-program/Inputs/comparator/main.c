#include "grid.h"
#include <stdio.h>
#include <stdlib.h>

/* The last point of grid[0..n) below e (at most n - 2). */
static int search(const GridPoint *grid, int n, double e) {
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (grid[mid].energy > e)
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

int main(void) {
  const int nuclides = 5, points = 37;
  GridPoint *grid = build_grids(nuclides, points);
  double total = 0.0;
  for (int k = 0; k < 200; k++) {
    double e = (double)((k * 7919) % 1000) / 1000.0;
    for (int n = 0; n < nuclides; n++) {
      int i = search(grid + n * points, points, e);
      const GridPoint *low = &grid[n * points + i], *high = low + 1;
      double f = (high->energy - e) / (high->energy - low->energy);
      total += high->xs[0] - f * (high->xs[0] - low->xs[0]) + low->xs[1];
    }
  }
  printf("first %d %.6f last %d %.6f\n", grid[0].id, grid[0].energy,
         grid[nuclides * points - 1].id, grid[nuclides * points - 1].energy);
  printf("total %.6f\n", total);
  free(grid);
  return 0;
}
