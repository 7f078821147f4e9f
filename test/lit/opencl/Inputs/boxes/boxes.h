// A cell-list force program in Rodinia lavaMD's style (byte-counts.test):
// main.c computes the byte counts into a Dims passed by value, forces.c
// creates and transfers the buffers with them, forces.cl copies each box
// into a __local tile and accumulates the forces.
#ifndef BOXES_H
#define BOXES_H
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#define PER_BOX 32
#define DOT(A, B) ((A.x) * (B.x) + (A.y) * (B.y) + (A.z) * (B.z))

typedef struct Atom {
  float v, x, y, z;
} Atom;

typedef struct Dims {
  long boxes;
  long atoms;
  long atom_bytes;
} Dims;

void forces(const char *argv0, Dims dims, Atom *pos, Atom *force);

#endif
