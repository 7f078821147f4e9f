//===- Tuner.cpp - dl-refactor --tune: measure plans, keep a winner -------===//
#include "tuner/Tuner.h"
#include "analysis/PlanPrinter.h"
#include "rewriter/ProjectPaths.h"
#include "tuner/OutputMatch.h"
#include "tuner/TuneCandidates.h"
#include "tuner/TuneStatistics.h"
#include "tuner/Workspace.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <random>

using namespace dlopt;

namespace {

/// Rounds before a plan can win or stop racing on the statistics, and at
/// most. Below 5 rounds only Student's t can tell (ratioBounds()).
constexpr unsigned MinRounds = 3;
constexpr unsigned MaxRounds = 25;
/// Rounds after which a plan slower than the original in every one of them
/// stops racing.
constexpr unsigned EarlyRounds = 3;
/// A plan whose first run took this much longer than the original's does
/// not race: the noise of one run here is a few percent, so a plan with a
/// real gain would need an unlucky run twice that to be screened out. On a
/// noisier machine the limit widens (screenLimit()).
constexpr double ScreenRatio = 1.10;
/// The plans with the fastest first runs that race. Each racing plan costs
/// a run per round; plans within a few percent of each other on their
/// first run are near ties whichever wins.
constexpr unsigned RaceWidth = 3;
/// A plan that even at the fast end of its interval gains less than this
/// stops racing: more rounds could only show a gain too small to be worth
/// a new layout. About twice the standard deviation of one run's noise on
/// a quiet machine: at 1 % a plan that ties with the original raced to
/// round 20 and more (nbody-cpp), a third of the tuning's time.
constexpr double MinGain = 0.02;
/// Rounds after which a plan whose gain the last round could not show at
/// the spread seen so far stops racing (gainOutOfReach()): fewer values
/// tell too little of the spread.
constexpr unsigned FutileRounds = 6;
/// Plans within this of the leader are near ties (see narrow()): the
/// tuner aims at 95 % of the best plan's speed, and racing a plan that can
/// beat the leader by less would cost most of the tuning's rounds.
constexpr double TieMargin = 0.05;
/// The one-sided level at which a plan is found a near tie of the leader.
/// Laxer than the 97.5 % of the other tests: dropping a plan that is in
/// truth a little faster than the leader costs about TieMargin, while each
/// round spent on near ties costs a run of each (xslookup's three plans
/// within 5 % of each other raced to round 6, a third of its tuning).
constexpr double TieLevel = 0.10;

using Clock = std::chrono::steady_clock;

/// The file's text, "" if it cannot be read.
std::string readText(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : "";
}

/// The last non-empty line of a command's stderr, for a reason.
std::string lastLine(const std::string &Path) {
  std::string Text = readText(Path); // The lines point into it.
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  llvm::StringRef(Text).split(Lines, '\n', -1, false);
  return Lines.empty() ? "" : ": " + Lines.back().trim().str();
}

/// Why \p Run did not succeed, "" if it exited 0: \p What ("the build",
/// "the run") failed, with the last line of its stderr (\p Stderr), timed
/// out or was interrupted.
std::string failure(const CommandRun &Run, llvm::StringRef What,
                    const std::string &Stderr) {
  if (Run.Interrupted)
    return "interrupted";
  if (Run.TimedOut)
    return llvm::formatv("timed out after {0:f1} s", Run.Seconds).str();
  if (Run.ExitCode != 0)
    return (What + " failed (exit " + llvm::Twine(Run.ExitCode) + ")").str() +
           lastLine(Stderr);
  return "";
}

Clock::duration seconds(double S) {
  return std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(S));
}

class TuneSession {
public:
  TuneSession(const clang::tooling::CompilationDatabase &DB,
              const std::vector<std::string> &Files, const ProgramOptions &Opts,
              const TuneOptions &Tune, const std::string &Scratch)
      : DB(DB), Files(Files), Opts(Opts), Tune(Tune), Scratch(Scratch),
        Deadline(Clock::now() + seconds(Tune.Budget)) {}

