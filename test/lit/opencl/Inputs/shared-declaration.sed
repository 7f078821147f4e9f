# particles.c with its buffer declared between two other cl_mem variables,
# one initialized from the other (shared-declaration.test).
s/^  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE,$/  cl_mem scratch = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, \&err),\
         buf = clCreateBuffer(context, CL_MEM_READ_WRITE,/
s/^                              n \* sizeof(Particle), NULL, &err);$/                              n * sizeof(Particle), NULL, \&err),\
         spare[2] = {scratch, NULL};/
s/^  clReleaseMemObject(buf);$/  clReleaseMemObject(buf);\
  clReleaseMemObject(spare[0]);/
