/* Double buffering in the style of C stencil and particle codes: two
   arrays of one record declared together (static Cell cur[N], next[N];
   Particle *in, *out;), copied whole with sizeof of the array, counted
   with sizeof a / sizeof a[0] (the ARRAY_SIZE idiom). Written for dlopt's
   tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 96
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

typedef struct {
  double u, v;
  double flux;
  int tag;
} Cell;

static Cell cur[N], next[N];

int main(void) {
  Cell *in = malloc(N * sizeof(Cell)), *out = malloc(N * sizeof(Cell));
  for (size_t i = 0; i < sizeof cur / sizeof cur[0]; i++) {
    cur[i].u = (double)(i % 17);
    cur[i].v = 0.5 * (double)(i % 5);
    cur[i].flux = 0;
    cur[i].tag = (int)i;
  }
  memset(next, 0, sizeof next);
  for (int step = 0; step < 20; step++) {
    for (size_t i = 1; i + 1 < ARRAY_SIZE(cur); i++) {
      next[i].u = cur[i].u + 0.1 * (cur[i - 1].u - 2 * cur[i].u + cur[i + 1].u);
      next[i].v = cur[i].v + 0.05 * (cur[i + 1].v - cur[i - 1].v);
      next[i].flux = cur[i].flux + next[i].u * next[i].v;
      next[i].tag = cur[i].tag;
    }
    memcpy(cur, next, sizeof(cur));
  }
  memcpy(in, cur, N * sizeof(Cell));
  for (int i = 0; i < N; i++) {
    out[i] = in[N - 1 - i];
    out[i].flux += in[i].u;
  }
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += out[i].u + out[i].v * 2 + out[i].flux / 3 + out[i].tag;
  printf("%.9f %zu\n", sum, sizeof next);
  free(in);
  free(out);
  return 0;
}