  TuneResult run();

private:
  std::string dirOf(unsigned P) const {
    return Scratch + "/p" + std::to_string(P);
  }
  std::string outOf(unsigned P, llvm::StringRef Stream) const {
    return (Scratch + "/p" + llvm::Twine(P) + "." + Stream).str();
  }
  bool pastDeadline() const { return Clock::now() >= Deadline; }
  /// A plan ten times slower than the original is not worth waiting for.
  double runTimeout() const { return 10 * SlowestOriginal + 1; }
  void progress(const llvm::Twine &Line) const {
    if (Tune.Progress)
      llvm::errs() << "dl-refactor: tune: " << Line << "\n";
  }
  TuneResult finish(TuneResult::Status S, std::string Message = "");

  bool renderPlans(const LayoutPlan &Plan);
  bool prepareOriginal();
  bool tryPlans(std::mt19937 &Order);
  bool dropUnbuilt(unsigned P, bool Built, const std::string &Why);
  bool firstRound(std::vector<unsigned> Runs, std::mt19937 &Order);
  void screen();
  double screenLimit() const;
  /// The plans (not the original) that built, ran and are still measured.
  std::vector<unsigned> measuredPlans() const {
    std::vector<unsigned> Out;
    for (unsigned P = 1; P < Result.Plans.size(); ++P)
      if (Result.Plans[P].S == TunedPlan::Measured)
        Out.push_back(P);
    return Out;
  }
  bool buildCopy(unsigned P, std::string &Why);
  bool runChecked(unsigned P, std::optional<double> Timeout, double &Seconds,
                  std::string &Why);
  void race(std::mt19937 &Order);
  bool runRound(std::vector<unsigned> &Racing, std::mt19937 &Order);
  void narrow(std::vector<unsigned> &Racing, bool &Decided);
  bool winsOverOriginal(unsigned P) const;

  const clang::tooling::CompilationDatabase &DB;
  const std::vector<std::string> &Files;
  const ProgramOptions &Opts;
  const TuneOptions &Tune;
  std::string Scratch;
  Clock::time_point Start = Clock::now(), Deadline;
  TuneResult Result;
  std::map<std::string, uint64_t> OriginalOutputs;
  std::string Reference;
  double SlowestOriginal = 0;
  /// The index of the automatic plan in Result.Plans, 0 if none.
  unsigned AutomaticPlan = 0;
  /// How many plans entered the race.
  unsigned RacedPlans = 0;
};

} // namespace

TuneResult TuneSession::finish(TuneResult::Status S, std::string Message) {
  Result.S = interrupted() ? TuneResult::Interrupted : S;
  Result.Message = std::move(Message);
  Result.Seconds = std::chrono::duration<double>(Clock::now() - Start).count();
  Result.Budget = Tune.Budget;
  return std::move(Result);
}

/// Copies the project for plan \p P, writes its rewrite there and builds
/// it; false with the reason on a failure.
bool TuneSession::buildCopy(unsigned P, std::string &Why) {
  std::string Dir = dirOf(P);
  if (llvm::Error E = copyProject(Opts.Root, Dir)) {
    Why = llvm::toString(std::move(E));
    return false;
  }
  for (const EditSet &F : Result.Plans[P].Files)
    if (llvm::Error E =
            writeOutputFile(Dir + "/" + relativePath(F.path(), Opts.Root),
                            [&](llvm::raw_ostream &OS) { OS << F.apply(); })) {
      Why = llvm::toString(std::move(E));
      return false;
    }
  TreeState Before = treeState(Dir);
  CommandRun Build =
      runCommand(Tune.Build, Dir, outOf(P, "build.out"), outOf(P, "build.err"));
  Why = failure(Build, "the build", outOf(P, "build.err"));
  if (!Why.empty())
    return false;
  std::map<std::string, uint64_t> Outputs = changedFiles(Dir, Before);
  if (P == 0) {
    OriginalOutputs = std::move(Outputs);
    if (OriginalOutputs.empty()) {
      Why = "the build wrote no file under {dir}: it must build the copy it "
            "is given, e.g. --build='make -C {dir}'";
      return false;
    }
  } else if (Outputs == OriginalOutputs) {
    Why = "the build's outputs are the original's: the build did not see "
          "the rewrite";
    return false;
  }
  return true;
}

