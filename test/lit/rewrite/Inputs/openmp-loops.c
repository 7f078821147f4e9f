/* OpenMP loops over an array of a record, as graph and particle codes
   write them: `omp for` inside a parallel region with default(none) and
   its loop variable declared before (Bellman-Ford's edge relaxation), a
   `parallel for` with a reduction over a loop that declares its variable,
   a `parallel for simd`, an `omp for` (guarded by _OPENMP, or spelled by a
   macro, or with a comment before its loop) over a loop that declares its
   variable, a collapsed nest, a `parallel for` that is the body of a loop
   without braces, and one with a `linear` clause. Every element is updated
   once per loop, so a loop run twice shows in the checksum.
   Written for dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>

#define OMP_FOR _Pragma("omp for")

typedef struct {
  int src, dst;
  float w;
} edge_t;

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 1003;
  edge_t *edges = malloc(m * sizeof(edge_t));
  float *d = calloc(m, sizeof(float));
  for (int k = 0; k < m; k++) {
    edges[k].src = k;
    edges[k].dst = (k * 7) % m;
    edges[k].w = 0.5f + (float)(k % 9);
  }
  long touched = 0;
#pragma omp parallel default(none) shared(edges, d, m) reduction(+ : touched)
  {
    int j;
#pragma omp for
    for (j = 0; j < m; j++) {
      edges[j].w += 1.0f;
      touched += edges[j].src % 3;
    }
  }
  double sum = 0;
#pragma omp parallel for default(none) shared(edges, m) reduction(+ : sum)
  for (int i = 0; i < m; i++) {
    edges[i].w *= 2.0f;
    sum += edges[i].w + edges[i].dst;
  }
#pragma omp parallel for simd
  for (int i = 0; i < m; i++)
    d[i] = edges[i].w - edges[i].src;
  double dsum = 0;
  for (int i = 0; i < m; i++)
    dsum += d[i];
#pragma omp parallel
  {
#ifdef _OPENMP
#pragma omp for
#endif
    for (int i = 0; i < m; i++)
      edges[i].w += 0.25f;
    OMP_FOR
    for (int i = 0; i < m; i++)
      edges[i].w += 0.125f;
#pragma omp for
    /* each edge once */ for (int i = 0; i < m; i++)
      edges[i].w += 0.0625f;
  }
  double pairs = 0;
#pragma omp parallel for collapse(2) reduction(+ : pairs)
  for (int a = 0; a < 8; a++)
    for (int b = 0; b < m; b++)
      pairs += edges[b].w * a;
  for (int r = 0; r < 3; r++)
#pragma omp parallel for
    for (int i = 0; i < m; i++)
      edges[i].w += 0.5f;
  int step = 0;
#pragma omp parallel for linear(step : 2)
  for (int i = 0; i < m; i++) {
    edges[i].dst += step;
    step += 2;
  }
  double wsum = 0;
  for (int i = 0; i < m; i++)
    wsum += edges[i].w;
  long dsts = 0;
  for (int i = 0; i < m; i++)
    dsts += edges[i].dst;
  printf("%ld %.1f %.1f %.3f %.4f %ld\n", touched, sum, dsum, pairs, wsum,
         dsts);
  free(edges);
  free(d);
  return 0;
}
