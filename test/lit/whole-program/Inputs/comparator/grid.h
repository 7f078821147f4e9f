/* Energy grids of a few nuclides, one after the other in one array: the
   comparator that sorts them is defined in compare.c, the sort in build.c
   and the lookups in main.c, as the proxy apps split them. */
#ifndef GRID_H
#define GRID_H

typedef struct {
  double energy;
  double xs[2];
  int id;
} GridPoint;

int point_compare(const void *a, const void *b);
GridPoint *build_grids(int nuclides, int points);

#endif
