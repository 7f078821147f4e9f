/* The arrays reached through a global variable as well as parameters. */
#include <stdlib.h>
typedef struct { float x, y; } P;
static P *all;
static void scale(P *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i].x *= 2.0f;
}
int main(void) { all = calloc(8, sizeof(P)); scale(all, 8); free(all); return 0; }
