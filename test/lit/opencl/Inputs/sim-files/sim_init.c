// Creates the kernels, the buffer and the host array (kernel-holders.test).
#include "sim.h"

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

void sim_init(Sim *s, const char *argv0, int n) {
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

void sim_free(Sim *s) {
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

