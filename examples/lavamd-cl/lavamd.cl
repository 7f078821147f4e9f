/* lavamd.cl - the kernel of the OpenCL lavaMD-like example (lavamd.c is
 * its host program), written as Rodinia's OpenCL lavaMD: one work-group
 * per box. For the box itself and then for each of its neighbours, the
 * work-items of the group copy that box's particles from __global memory
 * into the __local array shared, wait at a barrier, and each accumulates
 * the potential and force that they exert on its own particles of the home
 * box (the l-th, the (l + local size)-th, ...). The records are the host's
 * Particle, Force and Box, field for field.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct Particle {
  double x, y, z;
  double q;
} Particle;

typedef struct Force {
  double v, x, y, z;
} Force;

typedef struct Box {
  int offset;     /* the box's particles are [offset, offset + count) */
  int count;
  int neighbours; /* how many entries of nei are used */
  int nei[26];    /* indices of the neighbouring boxes */
} Box;

__kernel void lavamd(__global const Box *boxes, __global const Particle *p,
                     __global Force *f, double alpha,
                     __local Particle *shared) {
  int b = get_group_id(0);
  int l = get_local_id(0);
  int size = get_local_size(0);
  int first = boxes[b].offset, count = boxes[b].count;
  double a2 = 2.0 * alpha * alpha;

  /* k = -1 is the home box, then its neighbours in order. */
  for (int k = -1; k < boxes[b].neighbours; ++k) {
    int other = k < 0 ? b : boxes[b].nei[k];
    int ofirst = boxes[other].offset, ocount = boxes[other].count;
    for (int j = l; j < ocount; j += size)
      shared[j] = p[ofirst + j];
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int i = l; i < count; i += size) {
      Particle home = p[first + i];
      double v = 0.0, fx = 0.0, fy = 0.0, fz = 0.0;
      for (int j = 0; j < ocount; ++j) {
        double dx = home.x - shared[j].x;
        double dy = home.y - shared[j].y;
        double dz = home.z - shared[j].z;
        double r2 = dx * dx + dy * dy + dz * dz;
        double u2 = a2 * r2;
        double vij = exp(-u2);
        double fs = 2.0 * vij;
        v += shared[j].q * vij;
        fx += shared[j].q * fs * dx;
        fy += shared[j].q * fs * dy;
        fz += shared[j].q * fs * dz;
      }
      f[first + i].v += v;
      f[first + i].x += fx;
      f[first + i].y += fy;
      f[first + i].z += fz;
    }
    /* Everyone is done with shared before the next box overwrites it. */
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
