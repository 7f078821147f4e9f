/* nbody.c - a small all-pairs n-body simulation over an array of structs.
 *
 * The natural AoS form dlopt starts from: position, velocity and mass of a
 * body side by side. The force loop reads positions and masses of all
 * bodies, the update loop reads and writes positions and velocities.
 *
 * Usage: nbody [--small] [bodies steps]   prints a checksum of the final
 * state, identical for every layout of struct Body.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOFTENING 1e-3f

typedef struct Body {
  float x, y, z;
  float vx, vy, vz;
  float m;
} Body;

static void init_bodies(Body *b, int n) {
  unsigned seed = 12345u;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    b[i].x = (float)(seed % 2000) / 1000.0f - 1.0f;
    seed = seed * 1103515245u + 12345u;
    b[i].y = (float)(seed % 2000) / 1000.0f - 1.0f;
    seed = seed * 1103515245u + 12345u;
    b[i].z = (float)(seed % 2000) / 1000.0f - 1.0f;
    b[i].vx = 0.0f;
    b[i].vy = 0.0f;
    b[i].vz = 0.0f;
    b[i].m = 1.0f + (float)(seed % 100) / 100.0f;
  }
}

/* Accelerations from all other bodies, integrated into the velocities. */
static void compute_forces(Body *b, int n, float dt) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; ++j) {
      float dx = b[j].x - b[i].x;
      float dy = b[j].y - b[i].y;
      float dz = b[j].z - b[i].z;
      float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
      float inv = 1.0f / sqrtf(d2);
      float s = b[j].m * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    b[i].vx += dt * ax;
    b[i].vy += dt * ay;
    b[i].vz += dt * az;
  }
}

static void update_positions(Body *b, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    b[i].x += b[i].vx * dt;
    b[i].y += b[i].vy * dt;
    b[i].z += b[i].vz * dt;
  }
}

static double checksum(const Body *b, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += b[i].x + 2.0 * b[i].y + 3.0 * b[i].z + b[i].vx + b[i].vy + b[i].vz;
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

  Body *bodies = malloc((size_t)n * sizeof(Body));
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
