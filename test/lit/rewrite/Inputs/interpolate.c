/* A cross-section lookup in the style of Monte Carlo proxy apps: a binary
   search over an energy grid, then interpolation between the two bounding
   grid points through element pointers declared together (low, high) and
   moved by one (high = low + 1). Written for dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double energy;
  double total_xs, elastic_xs, fission_xs;
} point_t;

static double lookup(const point_t *grid, int n, double e) {
  const point_t *low, *high;
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (grid[mid].energy > e)
      hi = mid;
    else
      lo = mid;
  }
  low = &grid[lo];
  high = low + 1;
  double f = (high->energy - e) / (high->energy - low->energy);
  return high->total_xs - f * (high->total_xs - low->total_xs) +
         0.5 * (high->fission_xs - f * (high->fission_xs - low->fission_xs));
}

int main(void) {
  int n = 1000;
  point_t *grid = malloc(n * sizeof(point_t));
  for (int i = 0; i < n; i++) {
    grid[i].energy = i * 0.01;
    grid[i].total_xs = 1.0 + (i % 13) * 0.1;
    grid[i].elastic_xs = 0.5;
    grid[i].fission_xs = (i % 7) * 0.05;
  }
  double sum = 0;
  unsigned seed = 12345;
  for (int k = 0; k < 20000; k++) {
    seed = seed * 1103515245u + 12345u;
    double e = (seed % 99000) / 10000.0;
    sum += lookup(grid, n, e);
  }
  printf("%.6f\n", sum);
  free(grid);
  return 0;
}
