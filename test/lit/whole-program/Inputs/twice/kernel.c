/* The same struct P as main.c's, defined again. */
struct P {
  float x, y, z;
  int id;
};

extern struct P *parts;

void step(struct P *p, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    p[i].x += p[i].z * dt;
    p[i].y -= p[i].z * dt;
  }
}

void drift(int n) {
  for (int i = 0; i < n; ++i)
    parts[i].z *= 0.99f;
}
