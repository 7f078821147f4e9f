// OpenCL calls kept in functions of the host's own, which take the buffers
// as cl_mem parameters: an upload, a download, a snapshot copy (passing
// its buffers on to another function), a release declared before it is
// defined (with an unnamed parameter). Written for dlopt's tests; the
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

static void release_buffer(cl_mem);

static cl_int upload(cl_command_queue q, cl_mem b, const Particle *ps, int n) {
  return clEnqueueWriteBuffer(q, b, CL_TRUE, 0, n * sizeof(Particle), ps, 0,
                              NULL, NULL);
}

static cl_int download(cl_command_queue q, cl_mem b, Particle *ps, int n) {
  return clEnqueueReadBuffer(q, b, CL_TRUE, 0, n * sizeof(Particle), ps, 0,
                             NULL, NULL);
}

static cl_int copy_range(cl_command_queue q, cl_mem from, cl_mem to,
                         int first, int at, int count) {
  return clEnqueueCopyBuffer(q, from, to, first * sizeof(Particle),
                             at * sizeof(Particle), count * sizeof(Particle),
                             0, NULL, NULL);
}

static cl_int snapshot_all(cl_command_queue q, cl_mem from, cl_mem to,
                           int n) {
  if (!from || !to)
    return CL_INVALID_MEM_OBJECT;
  return copy_range(q, from, to, 0, 0, n);
}

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
  cl_kernel move = clCreateKernel(program, "move", &err);
  CHECK(err);
  cl_kernel bounce = clCreateKernel(program, "bounce", &err);
  CHECK(err);

  Particle *ps = malloc(n * sizeof(Particle));
  for (int i = 0; i < n; ++i) {
    ps[i].x = (float)(i % 100);
    ps[i].y = (float)(i / 10);
    ps[i].vx = (float)(i % 7) - 3.0f;
    ps[i].vy = 1.0f;
    ps[i].tag = 0;
  }
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE,
                              n * sizeof(Particle), NULL, &err);
  CHECK(err);
  CHECK(upload(queue, buf, ps, n));
  cl_mem snapshot = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                   n * sizeof(Particle), NULL, &err);
  CHECK(err);
  CHECK(snapshot_all(queue, buf, snapshot, n));
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
  CHECK(copy_range(queue, snapshot, buf, 3, 37, 100));
  CHECK(clFinish(queue));
  CHECK(download(queue, buf, ps, n));
  double sx = 0, sy = 0;
  long tags = 0;
  for (int i = 0; i < n; ++i) {
    sx += ps[i].x;
    sy += ps[i].y;
    tags += ps[i].tag;
  }
  printf("x %.3f y %.3f bounces %ld restored %.3f %.3f\n", sx, sy, tags,
         ps[37].x, ps[136].vx);
  if (!buf)
    return 1;
  release_buffer(buf);
  release_buffer(snapshot);
  free(ps);
  return 0;
}

static void release_buffer(cl_mem b) { clReleaseMemObject(b); }
