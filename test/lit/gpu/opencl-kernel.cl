// OpenCL __kernel functions are kernels even without a loop (their body is
// a loop over the NDRange; see AnalyzerTest.OpenCLKernels). Their arrays
// come from the host program, which is not part of the OpenCL translation
// unit (the plugin sees one file), so a rewrite of the kernel alone would
// break it: refused, with the reason (test/lit/opencl: with the host).
// RUN: %clang -x cl -cl-std=CL2.0 %dlopt -fsyntax-only -Xclang -verify %s

struct Particle { float x, y, vx, vy; }; // expected-remark {{struct Particle (16 B, 4 fields, 3 arrays): not transformable: OpenCL kernel 'move' takes a 'Particle' array as argument 0, which no analyzed host code binds to a buffer of it (name the host files too) (and 1 more)}}

__kernel void move(__global struct Particle *p, float dt) { // expected-note {{blocks the rewrite: OpenCL kernel 'move' takes a 'Particle' array as argument 0, which no analyzed host code binds}}
  size_t i = get_global_id(0);
  p[i].x += dt * p[i].vx;
  p[i].y += dt * p[i].vy;
}

static void helper(__global struct Particle *q, size_t i) { q[i].x = 0; }

__kernel void sample(__global struct Particle *p, __global const int *idx) { // expected-note {{blocks the rewrite: OpenCL kernel 'sample' takes a 'Particle' array as argument 0, which no analyzed host code binds}}
  size_t i = get_global_id(0);
  helper(p, (size_t)idx[i]);
}
