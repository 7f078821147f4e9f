/* A particle cloud shared by every file of the program. */
#ifndef CLOUD_H
#define CLOUD_H

#define CLOUD 1000

struct P {
  float x, y, z;
  float w;
  int id;
};

/* Defined in main.c, used in total.c. */
extern struct P cloud[CLOUD];

void advance(struct P *p, int n, float dt);
float total(int n);

/* A kernel in the header: every file that includes it sees it. */
static inline float weight(const struct P *p, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i].w;
  return s;
}

#endif
