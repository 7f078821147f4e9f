# particles.c making an image from the host's array of particles
# (images.test): the image takes the host array's bytes, not a buffer the
# kernels take, so the host keeps its layout (the boundary strategy).
/^  float dt = 0.5f;$/i\
  cl_image_format fmt = {CL_RGBA, CL_FLOAT};\
  cl_image_desc desc = {0};\
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;\
  desc.image_width = 4;\
  desc.image_height = 1;\
  cl_mem img = clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,\
                             &fmt, &desc, ps, &err);\
  CHECK(err);\
  float first[4];\
  size_t origin[3] = {1, 0, 0}, region[3] = {1, 1, 1};\
  CHECK(clEnqueueReadImage(queue, img, CL_TRUE, origin, region, 0, 0, first,\
                           0, NULL, NULL));\
  printf("image %.1f %.1f\\n", first[0], first[1]);\
  CHECK(clReleaseMemObject(img));
