/* stream.c - the STREAM triad (McCalpin): a[i] = b[i] + s * c[i] over
 * arrays far larger than the caches; prints the best bandwidth of 10 runs
 * in GB/s, counting 24 bytes per element (two reads, one write), as STREAM
 * does. Single-threaded, like the benchmark programs' timings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N (1 << 24)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
  double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b),
         *c = malloc(N * sizeof *c);
  if (!a || !b || !c)
    return 1;
  for (long i = 0; i < N; ++i) {
    a[i] = 0;
    b[i] = 1;
    c[i] = 2;
  }
  double best = 1e30;
  for (int r = 0; r < 10; ++r) {
    double t0 = now();
    for (long i = 0; i < N; ++i)
      a[i] = b[i] + 3.0 * c[i];
    double t = now() - t0;
    if (t < best)
      best = t;
  }
  printf("%.2f\n", 24.0 * N / best / 1e9);
  return a[N / 2] == 7.0 ? 0 : 1;
}
