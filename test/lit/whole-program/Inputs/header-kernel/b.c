#include "p.h"
static void kern(T *p, int n) { for (int i = 0; i < n; ++i) p[i].y += p[i].x; }
void run_b(T *p, int n) { for (int k = 0; k < 5; ++k) { kern(p, n); hk(p, n); } }