/// Runs plan \p P once: false with the reason unless it exits 0 and prints
/// the original's output.
bool TuneSession::runChecked(unsigned P, std::optional<double> Timeout,
                             double &Seconds, std::string &Why) {
  CommandRun Run = runCommand(Tune.Run, dirOf(P), outOf(P, "run.out"),
                              outOf(P, "run.err"), Timeout);
  Seconds = Run.Seconds;
  Why = failure(Run, "the run", outOf(P, "run.err"));
  if (Why.empty())
    if (std::string D = outputDifference(
            Reference, readText(outOf(P, "run.out")), Tune.Tolerance);
        !D.empty())
      Why = "the output differs, " + D;
  return Why.empty();
}

/// Builds the original and runs it once: its output is the reference.
bool TuneSession::prepareOriginal() {
  progress("building and running the original");
  std::string Why;
  if (!buildCopy(0, Why)) {
    Result.Message = "the original: " + Why;
    return false;
  }
  CommandRun Run =
      runCommand(Tune.Run, dirOf(0), outOf(0, "run.out"), outOf(0, "run.err"));
  Why = failure(Run, "the original's run", outOf(0, "run.err"));
  if (!Why.empty()) {
    Result.Message = Why;
    return false;
  }
  SlowestOriginal = Result.Plans[0].FirstRun = Run.Seconds;
  Reference = readText(outOf(0, "run.out"));
  return true;
}

/// Builds every plan, --jobs at a time (builds are not timed, and each
/// has a copy of its own), then runs the first round; false if the
/// original fails in it.
bool TuneSession::tryPlans(std::mt19937 &Order) {
  unsigned N = Result.Plans.size();
  std::vector<std::string> Why(N);
  std::vector<char> Built(N, 0);
  auto Build = [&](unsigned P) {
    if (!interrupted() && !pastDeadline() && !Result.Plans[P].Files.empty())
      Built[P] = buildCopy(P, Why[P]);
  };
  progress("building the plans");
  if (Opts.Jobs <= 1) {
    for (unsigned P = 1; P < N; ++P)
      Build(P);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Opts.Jobs));
    for (unsigned P = 1; P < N; ++P)
      Pool.async([&Build, P] { Build(P); });
    Pool.wait();
  }
  std::vector<unsigned> Runs{0};
  for (unsigned P = 1; P < N; ++P)
    if (dropUnbuilt(P, Built[P], Why[P]))
      Runs.push_back(P);
  return firstRound(Runs, Order);
}

/// Whether plan \p P was built and is to run; else it says why not (\p Why
/// the build failed).
bool TuneSession::dropUnbuilt(unsigned P, bool Built, const std::string &Why) {
  TunedPlan &Plan = Result.Plans[P];
  if (Built)
    return true;
  if (Why.empty() && !Plan.Files.empty()) {
    Plan.Reason = "the time budget ran out first";
    return false;
  }
  Plan.S = TunedPlan::Dropped;
  if (Plan.Files.empty())
    Plan.Reason =
        Plan.Reason.empty() ? "the same program as the original" : Plan.Reason;
  else
    Plan.Reason = Why;
  return false;
}

