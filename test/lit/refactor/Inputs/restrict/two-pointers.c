/* Two pointers to arrays of P in one function: they may be one array. */
#include <stdlib.h>
typedef struct { float x, y; } P;
static void copy(P *dst, const P *src, int n) {
  for (int i = 0; i < n; ++i) {
    dst[i].x = src[i].x;
    dst[i].y = src[i].y;
  }
}
int main(void) {
  P *a = calloc(8, sizeof(P));
  copy(a, a, 8);
  free(a);
  return 0;
}
