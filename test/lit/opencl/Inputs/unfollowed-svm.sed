# particles.c (as OpenCL 2.0 host code) giving the kernel bounce an array
# of particles in shared virtual memory (unfollowed.test).
s/^#define CL_TARGET_OPENCL_VERSION 120$/#define CL_TARGET_OPENCL_VERSION 200/
/^  float dt = 0.5f;$/i\
  Particle *shared =\
      clSVMAlloc(context, CL_MEM_READ_WRITE, n * sizeof(Particle), 0);\
  CHECK(clSetKernelArgSVMPointer(bounce, 0, shared));
