# particles.c reading a rectangle of the particles' buffer (unfollowed.test).
/^  float dt = 0.5f;$/i\
  size_t origin[3] = {0, 0, 0}, rows[3] = {sizeof(Particle), 4, 1};\
  CHECK(clEnqueueReadBufferRect(queue, buf, CL_TRUE, origin, origin, rows,\
                                sizeof(Particle), 0, sizeof(Particle), 0, ps,\
                                0, NULL, NULL));
