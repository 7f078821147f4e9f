/* A grid sorted by energy with qsort and a comparator of the program, then
   searched, in the style of cross-section lookup codes. Written for dlopt's
   tests. */
#include <stdio.h>
#include <stdlib.h>
typedef struct { double energy, total_xs, elastic_xs, fission_xs; } GridPoint;
static int by_energy(const void *a, const void *b) {
  const GridPoint *x = (const GridPoint *)a, *y = (const GridPoint *)b;
  if (x->energy < y->energy) return -1;
  if (x->energy > y->energy) return 1;
  return 0;
}
static int search(const GridPoint *g, int n, double e) {
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) { int mid = (lo + hi) / 2; if (g[mid].energy > e) hi = mid; else lo = mid; }
  return lo;
}
int main(void) {
  int n = 2000;
  GridPoint *g = malloc(n * sizeof(GridPoint));
  unsigned s = 7;
  for (int i = 0; i < n; i++) { s = s * 1103515245u + 12345u; g[i].energy = (s % 100000) / 1000.0; g[i].total_xs = i % 13; g[i].elastic_xs = 1; g[i].fission_xs = i % 5; }
  qsort(g, n, sizeof(GridPoint), by_energy);
  double acc = 0;
  for (int k = 0; k < 50000; k++) { int i = search(g, n, (k % 997) * 0.1); acc += g[i].total_xs + 0.5 * g[i].fission_xs; }
  printf("%.3f %.4f %.4f\n", acc, g[0].energy, g[n - 1].energy);
  free(g);
  return 0;
}
