/* mosquito.c - host program of the OpenCL agent-based mosquito model (the
 * kernels are in mosquito.cl, looked for beside the executable).
 *
 * The paper's agent model in the usual OpenCL style: one array of 12-field
 * agents initialized on the host, one buffer of n * sizeof(struct
 * Mosquito) bytes, five kernels created by name, the buffer bound to each
 * with clSetKernelArg (indices counted with a++), an NDRange per kernel and
 * step, and the agents read back for population statistics.
 *
 * Usage: mosquito [--small] [agents steps]   prints population statistics,
 * identical for every layout of struct Mosquito on one device, and on
 * stderr the seconds the kernels ran (OpenCL profiling events).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORLD 1000.0f

struct Mosquito {
  cl_float x, y;    /* position in the world, metres */
  cl_float heading; /* radians */
  cl_float speed;   /* metres per step */
  cl_int age;       /* steps since emergence */
  cl_int stage;     /* 0 larva, 1 adult, 2 gravid female */
  cl_float energy;  /* reserves, 0..1 */
  cl_float blood;   /* blood meal, 0..1 */
  cl_int eggs;      /* eggs laid so far */
  cl_int alive;     /* 0 or 1 */
  cl_float wing;    /* wing length, mm: larger lives longer */
  cl_uint seed;     /* the agent's own random state */
};

#define CHECK(call)                                                            \
  do {                                                                         \
    cl_int err_ = (call);                                                      \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, err_);   \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* Next uniform number in [0, 1) from the agent's state. */
static float uniform(unsigned *seed) {
  *seed = *seed * 1664525u + 1013904223u;
  return (float)(*seed >> 8) * (1.0f / 16777216.0f);
}

static void init_agents(struct Mosquito *m, int n) {
  for (int i = 0; i < n; ++i) {
    unsigned seed = 17u + 2654435761u * (unsigned)i;
    m[i].x = uniform(&seed) * WORLD;
    m[i].y = uniform(&seed) * WORLD;
    m[i].heading = uniform(&seed) * 6.2831853f;
    m[i].speed = 1.0f + uniform(&seed) * 4.0f;
    m[i].age = (int)(uniform(&seed) * 10.0f);
    m[i].stage = m[i].age > 5;
    m[i].energy = 0.5f + 0.5f * uniform(&seed);
    m[i].blood = 0.0f;
    m[i].eggs = 0;
    m[i].alive = 1;
    m[i].wing = 2.5f + uniform(&seed);
    m[i].seed = seed;
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
  int n = 1 << 20, steps = 30;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    n = 2000;
    steps = 5;
    ++arg;
  }
  if (arg + 1 < argc) {
    n = atoi(argv[arg]);
    steps = atoi(argv[arg + 1]);
  }
  if (n <= 0 || steps < 0) {
    fprintf(stderr, "usage: %s [--small] [agents steps]\n", argv[0]);
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
  char *source = load_kernels(argv[0], "mosquito.cl");
  cl_program program =
      clCreateProgramWithSource(context, 1, (const char **)&source, NULL, &err);
  CHECK(err);
  if (clBuildProgram(program, 1, &device, "-cl-std=CL1.2", NULL, NULL) !=
      CL_SUCCESS) {
    char log[16384];
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log,
                          log, NULL);
    fprintf(stderr, "mosquito.cl does not build:\n%s\n", log);
    return 1;
  }
  static const char *const names[] = {"movement", "ageing", "feeding",
                                      "egg_laying", "death"};
  cl_kernel movement = clCreateKernel(program, "movement", &err);
  CHECK(err);
  cl_kernel ageing = clCreateKernel(program, "ageing", &err);
  CHECK(err);
  cl_kernel feeding = clCreateKernel(program, "feeding", &err);
  CHECK(err);
  cl_kernel egg_laying = clCreateKernel(program, "egg_laying", &err);
  CHECK(err);
  cl_kernel death = clCreateKernel(program, "death", &err);
  CHECK(err);
  cl_kernel kernels[] = {movement, ageing, feeding, egg_laying, death};

  struct Mosquito *m = malloc((size_t)n * sizeof(struct Mosquito));
  if (!m) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  init_agents(m, n);
  cl_mem agents =
      clCreateBuffer(context, CL_MEM_READ_WRITE,
                     (size_t)n * sizeof(struct Mosquito), NULL, &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(queue, agents, CL_TRUE, 0,
                             (size_t)n * sizeof(struct Mosquito), m, 0, NULL,
                             NULL));
  int a = 0;
  CHECK(clSetKernelArg(movement, a++, sizeof(cl_mem), &agents));
  CHECK(clSetKernelArg(movement, a++, sizeof(int), &n));
  a = 0;
  CHECK(clSetKernelArg(ageing, a++, sizeof(cl_mem), &agents));
  CHECK(clSetKernelArg(ageing, a++, sizeof(int), &n));
  a = 0;
  CHECK(clSetKernelArg(feeding, a++, sizeof(cl_mem), &agents));
  CHECK(clSetKernelArg(feeding, a++, sizeof(int), &n));
  a = 0;
  CHECK(clSetKernelArg(egg_laying, a++, sizeof(cl_mem), &agents));
  CHECK(clSetKernelArg(egg_laying, a++, sizeof(int), &n));
  a = 0;
  CHECK(clSetKernelArg(death, a++, sizeof(cl_mem), &agents));
  CHECK(clSetKernelArg(death, a++, sizeof(int), &n));
  size_t global = (size_t)n;
  double seconds = 0.0;
  for (int s = 0; s < steps; ++s)
    for (int k = 0; k < 5; ++k) {
      cl_event done;
      if (clEnqueueNDRangeKernel(queue, kernels[k], 1, NULL, &global, NULL, 0,
                                 NULL, &done) != CL_SUCCESS) {
        fprintf(stderr, "kernel %s failed\n", names[k]);
        return 1;
      }
      seconds += kernel_seconds(done);
    }
  CHECK(clEnqueueReadBuffer(queue, agents, CL_TRUE, 0,
                            (size_t)n * sizeof(struct Mosquito), m, 0, NULL,
                            NULL));

  long alive = 0, eggs = 0, gravid = 0;
  double where = 0.0;
  for (int i = 0; i < n; ++i) {
    alive += m[i].alive;
    eggs += m[i].eggs;
    gravid += m[i].stage == 2;
    where += m[i].x + m[i].y;
  }
  printf("mosquito: %d agents, %d steps: %ld alive, %ld gravid, %ld eggs, "
         "position checksum %.6e\n",
         n, steps, alive, gravid, eggs, where);
  fprintf(stderr, "kernel seconds: %.6f\n", seconds);

  free(m);
  free(source);
  clReleaseMemObject(agents);
  for (int k = 0; k < 5; ++k)
    clReleaseKernel(kernels[k]);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
