/* lfind and lsearch over an array of a record, in the style of C codes
   that intern what they read into a small table: lsearch finds a species
   by its code or appends it, lfind looks one up without appending. The
   comparators are functions of the program. Written for dlopt's tests. */
#include <search.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int code;
  double mass;
  double charge;
  long seen;
} Species;

static int same_code(const void *a, const void *b) {
  return ((const Species *)a)->code != ((const Species *)b)->code;
}

int main(void) {
  size_t capacity = 64, count = 0;
  Species *table = malloc(capacity * sizeof(Species));
  for (int i = 0; i < 5000; i++) {
    Species s;
    s.code = (i * 37) % 61;
    s.mass = 1.0 + s.code * 0.5;
    s.charge = (s.code % 3) - 1.0;
    s.seen = 0;
    Species *sp = lsearch(&s, table, &count, sizeof(Species), same_code);
    sp->seen++;
  }
  double weighted = 0;
  long missing = 0;
  for (int code = 0; code < 80; code += 3) {
    Species key;
    key.code = code;
    Species *hit = lfind(&key, table, &count, sizeof(Species), same_code);
    if (hit == NULL) {
      missing++;
      continue;
    }
    weighted += hit->mass * hit->seen + (hit - table);
  }
  for (size_t i = 0; i < count; i += 7)
    printf("%d %.1f %.1f %ld\n", table[i].code, table[i].mass, table[i].charge,
           table[i].seen);
  printf("%zu %.3f %ld\n", count, weighted, missing);
  free(table);
  return 0;
}
