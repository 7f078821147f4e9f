/* A plain pointer into the x array, read beside the handle: with restrict
   gcc kept p[i].x in a register and printed 4355 instead of 4547. */
#include <stdio.h>
#include <stdlib.h>
typedef struct { double x, y, z; int id; } T;
double *gq;
static void bump(T *p, int n) {
  for (int i = 0; i < n; ++i) { p[i].x = *gq + 1.0; p[i].y = p[i].x * 2; }
}
int main(int argc, char **argv) {
  int n = 64 + argc;
  T *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; ++i) { a[i].x = i; a[i].y = 0; a[i].z = i; a[i].id = i; }
  gq = &a[0].x;
  bump(a, n);
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].x + a[i].y + a[i].z + a[i].id;
  printf("%f\n", s);
  free(a);
  return 0;
}
