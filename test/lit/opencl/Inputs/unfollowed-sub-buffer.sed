# particles.c with a sub-buffer of the particles' buffer (unfollowed.test).
/^  float dt = 0.5f;$/i\
  cl_buffer_region region = {0, 10 * sizeof(Particle)};\
  cl_mem head = clCreateSubBuffer(buf, CL_MEM_READ_WRITE,\
                                  CL_BUFFER_CREATE_TYPE_REGION, &region, &err);\
  CHECK(err);\
  CHECK(clReleaseMemObject(head));
