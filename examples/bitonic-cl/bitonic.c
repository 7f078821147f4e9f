/* bitonic.c - host program of the OpenCL bitonic sort of an array of
 * structs by its first field (the kernel is in bitonic.cl, looked for beside
 * the executable).
 *
 * examples/bitonic in the usual OpenCL style: the 4-field items are filled
 * on the host and copied into one buffer of n * sizeof(struct Item) bytes;
 * the host walks the network, setting the buffer and the pass's (j, k) as
 * the arguments of bitonic_step (indices counted with arg_index++) and
 * launching an NDRange of one work-item per item for each pass, then reads
 * the items back to check the order and sum the checksum.
 *
 * Usage: bitonic [--small] [log2-items rounds]   prints a checksum of the
 * sorted items, identical for every layout of struct Item and to the C
 * version's, and on stderr the seconds the kernels ran (OpenCL profiling
 * events).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Item {
  cl_int key;
  cl_float weight;
  cl_float value;
  cl_int tag;
};

#define CHECK(call)                                                            \
  do {                                                                         \
    cl_int err_ = (call);                                                      \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, err_);   \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static void init_items(struct Item *a, int n, unsigned seed) {
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    a[i].key = (int)(seed >> 4) % 1000000;
    a[i].weight = (float)(i % 100) * 0.5f;
    a[i].value = (float)(seed % 1000) * 0.25f;
    a[i].tag = i;
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
  int log2n = 20, rounds = 3;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    log2n = 10;
    rounds = 1;
    ++arg;
  }
  if (arg + 1 < argc) {
    log2n = atoi(argv[arg]);
    rounds = atoi(argv[arg + 1]);
  }
  if (log2n < 1 || log2n > 28 || rounds <= 0) {
    fprintf(stderr, "usage: %s [--small] [log2-items rounds]\n", argv[0]);
    return 2;
  }
  int n = 1 << log2n;

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
  char *source = load_kernels(argv[0], "bitonic.cl");
  cl_program program =
      clCreateProgramWithSource(context, 1, (const char **)&source, NULL, &err);
  CHECK(err);
  if (clBuildProgram(program, 1, &device, "-cl-std=CL1.2", NULL, NULL) !=
      CL_SUCCESS) {
    char log[16384];
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log,
                          log, NULL);
    fprintf(stderr, "bitonic.cl does not build:\n%s\n", log);
    return 1;
  }
  cl_kernel step = clCreateKernel(program, "bitonic_step", &err);
  CHECK(err);

  struct Item *a = malloc((size_t)n * sizeof(struct Item));
  if (!a) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  cl_mem items = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                (size_t)n * sizeof(struct Item), NULL, &err);
  CHECK(err);

  size_t global = (size_t)n;
  double sum = 0.0, seconds = 0.0;
  int sorted = 1;
  for (int r = 0; r < rounds; ++r) {
    init_items(a, n, 7u + (unsigned)r);
    CHECK(clEnqueueWriteBuffer(queue, items, CL_TRUE, 0,
                               (size_t)n * sizeof(struct Item), a, 0, NULL,
                               NULL));
    for (int k = 2; k <= n; k <<= 1)
      for (int j = k >> 1; j > 0; j >>= 1) {
        cl_uint arg_index = 0;
        CHECK(clSetKernelArg(step, arg_index++, sizeof(cl_mem), &items));
        CHECK(clSetKernelArg(step, arg_index++, sizeof(int), &j));
        CHECK(clSetKernelArg(step, arg_index++, sizeof(int), &k));
        cl_event done;
        CHECK(clEnqueueNDRangeKernel(queue, step, 1, NULL, &global, NULL, 0,
                                     NULL, &done));
        seconds += kernel_seconds(done);
      }
    CHECK(clEnqueueReadBuffer(queue, items, CL_TRUE, 0,
                              (size_t)n * sizeof(struct Item), a, 0, NULL,
                              NULL));
    for (int i = 0; i < n; ++i) {
      if (i > 0 && a[i - 1].key > a[i].key)
        sorted = 0;
      sum += (double)a[i].tag * (i % 7) + a[i].weight - a[i].value;
    }
  }
  printf("bitonic: %d items, %d rounds, %s, checksum %.6e\n", n, rounds,
         sorted ? "sorted" : "NOT SORTED", sum);
  fprintf(stderr, "kernel seconds: %.6f\n", seconds);

  free(a);
  free(source);
  clReleaseMemObject(items);
  clReleaseKernel(step);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
