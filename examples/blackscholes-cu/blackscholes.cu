/* blackscholes.cu - the CUDA European option pricer, the CUDA version of
 * examples/blackscholes-cl, written as CUDA codes usually are: the 7-float
 * options are an array of structs initialized on the host, copied to the
 * GPU with cudaMemcpy, priced each round by two kernels of one thread per
 * option (price reads the five inputs and writes the two prices, drift
 * moves the spot towards the call price for the next round; a grid of
 * blocks of 256 threads) and copied back for a checksum of the prices.
 *
 * Usage: blackscholes [--small] [options rounds]   prints a checksum of the
 * prices, identical for every layout of struct Option (the GPU's expf,
 * logf and sqrtf need not round as the host's libm does, so the last
 * digits can differ from the C version's; %.6e is the precision they
 * agree on), and on stderr the seconds the kernels ran (CUDA events), as
 * "kernel seconds: T".
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

struct Option {
  float spot;       /* S: price of the underlying */
  float strike;     /* K */
  float rate;       /* r: risk-free interest rate */
  float volatility; /* sigma */
  float time;       /* T: years to expiry */
  float call;       /* out: price of the call */
  float put;        /* out: price of the put */
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

/* Cumulative normal distribution (Abramowitz-Stegun 26.2.17). */
__device__ float cndf(float x) {
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(x));
  float poly =
      k * (0.319381530f +
           k * (-0.356563782f +
                k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
  float n = 1.0f - 0.39894228f * expf(-0.5f * x * x) * poly;
  return x < 0.0f ? 1.0f - n : n;
}

__global__ void price(Option *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float sqrt_t = sqrtf(o[i].time);
  float d1 =
      (logf(o[i].spot / o[i].strike) +
       (o[i].rate + 0.5f * o[i].volatility * o[i].volatility) * o[i].time) /
      (o[i].volatility * sqrt_t);
  float d2 = d1 - o[i].volatility * sqrt_t;
  float discounted = o[i].strike * expf(-o[i].rate * o[i].time);
  o[i].call = o[i].spot * cndf(d1) - discounted * cndf(d2);
  o[i].put = discounted * cndf(-d2) - o[i].spot * cndf(-d1);
}

/* The next round prices slightly different markets. */
__global__ void drift(Option *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  o[i].spot = o[i].spot * 0.999f + o[i].call * 0.001f;
}

static void init_options(Option *o, int n) {
  unsigned seed = 2024u;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    o[i].spot = 10.0f + (float)(seed >> 20) / 64.0f;
    seed = seed * 1664525u + 1013904223u;
    o[i].strike = 10.0f + (float)(seed >> 20) / 64.0f;
    o[i].rate = 0.01f + (float)(i % 10) / 200.0f;
    o[i].volatility = 0.05f + (float)(i % 17) / 40.0f;
    o[i].time = 0.25f + (float)(i % 8) / 4.0f;
    o[i].call = 0.0f;
    o[i].put = 0.0f;
  }
}

static double checksum(const Option *o, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += o[i].call + 0.5 * o[i].put;
  return sum;
}

int main(int argc, char **argv) {
  int n = 1 << 20, rounds = 20;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    n = 1000;
    rounds = 2;
    ++arg;
  }
  if (arg + 1 < argc) {
    n = atoi(argv[arg]);
    rounds = atoi(argv[arg + 1]);
  }
  if (n <= 0 || rounds <= 0) {
    fprintf(stderr, "usage: %s [--small] [options rounds]\n", argv[0]);
    return 2;
  }

  Option *options = (Option *)malloc((size_t)n * sizeof(Option));
  if (!options) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  init_options(options, n);
  Option *d_options;
  CHECK(cudaMalloc((void **)&d_options, (size_t)n * sizeof(Option)));
  CHECK(cudaMemcpy(d_options, options, (size_t)n * sizeof(Option),
                   cudaMemcpyHostToDevice));

  int block = 256, grid = (n + block - 1) / block;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  for (int r = 0; r < rounds; ++r) {
    price<<<grid, block>>>(d_options, n);
    drift<<<grid, block>>>(d_options, n);
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaGetLastError());
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaMemcpy(options, d_options, (size_t)n * sizeof(Option),
                   cudaMemcpyDeviceToHost));
  printf("blackscholes: %d options, %d rounds, checksum %.6e\n", n, rounds,
         checksum(options, n));
  fprintf(stderr, "kernel seconds: %.6f\n", ms / 1000.0f);

  CHECK(cudaFree(d_options));
  free(options);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return 0;
}
