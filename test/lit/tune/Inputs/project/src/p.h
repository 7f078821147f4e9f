// A particle array defined in one file and used in two.
struct P {
  float x, v, tag;
};
extern struct P ps[1000];
void step(void);