/// The first round: the original's second run and each plan's first run,
/// shuffled, each plan's time paired with the original's as in the race's
/// rounds. It screens the plans (screen()), and the racing ones carry it on
/// as their first round, so that a plan's screening run is not a run the
/// race throws away. A plan that fails here is dropped with the reason.
bool TuneSession::firstRound(std::vector<unsigned> Runs, std::mt19937 &Order) {
  std::shuffle(Runs.begin(), Runs.end(), Order);
  progress(llvm::formatv("round 1: the original and {0} plans, each run for "
                         "the first time",
                         Runs.size() - 1));
  std::map<unsigned, double> Times;
  for (unsigned P : Runs) {
    if (interrupted() || (P != 0 && pastDeadline()))
      continue;
    TunedPlan &Plan = Result.Plans[P];
    progress(P == 0 ? "running the original again" : "trying " + Plan.Name);
    double Seconds = 0;
    std::string Why;
    if (!runChecked(P, P == 0 ? std::nullopt : std::optional(runTimeout()),
                    Seconds, Why)) {
      if (P == 0) {
        Result.Message = "the original, run a second time: " + Why +
                         " (an output that changes from run to run needs "
                         "--tune-tolerance, or a run command that prints "
                         "only what must not change)";
        return false;
      }
      Plan.S = TunedPlan::Dropped;
      Plan.Reason = Why;
      progress("  dropped: " + Why);
      continue;
    }
    Times[P] = Seconds;
  }
  for (unsigned P : Runs)
    if (P != 0 && !Times.count(P) && Result.Plans[P].S == TunedPlan::NotTried)
      Result.Plans[P].Reason = "the time budget ran out first";
  if (!Times.count(0))
    return true; // Interrupted.
  TunedPlan &Original = Result.Plans[0];
  SlowestOriginal = std::max(SlowestOriginal, Times[0]);
  Original.FirstRun = std::min(Original.FirstRun, Times[0]);
  Original.S = TunedPlan::Measured;
  for (auto [P, Seconds] : Times) {
    Result.Plans[P].Seconds.push_back(Seconds);
    if (P != 0) {
      Result.Plans[P].S = TunedPlan::Measured;
      Result.Plans[P].FirstRun = Seconds;
      Result.Plans[P].Ratios.push_back(Seconds / Times[0]);
    }
  }
  Result.Rounds = 1;
  return true;
}

/// How much longer than the original's a plan's first run may take and the
/// plan still race: ScreenRatio, or where the original's two runs lay
/// further apart than 5 %, twice their distance (a busy machine, where one
/// run says less: cluster-cpp's automatic plan, 1.05x the original on a
/// quiet day, was screened out at 1.25x on a day of single runs up to 25 %
/// apart).
double TuneSession::screenLimit() const {
  double Fast = Result.Plans[0].FirstRun;
  double Apart = Fast > 0 ? SlowestOriginal / Fast - 1 : 0;
  return std::max(ScreenRatio, 1 + 2 * Apart);
}

/// Keeps in the race only the RaceWidth plans with the fastest first runs,
/// and of those only the ones not clearly slower than the original or than
/// the fastest plan (the automatic plan races unless slower than the
/// original, to be shown beside the others): a
/// paired round costs a run of every racing plan, and most candidates are
/// neighbours of the automatic plan that lose.
void TuneSession::screen() {
  std::vector<unsigned> Ran = measuredPlans();
  auto RatioOf = [&](unsigned P) { return Result.Plans[P].Ratios.front(); };
  double Limit = screenLimit();
  // The automatic plan races unless clearly slow: it is what the user gets
  // without --tune, and the others are measured against it in the table.
  llvm::stable_sort(Ran, [&](unsigned A, unsigned B) {
    bool AutoA = A == AutomaticPlan && RatioOf(A) <= Limit;
    bool AutoB = B == AutomaticPlan && RatioOf(B) <= Limit;
    if (AutoA != AutoB)
      return AutoA;
    return RatioOf(A) < RatioOf(B);
  });
  // The fastest first run: a plan that took more than Limit times as long
  // would need two runs off by that much to be faster in truth, and the
  // tuner aims at the fastest plan's speed (with fast-math, xslookup's
  // plans at 1.16x and 1.27x of its automatic plan's first run raced three
  // rounds, each with a run of the original, which is 2.7x as slow).
  double Fastest = 0;
  for (unsigned P : Ran)
    if (Fastest == 0 || RatioOf(P) < Fastest)
      Fastest = RatioOf(P);
  for (unsigned I = 0; I < Ran.size(); ++I) {
    TunedPlan &Plan = Result.Plans[Ran[I]];
    double Ratio = RatioOf(Ran[I]);
    if (Ratio > Limit)
      Plan.Reason = llvm::formatv("its first run took {0:f2}x the "
                                  "original's (more than {1:f2}x)",
                                  Ratio, Limit);
    else if (Ran[I] != AutomaticPlan && Ratio > Fastest * Limit)
      Plan.Reason = llvm::formatv("its first run took {0:f2}x the fastest "
                                  "plan's (more than {1:f2}x)",
                                  Ratio / Fastest, Limit);
    else if (I >= RaceWidth)
      Plan.Reason = llvm::formatv("{0} plans ran faster on their first run "
                                  "({1:f2}x the original's)",
                                  RaceWidth, Ratio);
    else
      continue;
    Plan.S = TunedPlan::Screened;
    // One run is no figure to show beside the raced plans' medians.
    Plan.Seconds.clear();
    Plan.Ratios.clear();
  }
}

