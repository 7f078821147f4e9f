/* tiles.cu - a CUDA all-pairs n-body simulation in the style of the classic
 * shared-memory version: each block copies a tile of bodies into shared
 * memory (a __shared__ array of the record, filled by whole-element copies)
 * and every thread of the block reads the tile, through a __device__
 * helper taking elements by reference. Test input of cuda/shared-tiles.test.
 *
 * Usage: nbody [--small] [bodies steps]   prints a checksum of the final
 * state, identical for every layout of struct Body, and on stderr the
 * seconds the kernels ran (CUDA events), as "kernel seconds: T".
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define SOFTENING 1e-3f

struct Body {
  float x, y, z;
  float vx, vy, vz;
  float m;
};

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__,           \
              cudaGetErrorString(err_));                                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* Accelerations from all other bodies, a block's tile at a time through
 * shared memory, integrated into the velocity. */
#define TILE 128
__device__ void interact(const Body &other, const Body &me, float *ax,
                         float *ay, float *az) {
  float dx = other.x - me.x;
  float dy = other.y - me.y;
  float dz = other.z - me.z;
  float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
  float inv = rsqrtf(d2);
  float s = other.m * inv * inv * inv;
  *ax += dx * s;
  *ay += dy * s;
  *az += dz * s;
}

__global__ void forces(Body *b, int n, float dt) {
  __shared__ Body tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Body me = b[i < n ? i : 0];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += TILE) {
    int j = base + threadIdx.x;
    if (j < n)
      tile[threadIdx.x] = b[j];
    __syncthreads();
    for (int k = 0; k < TILE && base + k < n; ++k)
      interact(tile[k], me, &ax, &ay, &az);
    __syncthreads();
  }
  if (i < n) {
    b[i].vx += dt * ax;
    b[i].vy += dt * ay;
    b[i].vz += dt * az;
  }
}

__global__ void advance(Body *b, int n, float dt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) { // a grid-stride loop
    b[i].x += b[i].vx * dt;
    b[i].y += b[i].vy * dt;
    b[i].z += b[i].vz * dt;
  }
}

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

static double checksum(const Body *b, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += b[i].x + 2.0 * b[i].y + 3.0 * b[i].z + b[i].vx + b[i].vy + b[i].vz;
  return sum;
}

int main(int argc, char **argv) {
  int n = 16384, steps = 10;
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

  Body *bodies = (Body *)malloc((size_t)n * sizeof(Body));
  if (!bodies) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  init_bodies(bodies, n);
  Body *d_bodies;
  CHECK(cudaMalloc((void **)&d_bodies, (size_t)n * sizeof(Body)));
  CHECK(cudaMemcpy(d_bodies, bodies, (size_t)n * sizeof(Body),
                   cudaMemcpyHostToDevice));

  float dt = 0.01f;
  int block = TILE, grid = (n + block - 1) / block;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  for (int s = 0; s < steps; ++s) {
    forces<<<grid, block>>>(d_bodies, n, dt);
    advance<<<grid / 4 + 1, block>>>(d_bodies, n, dt);
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaGetLastError());
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaMemcpy(bodies, d_bodies, (size_t)n * sizeof(Body),
                   cudaMemcpyDeviceToHost));
  printf("nbody: %d bodies, %d steps, checksum %.6e\n", n, steps,
         checksum(bodies, n));
  fprintf(stderr, "kernel seconds: %.6f\n", ms / 1000.0f);

  CHECK(cudaFree(d_bodies));
  free(bodies);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return 0;
}
