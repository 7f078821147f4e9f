// memcpy/memset/fwrite see the array as bytes in AoS order. (qsort with a
// comparator of the file sorts copies: rewrite/library-sort.test.)
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct P { int key, val; }; // expected-remark {{struct P (8 B, 2 fields, 2 arrays): not transformable: 'P' array passed to 'memcpy', which is not defined in the analyzed files (and 3 more)}}

static int cmp(const void *a, const void *b) {
  return ((const struct P *)a)->key - ((const struct P *)b)->key;
}

int main(void) {
  struct P *a = malloc(16 * sizeof(struct P));
  struct P b[16];
  for (int i = 0; i < 16; ++i)
    a[i].key = 16 - i;
  memcpy(b, a, sizeof b); // expected-note 2 {{blocks the rewrite: 'P' array passed to 'memcpy', which is not defined in the analyzed files}}
  memset(a, 0, 16 * sizeof(struct P)); // expected-note {{blocks the rewrite: 'P' array passed to 'memset'}}
  qsort(b, 16, sizeof(struct P), cmp);
  fwrite(b, sizeof(struct P), 16, stdout); // expected-note {{blocks the rewrite: 'P' array passed to 'fwrite'}}
  free(a);
  return 0;
}