/// One round: the original and every plan still racing, shuffled. False
/// if interrupted.
bool TuneSession::runRound(std::vector<unsigned> &Racing, std::mt19937 &Order) {
  std::vector<unsigned> Runs = Racing;
  Runs.push_back(0);
  std::shuffle(Runs.begin(), Runs.end(), Order);
  std::map<unsigned, double> Times;
  for (unsigned P : Runs) {
    double Seconds = 0;
    std::string Why;
    if (!runChecked(P, runTimeout(), Seconds, Why)) {
      if (interrupted())
        return false;
      if (P == 0) { // Leave the race undecided.
        Racing.clear();
        return true;
      }
      Result.Plans[P].S = TunedPlan::Dropped;
      Result.Plans[P].Reason =
          "in round " + std::to_string(Result.Rounds + 1) + ": " + Why;
      continue;
    }
    Times[P] = Seconds;
  }
  if (!Times.count(0))
    return true; // Nothing to pair this round's times with.
  for (auto [P, Seconds] : Times) {
    Result.Plans[P].Seconds.push_back(Seconds);
    if (P != 0)
      Result.Plans[P].Ratios.push_back(Seconds / Times[0]);
  }
  llvm::erase_if(Racing, [&](unsigned P) {
    return Result.Plans[P].S != TunedPlan::Measured;
  });
  ++Result.Rounds;
  return true;
}

/// Stops racing the plans that are clearly slower than the original or
/// than the best plan, or near ties of it; Decided once the best is
/// clearly faster than the original and races alone.
void TuneSession::narrow(std::vector<unsigned> &Racing, bool &Decided) {
  auto Best = std::min_element(
      Racing.begin(), Racing.end(), [&](unsigned A, unsigned B) {
        return median(Result.Plans[A].Ratios) < median(Result.Plans[B].Ratios);
      });
  if (Best == Racing.end())
    return;
  unsigned Leader = *Best;
  bool LeaderWins = winsOverOriginal(Leader);
  auto NoGain = [&](unsigned P) {
    return showsNoGain(Result.Plans[P].Ratios, RacedPlans);
  };
  // A plan clearly slower than the leader stops; and while the leader races
  // on, a plan that even at the fast end of its interval (at TieLevel)
  // would beat the leader by less than TieMargin is a near tie: racing it to
  // the end would cost a run per round (half of each round with one other plan:
  // cluster-cpp's ten plans within 2 % of each other) for at most that. Once
  // the leader has beaten the original, a plan whose median shows no gain
  // over the leader stops, as one whose median shows none over the original
  // does: xslookup's three plans, 5-10 % apart in 10 % of noise, raced to
  // round 9 to be told apart.
  bool LeaderStays = !NoGain(Leader);
  llvm::erase_if(Racing, [&](unsigned P) {
    if (NoGain(P))
      return true;
    if (P == Leader)
      return false;
    // Its time over the leader's, round by round (both ran in every round),
    // so that the original's noise, which a comparison of their two ratios
    // to it would add twice, cancels.
    std::vector<double> VsLeader =
        pairedRatios(Result.Plans[P].Ratios, Result.Plans[Leader].Ratios);
    if (LeaderWins && median(VsLeader) >= 1)
      return true;
    return ratioBounds(VsLeader, 0.025).Low > 1 ||
           (LeaderStays && ratioBounds(VsLeader, TieLevel).Low > 1 - TieMargin);
  });
  Decided = LeaderWins && Racing.size() <= 1;
}

