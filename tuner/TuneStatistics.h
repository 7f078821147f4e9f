//===- TuneStatistics.h - Medians and their confidence ----------*- C++ -*-===//
//
// The tuner decides on paired timings: each round runs the original and
// every plan still in the race, in a shuffled order, and each plan's time is
// divided by the original's of the same round, so that drift of the machine
// cancels. A plan wins only if the whole confidence interval of the median
// of its ratios lies below 1: it beats the original by more than the noise
// the rounds measured.
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

} // namespace dlopt

#endif
