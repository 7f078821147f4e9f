/* Byte counts kept in struct fields, as Rodinia's lavaMD keeps them
   (dim_cpu.space_mem = dim_cpu.space_elem * sizeof(FOUR_VECTOR)), then
   passed to malloc and memcpy and printed. Written for dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  double v, x, y, z;
} FOUR_VECTOR;

typedef struct {
  long number_boxes;
  long space_elem;
  long space_mem;
  long scratch_mem; /* assigned twice, once to no multiple of the size */
} dim_str;

static void sizes(dim_str *d, long boxes) {
  d->number_boxes = boxes;
  d->space_elem = d->number_boxes * 10;
  d->space_mem = d->space_elem * (long)sizeof(FOUR_VECTOR);
}

int main(void) {
  dim_str dim_cpu = {0, 0, 0, 0};
  sizes(&dim_cpu, 5);
  FOUR_VECTOR *rv = (FOUR_VECTOR *)malloc(dim_cpu.space_mem);
  FOUR_VECTOR *fv = (FOUR_VECTOR *)malloc(dim_cpu.space_mem);
  if (!rv || !fv)
    return 1;
  for (long i = 0; i < dim_cpu.space_elem; i++) {
    rv[i].v = (double)(i % 7);
    rv[i].x = 0.5 * (double)i;
    rv[i].y = 1.0;
    rv[i].z = (double)(i % 3);
  }
  memcpy(fv, rv, dim_cpu.space_mem);
  double s = 0.0;
  for (long i = 0; i < dim_cpu.space_elem; i++)
    s += fv[i].v * fv[i].x + fv[i].y - fv[i].z;
  printf("%ld bytes, %.3f\n", dim_cpu.space_mem, s);
  free(rv);
  free(fv);
  return 0;
}
