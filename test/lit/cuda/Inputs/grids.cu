// Kernels of one record launched with grids of constant and of run-time
// size (launch-grids.test).
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

struct Cell {
  float mass, heat, flux, spare;
};

// Over every cell: a grid sized to the array at run time.
__global__ void diffuse(Cell *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i].heat += 0.1f * c[i].flux;
}

// One block of 128 work-items.
__global__ void boundary(Cell *c, int n) {
  int i = threadIdx.x;
  c[i].flux = 0.0f;
}

// A 4 x 2 grid of 16 x 16 blocks: 2048 work-items.
__global__ void probe(Cell *c, int n) {
  int i = (blockIdx.y * 4 + blockIdx.x) * 256 + threadIdx.y * 16 + threadIdx.x;
  c[i].mass += c[i].heat;
}

// 2 blocks of `threads`, a local never written again: 512 work-items.
__global__ void sample(Cell *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i].spare = c[i].mass;
}

// Launched with a block size changed after its initialization: guessed.
__global__ void relax(Cell *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i].heat *= 0.5f;
}

// A grid-stride loop shares the array out over a small grid: its work is
// the array's, whatever the grid.
__global__ void scale(Cell *c, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    c[i].flux *= 2.0f;
}

// Launched once with a constant grid and once with a run-time one: guessed.
__global__ void mixed(Cell *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i].mass *= 0.99f;
}

int main(void) {
  int n = 1 << 20;
  Cell *d;
  cudaMalloc(&d, n * sizeof(Cell));
  cudaMemset(d, 0, n * sizeof(Cell));
  dim3 block(16, 16);
  dim3 grid(4, 2);
  int threads = 256;
  int relaxing = 64;
  relaxing *= 2;
  for (int step = 0; step < 10; ++step) {
    diffuse<<<(n + 255) / 256, 256>>>(d, n);
    boundary<<<1, 128>>>(d, n);
    probe<<<grid, block>>>(d, n);
    sample<<<2, threads>>>(d, n);
    relax<<<4, relaxing>>>(d, n);
    scale<<<8, 128>>>(d, n);
    mixed<<<8, 128>>>(d, n);
    mixed<<<n / 128, 128>>>(d, n);
  }
  Cell *h = (Cell *)malloc(n * sizeof(Cell));
  cudaMemcpy(h, d, n * sizeof(Cell), cudaMemcpyDeviceToHost);
  printf("%f\n", h[0].mass);
  free(h);
  cudaFree(d);
  return 0;
}
