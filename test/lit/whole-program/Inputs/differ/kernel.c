/* Not main.c's struct P: id is a long here. */
struct P {
  float x, y, z;
  long id;
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
