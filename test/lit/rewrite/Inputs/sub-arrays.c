/* Sub-arrays in the style of particle codes that keep particles sorted by
   box: a box's particles reached through a pointer to its first one
   (rA = &rv[first]) or passed on as an array (rv + nb * per, &rv[b * per]),
   read as rA[i].x and searched. Written for dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>
typedef struct { double v, x, y, z; } FourVector;
typedef struct { int offset, count; } Box;
static double box_energy(const FourVector *rA, int n, const FourVector *rB, int m) {
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double dx = rA[i].x - rB[j].x, dy = rA[i].y - rB[j].y, dz = rA[i].z - rB[j].z;
      e += rA[i].v * rB[j].v / (1.0 + dx * dx + dy * dy + dz * dz);
    }
  return e;
}
static int search(const FourVector *row, int n, double key) {
  int lo = 0, hi = n - 1;
  while (lo < hi) { int mid = (lo + hi) / 2; if (row[mid].x < key) lo = mid + 1; else hi = mid; }
  return lo;
}
int main(void) {
  int boxes = 16, per = 20, n = boxes * per;
  FourVector *rv = malloc(n * sizeof(FourVector));
  for (int i = 0; i < n; i++) { rv[i].v = (i % 5) * 0.5; rv[i].x = i * 0.1; rv[i].y = (i % 7) * 0.3; rv[i].z = (i % 3) * 0.2; }
  double total = 0;
  int found = 0;
  for (int b = 0; b < boxes; b++) {
    int first = b * per;
    FourVector *rA = &rv[first];
    for (int nb = 0; nb < boxes; nb += 3)
      total += box_energy(rA, per, rv + nb * per, per);
    found += search(&rv[b * per], per, b * per * 0.1 + 0.55);
    FourVector *rB;
    rB = rv + (boxes - 1 - b) * per;
    total += 0.5 * box_energy(rB, per, rA, per);
  }
  printf("%.6f %d\n", total, found);
  free(rv);
  return 0;
}
