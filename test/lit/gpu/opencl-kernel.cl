// OpenCL __kernel functions are kernels even without a loop (their body is
// a loop over the NDRange; see AnalyzerTest.OpenCLKernels). Their arrays
// come from the host program, which is not part of the OpenCL translation
// unit (the plugin sees one file), so a rewrite of the kernel alone would
// break it: refused, with the reason (test/lit/opencl: with the host), as
// an analysis remark: the program with its host code decides.
// RUN: %clang -x cl -cl-std=CL2.0 %dlopt -Rpass-analysis=dlopt -fsyntax-only -Xclang -verify %s

struct Particle { float x, y, vx, vy; }; // expected-remark {{struct Particle: its arrays reach other files; the whole program decides}}

__kernel void move(__global struct Particle *p, float dt) { // expected-note {{in this file: OpenCL kernel 'move' takes a 'Particle' array as argument 0, which no analyzed host code binds}}
  size_t i = get_global_id(0);
  p[i].x += dt * p[i].vx;
  p[i].y += dt * p[i].vy;
}

static void helper(__global struct Particle *q, size_t i) { q[i].x = 0; }

__kernel void sample(__global struct Particle *p, __global const int *idx) { // expected-note {{in this file: OpenCL kernel 'sample' takes a 'Particle' array as argument 0, which no analyzed host code binds}}
  size_t i = get_global_id(0);
  helper(p, (size_t)idx[i]);
}
