/* A file that writes the records byte by byte: no layout but AoS keeps
   that output, so the record stays as it is in every file. */
#include "cloud.h"
#include <stdio.h>

void dump(struct P *p, int n, FILE *out) {
  fwrite(p, sizeof *p, n, out);
}
