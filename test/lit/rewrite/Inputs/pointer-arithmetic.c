/* Pointer arithmetic on arrays of a record, in the style of C codes that
   bin particles: a function bumps the pointer it was given (p++, q += 1,
   --p), checks it against the end of its range (q < end), counts the
   elements between two pointers (hi - lo), and turns a bsearch's result
   into an index (hit - cells). Written for dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x, v, m;
  int id;
} Particle;

static int by_id(const void *a, const void *b) {
  int x = ((const Particle *)a)->id, y = ((const Particle *)b)->id;
  return (x > y) - (x < y);
}

static void drift(Particle *p, int n, double dt) {
  while (n-- > 0) {
    p->x += p->v * dt;
    p++;
  }
}

static double kinetic(const Particle *begin, const Particle *end) {
  double e = 0;
  for (const Particle *q = begin; q < end; q += 1)
    e += 0.5 * q->m * q->v * q->v;
  return e;
}

static long between(const Particle *lo, const Particle *hi) { return hi - lo; }

int main(void) {
  int cellCount = 37, per = 11, n = cellCount * per;
  Particle *cells = malloc(n * sizeof(Particle));
  for (int i = 0; i < n; i++) {
    cells[i].id = (i * 7919) % (2 * n);
    cells[i].x = i * 0.5;
    cells[i].v = (i % 13) * 0.25 - 1.5;
    cells[i].m = 1.0 + (i % 3);
  }
  qsort(cells, n, sizeof(Particle), by_id);
  for (int c = 0; c < cellCount; c++)
    drift(cells + c * per, per, 0.01);
  double e = kinetic(&cells[0], cells + n) + kinetic(cells + n / 2, &cells[n]);
  Particle *mid = cells + n / 2;
  Particle *last = &cells[n - 1];
  long span = between(mid, last) + (last - mid) + (cells + n - last);
  long idsum = 0, after = 0, misses = 0;
  for (int k = 0; k < 2 * n; k += 3) {
    Particle key;
    key.id = k;
    Particle *hit = bsearch(&key, cells, n, sizeof(Particle), by_id);
    if (!hit) {
      misses++;
      continue;
    }
    idsum += hit - cells;
    if (hit >= mid && hit != last)
      after++;
    if (hit == cells)
      idsum += 1000;
  }
  Particle *p = cells + n;
  p -= 3;
  --p;
  double tail = p->x + (p + 1)->x;
  printf("%.6f %ld %ld %ld %ld %.6f\n", e, span, idsum, after, misses, tail);
  free(cells);
  return 0;
}
