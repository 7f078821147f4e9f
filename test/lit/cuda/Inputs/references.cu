// An SPH-style CUDA program that names its elements through references, as
// many CUDA codes do: `Particle &p = ps[i];` in a grid-stride loop, a const
// reference to each neighbour in the density loop, an element passed by
// reference to __device__ helpers (one writes it, one only reads it). Host
// arrays of structs copied to the device and back. Prints a checksum.
#include <cstdio>
#include <cstdlib>

struct Particle {
  float x, y;
  float vx, vy;
  float rho, p;
  int cell;
};

__device__ void clamp(Particle &p) {
  if (p.x < 0.0f || p.x > 1.0f)
    p.vx = -p.vx;
  if (p.y < 0.0f || p.y > 1.0f)
    p.vy = -p.vy;
}

// Takes the element by a non-const reference and only reads it.
__device__ bool inside(Particle &p) { return p.x >= 0.0f && p.x <= 1.0f; }

__global__ void density(Particle *ps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Particle &me = ps[i];
  float rho = 0.0f;
  for (int j = 0; j < n; ++j) {
    const Particle &q = ps[j];
    float dx = q.x - me.x, dy = q.y - me.y;
    rho += 1.0f / (1.0f + dx * dx + dy * dy);
  }
  me.rho = rho;
  me.p = 0.5f * rho;
}

__global__ void move(Particle *ps, int n, float dt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    Particle &p = ps[i];
    p.vx -= p.p * p.x * dt;
    p.vy -= p.p * p.y * dt;
    p.x += p.vx * dt;
    p.y += p.vy * dt;
    if (!inside(p))
      p.vx *= 0.5f;
    clamp(p);
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  Particle *h = (Particle *)malloc(n * sizeof(Particle));
  for (int i = 0; i < n; ++i) {
    Particle &p = h[i];
    p.x = (float)(i % 31) / 31.0f;
    p.y = (float)(i % 17) / 17.0f;
    p.vx = p.vy = 0.01f;
    p.rho = p.p = 0.0f;
    p.cell = i % 8;
  }
  Particle *d;
  if (cudaMalloc((void **)&d, n * sizeof(Particle)) != cudaSuccess)
    return 1;
  cudaMemcpy(d, h, n * sizeof(Particle), cudaMemcpyHostToDevice);
  for (int s = 0; s < 4; ++s) {
    density<<<(n + 127) / 128, 128>>>(d, n);
    move<<<8, 128>>>(d, n, 0.01f);
  }
  cudaMemcpy(h, d, n * sizeof(Particle), cudaMemcpyDeviceToHost);
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const Particle &p = h[i];
    sum += p.x + p.y + p.rho + p.cell;
  }
  printf("particles: %d, checksum %.6e\n", n, sum);
  cudaFree(d);
  free(h);
  return 0;
}
