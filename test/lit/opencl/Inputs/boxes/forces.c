// The OpenCL host code of the force kernel: the buffers' sizes are the
// byte counts main.c computed (Dims::atom_bytes), as Rodinia's wrappers
// take theirs.
#include "boxes.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(e)                                                               \
  do {                                                                         \
    cl_int err_ = (e);                                                         \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "line %d: OpenCL error %d\n", __LINE__, err_);           \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* forces.cl, beside the executable \p argv0. */
static const char *read_kernels(const char *argv0) {
  static char text[1 << 16];
  char path[1024];
  const char *slash = strrchr(argv0, '/');
  int dir = slash ? (int)(slash - argv0 + 1) : 0;
  snprintf(path, sizeof path, "%.*sforces.cl", dir, argv0);
  FILE *f = fopen(path, "rb");
  if (!f)
    exit(1);
  text[fread(text, 1, sizeof text - 1, f)] = '\0';
  fclose(f);
  return text;
}

void forces(const char *argv0, Dims dims, Atom *pos, Atom *force) {
  cl_int err;
  cl_platform_id platform;
  cl_device_id device;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  CHECK(err);
  const char *source = read_kernels(argv0);
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
  cl_kernel kernel = clCreateKernel(program, "box_forces", &err);
  CHECK(err);

  cl_mem d_pos;
  d_pos = clCreateBuffer(context, CL_MEM_READ_WRITE, dims.atom_bytes, NULL,
                         &err);
  CHECK(err);
  cl_mem d_force;
  d_force = clCreateBuffer(context, CL_MEM_READ_WRITE, dims.atom_bytes, NULL,
                           &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(queue, d_pos, CL_TRUE, 0, dims.atom_bytes, pos, 0,
                             NULL, NULL));
  CHECK(clEnqueueWriteBuffer(queue, d_force, CL_TRUE, 0, dims.atom_bytes,
                             force, 0, NULL, NULL));
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &d_pos));
  CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &d_force));
  CHECK(clSetKernelArg(kernel, 2, sizeof(cl_long), &dims.boxes));
  size_t local = PER_BOX, global = dims.boxes * PER_BOX;
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0,
                               NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, d_force, CL_TRUE, 0, dims.atom_bytes, force,
                            0, NULL, NULL));
  clReleaseMemObject(d_pos);
  clReleaseMemObject(d_force);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}
