#include "grid.h"

int point_compare(const void *a, const void *b) {
  const GridPoint *p = (const GridPoint *)a;
  const GridPoint *q = (const GridPoint *)b;
  if (p->energy != q->energy)
    return p->energy < q->energy ? -1 : 1;
  return p->id - q->id;
}
