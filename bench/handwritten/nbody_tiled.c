/* nbody_tiled.c - examples/nbody/nbody.c in Tiled(16), written by hand.
 *
 * The yardstick for dl-refactor --layout=Body=tiled:16: tiles of 16 bodies,
 * each field a 16-float block, loops split into tile and lane loops; same
 * arithmetic in the same order as the original.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOFTENING 1e-3f
#define T 16

typedef struct Tile {
  float x[T], y[T], z[T], vx[T], vy[T], vz[T], m[T];
} Tile;

#define AT(b, i, f) ((b)[(i) / T].f[(i) % T])

static void init_bodies(Tile *b, int n) {
  unsigned seed = 12345u;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    AT(b, i, x) = (float)(seed % 2000) / 1000.0f - 1.0f;
    seed = seed * 1103515245u + 12345u;
    AT(b, i, y) = (float)(seed % 2000) / 1000.0f - 1.0f;
    seed = seed * 1103515245u + 12345u;
    AT(b, i, z) = (float)(seed % 2000) / 1000.0f - 1.0f;
    AT(b, i, vx) = 0.0f;
    AT(b, i, vy) = 0.0f;
    AT(b, i, vz) = 0.0f;
    AT(b, i, m) = 1.0f + (float)(seed % 100) / 100.0f;
  }
}

/* The inner loop runs over tiles and lanes; n is a multiple of T here. */
static void compute_forces(Tile *b, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    float xi = AT(b, i, x), yi = AT(b, i, y), zi = AT(b, i, z);
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int t = 0; t < n / T; ++t)
      for (int l = 0; l < T; ++l) {
        float dx = b[t].x[l] - xi;
        float dy = b[t].y[l] - yi;
        float dz = b[t].z[l] - zi;
        float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
        float inv = 1.0f / sqrtf(d2);
        float s = b[t].m[l] * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
      }
    for (int j = n / T * T; j < n; ++j) {
      float dx = AT(b, j, x) - xi;
      float dy = AT(b, j, y) - yi;
      float dz = AT(b, j, z) - zi;
      float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
      float inv = 1.0f / sqrtf(d2);
      float s = AT(b, j, m) * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    AT(b, i, vx) += dt * ax;
    AT(b, i, vy) += dt * ay;
    AT(b, i, vz) += dt * az;
  }
}

static void update_positions(Tile *b, int n, float dt) {
  for (int t = 0; t < (n + T - 1) / T; ++t)
    for (int l = 0; l < T && t * T + l < n; ++l) {
      b[t].x[l] += b[t].vx[l] * dt;
      b[t].y[l] += b[t].vy[l] * dt;
      b[t].z[l] += b[t].vz[l] * dt;
    }
}

static double checksum(Tile *b, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += AT(b, i, x) + 2.0 * AT(b, i, y) + 3.0 * AT(b, i, z) + AT(b, i, vx) +
           AT(b, i, vy) + AT(b, i, vz);
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

  Tile *bodies = malloc((size_t)(n + T - 1) / T * sizeof(Tile));
  if (!bodies) {
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
  free(bodies);
  return 0;
}
