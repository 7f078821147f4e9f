/* The arrays of a simulation held by pointer members of a struct that is
   passed around by value and by pointer, in the style of Monte Carlo
   transport proxy apps: allocated through the member, read as
   SD.grid[i].f and sim->grid[i].f, passed on to a function that takes the
   array, tested for null, released and reset. Written for dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double energy;
  double total_xs, elastic_xs, fission_xs;
} GridPoint;

typedef struct {
  int n;
  GridPoint *grid;
  double *weights;
} SimData;

static SimData init(int n) {
  SimData SD = {0, NULL, NULL};
  SD.n = n;
  SD.grid = (GridPoint *)malloc(n * sizeof(GridPoint));
  SD.weights = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    SD.grid[i].energy = i * 0.5;
    SD.grid[i].total_xs = (i % 11) * 0.25;
    SD.grid[i].elastic_xs = 1.0;
    SD.grid[i].fission_xs = (i % 3) * 0.1;
    SD.weights[i] = 1.0 / (1 + i % 5);
  }
  return SD;
}

static double total(const GridPoint *g, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += g[i].total_xs;
  return s;
}

static double lookups(const SimData *sim, int count) {
  double acc = 0;
  for (int k = 0; k < count; k++) {
    int i = (k * 7919) % sim->n;
    acc += sim->grid[i].total_xs * sim->weights[i] + sim->grid[i].fission_xs;
  }
  return acc + total(sim->grid, sim->n);
}

static void release(SimData *sim) {
  if (sim->grid)
    free(sim->grid);
  sim->grid = NULL;
  free(sim->weights);
}

int main(void) {
  SimData SD = init(5000);
  SimData copy = SD;
  printf("%.4f %.4f\n", lookups(&SD, 100000), copy.grid[3].energy);
  release(&SD);
  printf("released: %d\n", SD.grid == NULL);
  return 0;
}
