/* blackscholes.c - host program of the OpenCL European option pricer (the
 * kernels are in blackscholes.cl, looked for beside the executable).
 *
 * examples/blackscholes in the usual OpenCL style: the 7-float options are
 * an array of structs initialized on the host, copied into one buffer of
 * n * sizeof(struct Option) bytes, bound to the kernels price and drift with
 * clSetKernelArg, run with an NDRange of one work-item per option for each
 * round, and read back for the checksum of the prices.
 *
 * Usage: blackscholes [--small] [options rounds]   prints a checksum of the
 * prices, identical for every layout of struct Option. The device's exp, log
 * and sqrt need not round as the host's libm does, so the last digits can
 * differ from the C version's; %.6e is the precision both agree on. On
 * stderr: the seconds the kernels ran (OpenCL profiling events).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Option {
  cl_float spot;       /* S: price of the underlying */
  cl_float strike;     /* K */
  cl_float rate;       /* r: risk-free interest rate */
  cl_float volatility; /* sigma */
  cl_float time;       /* T: years to expiry */
  cl_float call;       /* out: price of the call */
  cl_float put;        /* out: price of the put */
};

#define CHECK(call)                                                            \
  do {                                                                         \
    cl_int err_ = (call);                                                      \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, err_);   \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static void init_options(struct Option *o, int n) {
  unsigned seed = 2024u;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    o[i].spot = 10.0f + (float)(seed >> 20) / 64.0f;
    seed = seed * 1664525u + 1013904223u;
    o[i].strike = 10.0f + (float)(seed >> 20) / 64.0f;
    o[i].rate = 0.01f + (float)(i % 10) / 200.0f;
    o[i].volatility = 0.05f + (float)(i % 17) / 40.0f;
    o[i].time = 0.25f + (float)(i % 8) / 4.0f;
    o[i].call = 0.0f;
    o[i].put = 0.0f;
  }
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
  int n = 1 << 20, rounds = 20;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    n = 1000;
    rounds = 2;
    ++arg;
  }
  if (arg + 1 < argc) {
    n = atoi(argv[arg]);
    rounds = atoi(argv[arg + 1]);
  }
  if (n <= 0 || rounds <= 0) {
    fprintf(stderr, "usage: %s [--small] [options rounds]\n", argv[0]);
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
  char *source = load_kernels(argv[0], "blackscholes.cl");
  cl_program program =
      clCreateProgramWithSource(context, 1, (const char **)&source, NULL, &err);
  CHECK(err);
  if (clBuildProgram(program, 1, &device, "-cl-std=CL1.2", NULL, NULL) !=
      CL_SUCCESS) {
    char log[16384];
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log,
                          log, NULL);
    fprintf(stderr, "blackscholes.cl does not build:\n%s\n", log);
    return 1;
  }
  cl_kernel price = clCreateKernel(program, "price", &err);
  CHECK(err);
  cl_kernel drift = clCreateKernel(program, "drift", &err);
  CHECK(err);

  struct Option *o = malloc((size_t)n * sizeof(struct Option));
  if (!o) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  init_options(o, n);
  cl_mem options =
      clCreateBuffer(context, CL_MEM_READ_WRITE,
                     (size_t)n * sizeof(struct Option), NULL, &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(queue, options, CL_TRUE, 0,
                             (size_t)n * sizeof(struct Option), o, 0, NULL,
                             NULL));

  CHECK(clSetKernelArg(price, 0, sizeof(cl_mem), &options));
  CHECK(clSetKernelArg(price, 1, sizeof(int), &n));
  CHECK(clSetKernelArg(drift, 0, sizeof(cl_mem), &options));
  CHECK(clSetKernelArg(drift, 1, sizeof(int), &n));
  size_t global = (size_t)n;
  double seconds = 0.0;
  for (int r = 0; r < rounds; ++r) {
    cl_event done;
    CHECK(clEnqueueNDRangeKernel(queue, price, 1, NULL, &global, NULL, 0, NULL,
                                 &done));
    seconds += kernel_seconds(done);
    CHECK(clEnqueueNDRangeKernel(queue, drift, 1, NULL, &global, NULL, 0, NULL,
                                 &done));
    seconds += kernel_seconds(done);
  }
  CHECK(clEnqueueReadBuffer(queue, options, CL_TRUE, 0,
                            (size_t)n * sizeof(struct Option), o, 0, NULL,
                            NULL));

  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += o[i].call + 0.5 * o[i].put;
  printf("blackscholes: %d options, %d rounds, checksum %.6e\n", n, rounds,
         sum);
  fprintf(stderr, "kernel seconds: %.6f\n", seconds);

  free(o);
  free(source);
  clReleaseMemObject(options);
  clReleaseKernel(price);
  clReleaseKernel(drift);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
