# shared-declaration.sed's output with a second buffer of the record after
# spare: the record's buffers in two runs (shared-declaration.test).
s/^         spare\[2\] = {scratch, NULL};$/         spare[2] = {scratch, NULL},\
         copy = clCreateBuffer(context, CL_MEM_READ_WRITE, n * sizeof(Particle),\
                               NULL, \&err);/
s/^  clReleaseMemObject(spare\[0\]);$/  clReleaseMemObject(spare[0]);\
  clReleaseMemObject(copy);/
