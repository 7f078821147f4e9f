/* nbody.c - host program of an OpenCL all-pairs n-body simulation.
 *
 * Written as OpenCL hosts usually are: the bodies are an array of structs
 * on the host, copied into one buffer of n * sizeof(Body) bytes, bound to
 * the kernels of nbody.cl with clSetKernelArg, stepped with an NDRange of
 * one work-item per body and read back for a checksum. Runs on any OpenCL
 * 1.2 device (PoCL on the CPU here). nbody.cl is looked for beside the
 * executable.
 *
 * Usage: nbody [--small] [bodies steps]   prints a checksum of the final
 * state, identical for every layout of struct Body, and on stderr the
 * seconds the kernels ran (OpenCL profiling events).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Body {
  cl_float x, y, z;
  cl_float vx, vy, vz;
  cl_float m;
} Body;

#define CHECK(call)                                                            \
  do {                                                                         \
    cl_int err_ = (call);                                                      \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, err_);   \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static void init_bodies(Body *b, int n) {
  unsigned seed = 12345u;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    b[i].x = (float)(seed % 2000) / 1000.0f - 1.0f;
    seed = seed * 1103515245u + 12345u;
    b[i].y = (float)(seed % 2000) / 1000.0f - 1.0f;
    seed = seed * 1103515245u + 12345u;
    b[i].z = (float)(seed % 2000) / 1000.0f - 1.0f;
    b[i].vx = 0.0f;
    b[i].vy = 0.0f;
    b[i].vz = 0.0f;
    b[i].m = 1.0f + (float)(seed % 100) / 100.0f;
  }
}

static double checksum(const Body *b, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += b[i].x + 2.0 * b[i].y + 3.0 * b[i].z + b[i].vx + b[i].vy + b[i].vz;
  return sum;
}

/* Seconds event \p e ran on the device (the queue profiles its commands);
 * released here. */
static double kernel_seconds(cl_event e) {
  cl_ulong start = 0, end = 0;
  clWaitForEvents(1, &e);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start,
                          NULL);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
  clReleaseEvent(e);
  return (double)(end - start) * 1e-9;
}

/* The text of the kernel file beside the executable \p argv0. */
static char *load_kernels(const char *argv0, const char *name) {
  char path[4096];
  const char *slash = strrchr(argv0, '/');
  int dir = slash ? (int)(slash - argv0 + 1) : 0;
  snprintf(path, sizeof path, "%.*s%s", dir, argv0, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  char *text = malloc((size_t)size + 1);
  if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(1);
  }
  text[size] = '\0';
  fclose(f);
  return text;
}

int main(int argc, char **argv) {
  int n = 4096, steps = 10;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    n = 256;
    steps = 3;
    ++arg;
  }
  if (arg + 1 < argc) {
    n = atoi(argv[arg]);
    steps = atoi(argv[arg + 1]);
  }
  if (n <= 0 || steps < 0) {
    fprintf(stderr, "usage: %s [--small] [bodies steps]\n", argv[0]);
    return 2;
  }

  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue queue =
      clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(err);
  char *source = load_kernels(argv[0], "nbody.cl");
  cl_program program =
      clCreateProgramWithSource(context, 1, (const char **)&source, NULL, &err);
  CHECK(err);
  if (clBuildProgram(program, 1, &device, "-cl-std=CL1.2", NULL, NULL) !=
      CL_SUCCESS) {
    char log[16384];
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log,
                          log, NULL);
    fprintf(stderr, "nbody.cl does not build:\n%s\n", log);
    return 1;
  }
  cl_kernel forces = clCreateKernel(program, "forces", &err);
  CHECK(err);
  cl_kernel advance = clCreateKernel(program, "advance", &err);
  CHECK(err);

  Body *bodies = malloc((size_t)n * sizeof(Body));
  if (!bodies) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  init_bodies(bodies, n);
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                 (size_t)n * sizeof(Body), NULL, &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0,
                             (size_t)n * sizeof(Body), bodies, 0, NULL, NULL));

  float dt = 0.01f;
  CHECK(clSetKernelArg(forces, 0, sizeof(cl_mem), &buffer));
  CHECK(clSetKernelArg(forces, 1, sizeof(int), &n));
  CHECK(clSetKernelArg(forces, 2, sizeof(float), &dt));
  CHECK(clSetKernelArg(advance, 0, sizeof(cl_mem), &buffer));
  CHECK(clSetKernelArg(advance, 1, sizeof(int), &n));
  CHECK(clSetKernelArg(advance, 2, sizeof(float), &dt));
  size_t global = (size_t)n;
  double seconds = 0.0;
  for (int s = 0; s < steps; ++s) {
    cl_event done;
    CHECK(clEnqueueNDRangeKernel(queue, forces, 1, NULL, &global, NULL, 0, NULL,
                                 &done));
    seconds += kernel_seconds(done);
    CHECK(clEnqueueNDRangeKernel(queue, advance, 1, NULL, &global, NULL, 0,
                                 NULL, &done));
    seconds += kernel_seconds(done);
  }
  CHECK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, (size_t)n * sizeof(Body),
                            bodies, 0, NULL, NULL));
  printf("nbody: %d bodies, %d steps, checksum %.6e\n", n, steps,
         checksum(bodies, n));
  fprintf(stderr, "kernel seconds: %.6f\n", seconds);

  free(bodies);
  free(source);
  clReleaseMemObject(buffer);
  clReleaseKernel(forces);
  clReleaseKernel(advance);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
