// Kernel arguments numbered by a counter, as many hosts do
// (counted-arguments.test): a++ in straight-line code is followed, also
// through a CHECK() macro's do-while(0); in a branch it is not.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdlib.h>

typedef struct Particle {
  cl_float x, y;
  cl_float vx, vy;
  cl_int tag;
} Particle;

#define CHECK(e)                                                               \
  do {                                                                         \
    if ((e) != CL_SUCCESS)                                                     \
      abort();                                                                 \
  } while (0)

void setup(cl_context context, cl_program program, int n, float dt,
           int verbose) {
  cl_int err;
  cl_kernel move = clCreateKernel(program, "move", &err);
  cl_kernel bounce = clCreateKernel(program, "bounce", &err);
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE,
                              n * sizeof(Particle), NULL, &err);
  int a = 0;
  CHECK(clSetKernelArg(move, a++, sizeof(cl_mem), &buf));
  CHECK(clSetKernelArg(move, a++, sizeof(int), &n));
  CHECK(clSetKernelArg(move, a++, sizeof(float), &dt));
  int b = 1;
  b = 0;
  clSetKernelArg(bounce, b++, sizeof(cl_mem), &buf);
  clSetKernelArg(bounce, b++, sizeof(int), &n);
  int c = 0;
  if (verbose)
    ++c;
  clSetKernelArg(bounce, c, sizeof(cl_mem), &buf);
  clReleaseMemObject(buf);
}
