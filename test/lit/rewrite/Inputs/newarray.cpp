#include <cstdio>

#define TWICE(e) (2 * (e))

struct V {
  int x;
  int y;
};

static int fill(V *v, int n) {
  for (int i = 0; i < n; ++i) {
    v[i].x = i;
    v[i].y = 1;
  }
  return n;
}

int main() {
  int n = 100;
  V *v = new V[n];
  fill(v, n);
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += TWICE(v[i].x) / 2;
  std::printf("sum %d %d\n", s, v[10].x);
  delete[] v;
  return 0;
}
