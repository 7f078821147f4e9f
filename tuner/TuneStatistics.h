//===- TuneStatistics.h - Medians and their confidence ----------*- C++ -*-===//
//
// The tuner decides on paired timings: each round runs the original and
// every plan still in the race, in a shuffled order, and each plan's time is
// divided by the original's of the same round, so that drift of the machine
// cancels. A plan wins only if an upper confidence bound of its ratios lies
// below 1, at a level shared among the plans that raced: it beats the
// original by more than the noise the rounds measured. The bounds are the
// median's (distribution-free) or the geometric mean's (Student's t on the
// logarithms, which tells a large gain after fewer rounds). Two plans are
// compared with each other the same way, round by round.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_TUNER_TUNESTATISTICS_H
#define DLOPT_TUNER_TUNESTATISTICS_H

#include <vector>

namespace dlopt {

/// The median of \p V (the mean of the middle two for an even count); 0 for
/// none.
double median(std::vector<double> V);

struct Interval {
  double Low = 0, High = 0;
  bool contains(double X) const { return Low <= X && X <= High; }
};

/// A distribution-free confidence interval of the median of \p V at about
/// 95 %: the order statistics k and n+1-k, k = floor((n - 1.96 sqrt(n)) / 2)
/// (the binomial bound); [min, max] below 6 samples, where that rank is 0
/// (5 samples cover the median with probability 94 %).
Interval medianInterval(std::vector<double> V);

/// A distribution-free upper confidence bound of the median of \p V at
/// level 1 - \p Alpha (one-sided): the smallest order statistic V(j) with
/// P(Binomial(n, 1/2) <= j - 1) >= 1 - Alpha, where the binomial counts
/// the values at or below the median. Infinity when even the largest value
/// is not enough, e.g. 5 values at Alpha = 0.05 / 3: "all five below 1"
/// happens one time in 32 to a plan without gain, too often when three
/// plans race.
double medianUpperBound(std::vector<double> V, double Alpha);

/// Quantile \p P (0 < P < 1) of Student's t distribution with \p Df
/// (at least 1) degrees of freedom.
double studentQuantile(double P, unsigned Df);

/// One-sided confidence bounds, each at level 1 - \p Alpha, of the
/// geometric mean of \p V (Student's t on the logarithms of the values,
/// which are ratios of times): where the median's order statistics need 5
/// or 6 rounds whatever the values, a gain large against the noise shows
/// here after 3. {0, infinity} for fewer than 2 values.
Interval geometricMeanBounds(const std::vector<double> &V, double Alpha);

/// One-sided bounds, each at level 1 - \p Alpha, of the typical ratio of
/// \p Ratios: the tighter of the median's (distribution-free, from 5 or 6
/// values on) and the geometric mean's (Student's t on the logarithms,
/// which a gain large against the noise passes from 3 values on), each
/// taken at Alpha / 2 so that the tighter of the two keeps the level (the
/// union bound). What the tuner decides on.
Interval ratioBounds(const std::vector<double> &Ratios, double Alpha);

/// Whether \p Ratios, went the rounds on as they went so far (the same
/// geometric mean and spread), would still not show a gain at level
/// \p Alpha after \p Rounds rounds: the upper bound of geometricMeanBounds()
/// at Alpha / 2, as ratioBounds() takes it, with Rounds values, is 1 or
/// more. A futility rule: a plan whose gain is small against the noise
/// (cluster-cpp's 1-2 % on a machine with 5 % of noise) would otherwise race
/// to the last round and be applied by none.
bool gainOutOfReach(const std::vector<double> &Ratios, unsigned Rounds,
                    double Alpha);

/// The level of the \p Look-th test (1 for the first) of a sequence that
/// stops at the first success, so that all of them together keep \p Alpha:
/// Alpha / (Look (Look + 1)), which sums to Alpha over any number of looks
/// (half of it for the first). The tuner tests a plan after every round;
/// at a fixed level, a plan without gain raced to round 25 won 8 % of the
/// time instead of 5 % (TunerTest).
double lookLevel(double Alpha, unsigned Look);

/// Round by round, \p A over \p B, for two plans' ratios to the original
/// of the same rounds (round 1 first): each is then one plan's time over
/// the other's in one round, in which the original's own noise cancels.
/// As many as the shorter of the two has.
std::vector<double> pairedRatios(const std::vector<double> &A,
                                 const std::vector<double> &B);

} // namespace dlopt

#endif
