// OpenCL host code whose kernels run different numbers of times
// (kernel-launches.test): 'move' ten times in a loop of its own and once
// per step through an array of kernels, 'bounce' once per step.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Particle {
  cl_float x, y;
  cl_float vx, vy;
  cl_int tag;
} Particle;

#define CHECK(e)                                                               \
  do {                                                                         \
    if ((e) != CL_SUCCESS)                                                     \
      exit(1);                                                                 \
  } while (0)

void run(cl_context context, cl_command_queue queue, cl_program program,
         int n) {
  cl_int err;
  cl_kernel move = clCreateKernel(program, "move", &err);
  cl_kernel bounce = clCreateKernel(program, "bounce", &err);
  Particle *ps = calloc(n, sizeof(Particle));
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE,
                              n * sizeof(Particle), NULL, &err);
  CHECK(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, n * sizeof(Particle), ps,
                             0, NULL, NULL));
  float dt = 0.5f;
  CHECK(clSetKernelArg(move, 0, sizeof(cl_mem), &buf));
  CHECK(clSetKernelArg(move, 1, sizeof(int), &n));
  CHECK(clSetKernelArg(move, 2, sizeof(float), &dt));
  CHECK(clSetKernelArg(bounce, 0, sizeof(cl_mem), &buf));
  CHECK(clSetKernelArg(bounce, 1, sizeof(int), &n));
  size_t global = (size_t)n;
  for (int s = 0; s < 10; ++s)
    CHECK(clEnqueueNDRangeKernel(queue, move, 1, NULL, &global, NULL, 0, NULL,
                                 NULL));
  cl_kernel step[2] = {move, bounce};
  for (int s = 0; s < 4; ++s)
    for (int k = 0; k < 2; ++k)
      CHECK(clEnqueueNDRangeKernel(queue, step[k], 1, NULL, &global, NULL, 0,
                                   NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * sizeof(Particle), ps,
                            0, NULL, NULL));
  clReleaseMemObject(buf);
  free(ps);
}

int main(void) { return 0; }
