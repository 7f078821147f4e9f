/* lavamd.cu - the CUDA lavaMD-like example, the CUDA version of
 * examples/lavamd-cl, written as Rodinia's CUDA lavaMD is: one block per
 * box.
 *
 * Particles live in a 3-D grid of boxes; each particle interacts with the
 * particles of its own box and of the up to 26 neighbouring boxes. The
 * boxes, particles and forces are arrays of structs on the host, copied to
 * the GPU with cudaMalloc and cudaMemcpy. For the home box and then for
 * each of its neighbours, the threads of the box's block copy that box's
 * particles into shared memory (four arrays of doubles: x, y, z, q), wait
 * at __syncthreads, and each accumulates the potential and force they
 * exert on its own particles of the home box (the l-th, the (l + block
 * size)-th, ...). The forces are copied back for a checksum.
 *
 * Usage: lavamd [--small] [boxes-per-side particles-per-box]   prints a
 * checksum of the forces, identical for every layout of the records (each
 * force is summed in the same order, box after box and particle after
 * particle, by the one thread that owns it), and on stderr the
 * seconds the kernel ran (CUDA events), as "kernel seconds: T".
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

/* One particle: position and charge, read together in the hot loop. */
struct Particle {
  double x, y, z;
  double q;
};

/* The potential and force a particle accumulates. */
struct Force {
  double v, x, y, z;
};

/* One box of the grid: its particles are [offset, offset + count). */
struct Box {
  int offset;
  int count;
  int neighbours; /* how many entries of nei are used */
  int nei[26];    /* indices of the neighbouring boxes */
};

/* The most particles a box may hold: the four shared arrays of doubles of
   one box's particles stay within the 48 KiB a block gets by default. */
#define MAX_PER_BOX 1536

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__,           \
              cudaGetErrorString(err_));                                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* One block per box; \p capacity is the most particles a box holds (the
   length of each of the four shared arrays the launch sized). */
__global__ void lavamd(const Box *boxes, const Particle *p, Force *f,
                       double alpha, int capacity) {
  extern __shared__ double shared[];
  double *sx = shared, *sy = shared + capacity, *sz = shared + 2 * capacity,
         *sq = shared + 3 * capacity;
  int b = blockIdx.x;
  int l = threadIdx.x;
  int size = blockDim.x;
  int first = boxes[b].offset, count = boxes[b].count;
  double a2 = 2.0 * alpha * alpha;

  /* k = -1 is the home box, then its neighbours in order. */
  for (int k = -1; k < boxes[b].neighbours; ++k) {
    int other = k < 0 ? b : boxes[b].nei[k];
    int ofirst = boxes[other].offset, ocount = boxes[other].count;
    for (int j = l; j < ocount; j += size) {
      sx[j] = p[ofirst + j].x;
      sy[j] = p[ofirst + j].y;
      sz[j] = p[ofirst + j].z;
      sq[j] = p[ofirst + j].q;
    }
    __syncthreads();

    for (int i = l; i < count; i += size) {
      Particle home = p[first + i];
      double v = 0.0, fx = 0.0, fy = 0.0, fz = 0.0;
      for (int j = 0; j < ocount; ++j) {
        double dx = home.x - sx[j];
        double dy = home.y - sy[j];
        double dz = home.z - sz[j];
        double r2 = dx * dx + dy * dy + dz * dz;
        double u2 = a2 * r2;
        double vij = exp(-u2);
        double fs = 2.0 * vij;
        v += sq[j] * vij;
        fx += sq[j] * fs * dx;
        fy += sq[j] * fs * dy;
        fz += sq[j] * fs * dz;
      }
      f[first + i].v += v;
      f[first + i].x += fx;
      f[first + i].y += fy;
      f[first + i].z += fz;
    }
    /* Everyone is done with shared before the next box overwrites it. */
    __syncthreads();
  }
}

static unsigned next_random(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return (*seed >> 8) % 10000u;
}

