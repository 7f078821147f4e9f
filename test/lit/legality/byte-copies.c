// A memcpy whose byte count is not n * sizeof(T) sees the array as bytes in
// AoS order (here, 128 bytes spelled as a number). (memcpy, memmove and
// memset with one, or with sizeof of an array T b[N], work per array:
// rewrite/bytewise.test; qsort with a comparator of the file sorts copies:
// rewrite/library-sort.test; fwrite and fread stage: rewrite/file-io.test.)
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct P { int key, val; }; // expected-remark {{struct P (8 B, 2 fields, 2 arrays): not transformable: 'P' array passed to memcpy with a byte count that is not n * sizeof(T) in any order or a variable or struct field set so}}

static int cmp(const void *a, const void *b) {
  return ((const struct P *)a)->key - ((const struct P *)b)->key;
}

int main(void) {
  struct P *a = malloc(16 * sizeof(struct P));
  struct P b[16];
  for (int i = 0; i < 16; ++i)
    a[i].key = 16 - i;
  memcpy(b, a, 128); // expected-note {{blocks the rewrite: 'P' array passed to memcpy with a byte count that is not n * sizeof(T)}}
  memset(a, 0, 16 * sizeof(struct P));
  qsort(b, 16, sizeof(struct P), cmp);
  fwrite(b, sizeof(struct P), 16, stdout);
  free(a);
  return 0;
}
