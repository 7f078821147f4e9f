/* Particles updated one at a time by functions of another file. */
typedef struct {
  double x, y, vx, vy, m;
  int id;
} P;
void kick(P *p, int i, double dt);
void drift(P *p, int i, double dt);
void reset(P *p, int i);
