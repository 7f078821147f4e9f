// Binds the kernels' arguments and launches them: the kernels are the
// ones sim_init.c created into the Sim (kernel-holders.test).
#include "sim.h"

void sim_step(Sim *s, float dt) {
  CHECK(clSetKernelArg(s->move, 0, sizeof(cl_mem), &s->particles));
  CHECK(clSetKernelArg(s->move, 1, sizeof(int), &s->n));
  CHECK(clSetKernelArg(s->move, 2, sizeof(float), &dt));
  CHECK(clSetKernelArg(s->bounce, 0, sizeof(cl_mem), &s->particles));
  CHECK(clSetKernelArg(s->bounce, 1, sizeof(int), &s->n));
  size_t global = (size_t)s->n;
  CHECK(clEnqueueNDRangeKernel(s->queue, s->move, 1, NULL, &global, NULL, 0,
                               NULL, NULL));
  CHECK(clEnqueueNDRangeKernel(s->queue, s->bounce, 1, NULL, &global, NULL, 0,
                               NULL, NULL));
}

