// Cross-section lookups in RSBench's style: each lookup draws an energy and
// a nuclide of its own, finds the nuclide's window and walks the window's
// poles, copying each pole whole into a local (`Pole p = poles[k]`). The
// work-items of a warp walk different windows: every pole read is a gather
// across the warp, however consecutive each work-item's own poles are.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct Complex {
  double r, i;
};
struct Pole {
  Complex ea, rt, ra;
  short l;
};
struct Window {
  double t, a;
  int start, end;
};

__host__ __device__ double lcg(unsigned long long *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(*s >> 11) / 9007199254740992.0;
}

__device__ void factors(double e, Complex *f) {
  for (int l = 0; l < 4; ++l) {
    f[l].r = e * (l + 1);
    f[l].i = e / (l + 1);
  }
}

__device__ double micro(const Pole *poles, const Window *windows, int nuc,
                        int nwin, double e) {
  Complex f[4];
  factors(e, f);
  int w = (int)(e * nwin);
  Window win = windows[nuc * nwin + w];
  double sig = e * win.t + win.a;
  for (int k = win.start; k < win.end; ++k) {
    Pole p = poles[k];
    double dr = p.ea.r - e, di = p.ea.i;
    double d = 1.0 / (dr * dr + di * di + 1.0);
    sig += (p.rt.r * f[p.l].r - p.rt.i * f[p.l].i) * d + p.ra.r * d;
  }
  return sig;
}

__global__ void lookups(const Pole *poles, const Window *windows, int nnuc,
                        int nwin, int n, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned long long seed = 1000003ull * (i + 1);
  double e = lcg(&seed);
  int nuc = (int)(lcg(&seed) * nnuc);
  out[i] = micro(poles, windows, nuc, nwin, e);
}

int main(int argc, char **argv) {
  int nnuc = 64, nwin = 32, per = 12, n = argc > 1 ? atoi(argv[1]) : 1 << 16;
  int npoles = nnuc * nwin * per;
  Pole *poles = (Pole *)malloc(npoles * sizeof(Pole));
  Window *windows = (Window *)malloc(nnuc * nwin * sizeof(Window));
  unsigned long long seed = 42;
  for (int k = 0; k < npoles; ++k) {
    poles[k].ea.r = lcg(&seed);
    poles[k].ea.i = lcg(&seed);
    poles[k].rt.r = lcg(&seed);
    poles[k].rt.i = lcg(&seed);
    poles[k].ra.r = lcg(&seed);
    poles[k].ra.i = 0;
    poles[k].l = (short)(k % 4);
  }
  for (int w = 0; w < nnuc * nwin; ++w) {
    windows[w].t = lcg(&seed);
    windows[w].a = lcg(&seed);
    windows[w].start = w * per;
    windows[w].end = w * per + 1 + (int)(lcg(&seed) * (per - 1));
  }
  Pole *dpoles;
  Window *dwindows;
  double *dout;
  cudaMalloc(&dpoles, npoles * sizeof(Pole));
  cudaMalloc(&dwindows, nnuc * nwin * sizeof(Window));
  cudaMalloc(&dout, n * sizeof(double));
  cudaMemcpy(dpoles, poles, npoles * sizeof(Pole), cudaMemcpyHostToDevice);
  cudaMemcpy(dwindows, windows, nnuc * nwin * sizeof(Window),
             cudaMemcpyHostToDevice);
  lookups<<<(n + 255) / 256, 256>>>(dpoles, dwindows, nnuc, nwin, n, dout);
  double *out = (double *)malloc(n * sizeof(double));
  cudaMemcpy(out, dout, n * sizeof(double), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += out[i];
  printf("lookups: %d, checksum %.6e\n", n, sum);
  cudaFree(dpoles);
  cudaFree(dwindows);
  cudaFree(dout);
  free(poles);
  free(windows);
  free(out);
  return 0;
}
