#include <stdlib.h>
#include "cells.h"
void alloc_cells(int n) {
  cells = malloc(n * sizeof(Cell));
  ncells = n;
  for (int i = 0; i < n; i++) {
    cells[i].e = i % 7;
    cells[i].w = 1;
    cells[i].id = i;
  }
}
