//===- TuneStatistics.cpp - Medians and their confidence ------------------===//
#include "tuner/TuneStatistics.h"
#include <algorithm>
#include <cmath>

using namespace dlopt;

double dlopt::median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

Interval dlopt::medianInterval(std::vector<double> V) {
  if (V.empty())
    return {};
  std::sort(V.begin(), V.end());
  double N = V.size();
  long K = static_cast<long>(std::floor((N - 1.96 * std::sqrt(N)) / 2));
  if (K < 1)
    return {V.front(), V.back()};
  // Ranks K and N + 1 - K, 1-based.
  return {V[K - 1], V[V.size() - K]};
}
