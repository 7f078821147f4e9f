/* Skipped branches that name the arrays only through local pointers, a
   branch after `#if 0` in one chain, and a header read twice. Each is
   compiled as written elsewhere (-DGUI, -DTRACE). Written for dlopt's
   tests. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float x, y;
} cell_t;

static cell_t *cells;
#include "draw.h"
#include "draw.h"

static float sum_box(int first, int n) {
  cell_t *box = cells + first;
  float s = 0;
  for (int j = 0; j < n; j++)
    s += box[j].x;
#ifdef TRACE
  printf("box %f\n", box[0].y);
#endif
  return s;
}

int main(void) {
  cells = malloc(64 * sizeof(cell_t));
  if (!cells)
    return 1;
  for (int i = 0; i < 64; i++) {
    cell_t *c = &cells[i];
    c->x = i;
    c->y = 1;
#if 0
    old code
#elif defined(CHECK)
    printf("%f\n", c->y);
#endif
  }
  printf("%.1f\n", sum_box(8, 16));
  free(cells);
  return 0;
}

/* Another function's own 'box' and 'c' (a block and a count), in a branch
   it skips: not the cells' box and c, which only their functions see. */
void release_block(void *box, int c) {
#ifdef POOL
  pool_put(box, c);
#else
  (void)c;
  free(box);
#endif
}
