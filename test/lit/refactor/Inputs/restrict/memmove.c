/* Elements moved within one array. */
#include <stdlib.h>
#include <string.h>
typedef struct { float x, y; } P;
static void drop_first(P *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i].x += 1.0f;
  memmove(p, p + 1, (n - 1) * sizeof(P));
}
int main(void) { P *p = calloc(8, sizeof(P)); drop_first(p, 8); free(p); return 0; }
