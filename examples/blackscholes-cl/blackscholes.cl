/* blackscholes.cl - the kernels of the OpenCL option pricer (blackscholes.c
 * is its host program), one work-item per option, as in
 * examples/blackscholes: price reads the five inputs of an option and writes
 * its two prices, drift moves its spot towards the call price for the next
 * round. The record is the host's struct Option, field for field.
 */
typedef struct Option {
  float spot;       /* S: price of the underlying */
  float strike;     /* K */
  float rate;       /* r: risk-free interest rate */
  float volatility; /* sigma */
  float time;       /* T: years to expiry */
  float call;       /* out: price of the call */
  float put;        /* out: price of the put */
} Option;

/* Cumulative normal distribution (Abramowitz-Stegun 26.2.17). */
static float cndf(float x) {
  float k = 1.0f / (1.0f + 0.2316419f * fabs(x));
  float poly =
      k * (0.319381530f +
           k * (-0.356563782f +
                k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
  float n = 1.0f - 0.39894228f * exp(-0.5f * x * x) * poly;
  return x < 0.0f ? 1.0f - n : n;
}

__kernel void price(__global Option *o, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float sqrt_t = sqrt(o[i].time);
  float d1 =
      (log(o[i].spot / o[i].strike) +
       (o[i].rate + 0.5f * o[i].volatility * o[i].volatility) * o[i].time) /
      (o[i].volatility * sqrt_t);
  float d2 = d1 - o[i].volatility * sqrt_t;
  float discounted = o[i].strike * exp(-o[i].rate * o[i].time);
  o[i].call = o[i].spot * cndf(d1) - discounted * cndf(d2);
  o[i].put = discounted * cndf(-d2) - o[i].spot * cndf(-d1);
}

/* The next round prices slightly different markets. */
__kernel void drift(__global Option *o, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  o[i].spot = o[i].spot * 0.999f + o[i].call * 0.001f;
}
