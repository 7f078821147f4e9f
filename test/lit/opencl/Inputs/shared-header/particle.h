// The particle record and what the host and the kernels share of it: one
// header for both sides, as OpenCL codes often keep it. The kernels see it
// under the device compiler's __OPENCL_VERSION__, the host with cl.h.
#ifndef PARTICLE_H
#define PARTICLE_H

#ifdef __OPENCL_VERSION__
typedef float real_t;
typedef int int_t;
#else
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
typedef cl_float real_t;
typedef cl_int int_t;
#endif

#define BOX 100.0f

typedef struct Particle {
  real_t x, y;
  real_t vx, vy;
  int_t tag;
} Particle;

#ifdef __OPENCL_VERSION__
/* Squared speed of particle i: a helper of the kernels. */
static real_t speed2(__global const Particle *p, int i) {
  return p[i].vx * p[i].vx + p[i].vy * p[i].vy;
}
#else
/* Fills the particles' starting state (particles.c). */
void init_particles(Particle *ps, int n);
#endif

#endif
