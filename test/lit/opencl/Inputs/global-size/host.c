// OpenCL host code whose launches have constant global sizes, or not
// (global-size.test): 'diffuse' over n cells, 'boundary' over 256 (a
// variable never written), 'plane' over WIDTH x HEIGHT (an array),
// 'probe' over 128 (a compound literal), 'relax' over 512 but reading
// get_global_size, 'mixed' over 64 once and n once, 'rewritten' over a
// size written after its initialization, 'halo' over a file-scope const
// array, 'sheet' over a scalar's address given as two dimensions,
// 'resized' over an array an element of which is written, 'filled' over an
// array passed to a function that may write it.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdlib.h>

#define WIDTH 64
#define HEIGHT 32

typedef struct Cell {
  cl_float u, v;
  cl_float w, h;
} Cell;

static const size_t HALO[1] = {512};

static void fill(size_t *sizes, size_t n) { sizes[0] = n; }

static void launch(cl_command_queue queue, cl_kernel k, cl_uint dims,
                   const size_t *global) {
  if (clEnqueueNDRangeKernel(queue, k, dims, NULL, global, NULL, 0, NULL,
                             NULL) != CL_SUCCESS)
    exit(1);
}

void run(cl_context context, cl_command_queue queue, cl_program program,
         int n) {
  cl_int err;
  cl_kernel diffuse = clCreateKernel(program, "diffuse", &err);
  cl_kernel boundary = clCreateKernel(program, "boundary", &err);
  cl_kernel plane = clCreateKernel(program, "plane", &err);
  cl_kernel probe = clCreateKernel(program, "probe", &err);
  cl_kernel relax = clCreateKernel(program, "relax", &err);
  cl_kernel mixed = clCreateKernel(program, "mixed", &err);
  cl_kernel rewritten = clCreateKernel(program, "rewritten", &err);
  Cell *cells = calloc(n, sizeof(Cell));
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE, n * sizeof(Cell),
                              NULL, &err);
  clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, n * sizeof(Cell), cells, 0,
                       NULL, NULL);
  int width = WIDTH;
  clSetKernelArg(diffuse, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(diffuse, 1, sizeof(int), &n);
  clSetKernelArg(boundary, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(plane, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(plane, 1, sizeof(int), &width);
  clSetKernelArg(probe, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(relax, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(relax, 1, sizeof(int), &n);
  clSetKernelArg(mixed, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(rewritten, 0, sizeof(cl_mem), &buf);
  cl_kernel halo = clCreateKernel(program, "halo", &err);
  cl_kernel sheet = clCreateKernel(program, "sheet", &err);
  cl_kernel resized = clCreateKernel(program, "resized", &err);
  cl_kernel filled = clCreateKernel(program, "filled", &err);
  clSetKernelArg(halo, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(sheet, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(resized, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(filled, 0, sizeof(cl_mem), &buf);
  size_t cells_n = (size_t)n;
  size_t edge = 256;
  size_t area[2] = {WIDTH, HEIGHT};
  size_t workers = 512;
  size_t few = 64;
  size_t later = 100;
  later = cells_n / 2;
  size_t flat = 4096;
  size_t grown[1] = {1024};
  grown[0] = cells_n;
  size_t given[1] = {2048};
  fill(given, cells_n);
  for (int s = 0; s < 10; ++s) {
    clEnqueueNDRangeKernel(queue, diffuse, 1, NULL, &cells_n, NULL, 0, NULL,
                           NULL);
    clEnqueueNDRangeKernel(queue, boundary, 1, NULL, &edge, NULL, 0, NULL,
                           NULL);
    clEnqueueNDRangeKernel(queue, plane, 2, NULL, area, NULL, 0, NULL, NULL);
    clEnqueueNDRangeKernel(queue, probe, 1, NULL, (size_t[]){128}, NULL, 0,
                           NULL, NULL);
    clEnqueueNDRangeKernel(queue, relax, 1, NULL, &workers, NULL, 0, NULL,
                           NULL);
    clEnqueueNDRangeKernel(queue, mixed, 1, NULL, &few, NULL, 0, NULL, NULL);
    clEnqueueNDRangeKernel(queue, rewritten, 1, NULL, &later, NULL, 0, NULL,
                           NULL);
    clEnqueueNDRangeKernel(queue, halo, 1, NULL, HALO, NULL, 0, NULL, NULL);
    clEnqueueNDRangeKernel(queue, sheet, 2, NULL, &flat, NULL, 0, NULL, NULL);
    clEnqueueNDRangeKernel(queue, resized, 1, NULL, grown, NULL, 0, NULL,
                           NULL);
    clEnqueueNDRangeKernel(queue, filled, 1, NULL, given, NULL, 0, NULL,
                           NULL);
  }
  launch(queue, mixed, 1, &cells_n);
  clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * sizeof(Cell), cells, 0, NULL,
                      NULL);
  clReleaseMemObject(buf);
  free(cells);
}

int main(void) { return 0; }
