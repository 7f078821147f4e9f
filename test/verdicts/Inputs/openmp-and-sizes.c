// An OpenMP loop over the array and an allocation whose byte count was
// computed into a variable first.
#include <stdio.h>
#include <stdlib.h>

typedef struct Cell {
  double density, energy, pressure;
} Cell;

int main(void) {
  int n = 1000;
  size_t bytes = n * sizeof(Cell);
  Cell *cells = malloc(bytes);
  Cell *grid = malloc(n * sizeof(Cell));
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    cells[i].density = 1.0 + i;
    cells[i].energy = 2.0;
    grid[i].density = cells[i].density;
  }
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    grid[i].pressure = 0.4 * grid[i].density * cells[i].energy;
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += grid[i].pressure;
  printf("%.3f\n", sum);
  free(cells);
  free(grid);
  return 0;
}
