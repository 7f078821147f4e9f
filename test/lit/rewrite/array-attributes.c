// Attributes of an array of the record go to its storage: alignment for
// vector loads (`__attribute__((aligned(64)))` after the declarator, before
// an initializer, `_Alignas(64)` among the specifiers, through a macro),
// and any other (`unused`, which the handle takes too). A pointer
// declarator's attribute does not hide the next declarator. The
// declaration's text up to its `;` or `,` is respelled, so an attribute
// after the declarator no longer ends up after the handle's initializer.
// Same output in SoA and Tiled(8).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %s -o %t/orig && %t/orig > %t/orig.out
// RUN: cp %s %t/soa.c && %dl-refactor --apply --quiet --layout=P=soa %t/soa.c --
// RUN: %drop-checks %t/soa.c | FileCheck --check-prefix=SOA %s
// SOA:      } grid_storage __attribute__((aligned(64)));
// SOA-NEXT: static P_soa grid =
// SOA:      _Alignas(64) static struct {
// SOA:      } halo_storage;
// SOA:      } seeds_storage __attribute__((aligned(32))) = {
// SOA:      } spare_storage __attribute__((unused));
// SOA:      } probe_storage;
// SOA:      } cells_storage CACHE_ALIGNED;
// SOA:      P_soa view __attribute__((unused)) = cells, alt = grid;
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/soa.c -o %t/soa && %t/soa > %t/soa.out
// RUN: diff %t/orig.out %t/soa.out
// RUN: cp %s %t/tiled.c && %dl-refactor --apply --quiet --layout=P=tiled:8 %t/tiled.c --
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/tiled.c -o %t/tiled && %t/tiled > %t/tiled.out
// RUN: diff %t/orig.out %t/tiled.out
#include <stdio.h>

#define N 32

struct P {
  double x, y;
  int id;
};

static struct P grid[N] __attribute__((aligned(64)));
_Alignas(64) static struct P halo[N];
static struct P seeds[4] __attribute__((aligned(32))) = {{1, 2, 3}, {4, 5, 6}};
static struct P spare[N] __attribute__((unused)), probe[N];
#define CACHE_ALIGNED __attribute__((aligned(64)))
static struct P cells[N] CACHE_ALIGNED;

int main(void) {
  for (int i = 0; i < N; i++) {
    grid[i].x = i;
    grid[i].y = seeds[i % 4].y;
    grid[i].id = i;
    halo[i] = grid[N - 1 - i];
    probe[i].x = halo[i].x * 0.5;
    cells[i] = probe[i];
  }
  struct P *view __attribute__((unused)) = cells, *alt = grid;
  double s = 0;
  for (int i = 0; i < N; i++)
    s += grid[i].x * halo[i].y + probe[i].x + seeds[i % 4].id + alt[i].x + view[i].y;
  printf("%.3f\n", s);
  return 0;
}
