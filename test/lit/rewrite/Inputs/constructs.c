/* Every use the rewriter must handle, in one program that prints a
 * checksum: the differential tests rewrite it into each layout and compare
 * the output with the original's. */
#include <stdio.h>
#include <stdlib.h>

typedef struct Vec2 {
  float u, v;
} Vec2;

typedef struct P {
  double x;
  float y;
  int id;
  Vec2 w;
  char tag;
} P;

#define N 37

P g[N];
static P s[N];

static void bump(float *f) { *f += 1.0f; }
static double weigh(P p) { return p.x + p.y + p.id + p.w.u + p.tag; }

static void fill(P *a, int n, int seed);
static P *make(int n);

static void fill(P *a, int n, int seed) {
  for (int i = 0; i < n; ++i) {
    a[i].x = seed + i * 0.5;
    a[i].y = (float)(i % 7);
    a[i].id = i;
    a[i].w.u = 1.0f;
    a[i].w.v = (float)seed;
    a[i].tag = (char)('a' + i % 26);
  }
}

static P *make(int n) {
  P *p = malloc(n * sizeof(P));
  if (p == NULL)
    return NULL;
  fill(p, n, 3);
  return p;
}

static double sum(const P *a, int n) {
  double t = 0;
  int i;
  for (i = 0; i < n; i++)
    t += a[i].x * a[i].y + a[i].w.v;
  return t + i;
}

int main(void) {
  P local[N];
  P *h = (P *)malloc(sizeof(P) * N);
  P *c = calloc(N, sizeof *c);
  P *m = make(N);
  P *r = NULL;
  if (!h || c == NULL || !m)
    return 1;
  r = realloc(r, 10 * sizeof(P));
  r = realloc(r, N * sizeof(P));
  fill(g, N, 1);
  fill(s, N, 2);
  fill(local, N, 4);
  fill(h, N, 5);
  fill(r, N, 6);

  double t = 0;
  for (int i = 0; i < N; ++i) {
    g[i].x += s[i].y;             /* compound assignment */
    s[i].id++;                    /* increment */
    --local[i].id;                /* decrement */
    bump(&h[i].y);                /* address of a field as an argument */
    c[i].x = g[N - 1 - i].x;      /* reversed index */
    (m + i)->y = (float)i;        /* (a + i)->f */
    t += weigh(r[i]);             /* a whole element by value */
  }
  m->id = 99;                     /* a->f */
  P tmp = g[0];                   /* element read */
  g[0] = s[1];                    /* element copy */
  s[1] = tmp;                     /* element write */
  local[2] = local[3];
  int k = 0;
  while (k < N - 1)
    c[k++].id = 7;                /* index with a side effect */
  for (int i = 0; i < N; ++i)
    t += h[(i * 5) % N].w.u * c[i].id; /* irregular index */
  for (P *p = h; p < h + N; ++p)      /* a pointer walking the array */
    t += p->x + p->id;

  t += sum(g, N) + sum(s, N) + sum(local, N) + sum(h, N) + sum(c, N) +
       sum(m, N) + sum(r, N) + m[0].id + g[0].tag;
  printf("constructs: %.6f\n", t);
  free(h);
  free(c);
  free(m);
  free(r);
  return 0;
}