/* Boxes of a side x side x side grid with their neighbour lists. */
static void init_boxes(Box *boxes, int side, int per_box) {
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j)
      for (int k = 0; k < side; ++k) {
        int b = (i * side + j) * side + k;
        boxes[b].offset = b * per_box;
        boxes[b].count = per_box;
        boxes[b].neighbours = 0;
        for (int di = -1; di <= 1; ++di)
          for (int dj = -1; dj <= 1; ++dj)
            for (int dk = -1; dk <= 1; ++dk) {
              int ni = i + di, nj = j + dj, nk = k + dk;
              if ((di == 0 && dj == 0 && dk == 0) || ni < 0 || nj < 0 ||
                  nk < 0 || ni >= side || nj >= side || nk >= side)
                continue;
              boxes[b].nei[boxes[b].neighbours++] =
                  (ni * side + nj) * side + nk;
            }
      }
}

static void init_particles(Particle *p, Force *f, int n) {
  unsigned seed = 42u;
  for (int i = 0; i < n; ++i) {
    p[i].x = (next_random(&seed) + 1) / 10000.0;
    p[i].y = (next_random(&seed) + 1) / 10000.0;
    p[i].z = (next_random(&seed) + 1) / 10000.0;
    p[i].q = (next_random(&seed) + 1) / 10000.0;
    f[i].v = 0;
    f[i].x = 0;
    f[i].y = 0;
    f[i].z = 0;
  }
}

static double checksum(const Force *f, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += f[i].v + f[i].x - f[i].y + 0.5 * f[i].z;
  return sum;
}

int main(int argc, char **argv) {
  int side = 10, per_box = 100;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    side = 3;
    per_box = 20;
    ++arg;
  }
  if (arg + 1 < argc) {
    side = atoi(argv[arg]);
    per_box = atoi(argv[arg + 1]);
  }
  if (side < 1 || per_box < 1 || per_box > MAX_PER_BOX) {
    fprintf(stderr,
            "usage: %s [--small] [boxes-per-side particles-per-box]"
            " (at most %d particles per box)\n",
            argv[0], MAX_PER_BOX);
    return 2;
  }
  int nboxes = side * side * side, n = nboxes * per_box;

  Box *boxes = (Box *)malloc((size_t)nboxes * sizeof(Box));
  Particle *particles = (Particle *)malloc((size_t)n * sizeof(Particle));
  Force *forces = (Force *)malloc((size_t)n * sizeof(Force));
  if (!boxes || !particles || !forces) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  init_boxes(boxes, side, per_box);
  init_particles(particles, forces, n);

  Box *d_boxes;
  Particle *d_particles;
  Force *d_forces;
  CHECK(cudaMalloc((void **)&d_boxes, (size_t)nboxes * sizeof(Box)));
  CHECK(cudaMalloc((void **)&d_particles, (size_t)n * sizeof(Particle)));
  CHECK(cudaMalloc((void **)&d_forces, (size_t)n * sizeof(Force)));
  CHECK(cudaMemcpy(d_boxes, boxes, (size_t)nboxes * sizeof(Box),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_particles, particles, (size_t)n * sizeof(Particle),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_forces, forces, (size_t)n * sizeof(Force),
                   cudaMemcpyHostToDevice));

  /* One block per box, at most 128 threads sharing its particles; the
     dynamic shared memory holds x, y, z and q of one box's particles. */
  double alpha = 0.5;
  int block = per_box < 128 ? per_box : 128;
  size_t shared_bytes = 4 * (size_t)per_box * sizeof(double);
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  lavamd<<<nboxes, block, shared_bytes>>>(d_boxes, d_particles, d_forces, alpha,
                                          per_box);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaGetLastError());
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaMemcpy(forces, d_forces, (size_t)n * sizeof(Force),
                   cudaMemcpyDeviceToHost));
  printf("lavamd: %d boxes, %d particles, checksum %.6e\n", nboxes, n,
         checksum(forces, n));
  fprintf(stderr, "kernel seconds: %.6f\n", ms / 1000.0f);

  CHECK(cudaFree(d_boxes));
  CHECK(cudaFree(d_particles));
  CHECK(cudaFree(d_forces));
  free(boxes);
  free(particles);
  free(forces);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return 0;
}
