// OpenCL host code whose kernel is a string of the host file
// (embedded-source.test): dlopt does not parse it, so the buffer's binding
// finds no kernel file.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdlib.h>

typedef struct Particle {
  cl_float x, y;
  cl_float vx, vy;
  cl_int tag;
} Particle;

static const char *source =
    "typedef struct Particle { float x, y, vx, vy; int tag; } Particle;\n"
    "__kernel void move(__global Particle *p, int n, float dt) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) p[i].x += dt * p[i].vx;\n"
    "}\n";

void run(cl_context context, cl_command_queue queue, cl_device_id device,
         int n) {
  cl_int err;
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &err);
  clBuildProgram(program, 1, &device, "", NULL, NULL);
  cl_kernel move = clCreateKernel(program, "move", &err);
  Particle *ps = calloc(n, sizeof(Particle));
  for (int i = 0; i < n; ++i)
    ps[i].vx = (float)i;
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE,
                              n * sizeof(Particle), NULL, &err);
  clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, n * sizeof(Particle), ps, 0,
                       NULL, NULL);
  float dt = 0.5f;
  clSetKernelArg(move, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(move, 1, sizeof(int), &n);
  clSetKernelArg(move, 2, sizeof(float), &dt);
  size_t global = (size_t)n;
  clEnqueueNDRangeKernel(queue, move, 1, NULL, &global, NULL, 0, NULL, NULL);
  clReleaseMemObject(buf);
  free(ps);
}
