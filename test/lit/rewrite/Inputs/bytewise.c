/* Whole arrays cleared, copied and moved with memset, memcpy and memmove
   over n * sizeof(T) bytes (in either order, or computed first), and m
   elements that do not fill the last tile. Written for dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct { double e, w; int id; } Cell;
int main(void) {
  int n = 1000, m = 37;
  Cell *a = malloc(n * sizeof(Cell));
  Cell *b = malloc(n * sizeof(Cell));
  memset(a, 0, n * sizeof(Cell));
  memset(b, 0, n * sizeof *b);
  for (int i = 0; i < n; i++) { a[i].e = i % 7; a[i].w = 1.5; a[i].id = i; }
  for (int s = 0; s < 5; s++) {
    memcpy(b, a, m * sizeof(Cell));
    memmove(a, b, (size_t)m * sizeof(Cell));
    for (int i = 0; i < n; i++) a[i].e = a[i].e * 0.5 + b[i].w + b[i].id * 0.001;
  }
  double sum = 0;
  for (int i = 0; i < n; i++) sum += a[i].e + b[i].e + a[i].id + b[i].id;
  printf("%.4f\n", sum);
  free(a); free(b);
  return 0;
}
