// OpenCL host code with what the analysis cannot connect (unconnected.test).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdlib.h>

typedef struct Particle {
  cl_float x, y;
  cl_float vx, vy;
  cl_int tag;
} Particle;

void release_all(cl_mem b) { clReleaseMemObject(b); }

void step(cl_context context, cl_command_queue queue, cl_program program,
          const char **names, int argi, int n) {
  cl_int err;
  cl_kernel move = clCreateKernel(program, "move", &err);
  cl_kernel missing = clCreateKernel(program, "missing", &err);
  cl_kernel named = clCreateKernel(program, names[0], &err);
  Particle *ps = calloc(n, sizeof(Particle));
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE,
                              n * sizeof(Particle), NULL, &err);
  cl_mem other = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                n * sizeof(Particle), NULL, &err);
  clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, n * sizeof(Particle), ps, 0,
                       NULL, NULL);
  clSetKernelArg(move, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(named, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(move, argi, sizeof(cl_mem), &buf);
  clSetKernelArg(move, 1, sizeof(cl_mem), &buf);
  clSetKernelArg(missing, 0, sizeof(cl_mem), &buf);
  clEnqueueFillBuffer(queue, buf, &n, sizeof n, 0, n * sizeof(Particle), 0,
                      NULL, NULL);
  release_all(buf);
  cl_mem copied = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR,
                                 n * sizeof(Particle), ps, &err);
  clReleaseMemObject(copied);
  clReleaseMemObject(other);
  free(ps);
}
