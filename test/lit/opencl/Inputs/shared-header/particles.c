// An OpenCL host in the usual style: an array of structs on the host, one
// buffer of n * sizeof(Particle) bytes, kernels created by name, the buffer
// bound with clSetKernelArg, an NDRange per step, the result read back.
// The kernels are in particles.cl, read from the directory given as the
// first argument, which also holds particle.h: the record is defined once,
// in a header both sides include.
#include "particle.h"
#include <stdio.h>
#include <stdlib.h>

#define CHECK(e)                                                               \
  do {                                                                         \
    cl_int err_ = (e);                                                         \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "line %d: OpenCL error %d\n", __LINE__, err_);           \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static char *read_file(const char *dir, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  static char text[1 << 16];
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = '\0';
  fclose(f);
  return text;
}

void init_particles(Particle *ps, int n) {
  for (int i = 0; i < n; ++i) {
    ps[i].x = (float)(i % 100);
    ps[i].y = (float)(i / 10);
    ps[i].vx = (float)(i % 7) - 3.0f;
    ps[i].vy = 1.0f;
    ps[i].tag = 0;
  }
}

int main(int argc, char **argv) {
  int n = 1000, steps = 50;
  cl_int err;
  cl_platform_id platform;
  cl_device_id device;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  CHECK(err);
  const char *source = read_file(argc > 1 ? argv[1] : ".", "particles.cl");
  if (!source)
    return 1;
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(program, 1, &device, "-I .", NULL, NULL));
  cl_kernel move = clCreateKernel(program, "move", &err);
  CHECK(err);
  cl_kernel bounce = clCreateKernel(program, "bounce", &err);
  CHECK(err);

  Particle *ps = malloc(n * sizeof(Particle));
  init_particles(ps, n);
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE,
                              n * sizeof(Particle), NULL, &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, n * sizeof(Particle), ps,
                             0, NULL, NULL));
  float dt = 0.5f;
  CHECK(clSetKernelArg(move, 0, sizeof(cl_mem), &buf));
  CHECK(clSetKernelArg(move, 1, sizeof(int), &n));
  CHECK(clSetKernelArg(move, 2, sizeof(float), &dt));
  CHECK(clSetKernelArg(bounce, 0, sizeof(cl_mem), &buf));
  CHECK(clSetKernelArg(bounce, 1, sizeof(int), &n));
  size_t global = (size_t)n;
  for (int s = 0; s < steps; ++s) {
    CHECK(clEnqueueNDRangeKernel(queue, move, 1, NULL, &global, NULL, 0, NULL,
                                 NULL));
    CHECK(clEnqueueNDRangeKernel(queue, bounce, 1, NULL, &global, NULL, 0,
                                 NULL, NULL));
  }
  CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * sizeof(Particle), ps,
                            0, NULL, NULL));
  double sx = 0, sy = 0;
  long tags = 0;
  for (int i = 0; i < n; ++i) {
    sx += ps[i].x;
    sy += ps[i].y;
    tags += ps[i].tag;
  }
  printf("x %.3f y %.3f bounces %ld\n", sx, sy, tags);
  if (!buf)
    return 1;
  clReleaseMemObject(buf);
  free(ps);
  return 0;
}
