/* A pointer stepped inside an expression that uses its value. */
typedef struct { double x, v; } P;
static double first(const P *p) { return p->x; }
static double sum(P *p, int n) {
  double s = 0;
  while (n-- > 0)
    s += first(p++);
  return s;
}
int main(void) {
  P a[8];
  for (int i = 0; i < 8; i++)
    a[i].x = a[i].v = i;
  return (int)sum(a, 8);
}
