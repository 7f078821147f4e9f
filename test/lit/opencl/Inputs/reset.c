// OpenCL host code that sets a kernel's arguments in a loop's body with a
// counter declared before the loop and reset to 0 at the top of the body
// (counted-arguments.test).
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

void run(cl_context context, cl_command_queue queue, cl_program program,
         int n, int steps) {
  cl_int err;
  cl_kernel move = clCreateKernel(program, "move", &err);
  cl_kernel bounce = clCreateKernel(program, "bounce", &err);
  Particle *ps = calloc(n, sizeof(Particle));
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE,
                              n * sizeof(Particle), NULL, &err);
  CHECK(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, n * sizeof(Particle), ps,
                             0, NULL, NULL));
  cl_uint arg;
  size_t global = (size_t)n;
  for (int s = 0; s < steps; ++s) {
    float dt = 0.5f / (float)(s + 1);
    arg = 0;
    CHECK(clSetKernelArg(move, arg++, sizeof(cl_mem), &buf));
    CHECK(clSetKernelArg(move, arg++, sizeof(int), &n));
    CHECK(clSetKernelArg(move, arg++, sizeof(float), &dt));
    CHECK(clEnqueueNDRangeKernel(queue, move, 1, NULL, &global, NULL, 0, NULL,
                                 NULL));
    arg = 0;
    CHECK(clSetKernelArg(bounce, arg++, sizeof(cl_mem), &buf));
    CHECK(clSetKernelArg(bounce, arg++, sizeof(int), &n));
    CHECK(clEnqueueNDRangeKernel(queue, bounce, 1, NULL, &global, NULL, 0,
                                 NULL, NULL));
  }
  CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * sizeof(Particle), ps,
                            0, NULL, NULL));
  clReleaseMemObject(buf);
  free(ps);
}
