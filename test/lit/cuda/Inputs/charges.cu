// Point charges in a CUDA program whose host code cannot change layout: it
// hashes the bytes of its array (a cast to unsigned char *) and keeps it in
// pinned memory. The device arrays can: the boundary strategy converts at
// the copies.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct Charge {
  float x, y, z;
  float q;
  float fx, fy, fz;
  int kind;
};

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err_));                                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

__device__ float pull(const Charge *c, int i, int j) {
  float dx = c[j].x - c[i].x, dy = c[j].y - c[i].y, dz = c[j].z - c[i].z;
  return c[j].q / (1.0f + dx * dx + dy * dy + dz * dz);
}

__global__ void field(Charge *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float f = 0.0f;
  for (int j = 0; j < n; ++j)
    f += pull(c, i, j);
  c[i].fx = f * c[i].x;
  c[i].fy = f * c[i].y;
  c[i].fz = f * c[i].z;
}

__global__ void drift(Charge *c, int n, float dt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    c[i].x += c[i].fx * dt;
    c[i].y += c[i].fy * dt;
    c[i].z += c[i].fz * dt;
  }
}

static unsigned long hash_bytes(const Charge *c, int n) {
  const unsigned char *b = (const unsigned char *)c;
  unsigned long h = 14695981039346656037ul;
  for (size_t k = 0; k < n * sizeof(Charge); ++k)
    h = (h ^ b[k]) * 1099511628211ul;
  return h;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  Charge *h, *d;
  CHECK(cudaMallocHost((void **)&h, n * sizeof(Charge)));
  for (int i = 0; i < n; ++i) {
    h[i].x = (float)(i % 13);
    h[i].y = (float)(i % 7);
    h[i].z = (float)(i % 5);
    h[i].q = i % 2 ? 1.0f : -1.0f;
    h[i].fx = h[i].fy = h[i].fz = 0.0f;
    h[i].kind = i % 3;
  }
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMalloc((void **)&d, n * sizeof(Charge)));
  CHECK(cudaMemcpyAsync(d, h, n * sizeof(Charge), cudaMemcpyHostToDevice, s));
  for (int step = 0; step < 3; ++step) {
    field<<<(n + 127) / 128, 128, 0, s>>>(d, n);
    drift<<<16, 128, 0, s>>>(d, n, 0.01f);
  }
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(Charge), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  printf("charges: %d, hash %016lx\n", n, hash_bytes(h, n));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  CHECK(cudaFreeHost(h));
  return 0;
}
