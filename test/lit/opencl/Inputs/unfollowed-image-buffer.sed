# particles.c copying the particles' buffer into an image (images.test):
# the image would hold the new layout's bytes, so the record is refused.
/^  float dt = 0.5f;$/i\
  cl_image_format fmt = {CL_RGBA, CL_FLOAT};\
  cl_image_desc desc = {0};\
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;\
  desc.image_width = 4;\
  desc.image_height = 1;\
  cl_mem img = clCreateImage(context, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);\
  CHECK(err);\
  size_t origin[3] = {0, 0, 0}, region[3] = {4, 1, 1};\
  CHECK(clEnqueueCopyBufferToImage(queue, buf, img, 0, origin, region, 0, NULL,\
                                   NULL));\
  CHECK(clReleaseMemObject(img));
