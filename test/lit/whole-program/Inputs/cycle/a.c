#include "p.h"
void fa(T *p, int n, int d) { for (int i = 0; i < n; ++i) p[i].y += p[i].x; if (d > 0) for (int k = 0; k < 2; ++k) fb(p, n, d - 1); }
