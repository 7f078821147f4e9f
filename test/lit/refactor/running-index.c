// Set-up code that fills an array through a counter of its own, a running
// index (pi++), inside loops of unknown bounds, as particle codes place
// particles per cell: three loops guessed at 512e3 iterations each would
// make the fill run 1.3e17 times and outweigh the time steps. pi only steps
// forward, so in all of the nest the fill reaches each element once: at
// most the array's length (unknown here, guessed as a loop's 512e3) in
// all. The time step then weighs most, and its fields shape the plan. An
// index reset inside the nest (also in an OpenMP region there), or stepped
// only under a condition the access does not share, bounds nothing. An element whose index the loops
// inside its own do not change (charge_rows: p[i] in the j and k loops)
// stays in a register or its cache line there: it moves memory once per
// iteration of the loop that changes it.
// RUN: %dl-refactor-rules --report %s -- -fopenmp | FileCheck %s
// CHECK: kernels:
// CHECK-NEXT: place at {{.*}}: 3 accesses, 3 loops, weight 6144000 B (ignored: under 1% of the heaviest kernel)
// CHECK-NEXT: place_sparse at {{.*}}: 1 accesses, 3 loops, weight 2048000 B (ignored: under 1% of the heaviest kernel)
// CHECK-NEXT: place_boxes at {{.*}}: 4 accesses, 5 loops, weight 8192000 B (ignored: under 1% of the heaviest kernel)
// CHECK-NEXT: charge_rows at {{.*}}: 1 accesses, 3 loops, weight 2048000 B (ignored: under 1% of the heaviest kernel)
// CHECK-NEXT: reset_rows at {{.*}}: 1 accesses, 2 loops, weight 1e+12 B{{$}}
// CHECK-NEXT: reset_in_region at {{.*}}: 1 accesses, 2 loops, weight 1e+12 B{{$}}
// CHECK-NEXT: skip_some at {{.*}}: 1 accesses, 2 loops, weight 1e+12 B{{$}}
// CHECK-NEXT: step at {{.*}}: 4 accesses, 2 loops, weight 4.2e+12 B{{$}}
// CHECK: plan: particle: {x,y,vx} SoA
#include <stdlib.h>

struct particle {
  float x, y, vx, vy, charge;
};

void place(struct particle *p, int L, const int *count) {
  int pi = 0;
  for (int cx = 0; cx < L; cx++)
    for (int cy = 0; cy < L; cy++)
      for (int k = 0; k < count[cx * L + cy]; k++, pi++) {
        p[pi].x = cx + 0.5f;
        p[pi].y = cy + 0.5f;
        p[pi].charge = 1;
      }
}

void place_sparse(struct particle *p, int L, const int *count) {
  int n = 0;
  for (int cx = 0; cx < L; cx++)
    for (int cy = 0; cy < L; cy++) {
      int k = 0;
      while (k < count[cx * L + cy])
        p[n++].vx = k++;
    }
}

// The counter stepped by an assignment at the end of the body, as lavaMD
// numbers its boxes (nh = nh + 1), and its element also reached in loops
// inside that leave it in place (lavaMD's 27 neighbours of a box).
void place_boxes(struct particle *p, int b) {
  int nh = 0;
  for (int i = 0; i < b; i++)
    for (int j = 0; j < b; j++)
      for (int k = 0; k < b; k++) {
        p[nh].x = k;
        p[nh].y = j;
        for (int l = -1; l < 2; l++)
          for (int m = -1; m < 2; m++)
            if (i + l >= 0 && j + m >= 0)
              p[nh].charge = p[nh].charge + 1;
        nh = nh + 1;
      }
}

void charge_rows(struct particle *p, int n, int m, float **rows) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < m; k++)
        rows[i][j * m + k] = p[i].charge * k;
}

// Bounded by nothing: the index restarts for each row.
void reset_rows(struct particle *p, int L, int m) {
  for (int r = 0; r < L; r++) {
    int j = 0;
    for (int c = 0; c < m; c++) {
      p[j].vy = r;
      j++;
    }
  }
}

// Reset in an OpenMP region inside the nest (the region's code is the
// outlined body of a CapturedStmt).
void reset_in_region(struct particle *p, int L, int m) {
  int j = 0;
  for (int r = 0; r < L; r++) {
#pragma omp parallel num_threads(1)
    { j = 0; }
    for (int c = 0; c < m; c++) {
      p[j].vy = r;
      j++;
    }
  }
}

// Stepped only under a condition the access does not share.
void skip_some(struct particle *p, int L, int m) {
  int j = 0;
  for (int r = 0; r < L; r++)
    for (int c = 0; c < m; c++) {
      p[j].vy += c;
      if (c % 2)
        j++;
    }
}

void step(struct particle *p, int n, int steps) {
  for (int s = 0; s < steps; s++)
    for (int i = 0; i < n; i++) {
      p[i].x += p[i].vx;
      p[i].y += p[i].vy;
    }
}

int main(int argc, char **argv) {
  int L = argc > 1 ? atoi(argv[1]) : 16, n = L * L;
  int *count = calloc(n, sizeof(int));
  struct particle *p = calloc(n, sizeof(struct particle));
  if (!count || !p)
    return 1;
  for (int c = 0; c < n; c++)
    count[c] = 1;
  place(p, L, count);
  place_sparse(p, L, count);
  float *row = calloc(L, sizeof(float));
  if (!row)
    return 1;
  charge_rows(p, 1, 1, &row);
  free(row);
  reset_rows(p, L, L);
  reset_in_region(p, L, L);
  skip_some(p, L, L);
  step(p, n, 100);
  free(p);
  free(count);
  return 0;
}
