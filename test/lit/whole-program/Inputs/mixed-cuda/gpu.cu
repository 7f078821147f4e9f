#include "particles.h"
#include <cuda_runtime.h>

__global__ void move(Particle *p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i].vx += dt * p[i].m;
    p[i].vy -= dt * p[i].m;
    p[i].x += dt * p[i].vx;
    p[i].y += dt * p[i].vy;
    p[i].z += dt * p[i].vz;
  }
}

extern "C" int step_gpu(Particle *p, int n, int steps, float dt) {
  Particle *d;
  if (cudaMalloc((void **)&d, (size_t)n * sizeof(Particle)) != cudaSuccess)
    return 1;
  cudaMemcpy(d, p, (size_t)n * sizeof(Particle), cudaMemcpyHostToDevice);
  for (int s = 0; s < steps; ++s)
    move<<<(n + 127) / 128, 128>>>(d, n, dt);
  cudaError_t e =
      cudaMemcpy(p, d, (size_t)n * sizeof(Particle), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return e == cudaSuccess ? 0 : 1;
}
