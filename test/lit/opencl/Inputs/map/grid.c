// A grid of cells whose host maps the buffer: a region to heat it (mapped
// for writing from an offset), then the whole grid to read it (map.test).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Cell {
  cl_float rho, u, v, e;
  cl_float fx, fy;
  cl_int n, flag;
} Cell;

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
  snprintf(path, sizeof path, "%.*sgrid.cl", dir, argv0);
  FILE *f = fopen(path, "rb");
  if (!f)
    exit(1);
  text[fread(text, 1, sizeof text - 1, f)] = '\0';
  fclose(f);
  return text;
}

int main(int argc, char **argv) {
  (void)argc;
  enum { N = 1000, HOT = 37, FROM = 101 };
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
  cl_kernel relax = clCreateKernel(program, "relax", &err);
  CHECK(err);

  cl_mem cells =
      clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof(Cell), NULL, &err);
  CHECK(err);
  Cell calm = {1.0f, 0.5f, -0.25f, 2.0f, 0.0f, 0.0f, 0, 1};
  CHECK(clEnqueueFillBuffer(queue, cells, &calm, sizeof(Cell), 0,
                            N * sizeof(Cell), 0, NULL, NULL));
  Cell *region = (Cell *)clEnqueueMapBuffer(
      queue, cells, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, FROM * sizeof(Cell),
      HOT * sizeof(Cell), 0, NULL, NULL, &err);
  CHECK(err);
  for (int i = 0; i < HOT; ++i) {
    region[i].rho += 2.0f;
    region[i].e = 9.0f - 0.125f * (float)i;
    region[i].flag = 2;
  }
  cl_event unmapped;
  CHECK(clEnqueueUnmapMemObject(queue, cells, region, 0, NULL, &unmapped));
  CHECK(clWaitForEvents(1, &unmapped));
  CHECK(clReleaseEvent(unmapped));
  int n = N;
  CHECK(clSetKernelArg(relax, 0, sizeof(cl_mem), &cells));
  CHECK(clSetKernelArg(relax, 1, sizeof(int), &n));
  size_t global = N;
  for (int step = 0; step < 10; ++step)
    CHECK(clEnqueueNDRangeKernel(queue, relax, 1, NULL, &global, NULL, 0, NULL,
                                 NULL));
  Cell *out;
  out = (Cell *)clEnqueueMapBuffer(queue, cells, CL_TRUE, CL_MAP_READ, 0,
                                   N * sizeof(Cell), 0, NULL, NULL, &err);
  CHECK(err);
  double rho = 0, e = 0, f = 0;
  long count = 0, flags = 0;
  for (int i = 0; i < N; ++i) {
    rho += out[i].rho;
    e += out[i].e;
    f += out[i].fx + out[i].fy;
    count += out[i].n;
    flags += out[i].flag;
  }
  printf("rho %.4f e %.4f f %.4f n %ld flags %ld\n", rho, e, f, count, flags);
  CHECK(clEnqueueUnmapMemObject(queue, cells, out, 0, NULL, NULL));
  CHECK(clFinish(queue));
  clReleaseMemObject(cells);
  clReleaseKernel(relax);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
