/* blackscholes.c - European option pricing over an array of structs.
 *
 * Each option is 7 floats: the five inputs of the Black-Scholes formula and
 * the two prices it produces; the pricing loop reads and writes every field,
 * so the whole record is hot. (After the PARSEC benchmark of the same name.)
 *
 * Usage: blackscholes [--small] [options rounds]   prints a checksum of the
 * prices, identical for every layout of struct Option.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Option {
  float spot;       /* S: price of the underlying */
  float strike;     /* K */
  float rate;       /* r: risk-free interest rate */
  float volatility; /* sigma */
  float time;       /* T: years to expiry */
  float call;       /* out: price of the call */
  float put;        /* out: price of the put */
};

/* Cumulative normal distribution (Abramowitz-Stegun 26.2.17). */
static float cndf(float x) {
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(x));
  float poly =
      k * (0.319381530f +
           k * (-0.356563782f +
                k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
  float n = 1.0f - 0.39894228f * expf(-0.5f * x * x) * poly;
  return x < 0.0f ? 1.0f - n : n;
}

static void init_options(struct Option *o, int n) {
  unsigned seed = 2024u;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    o[i].spot = 10.0f + (float)(seed >> 20) / 64.0f;
    seed = seed * 1664525u + 1013904223u;
    o[i].strike = 10.0f + (float)(seed >> 20) / 64.0f;
    o[i].rate = 0.01f + (float)(i % 10) / 200.0f;
    o[i].volatility = 0.05f + (float)(i % 17) / 40.0f;
    o[i].time = 0.25f + (float)(i % 8) / 4.0f;
    o[i].call = 0.0f;
    o[i].put = 0.0f;
  }
}

static void price(struct Option *o, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    float sqrt_t = sqrtf(o[i].time);
    float d1 = (logf(o[i].spot / o[i].strike) +
                (o[i].rate + 0.5f * o[i].volatility * o[i].volatility) *
                    o[i].time) /
               (o[i].volatility * sqrt_t);
    float d2 = d1 - o[i].volatility * sqrt_t;
    float discounted = o[i].strike * expf(-o[i].rate * o[i].time);
    o[i].call = o[i].spot * cndf(d1) - discounted * cndf(d2);
    o[i].put = discounted * cndf(-d2) - o[i].spot * cndf(-d1);
  }
}

/* The next round prices slightly different markets. */
static void drift(struct Option *o, int n) {
  for (int i = 0; i < n; ++i)
    o[i].spot = o[i].spot * 0.999f + o[i].call * 0.001f;
}

int main(int argc, char **argv) {
  int n = 1 << 20, rounds = 20;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    n = 1000;
    rounds = 2;
    ++arg;
  }
  if (arg + 1 < argc) {
    n = atoi(argv[arg]);
    rounds = atoi(argv[arg + 1]);
  }
  if (n <= 0 || rounds <= 0) {
    fprintf(stderr, "usage: %s [--small] [options rounds]\n", argv[0]);
    return 2;
  }
  struct Option *o = malloc((size_t)n * sizeof(struct Option));
  if (!o) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  init_options(o, n);
  for (int r = 0; r < rounds; ++r) {
    price(o, n);
    drift(o, n);
  }
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += o[i].call + 0.5 * o[i].put;
  printf("blackscholes: %d options, %d rounds, checksum %.6e\n", n, rounds,
         sum);
  free(o);
  return 0;
}
