/* mosquito.cu - the CUDA agent-based mosquito model, the CUDA version of
 * examples/mosquito-cl, written as CUDA codes usually are: the 12-field
 * agents are an array of structs initialized on the host, copied to the
 * GPU with cudaMemcpy, stepped by five kernels of one thread per agent (a
 * grid of blocks of 256 threads), each touching its own subset of the
 * fields:
 *   movement     x, y, heading, speed, seed
 *   ageing       age, stage, alive
 *   feeding      x, y, energy, blood, alive
 *   egg laying   stage, blood, energy, eggs
 *   death        age, energy, wing, alive, seed
 * and copied back for population statistics. The agent's random numbers
 * come from a __host__ __device__ generator the host's initialization
 * shares.
 *
 * Usage: mosquito [--small] [agents steps]   prints population statistics,
 * identical for every layout of struct Mosquito, and on stderr the
 * seconds the kernels ran (CUDA events), as "kernel seconds: T".
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define WORLD 1000.0f

struct Mosquito {
  float x, y;    /* position in the world, metres */
  float heading; /* radians */
  float speed;   /* metres per step */
  int age;       /* steps since emergence */
  int stage;     /* 0 larva, 1 adult, 2 gravid female */
  float energy;  /* reserves, 0..1 */
  float blood;   /* blood meal, 0..1 */
  int eggs;      /* eggs laid so far */
  int alive;     /* 0 or 1 */
  float wing;    /* wing length, mm: larger lives longer */
  unsigned seed; /* the agent's own random state */
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

/* Next uniform number in [0, 1) from the agent's state. */
__host__ __device__ float uniform(unsigned *seed) {
  *seed = *seed * 1664525u + 1013904223u;
  return (float)(*seed >> 8) * (1.0f / 16777216.0f);
}

__global__ void movement(Mosquito *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  m[i].heading += (uniform(&m[i].seed) - 0.5f) * 0.5f;
  m[i].x += m[i].speed * cosf(m[i].heading);
  m[i].y += m[i].speed * sinf(m[i].heading);
  if (m[i].x < 0.0f || m[i].x > WORLD)
    m[i].x = fminf(fmaxf(m[i].x, 0.0f), WORLD);
  if (m[i].y < 0.0f || m[i].y > WORLD)
    m[i].y = fminf(fmaxf(m[i].y, 0.0f), WORLD);
}

__global__ void ageing(Mosquito *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  m[i].age += m[i].alive;
  if (m[i].stage == 0 && m[i].age > 5)
    m[i].stage = 1;
}

/* Hosts stand on a 100 m grid: an agent close to one feeds. */
__global__ void feeding(Mosquito *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float dx = fmodf(m[i].x, 100.0f) - 50.0f;
  float dy = fmodf(m[i].y, 100.0f) - 50.0f;
  float near = dx * dx + dy * dy < 400.0f ? 1.0f : 0.0f;
  float meal = near * (1.0f - m[i].blood) * 0.5f * (float)m[i].alive;
  m[i].blood += meal;
  m[i].energy = fminf(1.0f, m[i].energy + 0.2f * meal) - 0.01f;
}

__global__ void egg_laying(Mosquito *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (m[i].stage >= 1 && m[i].blood > 0.6f) {
    m[i].eggs += (int)(m[i].blood * 100.0f);
    m[i].blood = 0.0f;
    m[i].energy -= 0.05f;
    m[i].stage = 2;
  }
}

__global__ void death(Mosquito *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float risk =
      0.002f * (float)m[i].age / m[i].wing + (m[i].energy < 0.1f ? 0.2f : 0.0f);
  if (m[i].alive && uniform(&m[i].seed) < risk)
    m[i].alive = 0;
}

static void init_agents(Mosquito *m, int n) {
  for (int i = 0; i < n; ++i) {
    unsigned seed = 17u + 2654435761u * (unsigned)i;
    m[i].x = uniform(&seed) * WORLD;
    m[i].y = uniform(&seed) * WORLD;
    m[i].heading = uniform(&seed) * 6.2831853f;
    m[i].speed = 1.0f + uniform(&seed) * 4.0f;
    m[i].age = (int)(uniform(&seed) * 10.0f);
    m[i].stage = m[i].age > 5;
    m[i].energy = 0.5f + 0.5f * uniform(&seed);
    m[i].blood = 0.0f;
    m[i].eggs = 0;
    m[i].alive = 1;
    m[i].wing = 2.5f + uniform(&seed);
    m[i].seed = seed;
  }
}

int main(int argc, char **argv) {
  int n = 1 << 20, steps = 30;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    n = 2000;
    steps = 5;
    ++arg;
  }
  if (arg + 1 < argc) {
    n = atoi(argv[arg]);
    steps = atoi(argv[arg + 1]);
  }
  if (n <= 0 || steps < 0) {
    fprintf(stderr, "usage: %s [--small] [agents steps]\n", argv[0]);
    return 2;
  }

  Mosquito *agents = (Mosquito *)malloc((size_t)n * sizeof(Mosquito));
  if (!agents) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  init_agents(agents, n);
  Mosquito *d_agents;
  CHECK(cudaMalloc((void **)&d_agents, (size_t)n * sizeof(Mosquito)));
  CHECK(cudaMemcpy(d_agents, agents, (size_t)n * sizeof(Mosquito),
                   cudaMemcpyHostToDevice));

  int block = 256, grid = (n + block - 1) / block;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  for (int s = 0; s < steps; ++s) {
    movement<<<grid, block>>>(d_agents, n);
    ageing<<<grid, block>>>(d_agents, n);
    feeding<<<grid, block>>>(d_agents, n);
    egg_laying<<<grid, block>>>(d_agents, n);
    death<<<grid, block>>>(d_agents, n);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaGetLastError());
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaMemcpy(agents, d_agents, (size_t)n * sizeof(Mosquito),
                   cudaMemcpyDeviceToHost));

  long alive = 0, eggs = 0, gravid = 0;
  double where = 0.0;
  for (int i = 0; i < n; ++i) {
    alive += agents[i].alive;
    eggs += agents[i].eggs;
    gravid += agents[i].stage == 2;
    where += agents[i].x + agents[i].y;
  }
  printf("mosquito: %d agents, %d steps: %ld alive, %ld gravid, %ld eggs, "
         "position checksum %.6e\n",
         n, steps, alive, gravid, eggs, where);
  fprintf(stderr, "kernel seconds: %.6f\n", ms / 1000.0f);

  CHECK(cudaFree(d_agents));
  free(agents);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return 0;
}
