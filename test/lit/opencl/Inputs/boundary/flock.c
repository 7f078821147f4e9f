// A flock on OpenCL whose host code cannot change with the layout: it
// hashes the birds' bytes for a restart check (a cast of the array), and
// steers a few birds by copying a sub-array to the device. The boundary
// strategy keeps the host's array as it is and converts at the transfers
// (boundary.test).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Bird {
  cl_float x, y;
  cl_float vx, vy;
  cl_float energy;
  cl_int flaps;
} Bird;

#define CHECK(e)                                                               \
  do {                                                                         \
    cl_int err_ = (e);                                                         \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "line %d: OpenCL error %d\n", __LINE__, err_);           \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* flock.cl, beside the executable \p argv0. */
static const char *read_kernels(const char *argv0) {
  static char text[1 << 16];
  char path[1024];
  const char *slash = strrchr(argv0, '/');
  int dir = slash ? (int)(slash - argv0 + 1) : 0;
  snprintf(path, sizeof path, "%.*sflock.cl", dir, argv0);
  FILE *f = fopen(path, "rb");
  if (!f)
    exit(1);
  text[fread(text, 1, sizeof text - 1, f)] = '\0';
  fclose(f);
  return text;
}

/* FNV-1a over the raw bytes: what a restart file would be checked with. */
static unsigned long digest(const Bird *birds, int n) {
  const unsigned char *bytes = (const unsigned char *)birds;
  unsigned long h = 1469598103934665603UL;
  for (size_t i = 0; i < n * sizeof(Bird); ++i)
    h = (h ^ bytes[i]) * 1099511628211UL;
  return h;
}

int main(int argc, char **argv) {
  (void)argc;
  enum { N = 1000, LEADERS = 37, FIRST = 300 };
  cl_int err;
  cl_platform_id platform;
  cl_device_id device;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  CHECK(err);
  const char *source = read_kernels(argv[0]);
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
  cl_kernel fly = clCreateKernel(program, "fly", &err);
  CHECK(err);
  cl_kernel rest = clCreateKernel(program, "rest", &err);
  CHECK(err);

  Bird *birds = malloc(N * sizeof(Bird));
  for (int i = 0; i < N; ++i) {
    birds[i].x = (float)(i % 50);
    birds[i].y = (float)(i / 50);
    birds[i].vx = 0.25f * (float)(i % 5) - 0.5f;
    birds[i].vy = 0.125f * (float)(i % 3);
    birds[i].energy = 10.0f + (float)(i % 9);
    birds[i].flaps = 0;
  }
  printf("start %lx\n", digest(birds, N));
  cl_mem flock = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                N * sizeof(Bird), birds, &err);
  CHECK(err);
  int n = N;
  float dt = 0.5f;
  CHECK(clSetKernelArg(fly, 0, sizeof(cl_mem), &flock));
  CHECK(clSetKernelArg(fly, 1, sizeof(int), &n));
  CHECK(clSetKernelArg(fly, 2, sizeof(float), &dt));
  CHECK(clSetKernelArg(rest, 0, sizeof(int), &n));
  CHECK(clSetKernelArg(rest, 1, sizeof(cl_mem), &flock));
  size_t global = N;
  for (int step = 0; step < 40; ++step) {
    CHECK(clEnqueueNDRangeKernel(queue, fly, 1, NULL, &global, NULL, 0, NULL,
                                 NULL));
    CHECK(clEnqueueNDRangeKernel(queue, rest, 1, NULL, &global, NULL, 0, NULL,
                                 NULL));
    if (step == 20) {
      // The leaders turn: read them, steer them, write them back.
      CHECK(clEnqueueReadBuffer(queue, flock, CL_TRUE, FIRST * sizeof(Bird),
                                LEADERS * sizeof(Bird), birds + FIRST, 0, NULL,
                                NULL));
      for (int i = FIRST; i < FIRST + LEADERS; ++i) {
        birds[i].vx = -birds[i].vx;
        birds[i].vy += 0.25f;
      }
      CHECK(clEnqueueWriteBuffer(queue, flock, CL_TRUE, FIRST * sizeof(Bird),
                                 LEADERS * sizeof(Bird), &birds[FIRST], 0,
                                 NULL, NULL));
    }
  }
  cl_event done;
  CHECK(clEnqueueReadBuffer(queue, flock, CL_FALSE, 0, N * sizeof(Bird), birds,
                            0, NULL, &done));
  CHECK(clWaitForEvents(1, &done));
  CHECK(clReleaseEvent(done));
  double sx = 0, sy = 0, e = 0;
  long flaps = 0;
  for (int i = 0; i < N; ++i) {
    sx += birds[i].x;
    sy += birds[i].y;
    e += birds[i].energy;
    flaps += birds[i].flaps;
  }
  printf("x %.3f y %.3f energy %.3f flaps %ld\n", sx, sy, e, flaps);
  printf("end %lx\n", digest(birds, N));
  clReleaseMemObject(flock);
  free(birds);
  clReleaseKernel(fly);
  clReleaseKernel(rest);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
