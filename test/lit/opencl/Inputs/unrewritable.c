// OpenCL host code whose buffers connect to particles.cl but that the
// whole-program rewrite does not render yet (rewrite-refusals.test).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdlib.h>

typedef struct Particle {
  cl_float x, y;
  cl_float vx, vy;
  cl_int tag;
} Particle;

void step(cl_context context, cl_command_queue queue, cl_program program,
          int n) {
  cl_int err;
  cl_kernel move = clCreateKernel(program, "move", &err);
  cl_kernel bounce = clCreateKernel(program, "bounce", &err);
  Particle *ps = calloc(n, sizeof(Particle));
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE,
                              n * sizeof(Particle), NULL, &err),
         scratch = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &err);
  // The second half only: a sub-array of the host's array.
  clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, n / 2 * sizeof(Particle),
                       ps + n / 2, 0, NULL, NULL);
  // Bytes that are not whole elements.
  clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * sizeof(float), ps, 0, NULL,
                      NULL);
  // One kernel's arguments set both ways.
  int a = 0;
  clSetKernelArg(move, a++, sizeof(cl_mem), &buf);
  clSetKernelArg(move, 1, sizeof(int), &n);
  // A counter started past the buffer.
  clSetKernelArg(bounce, 0, sizeof(cl_mem), &buf);
  int b = 1;
  clSetKernelArg(bounce, b++, sizeof(int), &n);
  clReleaseMemObject(scratch);
  clReleaseMemObject(buf);
  free(ps);
}

// A transfer spelled in a macro's body: its text is not this call's alone.
#define UPLOAD(q, b, h, n)                                                     \
  clEnqueueWriteBuffer(q, b, CL_TRUE, 0, (n) * sizeof(Particle), h, 0, NULL,   \
                       NULL)

void upload(cl_context context, cl_command_queue queue, int n) {
  cl_int err;
  Particle *ps = calloc(n, sizeof(Particle));
  cl_mem other = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                n * sizeof(Particle), NULL, &err);
  UPLOAD(queue, other, ps, n);
  clReleaseMemObject(other);
  free(ps);
}

// A counter stepped after each call rather than in it.
void later(cl_context context, cl_program program, int n) {
  cl_int err;
  cl_kernel move = clCreateKernel(program, "move", &err);
  cl_mem third = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                n * sizeof(Particle), NULL, &err);
  float dt = 0.5f;
  int a = 0;
  clSetKernelArg(move, a, sizeof(cl_mem), &third);
  a++;
  clSetKernelArg(move, a, sizeof(int), &n);
  a++;
  clSetKernelArg(move, a, sizeof(float), &dt);
  clReleaseMemObject(third);
}
