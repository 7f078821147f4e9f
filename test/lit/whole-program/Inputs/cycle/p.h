typedef struct { double x, y; int id; } T;
void fa(T *p, int n, int d);
void fb(T *p, int n, int d);
