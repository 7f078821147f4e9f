#include "p.h"
void fb(T *p, int n, int d) { for (int i = 0; i < n; ++i) p[i].x += 1; if (d > 0) for (int k = 0; k < 3; ++k) fa(p, n, d - 1); }
