/* Sub-arrays in strip-mined loops, in the style of particle codes that keep
   particles sorted by box (lavaMD): a box's particles through a pointer to
   its first one (rB = &rv[first]), read in the inner loop over the box,
   whose offsets are rarely multiples of a tile. Also: two boxes read with
   one index (their offsets may sit differently in a tile), the whole array
   beside a box, an old-style loop (j declared before, j = j + 1), a loop
   that moves its own pointer (no peel), empty boxes, and an OpenMP loop.
   Written for dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double v, x, y, z;
} FourVector;

/* One box against another: the inner loop reads rB[j] only. */
static double pair_energy(const FourVector *rA, int na, const FourVector *rB,
                          int nb) {
  double e = 0;
  for (int i = 0; i < na; i++)
    for (int j = 0; j < nb; j++) {
      double dx = rA[i].x - rB[j].x, dy = rA[i].y - rB[j].y;
      e += rA[i].v * rB[j].v / (1.0 + dx * dx + dy * dy + rB[j].z);
    }
  return e;
}

/* Two boxes with one index, and an old-style loop. */
static double overlap(const FourVector *a, const FourVector *b, int n) {
  double s = 0;
  int j;
  for (j = 0; j < n; j = j + 1)
    s += a[j].x * b[j].y - a[j].v * b[j].z;
  return s + j;
}

/* A box beside the whole array, which starts at a tile boundary. */
static void shift_box(FourVector *all, FourVector *box, int n, double d) {
  for (int k = 0; k < n; ++k) {
    box[k].x += d * all[k].y;
    box[k].v = box[k].v * 0.5 + all[k].v;
  }
}

/* The pointer moves inside the loop: no peel, the flat form. */
static double stride_sum(FourVector *rv, int n) {
  double s = 0;
  FourVector *p = rv;
  for (int k = 0; k < n; ++k) {
    s += p[k].x;
    p = rv + (k % 3);
  }
  return s;
}

int main(void) {
  int boxes = 9, per = 21, n = boxes * per;
  FourVector *rv = malloc((size_t)n * sizeof(FourVector));
  if (!rv)
    return 1;
  for (int i = 0; i < n; i++) {
    rv[i].v = (i % 5) * 0.5;
    rv[i].x = i * 0.01;
    rv[i].y = (i % 7) * 0.3;
    rv[i].z = (i % 3) * 0.2;
  }
  double total = 0;
  for (int b = 0; b < boxes; b++) {
    int first = b * per;
    FourVector *rB = &rv[first];
    for (int nb = 0; nb < boxes; nb += 2)
      total += pair_energy(rv + nb * per, per, rB, per - (b % 4) * 6);
    total += overlap(rB, rv + (b * 7) % (n - per), per - b);
    total += pair_energy(rB, 2, rB, 0);
    shift_box(rv, rB + 1, per - 1, 0.001 * b);
  }
  total += stride_sum(rv, n - 3);
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int b = 0; b < boxes; b++) {
    FourVector *box = rv + b * per;
    for (int j = 0; j < per; j++)
      sum += box[j].x * box[j].v;
  }
  printf("%.6f %.6f\n", total, sum);
  free(rv);
  return 0;
}
