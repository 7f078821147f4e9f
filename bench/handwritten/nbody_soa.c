/* nbody_soa.c - examples/nbody/nbody.c in SoA, written by hand.
 *
 * The yardstick for dl-refactor --layout=Body=soa: the same arithmetic in
 * the same order, so the output is identical; bench/run_benchmarks.py times
 * the two against each other (target: within 2 %).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOFTENING 1e-3f

typedef struct Bodies {
  float *x, *y, *z, *vx, *vy, *vz, *m;
} Bodies;

static void init_bodies(Bodies b, int n) {
  unsigned seed = 12345u;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    b.x[i] = (float)(seed % 2000) / 1000.0f - 1.0f;
    seed = seed * 1103515245u + 12345u;
    b.y[i] = (float)(seed % 2000) / 1000.0f - 1.0f;
    seed = seed * 1103515245u + 12345u;
    b.z[i] = (float)(seed % 2000) / 1000.0f - 1.0f;
    b.vx[i] = 0.0f;
    b.vy[i] = 0.0f;
    b.vz[i] = 0.0f;
    b.m[i] = 1.0f + (float)(seed % 100) / 100.0f;
  }
}

static void compute_forces(Bodies b, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; ++j) {
      float dx = b.x[j] - b.x[i];
      float dy = b.y[j] - b.y[i];
      float dz = b.z[j] - b.z[i];
      float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
      float inv = 1.0f / sqrtf(d2);
      float s = b.m[j] * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    b.vx[i] += dt * ax;
    b.vy[i] += dt * ay;
    b.vz[i] += dt * az;
  }
}

static void update_positions(Bodies b, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    b.x[i] += b.vx[i] * dt;
    b.y[i] += b.vy[i] * dt;
    b.z[i] += b.vz[i] * dt;
  }
}

static double checksum(Bodies b, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += b.x[i] + 2.0 * b.y[i] + 3.0 * b.z[i] + b.vx[i] + b.vy[i] + b.vz[i];
  return sum;
}

int main(int argc, char **argv) {
  int n = 4096, steps = 10;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    n = 256;
    steps = 3;
    ++arg;
  }
  if (arg + 1 < argc) {
    n = atoi(argv[arg]);
    steps = atoi(argv[arg + 1]);
  }
  if (n <= 0 || steps < 0) {
    fprintf(stderr, "usage: %s [--small] [bodies steps]\n", argv[0]);
    return 2;
  }

  Bodies bodies;
  float **fields[] = {&bodies.x, &bodies.y, &bodies.z, &bodies.vx,
                      &bodies.vy, &bodies.vz, &bodies.m};
  int ok = 1;
  for (int f = 0; f < 7; ++f)
    ok &= (*fields[f] = malloc((size_t)n * sizeof(float))) != NULL;
  if (!ok) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  init_bodies(bodies, n);
  for (int s = 0; s < steps; ++s) {
    compute_forces(bodies, n, 0.01f);
    update_positions(bodies, n, 0.01f);
  }
  printf("nbody: %d bodies, %d steps, checksum %.6e\n", n, steps,
         checksum(bodies, n));
  for (int f = 0; f < 7; ++f)
    free(*fields[f]);
  return 0;
}
