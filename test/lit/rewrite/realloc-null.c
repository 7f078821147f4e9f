// realloc(NULL, bytes) allocates as malloc(bytes) does: some programs
// write every allocation of a growing buffer that way, the first one with
// a null pointer spelled out. It becomes the layout's allocation
// (T_soa_alloc), the later growth of the same array its realloc.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %s -o %t/orig && %t/orig > %t/orig.out
// RUN: %dl-refactor --report %s -- | FileCheck --check-prefix=REPORT %s
// REPORT: struct sample at
// REPORT-NOT: not transformable
// REPORT: plan: sample:
// RUN: cp %s %t/soa.c && %dl-refactor --apply --quiet --layout=sample=soa %t/soa.c --
// RUN: %drop-checks %t/soa.c | FileCheck --check-prefix=SOA %s
// SOA: sample_soa buf = sample_soa_alloc(cap);
// SOA: sample_soa grown = sample_soa_realloc(&buf, cap);
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/soa.c -o %t/soa && %t/soa > %t/soa.out
// RUN: diff %t/orig.out %t/soa.out
// RUN: cp %s %t/tiled.c && %dl-refactor --apply --quiet --layout=sample=tiled:8 %t/tiled.c --
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/tiled.c -o %t/tiled && %t/tiled > %t/tiled.out
// RUN: diff %t/orig.out %t/tiled.out
#include <stdio.h>
#include <stdlib.h>

struct sample {
  double t, value;
  int channel;
};

int main(void) {
  size_t n = 0, cap = 16;
  struct sample *buf = realloc(NULL, cap * sizeof(struct sample));
  if (!buf)
    return 1;
  for (int k = 0; k < 1000; k++) {
    if (n == cap) {
      cap *= 2;
      struct sample *grown = realloc(buf, cap * sizeof(struct sample));
      if (!grown) {
        free(buf);
        return 1;
      }
      buf = grown;
    }
    buf[n].t = 0.001 * k;
    buf[n].value = (double)(k % 17) - 8.0;
    buf[n].channel = k % 4;
    n++;
  }
  double s[4] = {0};
  for (size_t i = 0; i < n; i++)
    s[buf[i].channel] += buf[i].value * buf[i].t;
  printf("%zu samples: %.4f %.4f %.4f %.4f\n", n, s[0], s[1], s[2], s[3]);
  free(buf);
  return 0;
}
