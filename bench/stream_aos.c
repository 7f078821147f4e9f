/* stream_aos.c - a bandwidth-bound kernel over an array of structs: the
 * STREAM triad on three fields of a 64-byte record whose other five fields
 * are cold. In AoS every element drags a whole cache line through memory for
 * 24 useful bytes; once the hot fields are contiguous the loop should run at
 * the machine's triad bandwidth (bench/stream.c). The triad loops time
 * themselves, as STREAM does (initializing the records is not part of it),
 * and print the time on stderr; run_benchmarks.py reports their effective
 * bandwidth, 24 bytes per element and repetition, against STREAM's. Prints
 * a checksum on stdout; --small for tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

struct Cell {
  double a, b, c;                        /* the triad */
  double mass, charge, spin, age, flags; /* read once, at the end */
};

static void init(struct Cell *cells, long n) {
  for (long i = 0; i < n; ++i) {
    cells[i].a = 0;
    cells[i].b = (double)(i % 7);
    cells[i].c = (double)(i % 5) * 0.5;
    cells[i].mass = 1.0 + (double)(i % 3);
    cells[i].charge = (i % 2) ? -1.0 : 1.0;
    cells[i].spin = 0.5;
    cells[i].age = 0;
    cells[i].flags = 0;
  }
}

static void triad(struct Cell *cells, long n, double s) {
  for (long i = 0; i < n; ++i)
    cells[i].a = cells[i].b + s * cells[i].c;
}

static double summary(const struct Cell *cells, long n) {
  double sum = 0;
  for (long i = 0; i < n; i += 4096)
    sum += cells[i].a * cells[i].mass + cells[i].charge * cells[i].spin +
           cells[i].age + cells[i].flags;
  return sum;
}

int main(int argc, char **argv) {
  int small = argc > 1 && strcmp(argv[1], "--small") == 0;
  long n = small ? 1L << 14 : 1L << 22;
  int reps = 40;
  struct Cell *cells = malloc(n * sizeof(struct Cell));
  if (!cells)
    return 1;
  init(cells, n);
  double check = 0, kernel = 0;
  for (int r = 0; r < reps; ++r) {
    double t0 = seconds();
    triad(cells, n, 1.0 + r * 0.25);
    kernel += seconds() - t0;
    check += cells[r].a;
  }
  fprintf(stderr, "kernel seconds: %.6f\n", kernel);
  printf("checksum %.6f %.6f\n", check, summary(cells, n));
  free(cells);
  return 0;
}
