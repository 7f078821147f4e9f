#include "util.h"
#include <stdio.h>
#include <stdlib.h>

size_t bytes_allocated;

void *xmalloc(size_t bytes) {
  void *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

/* Whole cache lines, for the vector loops. */
void *aligned_xmalloc(size_t bytes) {
  void *p = NULL;
  size_t padded = (bytes + 63) / 64 * 64;
  if (posix_memalign(&p, 64, padded ? padded : 64) != 0) {
    fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

/* Zeroed, as calloc's. */
void *xcalloc(size_t count, size_t size) {
  void *p = calloc(count, size);
  if (!p) {
    fprintf(stderr, "out of memory (%zu x %zu bytes)\n", count, size);
    exit(1);
  }
  return p;
}

void *xrealloc(void *p, size_t bytes) {
  void *q = realloc(p, bytes);
  if (!q) {
    fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return q;
}

/* Counts what it hands out: a rewrite allocating each field apart would
   count differently. */
void *counted_malloc(size_t bytes) {
  bytes_allocated += bytes;
  return xmalloc(bytes);
}

void xfree(void *p) {
  if (p)
    free(p);
}
