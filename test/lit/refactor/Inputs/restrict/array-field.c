/* a[i].v[k]: an array field indexed where it decays leaves no pointer. */
#include <stdio.h>
#include <stdlib.h>
typedef struct { double x, y; } V;
typedef struct { V pos; double v[2]; int id; } T;
double *gq;
static void bump(T *p, int n) {
  for (int i = 0; i < n; ++i) { p[i].pos.x = 1.0; p[i].pos.y = p[i].pos.x * 2 + p[i].v[1]; }
}
int main(int argc, char **argv) {
  int n = 64 + argc;
  T *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; ++i) { a[i].pos.x = i; a[i].pos.y = 0; a[i].v[0] = a[i].v[1] = i; a[i].id = i; }
  gq = 0;
  bump(a, n);
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].pos.x + a[i].pos.y + a[i].v[0] + a[i].id;
  printf("%f\n", s);
  free(a);
  return 0;
}
