// kernel-params/swarm.c with the kernel passed on: setup() and kick() hand
// their kernel parameter to bind() and launch(), defined before them
// (kernel-params.test).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Drone {
  cl_float x, y, z;
  cl_float vx, vy, vz;
  cl_float charge;
} Drone;

#define CHECK(e)                                                               \
  do {                                                                         \
    cl_int err_ = (e);                                                         \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "line %d: OpenCL error %d\n", __LINE__, err_);           \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static const char *read_kernels(const char *argv0) {
  static char text[1 << 16];
  char path[1024];
  const char *slash = strrchr(argv0, '/');
  int dir = slash ? (int)(slash - argv0 + 1) : 0;
  snprintf(path, sizeof path, "%.*sswarm.cl", dir, argv0);
  FILE *f = fopen(path, "rb");
  if (!f)
    exit(1);
  text[fread(text, 1, sizeof text - 1, f)] = '\0';
  fclose(f);
  return text;
}

/* Every kernel of the swarm takes the drones and their count first. */
static void bind(cl_kernel k, cl_mem drones, int n) {
  CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &drones));
  CHECK(clSetKernelArg(k, 1, sizeof(int), &n));
}

static void launch(cl_command_queue q, cl_kernel k, size_t n) {
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
}

static void setup(cl_kernel k, cl_mem drones, int n) { bind(k, drones, n); }

static void kick(cl_command_queue q, cl_kernel k, size_t n) {
  launch(q, k, n);
}

int main(int argc, char **argv) {
  (void)argc;
  enum { N = 999 };
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
  cl_kernel advance = clCreateKernel(program, "advance", &err);
  CHECK(err);
  cl_kernel damp = clCreateKernel(program, "damp", &err);
  CHECK(err);

  Drone *drones = malloc(N * sizeof(Drone));
  for (int i = 0; i < N; ++i) {
    drones[i].x = (float)(i % 10);
    drones[i].y = (float)(i % 7);
    drones[i].z = (float)(i % 3);
    drones[i].vx = 0.5f - 0.125f * (float)(i % 8);
    drones[i].vy = 0.25f;
    drones[i].vz = -0.0625f * (float)(i % 5);
    drones[i].charge = 1.0f + (float)(i % 4);
  }
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof(Drone),
                                 NULL, &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0, N * sizeof(Drone),
                             drones, 0, NULL, NULL));
  float friction = 0.75f;
  setup(advance, buffer, N);
  setup(damp, buffer, N);
  CHECK(clSetKernelArg(damp, 2, sizeof(float), &friction));
  for (int step = 0; step < 25; ++step) {
    kick(queue, advance, N);
    if (step % 5 == 4)
      kick(queue, damp, N);
  }
  CHECK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, N * sizeof(Drone),
                            drones, 0, NULL, NULL));
  double sx = 0, sy = 0, sz = 0, q = 0;
  for (int i = 0; i < N; ++i) {
    sx += drones[i].x;
    sy += drones[i].y;
    sz += drones[i].z;
    q += drones[i].charge;
  }
  printf("x %.3f y %.3f z %.3f charge %.3f\n", sx, sy, sz, q);
  clReleaseMemObject(buffer);
  free(drones);
  clReleaseKernel(advance);
  clReleaseKernel(damp);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
