// A helper that sets argument 1 of two kernels: after the drones' buffer
// in one, after an int buffer in the other (kernel-params.test).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdlib.h>

typedef struct Drone {
  cl_float x, y, z;
} Drone;

static void count(cl_kernel k, int n) { clSetKernelArg(k, 1, sizeof(int), &n); }

int main(void) {
  enum { N = 100 };
  cl_int err;
  cl_context context = 0;
  cl_program program = 0;
  cl_kernel advance = clCreateKernel(program, "advance", &err);
  cl_kernel tally = clCreateKernel(program, "tally", &err);
  cl_mem drones = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof(Drone),
                                 NULL, &err);
  cl_mem totals =
      clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  clSetKernelArg(advance, 0, sizeof(cl_mem), &drones);
  clSetKernelArg(tally, 0, sizeof(cl_mem), &totals);
  count(advance, N);
  count(tally, N);
  clReleaseMemObject(drones);
  clReleaseMemObject(totals);
  return 0;
}
