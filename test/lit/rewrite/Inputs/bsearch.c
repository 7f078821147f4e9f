/* bsearch over a sorted array of records, whole and one block at a time,
   with a key of the record's type and a key of another type. Built with
   -DWHOLE_ARRAY_ONLY, it takes no sub-array but the searches' results. */
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 20

typedef struct {
  double energy;
  int id;
  float xs[2];
} Point;

static int by_energy(const void *a, const void *b) {
  const Point *p = (const Point *)a, *q = (const Point *)b;
  return p->energy < q->energy ? -1 : p->energy > q->energy ? 1 : 0;
}

static int key_vs_point(const void *k, const void *e) {
  double key = *(const double *)k;
  const Point *p = (const Point *)e;
  return key < p->energy ? -1 : key > p->energy ? 1 : 0;
}

int main(void) {
  const int n = 60;
  Point *pts = malloc(n * sizeof(Point));
  if (!pts)
    return 1;
  for (int i = 0; i < n; i++) {
    pts[i].energy = (double)((i * 37) % 61);
    pts[i].id = i;
    pts[i].xs[0] = (float)i * 0.5f;
    pts[i].xs[1] = 1.0f;
  }
#ifndef WHOLE_ARRAY_ONLY
  for (int b = 0; b < n; b += BLOCK)
    qsort(&pts[b], BLOCK, sizeof(Point), by_energy);
#endif
  qsort(pts, n, sizeof(Point), by_energy);
  int found = 0;
  double sum = 0.0;
  for (int k = 0; k < 70; k++) {
    Point key;
    key.energy = (double)k;
    Point *hit = bsearch(&key, pts, n, sizeof(Point), by_energy);
    if (hit != NULL) {
      found++;
      sum += hit->xs[0] + hit->id;
    }
    double e = (double)(k % 61);
#ifndef WHOLE_ARRAY_ONLY
    Point *in = (Point *)bsearch(&e, pts + BLOCK, BLOCK, sizeof(Point), key_vs_point);
#else
    Point *in = (Point *)bsearch(&e, pts, n, sizeof(Point), key_vs_point);
#endif
    if (in)
      sum += in->xs[1] * in->energy;
  }
  printf("found %d, sum %.3f\n", found, sum);
  free(pts);
  return 0;
}
