/* A handle declared together with an element value (V v, *p). */
#include <stdlib.h>
typedef struct { double x, y; } V;
int main(void) {
  V v, *p = malloc(8 * sizeof(V));
  for (int i = 0; i < 8; i++)
    p[i].x = p[i].y = i;
  v.x = p[3].x;
  int r = (int)v.x;
  free(p);
  return r;
}
