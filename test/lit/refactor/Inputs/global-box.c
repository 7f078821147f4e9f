/* Particles sorted by box, the current box kept in a global pointer that
   the box loop moves (a sub-array); the inner loops index it. Written for
   dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>
typedef struct {
  double q, x, y;
} Particle;
static Particle *box;
static double box_sum(int n) {
  double s = 0;
  for (int j = 0; j < n; j++)
    s += box[j].q * (box[j].x + box[j].y);
  return s;
}
int main(void) {
  int boxes = 8, per = 13;
  Particle *all = malloc((size_t)boxes * per * sizeof(Particle));
  if (!all)
    return 1;
  for (int i = 0; i < boxes * per; i++) {
    all[i].q = i % 3;
    all[i].x = i * 0.5;
    all[i].y = 1;
  }
  double total = 0;
  for (int b = 0; b < boxes; b++) {
    box = &all[b * per];
    total += box_sum(per);
  }
  printf("%.3f\n", total);
  free(all);
  return 0;
}
