/* Allocation sizes as real programs write them: a byte count computed
   beforehand (and printed, so it must keep its value), the factors in any
   order, a grid of w * h cells. Written for dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float e, w;
  int id;
} Cell;

int main(int argc, char **argv) {
  int w = argc > 1 ? atoi(argv[1]) : 40, h = 30;
  size_t bytes = (size_t)w * h * sizeof(Cell);
  Cell *grid = malloc(bytes);
  Cell *next = (Cell *)malloc(sizeof(Cell) * w * h);
  printf("%zu bytes\n", bytes);
  for (int i = 0; i < w * h; i++) {
    grid[i].e = i % 7;
    grid[i].w = 1;
    grid[i].id = i;
  }
  for (int s = 0; s < 10; s++) {
    for (int i = 0; i < w * h; i++) {
      next[i].e = 0.5f * grid[i].e + 0.25f * grid[(i + 1) % (w * h)].e;
      next[i].w = grid[i].w;
      next[i].id = grid[i].id;
    }
    Cell *t = grid;
    grid = next;
    next = t;
  }
  /* One more row: the factors the other way round. */
  grid = realloc(grid, w * sizeof(Cell) * (h + 1));
  for (int i = w * h; i < w * (h + 1); i++) {
    grid[i].e = 1;
    grid[i].w = 2;
    grid[i].id = -i;
  }
  double sum = 0;
  for (int i = 0; i < w * (h + 1); i++)
    sum += grid[i].e * grid[i].w + grid[i].id;
  printf("%.3f\n", sum);
  free(grid);
  free(next);
  return 0;
}
