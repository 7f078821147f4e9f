// One local cl_kernel variable reused for every kernel: each step creates
// a kernel into it, sets its arguments, enqueues it and releases it, then
// the next kernel the same way; a last kernel is created after the loop. Written for dlopt's tests; the
// kernels are particles.cl's, read from the directory given as the first
// argument (run on PoCL).
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
  CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));

  Particle *ps = malloc(n * sizeof(Particle));
  for (int i = 0; i < n; ++i) {
    ps[i].x = (float)(i % 100);
    ps[i].y = (float)(i / 10);
    ps[i].vx = (float)(i % 7) - 3.0f;
    ps[i].vy = 1.0f;
    ps[i].tag = 0;
  }
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              n * sizeof(Particle), ps, &err);
  CHECK(err);
  float dt = 0.5f;
  size_t global = (size_t)n;
  cl_kernel kernel;
  for (int s = 0; s < steps; ++s) {
    kernel = clCreateKernel(program, "move", &err);
    CHECK(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &buf));
    CHECK(clSetKernelArg(kernel, 1, sizeof(int), &n));
    CHECK(clSetKernelArg(kernel, 2, sizeof(float), &dt));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL,
                                 NULL));
    CHECK(clReleaseKernel(kernel));
    kernel = clCreateKernel(program, "bounce", &err);
    CHECK(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &buf));
    CHECK(clSetKernelArg(kernel, 1, sizeof(int), &n));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL,
                                 NULL));
    CHECK(clReleaseKernel(kernel));
  }
  kernel = clCreateKernel(program, "move", &err);
  CHECK(err);
  dt = -0.25f;
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &buf));
  CHECK(clSetKernelArg(kernel, 1, sizeof(int), &n));
  CHECK(clSetKernelArg(kernel, 2, sizeof(float), &dt));
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL,
                               NULL));
  CHECK(clReleaseKernel(kernel));
  CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * sizeof(Particle), ps, 0,
                            NULL, NULL));
  double sx = 0, sy = 0;
  long tags = 0;
  for (int i = 0; i < n; ++i) {
    sx += ps[i].x;
    sy += ps[i].y;
    tags += ps[i].tag;
  }
  printf("x %.3f y %.3f bounces %ld\n", sx, sy, tags);
  clReleaseMemObject(buf);
  free(ps);
  return 0;
}