/// The level of the test against the original after \p Rounds rounds,
/// \p RacedPlans having raced.
static double levelAfter(unsigned Rounds, unsigned RacedPlans) {
  return lookLevel(0.05 / std::max(1u, RacedPlans), Rounds - MinRounds + 1);
}

bool dlopt::beatsOriginal(const std::vector<double> &Ratios,
                          unsigned RacedPlans) {
  if (Ratios.size() < MinRounds)
    return false;
  return ratioBounds(Ratios, levelAfter(Ratios.size(), RacedPlans)).High < 1;
}

bool TuneSession::winsOverOriginal(unsigned P) const {
  return beatsOriginal(Result.Plans[P].Ratios, RacedPlans);
}

bool dlopt::showsNoGain(const std::vector<double> &Ratios,
                        unsigned RacedPlans) {
  // One whose real gain is the noise's standard deviation shows none after
  // 3 rounds one time in 15. The bounds are one-sided at 97.5 %: a
  // two-sided 95 % interval's ends.
  return ratioBounds(Ratios, 0.025).Low > 1 - MinGain || median(Ratios) >= 1 ||
         (Ratios.size() >= FutileRounds &&
          gainOutOfReach(Ratios, MaxRounds, levelAfter(MaxRounds, RacedPlans)));
}

void TuneSession::race(std::mt19937 &Order) {
  std::vector<unsigned> Racing = measuredPlans();
  RacedPlans = Racing.size();
  bool Decided = false;
  while (!Racing.empty() && !Decided && Result.Rounds < MaxRounds) {
    // The next round would end past the budget: stop before it.
    double Expected = median(Result.Plans[0].Seconds);
    for (unsigned P : Racing)
      Expected += median(Result.Plans[P].Seconds);
    if (Clock::now() + seconds(Expected) > Deadline)
      break;
    progress(llvm::formatv("round {0}: the original and {1} plans",
                           Result.Rounds + 1, Racing.size()));
    if (!runRound(Racing, Order))
      return;
    // Slower than the original in each of the first rounds: a plan with
    // no gain does that one time in eight, one with a real gain rarely.
    if (Result.Rounds == EarlyRounds)
      llvm::erase_if(Racing, [&](unsigned P) {
        return llvm::all_of(Result.Plans[P].Ratios,
                            [](double R) { return R > 1; });
      });
    if (Result.Rounds >= MinRounds)
      narrow(Racing, Decided);
  }
}

int dlopt::chooseWinner(const std::vector<TunedPlan> &Plans,
                        unsigned RacedPlans) {
  int Best = -1;
  for (unsigned P = 1; P < Plans.size(); ++P) {
    const TunedPlan &Plan = Plans[P];
    if (Plan.S == TunedPlan::Measured &&
        beatsOriginal(Plan.Ratios, RacedPlans) &&
        (Best < 0 || median(Plan.Ratios) < median(Plans[Best].Ratios)))
      Best = P;
  }
  return Best;
}

/// The --layout options of the automatic plan of \p Plan's records.
static std::string automaticOptions(const LayoutPlan &Plan) {
  std::string Options;
  for (const RecordPlan &R : Plan.Records)
    if (R.transformable() && !R.Clusters.empty()) {
      std::vector<Layout> Layouts;
      for (const ClusterPlan &C : R.Clusters)
        Layouts.push_back(C.Chosen);
      Options += (Options.empty() ? "" : " ") + layoutOption(R, Layouts);
    }
  return Options;
}

