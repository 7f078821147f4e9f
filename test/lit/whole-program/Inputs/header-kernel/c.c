#include "p.h"
static void kern(T *p, int n) { for (int i = 0; i < n; ++i) p[i].x += p[i].id; }
void run_c(T *p, int n) { for (int k = 0; k < 7; ++k) { kern(p, n); hk(p, n); } }
