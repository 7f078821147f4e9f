//===- Tuner.h - dl-refactor --tune: measure plans, keep a winner -*- C++
//-*-===//
//
// The static model guesses; the tuner measures, on the user's own program
// and machine. It builds and runs the original (twice: its output must be
// the same both times) and each candidate plan (TuneCandidates.h) in its own
// copy of the project (Workspace.h), drops the plans that fail to build, do
// not change the build's outputs, exit with an error or print something
// else, screens the rest by their first run (only the few fastest race),
// then times those against the original in interleaved rounds
// (TuneStatistics.h) until the confidence of the medians separates them or
// the time budget runs out. The fastest plan is chosen only if it beats the
// original beyond the measured noise; the caller applies it. The sources
// are never written here.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_TUNER_TUNER_H
#define DLOPT_TUNER_TUNER_H

#include "rewriter/EditSet.h"
#include "rewriter/ProgramRefactor.h"
#include <string>
#include <vector>

namespace dlopt {

struct TuneOptions {
  /// Shell commands; "{dir}" stands for the copy of the project.
  std::string Build, Run;
  /// Seconds for the whole search, builds included.
  double Budget = 600;
  /// Relative tolerance of numbers in the output; 0: byte-identical.
  double Tolerance = 0;
  unsigned MaxCandidates = 12;
  /// Progress lines on stderr.
  bool Progress = true;
};

/// One row of the table: the original or a plan.
struct TunedPlan {
  /// "original", "automatic" or the --layout options of the plan.
  std::string Name;
  /// The automatic plan's --layout options, to show what it is.
  std::string Detail;
  /// Screened: built and gave the original's output, but its first run
  /// was too slow to be worth racing.
  enum State { Measured, Screened, Dropped, NotTried } S = NotTried;
  /// Why it was screened, dropped or not tried.
  std::string Reason;
  /// Seconds of each timing round it ran in.
  std::vector<double> Seconds;
  /// Its time over the original's of the same round.
  std::vector<double> Ratios;
  /// The rewrite (none for the original).
  std::vector<EditSet> Files;
  /// Seconds of its first run, after the build (the screening run); for
  /// the original the faster of its two.
  double FirstRun = 0;
};

struct TuneResult {
  enum Status {
    /// Plans[Chosen] beats the original beyond the noise.
    Chosen,
    /// No plan does; nothing is to be applied.
    NoneFaster,
    /// The original does not compile, build or run, or its output changes
    /// from run to run (Message says which).
    OriginalFails,
    Interrupted,
    /// The scratch copy could not be made (Message).
    CannotStart,
  };
  Status S = NoneFaster;
  std::string Message;
  /// Plans[0] is the original.
  std::vector<TunedPlan> Plans;
  int ChosenPlan = -1;
  unsigned Rounds = 0;
  double Seconds = 0, Budget = 0;
};

/// Whether \p Ratios, a plan's times over the original's round by round,
/// show it faster beyond the noise: their upper bound (ratioBounds()) below
/// 1 at 95 % confidence shared among the \p RacedPlans plans that raced
/// (Bonferroni: with three plans without gain racing, one would otherwise
/// win one time in eleven) and among the rounds it is tested after
/// (lookLevel()). Never before the 3rd round.
bool beatsOriginal(const std::vector<double> &Ratios, unsigned RacedPlans);

/// Whether \p Ratios show no gain worth racing on for: even at the fast end
/// of their interval (97.5 %) a gain below 2 % (MinGain), or a median of 1
/// or more, or from round 6 (FutileRounds) a gain that the last round's
/// test of beatsOriginal() would still not show were the rounds to go on
/// as they went (gainOutOfReach()).
bool showsNoGain(const std::vector<double> &Ratios, unsigned RacedPlans);

/// The plan --tune applies: of \p Plans (Plans[0] the original), the
/// measured one with the lowest median ratio among those that beat the
/// original (beatsOriginal()); -1 if none does. A plan that left the race
/// early, as a near tie of the leader, may show a lower median over its few
/// rounds than the leader over many, yet too few rounds to beat the
/// original: it must not hide the leader that did (sph under fast-math got
/// nothing where its leader ran 0.76 of the original's time in 8 rounds).
int chooseWinner(const std::vector<TunedPlan> &Plans, unsigned RacedPlans);

TuneResult tuneProgram(const clang::tooling::CompilationDatabase &DB,
                       const std::vector<std::string> &Files,
                       const ProgramOptions &Opts, const TuneOptions &Tune);

} // namespace dlopt

#endif
