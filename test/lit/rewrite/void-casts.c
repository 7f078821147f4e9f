// Real C code often spells the conversion to void * that a C library call
// makes anyway: Parboil's mri-gridding reads each sample with
// fread((void *)&(samples[i]), sizeof(ReconstructionSample), 1, f), and
// memset((void *)a, ...), memcpy((void *)b, (void *)a, ...), qsort((void *)a,
// ...) and free((void *)a) are common. Such a cast is the call's own
// conversion: the array takes the new layout, and the rewritten calls take
// the handle without it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl-refactor --report %s -- | FileCheck --check-prefix=REPORT %s
// REPORT:      struct sample at {{.*}}void-casts.c:
// REPORT-NOT:    not transformable
// REPORT:        plan: sample:
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %s -o %t/orig && %t/orig > %t/orig.out
// RUN: cp %s %t/soa.c && %dl-refactor --apply --quiet --layout=sample=soa %t/soa.c --
// RUN: %drop-checks %t/soa.c | FileCheck --check-prefix=SOA %s
// SOA: sample_soa_fwrite(sample_soa_offset(samples, i), 1, f);
// SOA: if (sample_soa_fread(sample_soa_offset(samples, i), 1, f) != 1)
// SOA: sample_soa_fill(copy, 0, n);
// SOA: sample_soa_copy(copy, samples, n);
// SOA: sample_soa_qsort(copy, n, by_weight);
// SOA: sample_soa_free(copy);
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/soa.c -o %t/soa && %t/soa > %t/soa.out
// RUN: diff %t/orig.out %t/soa.out
// RUN: cp %s %t/tiled.c && %dl-refactor --apply --quiet --layout=sample=tiled:4 %t/tiled.c --
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/tiled.c -o %t/tiled && %t/tiled > %t/tiled.out
// RUN: diff %t/orig.out %t/tiled.out

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sample {
  float real, imag;
  float kx, ky, kz;
  float weight;
};

static int by_weight(const void *a, const void *b) {
  const struct sample *x = a, *y = b;
  return (x->weight > y->weight) - (x->weight < y->weight);
}

int main(void) {
  size_t n = 2000;
  struct sample *samples = malloc(n * sizeof(struct sample));
  struct sample *copy = malloc(n * sizeof(struct sample));
  FILE *f = tmpfile();
  if (!samples || !copy || !f)
    return 1;
  for (size_t i = 0; i < n; i++) {
    struct sample s = {0.5f * i, 0.25f * i, i % 7, i % 11, i % 13,
                       (float)((i * 37) % 101)};
    samples[i] = s;
    fwrite((const void *)&samples[i], sizeof(struct sample), 1, f);
  }
  rewind(f);
  for (size_t i = 0; i < n; i++) {
    samples[i].real = 0;
    if (fread((void *)&(samples[i]), sizeof(struct sample), 1, f) != 1)
      return 1;
  }
  memset((void *)copy, 0, n * sizeof(struct sample));
  memcpy((void *)copy, (void *)samples, n * sizeof(struct sample));
  qsort((void *)copy, n, sizeof(struct sample), by_weight);
  double acc = 0;
  for (int r = 0; r < 20; r++)
    for (size_t i = 0; i < n; i++)
      acc += copy[i].real * copy[i].kx + copy[i].imag * copy[i].ky -
             copy[i].weight * copy[i].kz;
  printf("%.3f %.1f %.1f\n", acc, copy[0].weight, copy[n - 1].weight);
  free((void *)copy);
  free(samples);
  fclose(f);
  return 0;
}
