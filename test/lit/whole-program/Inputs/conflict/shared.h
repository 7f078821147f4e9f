struct Q {
  float a, b;
};

/* Compiled with -DFAST in one file only: that file sees a use the other
   does not, so the two would rewrite this header differently. */
static inline float first(struct Q *q) {
#ifdef FAST
  return q[0].a;
#else
  return q == 0;
#endif
}
