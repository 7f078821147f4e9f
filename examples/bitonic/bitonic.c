/* bitonic.c - bitonic sort of an array of structs by its first field.
 *
 * Each item is 4 fields; the network compares keys and swaps whole items,
 * so every field moves with its key. The comparisons stream through the
 * array with a stride that halves every pass.
 *
 * Usage: bitonic [--small] [log2-items rounds]   prints a checksum of the
 * sorted items, identical for every layout of struct Item.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Item {
  int key;
  float weight;
  float value;
  int tag;
};

static void init_items(struct Item *a, int n, unsigned seed) {
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    a[i].key = (int)(seed >> 4) % 1000000;
    a[i].weight = (float)(i % 100) * 0.5f;
    a[i].value = (float)(seed % 1000) * 0.25f;
    a[i].tag = i;
  }
}

/* One pass of the network: compare-exchange at distance j inside blocks
   of size k (ascending or descending by block). */
static void pass(struct Item *a, int n, int j, int k) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    int l = i ^ j;
    if (l > i) {
      int ascending = (i & k) == 0;
      if ((a[i].key > a[l].key) == ascending) {
        struct Item t = a[i];
        a[i] = a[l];
        a[l] = t;
      }
    }
  }
}

static void bitonic_sort(struct Item *a, int n) {
  for (int k = 2; k <= n; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1)
      pass(a, n, j, k);
}

int main(int argc, char **argv) {
  int log2n = 20, rounds = 3;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    log2n = 10;
    rounds = 1;
    ++arg;
  }
  if (arg + 1 < argc) {
    log2n = atoi(argv[arg]);
    rounds = atoi(argv[arg + 1]);
  }
  if (log2n < 1 || log2n > 28 || rounds <= 0) {
    fprintf(stderr, "usage: %s [--small] [log2-items rounds]\n", argv[0]);
    return 2;
  }
  int n = 1 << log2n;
  struct Item *a = malloc((size_t)n * sizeof(struct Item));
  if (!a) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  double sum = 0.0;
  int sorted = 1;
  for (int r = 0; r < rounds; ++r) {
    init_items(a, n, 7u + (unsigned)r);
    bitonic_sort(a, n);
    for (int i = 0; i < n; ++i) {
      if (i > 0 && a[i - 1].key > a[i].key)
        sorted = 0;
      sum += (double)a[i].tag * (i % 7) + a[i].weight - a[i].value;
    }
  }
  printf("bitonic: %d items, %d rounds, %s, checksum %.6e\n", n, rounds,
         sorted ? "sorted" : "NOT SORTED", sum);
  free(a);
  return 0;
}
