#include <stdio.h>
#include <stdlib.h>
#include "cells.h"
double step(void) {
  double s = 0;
  for (int i = 0; i < ncells; i++) {
    cells[i].e = 0.5 * cells[i].e + 1;
    s += cells[i].e * cells[i].w;
  }
  return s;
}
int main(void) {
  alloc_cells(1000);
  double s = 0;
  for (int k = 0; k < 10; k++)
    s += step();
  printf("%.3f\n", s);
  free(cells);
  return 0;
}
