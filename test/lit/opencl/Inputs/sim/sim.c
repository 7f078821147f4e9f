// particles.c's program with its OpenCL state kept in a struct, as larger
// hosts do: the kernels, the buffer and the host array are members of a
// Sim, reached through a pointer in functions of their own (state.test).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Particle {
  cl_float x, y;
  cl_float vx, vy;
  cl_int tag;
} Particle;

typedef struct Sim {
  cl_context context;
  cl_command_queue queue;
  cl_program program;
  cl_kernel move, bounce;
  cl_mem particles;
  Particle *host;
  int n;
} Sim;

#define CHECK(e)                                                               \
  do {                                                                         \
    cl_int err_ = (e);                                                         \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "line %d: OpenCL error %d\n", __LINE__, err_);           \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* particles.cl, beside the executable \p argv0. */
static const char *read_kernels(const char *argv0) {
  static char text[1 << 16];
  char path[1024];
  const char *slash = strrchr(argv0, '/');
  int dir = slash ? (int)(slash - argv0 + 1) : 0;
  snprintf(path, sizeof path, "%.*sparticles.cl", dir, argv0);
  FILE *f = fopen(path, "rb");
  if (!f)
    exit(1);
  text[fread(text, 1, sizeof text - 1, f)] = '\0';
  fclose(f);
  return text;
}

static void sim_init(Sim *s, const char *argv0, int n) {
  cl_int err;
  cl_platform_id platform;
  cl_device_id device;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  s->context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  s->queue = clCreateCommandQueue(s->context, device, 0, &err);
  CHECK(err);
  const char *source = read_kernels(argv0);
  s->program = clCreateProgramWithSource(s->context, 1, &source, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(s->program, 1, &device, "", NULL, NULL));
  s->move = clCreateKernel(s->program, "move", &err);
  CHECK(err);
  s->bounce = clCreateKernel(s->program, "bounce", &err);
  CHECK(err);
  s->n = n;
  s->host = malloc(n * sizeof(Particle));
  for (int i = 0; i < n; ++i) {
    s->host[i].x = (float)(i % 100);
    s->host[i].y = (float)(i / 10);
    s->host[i].vx = (float)(i % 7) - 3.0f;
    s->host[i].vy = 1.0f;
    s->host[i].tag = 0;
  }
  s->particles = clCreateBuffer(s->context, CL_MEM_READ_WRITE,
                                n * sizeof(Particle), NULL, &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(s->queue, s->particles, CL_TRUE, 0,
                             n * sizeof(Particle), s->host, 0, NULL, NULL));
}

static void sim_step(Sim *s, float dt) {
  CHECK(clSetKernelArg(s->move, 0, sizeof(cl_mem), &s->particles));
  CHECK(clSetKernelArg(s->move, 1, sizeof(int), &s->n));
  CHECK(clSetKernelArg(s->move, 2, sizeof(float), &dt));
  CHECK(clSetKernelArg(s->bounce, 0, sizeof(cl_mem), &s->particles));
  CHECK(clSetKernelArg(s->bounce, 1, sizeof(int), &s->n));
  size_t global = (size_t)s->n;
  CHECK(clEnqueueNDRangeKernel(s->queue, s->move, 1, NULL, &global, NULL, 0,
                               NULL, NULL));
  CHECK(clEnqueueNDRangeKernel(s->queue, s->bounce, 1, NULL, &global, NULL, 0,
                               NULL, NULL));
}

static void sim_free(Sim *s) {
  CHECK(clEnqueueReadBuffer(s->queue, s->particles, CL_TRUE, 0,
                            s->n * sizeof(Particle), s->host, 0, NULL, NULL));
  double sx = 0, sy = 0;
  long tags = 0;
  for (int i = 0; i < s->n; ++i) {
    sx += s->host[i].x;
    sy += s->host[i].y;
    tags += s->host[i].tag;
  }
  printf("x %.3f y %.3f bounces %ld\n", sx, sy, tags);
  if (s->particles)
    clReleaseMemObject(s->particles);
  free(s->host);
  clReleaseKernel(s->move);
  clReleaseKernel(s->bounce);
  clReleaseProgram(s->program);
  clReleaseCommandQueue(s->queue);
  clReleaseContext(s->context);
}

int main(int argc, char **argv) {
  (void)argc;
  Sim s;
  sim_init(&s, argv[0], 1000);
  for (int step = 0; step < 50; ++step)
    sim_step(&s, 0.5f);
  sim_free(&s);
  return 0;
}
