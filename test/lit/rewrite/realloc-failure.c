// realloc leaves the original block where it fails, and careful programs
// count on it: `tmp = realloc(items, m); if (!tmp) { keep using items, or
// free it }`. The layout's realloc keeps every array of the original valid
// when one of them cannot grow: here the address space is limited so that
// the array of flags (one byte each) grows and the array of values (eight
// bytes each) cannot; the program then goes on with the items it had and
// frees them (a double free, or a read of a released block, if the helper
// released them or left them moved).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %s -o %t/orig && %t/orig > %t/orig.out
// RUN: %drop-checks %t/orig.out | FileCheck --check-prefix=OUT %s
// OUT: grow to 67108864 failed: kept 1000 items
// OUT-NEXT: sum
// RUN: cp %s %t/soa.c && %dl-refactor --apply --quiet --layout=item=soa %t/soa.c --
// RUN: %drop-checks %t/soa.c | FileCheck --check-prefix=SOA %s
// SOA: item_soa grown = item_soa_realloc(&items, m);
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/soa.c -o %t/soa && %t/soa > %t/soa.out
// RUN: diff %t/orig.out %t/soa.out
// RUN: cp %s %t/tiled.c && %dl-refactor --apply --quiet --layout=item=tiled:4 %t/tiled.c --
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/tiled.c -o %t/tiled && %t/tiled > %t/tiled.out
// RUN: diff %t/orig.out %t/tiled.out

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

struct item {
  unsigned char flag;
  double value;
};

static double sum(const struct item *items, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += items[i].flag ? items[i].value : -items[i].value;
  return s;
}

int main(void) {
  size_t n = 1000;
  struct item *items = malloc(n * sizeof *items);
  if (!items)
    return 1;
  for (size_t i = 0; i < n; i++) {
    items[i].flag = i % 3 == 0;
    items[i].value = 0.5 * (double)i;
  }
  // Room for 64 Mi flags (64 MiB) but not for 64 Mi values (512 MiB).
  struct rlimit limit;
  getrlimit(RLIMIT_AS, &limit);
  limit.rlim_cur = 384ull << 20;
  if (setrlimit(RLIMIT_AS, &limit) != 0)
    return 2;
  size_t m = (size_t)1 << 26;
  struct item *grown = realloc(items, m * sizeof *items);
  if (!grown) {
    printf("grow to %zu failed: kept %zu items\n", m, n);
  } else {
    items = grown;
    n = m;
    printf("grew to %zu items\n", n);
  }
  printf("sum %.1f\n", sum(items, 1000));
  free(items);
  return 0;
}
