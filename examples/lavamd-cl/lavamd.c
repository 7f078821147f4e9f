/* lavamd.c - host program of the OpenCL lavaMD-like example, the OpenCL
 * version of examples/lavamd.
 *
 * Particles live in a 3-D grid of boxes; each particle interacts with the
 * particles of its own box and of the up to 26 neighbouring boxes. Written
 * as OpenCL hosts usually are: the boxes, particles and forces are arrays
 * of structs on the host, each copied into one buffer of n * sizeof(T)
 * bytes and bound to the kernel of lavamd.cl with clSetKernelArg, together
 * with the __local array the kernel stages one box's particles in. The
 * NDRange has one work-group per box; the forces are read back for a
 * checksum. Runs on any OpenCL 1.2 device with cl_khr_fp64 (PoCL on the
 * CPU here). lavamd.cl is looked for beside the executable.
 *
 * Usage: lavamd [--small] [boxes-per-side particles-per-box]   prints a
 * checksum of the forces, identical for every layout of the records and
 * to the one examples/lavamd prints for the same size (each force is summed
 * in the same order, box after box and particle after particle, and the
 * device's exp and contractions change only digits past those printed),
 * and on stderr the seconds the kernel ran (OpenCL profiling events).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One particle: position and charge, read together in the hot loop. */
typedef struct Particle {
  cl_double x, y, z;
  cl_double q;
} Particle;

/* The potential and force a particle accumulates. */
typedef struct Force {
  cl_double v, x, y, z;
} Force;

/* One box of the grid: its particles are [offset, offset + count). */
typedef struct Box {
  cl_int offset;
  cl_int count;
  cl_int neighbours; /* how many entries of nei are used */
  cl_int nei[26];    /* indices of the neighbouring boxes */
} Box;

#define CHECK(call)                                                            \
  do {                                                                         \
    cl_int err_ = (call);                                                      \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, err_);   \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static unsigned next_random(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return (*seed >> 8) % 10000u;
}

/* Boxes of a side x side x side grid with their neighbour lists. */
static void init_boxes(Box *boxes, int side, int per_box) {
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j)
      for (int k = 0; k < side; ++k) {
        int b = (i * side + j) * side + k;
        boxes[b].offset = b * per_box;
        boxes[b].count = per_box;
        boxes[b].neighbours = 0;
        for (int di = -1; di <= 1; ++di)
          for (int dj = -1; dj <= 1; ++dj)
            for (int dk = -1; dk <= 1; ++dk) {
              int ni = i + di, nj = j + dj, nk = k + dk;
              if ((di == 0 && dj == 0 && dk == 0) || ni < 0 || nj < 0 ||
                  nk < 0 || ni >= side || nj >= side || nk >= side)
                continue;
              boxes[b].nei[boxes[b].neighbours++] =
                  (ni * side + nj) * side + nk;
            }
      }
}

static void init_particles(Particle *p, Force *f, int n) {
  unsigned seed = 42u;
  for (int i = 0; i < n; ++i) {
    p[i].x = (next_random(&seed) + 1) / 10000.0;
    p[i].y = (next_random(&seed) + 1) / 10000.0;
    p[i].z = (next_random(&seed) + 1) / 10000.0;
    p[i].q = (next_random(&seed) + 1) / 10000.0;
    f[i].v = 0;
    f[i].x = 0;
    f[i].y = 0;
    f[i].z = 0;
  }
}

static double checksum(const Force *f, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += f[i].v + f[i].x - f[i].y + 0.5 * f[i].z;
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
  int side = 10, per_box = 100;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    side = 3;
    per_box = 20;
    ++arg;
  }
  if (arg + 1 < argc) {
    side = atoi(argv[arg]);
    per_box = atoi(argv[arg + 1]);
  }
  if (side < 1 || per_box < 1) {
    fprintf(stderr, "usage: %s [--small] [boxes-per-side particles-per-box]\n",
            argv[0]);
    return 2;
  }
  int nboxes = side * side * side, n = nboxes * per_box;

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
  char *source = load_kernels(argv[0], "lavamd.cl");
  cl_program program =
      clCreateProgramWithSource(context, 1, (const char **)&source, NULL, &err);
  CHECK(err);
  if (clBuildProgram(program, 1, &device, "-cl-std=CL1.2", NULL, NULL) !=
      CL_SUCCESS) {
    char log[16384];
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log,
                          log, NULL);
    fprintf(stderr, "lavamd.cl does not build:\n%s\n", log);
    return 1;
  }
  cl_kernel kernel = clCreateKernel(program, "lavamd", &err);
  CHECK(err);

  Box *boxes = malloc((size_t)nboxes * sizeof(Box));
  Particle *particles = malloc((size_t)n * sizeof(Particle));
  Force *forces = malloc((size_t)n * sizeof(Force));
  if (!boxes || !particles || !forces) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  init_boxes(boxes, side, per_box);
  init_particles(particles, forces, n);

  cl_mem box_buffer = clCreateBuffer(context, CL_MEM_READ_ONLY,
                                     (size_t)nboxes * sizeof(Box), NULL, &err);
  CHECK(err);
  cl_mem particle_buffer = clCreateBuffer(
      context, CL_MEM_READ_ONLY, (size_t)n * sizeof(Particle), NULL, &err);
  CHECK(err);
  cl_mem force_buffer = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                       (size_t)n * sizeof(Force), NULL, &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(queue, box_buffer, CL_TRUE, 0,
                             (size_t)nboxes * sizeof(Box), boxes, 0, NULL,
                             NULL));
  CHECK(clEnqueueWriteBuffer(queue, particle_buffer, CL_TRUE, 0,
                             (size_t)n * sizeof(Particle), particles, 0, NULL,
                             NULL));
  CHECK(clEnqueueWriteBuffer(queue, force_buffer, CL_TRUE, 0,
                             (size_t)n * sizeof(Force), forces, 0, NULL, NULL));

  /* One work-group per box, at most 128 work-items sharing its particles;
     the __local array holds the particles of one box. */
  cl_double alpha = 0.5;
  size_t local = per_box < 128 ? (size_t)per_box : 128;
  size_t global = (size_t)nboxes * local;
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &box_buffer));
  CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &particle_buffer));
  CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &force_buffer));
  CHECK(clSetKernelArg(kernel, 3, sizeof(cl_double), &alpha));
  CHECK(clSetKernelArg(kernel, 4, (size_t)per_box * sizeof(Particle), NULL));
  cl_event done;
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL,
                               &done));
  double seconds = kernel_seconds(done);
  CHECK(clEnqueueReadBuffer(queue, force_buffer, CL_TRUE, 0,
                            (size_t)n * sizeof(Force), forces, 0, NULL, NULL));
  printf("lavamd: %d boxes, %d particles, checksum %.6e\n", nboxes, n,
         checksum(forces, n));
  fprintf(stderr, "kernel seconds: %.6f\n", seconds);

  free(boxes);
  free(particles);
  free(forces);
  free(source);
  clReleaseMemObject(box_buffer);
  clReleaseMemObject(particle_buffer);
  clReleaseMemObject(force_buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
