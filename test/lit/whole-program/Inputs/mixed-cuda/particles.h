/* particles.h - the record and the GPU entry point of a program whose host
 * code is C (main.c, built with the C compiler) and whose kernels are CUDA
 * (gpu.cu, built with nvcc), as Rodinia's programs are laid out: both
 * include this header. Test input of whole-program/mixed-cuda.test. */
#ifndef PARTICLES_H
#define PARTICLES_H

typedef struct {
  float x, y, z;
  float vx, vy, vz;
  float m;
} Particle;

#ifdef __cplusplus
extern "C" {
#endif
int step_gpu(Particle *p, int n, int steps, float dt);
#ifdef __cplusplus
}
#endif

#endif
