// Cell-list forces in the style of Rodinia's lavaMD: each block stages a
// neighbour box's particles in a __shared__ tile, and each thread adds the
// tile's contributions into its own particle's force, f[home + t], inside
// the loop over the tile: the element stays the same across the loop.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define PER_BOX 64

typedef struct {
  double v, x, y, z;
} Force;

typedef struct {
  double x, y, z, q;
} Particle;

__global__ void forces(const Particle *p, Force *f, int boxes) {
  __shared__ Particle tile[PER_BOX];
  int b = blockIdx.x, t = threadIdx.x;
  int home = b * PER_BOX;
  for (int k = 0; k < 3; k++) {
    int nb = (b + k) % boxes;
    tile[t] = p[nb * PER_BOX + t];
    __syncthreads();
    for (int j = 0; j < PER_BOX; j++) {
      double dx = tile[t].x - tile[j].x, dy = tile[t].y - tile[j].y;
      double dz = tile[t].z - tile[j].z;
      double w = exp(-(dx * dx + dy * dy + dz * dz));
      f[home + t].v += tile[j].q * w;
      f[home + t].x += tile[j].q * w * dx;
      f[home + t].y += tile[j].q * w * dy;
      f[home + t].z += tile[j].q * w * dz;
    }
    __syncthreads();
  }
}

int main(int argc, char **argv) {
  int boxes = argc > 1 ? atoi(argv[1]) : 64;
  int n = boxes * PER_BOX;
  Particle *p = (Particle *)malloc(n * sizeof(Particle));
  Force *f = (Force *)calloc(n, sizeof(Force));
  for (int i = 0; i < n; i++) {
    p[i].x = (i % 17) * 0.1;
    p[i].y = (i % 13) * 0.1;
    p[i].z = (i % 11) * 0.1;
    p[i].q = 1.0 + (i % 5) * 0.1;
  }
  Particle *dp;
  Force *df;
  cudaMalloc((void **)&dp, n * sizeof(Particle));
  cudaMalloc((void **)&df, n * sizeof(Force));
  cudaMemcpy(dp, p, n * sizeof(Particle), cudaMemcpyHostToDevice);
  cudaMemcpy(df, f, n * sizeof(Force), cudaMemcpyHostToDevice);
  forces<<<boxes, PER_BOX>>>(dp, df, boxes);
  cudaMemcpy(f, df, n * sizeof(Force), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += f[i].v + f[i].x + f[i].y + f[i].z;
  printf("checksum %.6e\n", sum);
  cudaFree(dp);
  cudaFree(df);
  free(p);
  free(f);
  return 0;
}