/// The original, then each candidate with its rewrite (or why it has
/// none), rendered --jobs at a time; false if interrupted.
bool TuneSession::renderPlans(const LayoutPlan &Plan) {
  std::vector<TuneCandidate> Candidates =
      tuneCandidates(Plan, Tune.MaxCandidates);
  std::vector<ProgramOutcome> Outcomes(Candidates.size());
  auto Render = [&](unsigned I) {
    if (interrupted())
      return;
    ProgramOptions Forced = Opts;
    Forced.Forced = Candidates[I].Overrides;
    Forced.Progress = false;
    Forced.Jobs = 1; // The plans are the parallel work.
    Outcomes[I] = refactorProgram(DB, Files, Forced);
  };
  if (Opts.Jobs <= 1) {
    for (unsigned I = 0; I < Candidates.size(); ++I)
      Render(I);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Opts.Jobs));
    for (unsigned I = 0; I < Candidates.size(); ++I)
      Pool.async([&Render, I] { Render(I); });
    Pool.wait();
  }
  if (interrupted())
    return false;
  Result.Plans.push_back({"original", "", TunedPlan::NotTried, "", {}, {}, {}});
  for (unsigned I = 0; I < Candidates.size(); ++I) {
    ProgramOutcome &O = Outcomes[I];
    TunedPlan P{Candidates[I].Name, "", TunedPlan::NotTried, "", {}, {}, {}};
    if (O.S == ProgramOutcome::Success)
      P.Files = std::move(O.Files);
    else
      P.Reason = O.Errors.empty() ? "the rewrite failed"
                                  : "the rewrite failed: " + O.Errors[0];
    if (Candidates[I].Overrides.empty()) {
      P.Detail = automaticOptions(O.Plan);
      AutomaticPlan = Result.Plans.size();
    }
    Result.Plans.push_back(std::move(P));
  }
  return true;
}

TuneResult TuneSession::run() {
  ProgramOutcome Analysis = analyzeProgram(DB, Files, Opts);
  if (Analysis.S == ProgramOutcome::CompileError)
    return finish(TuneResult::OriginalFails, "a file does not compile");
  if (!renderPlans(Analysis.Plan))
    return finish(TuneResult::Interrupted);
  if (llvm::none_of(Result.Plans,
                    [](const TunedPlan &P) { return !P.Files.empty(); }))
    return finish(TuneResult::NoneFaster,
                  "no plan changes the program: nothing to measure");
  if (!prepareOriginal())
    return finish(TuneResult::OriginalFails, Result.Message);
  std::mt19937 Order(1); // The same shuffles each time: a tuning is repeatable.
  if (!tryPlans(Order))
    return finish(TuneResult::OriginalFails, Result.Message);
  if (interrupted())
    return finish(TuneResult::Interrupted);
  screen();
  race(Order);
  if (interrupted())
    return finish(TuneResult::Interrupted);
  Result.ChosenPlan = chooseWinner(Result.Plans, RacedPlans);
  return finish(Result.ChosenPlan < 0 ? TuneResult::NoneFaster
                                      : TuneResult::Chosen);
}

TuneResult dlopt::tuneProgram(const clang::tooling::CompilationDatabase &DB,
                              const std::vector<std::string> &Files,
                              const ProgramOptions &Opts,
                              const TuneOptions &Tune) {
  catchInterrupts();
  llvm::Expected<ScratchDir> Scratch = ScratchDir::create("dlopt-tune");
  if (!Scratch) {
    TuneResult R;
    R.S = TuneResult::CannotStart;
    R.Message = llvm::toString(Scratch.takeError());
    return R;
  }
  return TuneSession(DB, Files, Opts, Tune, Scratch->path()).run();
}
