/* Library calls over sub-arrays (&a[k], a + k) of a record's array: qsort
   of one block at a time, memcpy and memmove between blocks at offsets that
   are no multiple of any tile size (overlapping, both ways), memset of a
   block, fwrite and fread of a block. Prints every element. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  double key;
  int id;
  float w[1];
  float mass;
} Item;

static int by_key(const void *a, const void *b) {
  const Item *x = (const Item *)a, *y = (const Item *)b;
  return x->key < y->key ? -1 : x->key > y->key ? 1 : x->id - y->id;
}

static void print(const Item *items, int n) {
  for (int i = 0; i < n; i++)
    printf("%d %.3f %d %.2f %.2f\n", i, items[i].key, items[i].id,
           items[i].w[0], items[i].mass);
}

int main(void) {
  const int n = 53, block = 13;
  Item *items = malloc(n * sizeof(Item));
  Item *copy = malloc(n * sizeof(Item));
  if (!items || !copy)
    return 1;
  for (int i = 0; i < n; i++) {
    items[i].key = (double)((i * 37) % 29) / 7.0;
    items[i].id = i;
    items[i].w[0] = (float)(i % 5);
    items[i].mass = 0.5f * (float)i;
  }
  /* Sort each block of 13 on its own (the blocks start inside tiles). */
  for (int b = 0; b + block <= n; b += block)
    qsort(&items[b], block, sizeof(Item), by_key);
  qsort(items + 4 * block, n - 4 * block, sizeof(Item), by_key);

  memset(copy, 0, n * sizeof(Item));
  memcpy(copy + 3, &items[5], 20 * sizeof(Item));
  /* Overlapping moves, forward and backward. */
  memmove(&copy[7], copy + 3, 11 * sizeof(Item));
  memmove(copy + 1, &copy[9], 9 * sizeof(Item));
  memset(&copy[40], 0, 5 * sizeof(Item));

  FILE *f = tmpfile();
  if (!f)
    return 1;
  fwrite(&items[17], sizeof(Item), 19, f);
  rewind(f);
  size_t got = fread(copy + 30, sizeof(Item), 19, f);
  fclose(f);
  printf("read %zu\n", got);
  print(items, n);
  print(copy, n);
  free(items);
  free(copy);
  return 0;
}
