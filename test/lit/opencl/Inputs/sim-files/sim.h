// sim/sim.c's program in three files, as larger hosts are: sim_init.c
// creates the kernels into the Sim's members, sim_step.c binds their
// arguments and launches them, main.c drives (kernel-holders.test).
#ifndef SIM_H
#define SIM_H
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Particle {
  cl_float x, y;
  cl_float vx, vy;
  cl_int tag;
} Particle;

typedef struct Sim {
  cl_context context;
  cl_command_queue queue;
  cl_program program;
  cl_kernel move, bounce;
  cl_mem particles;
  Particle *host;
  int n;
} Sim;

#define CHECK(e)                                                               \
  do {                                                                         \
    cl_int err_ = (e);                                                         \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "line %d: OpenCL error %d\n", __LINE__, err_);           \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

void sim_init(Sim *s, const char *argv0, int n);
void sim_step(Sim *s, float dt);
void sim_free(Sim *s);

#endif
