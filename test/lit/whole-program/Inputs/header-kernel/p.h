typedef struct { double x, y, z; int id; } T;
void run_b(T *p, int n);
void run_c(T *p, int n);
static inline void hk(T *p, int n) { for (int i = 0; i < n; ++i) p[i].z += p[i].x; }
