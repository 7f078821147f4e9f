//===- TuneStatistics.cpp - Medians and their confidence ------------------===//
#include "tuner/TuneStatistics.h"
#include <algorithm>
#include <cmath>
#include <limits>

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

double dlopt::medianUpperBound(std::vector<double> V, double Alpha) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  // Cumulative binomial(N, 1/2) probabilities, P(B <= J - 1) for rank J.
  double Term = std::pow(0.5, double(N)), Cumulative = 0;
  for (size_t J = 1; J <= N; ++J) {
    Cumulative += Term; // P(B = J - 1) added.
    Term = Term * double(N - (J - 1)) / double(J);
    if (Cumulative >= 1 - Alpha)
      return V[J - 1];
  }
  return std::numeric_limits<double>::infinity();
}

std::vector<double> dlopt::pairedRatios(const std::vector<double> &A,
                                        const std::vector<double> &B) {
  std::vector<double> Out;
  for (size_t I = 0; I < std::min(A.size(), B.size()); ++I)
    Out.push_back(A[I] / B[I]);
  return Out;
}
