/* A file that writes the records as raw bytes (one byte per item): dlopt
   stages only whole elements (fwrite(p, sizeof *p, n, out)), so the record
   stays as it is in every file. */
#include "cloud.h"
#include <stdio.h>

void dump(struct P *p, int n, FILE *out) {
  fwrite(p, 1, n * sizeof *p, out);
}
