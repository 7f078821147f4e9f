// A particle program in the style of CUDA codes: host arrays of structs,
// device copies made with cudaMalloc and cudaMemcpy (synchronous and on a
// stream), a cleared accumulator (cudaMemset), managed memory, kernels
// indexed by blockIdx/blockDim/threadIdx with a grid-stride loop, a
// __host__ __device__ helper that takes the array, and a branch only the
// device side compiles. Prints a checksum.
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "CUDA error %d at line %d\n", (int)err_, __LINE__);      \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

struct Particle {
  float x, y;
  float vx, vy;
  float rho, p;
  int cell;
};

__host__ __device__ float pressure(const Particle *a, int i) {
#ifdef __CUDA_ARCH__
  return __ldg(&a[i].rho) * 0.5f;
#else
  return a[i].rho * 0.5f;
#endif
}

__global__ void density(Particle *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float rho = 0.0f;
  for (int j = 0; j < n; ++j) {
    float dx = a[j].x - a[i].x, dy = a[j].y - a[i].y;
    rho += 1.0f / (1.0f + dx * dx + dy * dy);
  }
  a[i].rho = rho;
  a[i].p = pressure(a, i);
}

__global__ void move(Particle *a, int n, float dt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    a[i].vx -= a[i].p * a[i].x * dt;
    a[i].vy -= a[i].p * a[i].y * dt;
    a[i].x += a[i].vx * dt;
    a[i].y += a[i].vy * dt;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  Particle *h = (Particle *)malloc(n * sizeof(Particle));
  for (int i = 0; i < n; ++i) {
    h[i].x = (float)(i % 31) / 31.0f;
    h[i].y = (float)(i % 17) / 17.0f;
    h[i].vx = h[i].vy = 0.0f;
    h[i].rho = h[i].p = 0.0f;
    h[i].cell = i % 8;
  }
  size_t bytes = n * sizeof(Particle);
  Particle *d, *spare;
  CHECK(cudaMalloc((void **)&d, bytes));
  CHECK(cudaMallocManaged(&spare, n * sizeof(Particle)));
  CHECK(cudaMemset(spare, 0, n * sizeof(Particle)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, stream));
  CHECK(cudaStreamSynchronize(stream));
  for (int s = 0; s < 4; ++s) {
    density<<<(n + 127) / 128, 128>>>(d, n);
    move<<<8, 128>>>(d, n, 0.01f);
  }
  CHECK(cudaMemcpy(spare, d, n * sizeof(Particle), cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy(h, spare, bytes, cudaMemcpyDeviceToHost));
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += h[i].x + h[i].y + h[i].rho + pressure(h, i) + h[i].cell;
  printf("particles: %d, checksum %.6e\n", n, sum);
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(d));
  CHECK(cudaFree(spare));
  free(h);
  return 0;
}
