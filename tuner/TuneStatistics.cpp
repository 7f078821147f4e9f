//===- TuneStatistics.cpp - Medians and their confidence ------------------===//
#include "tuner/TuneStatistics.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>

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

/// The density of Student's t with \p Df degrees of freedom at \p X.
static double studentDensity(double X, double Df) {
  double LogNorm = std::lgamma((Df + 1) / 2) - std::lgamma(Df / 2) -
                   0.5 * std::log(Df * llvm::numbers::pi);
  return std::exp(LogNorm - (Df + 1) / 2 * std::log1p(X * X / Df));
}

/// P(0 <= T <= X) by Simpson's rule: smooth enough for a thousand steps
/// to give the quantiles to four digits.
static double studentMass(double X, double Df) {
  constexpr int Steps = 1000;
  double H = X / Steps, Sum = studentDensity(0, Df) + studentDensity(X, Df);
  for (int I = 1; I < Steps; ++I)
    Sum += (I % 2 ? 4 : 2) * studentDensity(I * H, Df);
  return Sum * H / 3;
}

/// The quantile by bisection on [0, 1e3] (P = 1 - 1e-6 at Df = 1 is 3.2e5:
/// far past what the tuner's levels need).
static double computeStudentQuantile(double P, unsigned Df) {
  double Low = 0, High = 1e3, Want = P - 0.5;
  for (int I = 0; I < 60; ++I) {
    double Mid = (Low + High) / 2;
    (studentMass(Mid, Df) < Want ? Low : High) = Mid;
  }
  return (Low + High) / 2;
}

double dlopt::studentQuantile(double P, unsigned Df) {
  if (P == 0.5)
    return 0;
  if (P < 0.5)
    return -studentQuantile(1 - P, Df);
  // A race asks for the same few levels round after round.
  static std::mutex Lock;
  static std::map<std::pair<double, unsigned>, double> Known;
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, New] = Known.try_emplace({P, Df}, 0);
  if (New)
    It->second = computeStudentQuantile(P, Df);
  return It->second;
}

namespace {
/// The mean and the standard deviation (n - 1) of the logarithms of at
/// least 2 values.
struct LogMoments {
  double Mean = 0, Spread = 0;
};

LogMoments logMoments(const std::vector<double> &V) {
  size_t N = V.size();
  LogMoments M;
  for (double X : V)
    M.Mean += std::log(X) / N;
  double SumSquares = 0;
  for (double X : V)
    SumSquares += (std::log(X) - M.Mean) * (std::log(X) - M.Mean);
  M.Spread = std::sqrt(SumSquares / (N - 1));
  return M;
}
} // namespace

Interval dlopt::geometricMeanBounds(const std::vector<double> &V,
                                    double Alpha) {
  size_t N = V.size();
  if (N < 2)
    return {0, std::numeric_limits<double>::infinity()};
  LogMoments M = logMoments(V);
  double Error = M.Spread / std::sqrt(double(N)) *
                 studentQuantile(1 - Alpha, unsigned(N - 1));
  return {std::exp(M.Mean - Error), std::exp(M.Mean + Error)};
}

Interval dlopt::ratioBounds(const std::vector<double> &Ratios, double Alpha) {
  Interval T = geometricMeanBounds(Ratios, Alpha / 2);
  std::vector<double> Negated;
  for (double R : Ratios)
    Negated.push_back(-R);
  return {std::max(T.Low, -medianUpperBound(Negated, Alpha / 2)),
          std::min(T.High, medianUpperBound(Ratios, Alpha / 2))};
}

bool dlopt::gainOutOfReach(const std::vector<double> &Ratios, unsigned Rounds,
                           double Alpha) {
  size_t N = Ratios.size();
  if (N < 2 || Rounds < 2)
    return false;
  LogMoments M = logMoments(Ratios);
  // The mean taken a standard error to the fast side: a plan is given up
  // only if even a somewhat luckier course would not show its gain.
  double Hopeful = M.Mean - M.Spread / std::sqrt(double(N));
  return Hopeful + M.Spread / std::sqrt(double(Rounds)) *
                       studentQuantile(1 - Alpha / 2, Rounds - 1) >=
         0;
}

double dlopt::lookLevel(double Alpha, unsigned Look) {
  return Alpha / (double(Look) * (Look + 1));
}

std::vector<double> dlopt::pairedRatios(const std::vector<double> &A,
                                        const std::vector<double> &B) {
  std::vector<double> Out;
  for (size_t I = 0; I < std::min(A.size(), B.size()); ++I)
    Out.push_back(A[I] / B[I]);
  return Out;
}
