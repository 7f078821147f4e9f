//===- TunerTest.cpp - The tuner's statistics, output check and plans -----===//
#include "tuner/Tuner.h"
#include "tuner/OutputMatch.h"
#include "tuner/TuneCandidates.h"
#include "tuner/TuneStatistics.h"
#include "gtest/gtest.h"
#include <cmath>
#include <random>

using namespace dlopt;

namespace {

TEST(TuneStatisticsTest, Median) {
  EXPECT_EQ(median({}), 0);
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
}

TEST(TuneStatisticsTest, MedianIntervalOrderStatistics) {
  // Below 6 samples: the range.
  Interval Few = medianInterval({1.2, 0.9, 1.0, 1.1, 0.95});
  EXPECT_EQ(Few.Low, 0.9);
  EXPECT_EQ(Few.High, 1.2);
  // 20 samples: k = floor((20 - 1.96 * sqrt(20)) / 2) = 5, ranks 5 and 16.
  std::vector<double> V;
  for (int I = 20; I >= 1; --I)
    V.push_back(I);
  Interval I20 = medianInterval(V);
  EXPECT_EQ(I20.Low, 5);
  EXPECT_EQ(I20.High, 16);
  EXPECT_TRUE(I20.contains(median(V)));
}

TEST(TuneStatisticsTest, PairedRatiosCancelTheOriginalsNoise) {
  // Two plans 5 % apart; the original's time swings by 20 % from round to
  // round, so their ratios to it overlap, but round by round one is
  // always 1.05x the other.
  std::vector<double> Original{1.0, 1.2, 0.9, 1.1, 1.0, 0.95};
  std::vector<double> Leader, Other;
  for (double O : Original) {
    Leader.push_back(0.5 / O);
    Other.push_back(0.525 / O);
  }
  Interval Apart = medianInterval(Other);
  EXPECT_LT(Apart.Low, median(Leader)); // No telling them apart this way.
  std::vector<double> Paired = pairedRatios(Other, Leader);
  ASSERT_EQ(Paired.size(), 6u);
  for (double R : Paired)
    EXPECT_NEAR(R, 1.05, 1e-12);
  // As many as the shorter has.
  EXPECT_EQ(pairedRatios(Other, {1.0, 2.0}).size(), 2u);
}

TEST(TuneStatisticsTest, MedianUpperBoundIsExactBinomial) {
  std::vector<double> Five{0.9, 0.8, 0.95, 0.85, 0.7};
  // 5 values: the largest bounds the median at 1 - 1/32 = 96.9 %.
  EXPECT_EQ(medianUpperBound(Five, 0.05), 0.95);
  // Shared among three plans (98.3 %), five are not enough; six are.
  EXPECT_TRUE(std::isinf(medianUpperBound(Five, 0.05 / 3)));
  Five.push_back(0.75);
  EXPECT_EQ(medianUpperBound(Five, 0.05 / 3), 0.95);
  // 20 values 1..20: P(B(20, 1/2) <= 13) = 0.942, <= 14: 0.979, so rank 15.
  std::vector<double> V;
  for (int I = 1; I <= 20; ++I)
    V.push_back(I);
  EXPECT_EQ(medianUpperBound(V, 0.05), 15);
  EXPECT_TRUE(std::isinf(medianUpperBound({}, 0.05)));
}

TEST(TuneStatisticsTest, StudentQuantilesAsInTables) {
  EXPECT_NEAR(studentQuantile(0.975, 1), 12.706, 2e-3);
  EXPECT_NEAR(studentQuantile(0.975, 2), 4.303, 1e-3);
  EXPECT_NEAR(studentQuantile(0.95, 4), 2.132, 1e-3);
  EXPECT_NEAR(studentQuantile(0.995, 10), 3.169, 1e-3);
  EXPECT_NEAR(studentQuantile(0.025, 2), -4.303, 1e-3);
  EXPECT_EQ(studentQuantile(0.5, 3), 0);
}

TEST(TuneStatisticsTest, GeometricMeanBoundsSeeALargeGainEarly) {
  // Three rounds 20 % faster, 1 % apart: the median's bounds cannot tell
  // (one time in 8 for three values below 1 by chance), Student's t can.
  std::vector<double> Three{0.80, 0.81, 0.79};
  double Alpha = 0.05 / 3 / 2;
  EXPECT_TRUE(std::isinf(medianUpperBound(Three, Alpha)));
  Interval T = geometricMeanBounds(Three, Alpha);
  EXPECT_LT(T.High, 0.9);
  EXPECT_GT(T.Low, 0.7);
  // A 1 % gain in the same noise is not told apart from none.
  EXPECT_GT(geometricMeanBounds({0.99, 1.0, 0.98}, Alpha).High, 1);
  // Geometric: 0.5 and 2 average to 1.
  Interval Sym = geometricMeanBounds({0.5, 2.0}, 0.25);
  EXPECT_NEAR(Sym.Low * Sym.High, 1, 1e-9);
  EXPECT_TRUE(std::isinf(geometricMeanBounds({0.5}, 0.05).High));
}

/// A round's ratio of a plan with \p Gain to the original:
/// exp(log(1 - Gain) + noise), the noise normal with standard deviation
/// Sigma, and with Outliers a 3-sigma slow or fast one one round in five,
/// as this shared machine gives.
class NoisyRatios {
public:
  NoisyRatios(unsigned Seed, double Sigma, bool Outliers)
      : Random(Seed), Noise(0, Sigma), Sigma(Sigma), Outliers(Outliers) {}
  double operator()(double Gain = 0) {
    double X = std::log(1 - Gain) + Noise(Random);
    if (Outliers && Five(Random) == 0)
      X += (Five(Random) % 2 ? 3 : -3) * Sigma;
    return std::exp(X);
  }

private:
  std::mt19937 Random;
  std::normal_distribution<double> Noise;
  std::uniform_int_distribution<int> Five{0, 4};
  double Sigma;
  bool Outliers;
};

/// How often a plan racing alone against the original wins, raced as the
/// tuner races (tuner/Tuner.cpp, its round limit repeated here): a round at
/// a time to round 25, stopping when it wins (beatsOriginal()) or shows no
/// gain worth racing for (showsNoGain()). \p MeanRounds, if given, is set
/// to the rounds a race took on average.
double winRate(double Gain, double Sigma, bool Outliers, unsigned Races,
               double *MeanRounds = nullptr) {
  NoisyRatios Ratio(7, Sigma, Outliers);
  unsigned Wins = 0, Rounds = 0;
  for (unsigned Race = 0; Race < Races; ++Race) {
    std::vector<double> Ratios;
    for (unsigned Round = 1; Round <= 25; ++Round) {
      Ratios.push_back(Ratio(Gain));
      ++Rounds;
      if (Round < 3)
        continue;
      if (beatsOriginal(Ratios, 1)) {
        ++Wins;
        break;
      }
      if (showsNoGain(Ratios, 1))
        break;
    }
  }
  if (MeanRounds)
    *MeanRounds = double(Rounds) / Races;
  return double(Wins) / Races;
}

/// How often one of the plans without gain that the first round screens in
/// wins: \p Candidates plans run once, the RaceWidth (3) fastest within
/// 1.10x race on carrying that first round, each tested as winRate() does
/// at the level shared among them (Bonferroni), until one wins or none is
/// left. The screen picks plans whose first ratio was lucky, so this is
/// where carrying the first round on could bias the race.
double screenedWinRate(unsigned Candidates, double Sigma, bool Outliers,
                       unsigned Races) {
  NoisyRatios Ratio(11, Sigma, Outliers);
  unsigned Wins = 0;
  for (unsigned Race = 0; Race < Races; ++Race) {
    std::vector<double> First;
    for (unsigned C = 0; C < Candidates; ++C)
      First.push_back(Ratio());
    llvm::sort(First);
    std::vector<std::vector<double>> Racing;
    for (unsigned C = 0; C < std::min(3u, Candidates) && First[C] <= 1.10; ++C)
      Racing.push_back({First[C]});
    unsigned Raced = Racing.size();
    bool Won = false;
    for (unsigned Round = 2; Round <= 25 && !Won && !Racing.empty(); ++Round) {
      for (std::vector<double> &R : Racing)
        R.push_back(Ratio());
      if (Round < 3)
        continue;
      for (const std::vector<double> &R : Racing)
        Won |= beatsOriginal(R, Raced);
      llvm::erase_if(Racing, [&](const std::vector<double> &R) {
        return showsNoGain(R, Raced);
      });
    }
    Wins += Won;
  }
  return double(Wins) / Races;
}

TEST(TuneStatisticsTest, ScreenedFirstRoundKeepsTheRaceHonest) {
  // Eleven candidates without gain (the most --tune's twelve plans leave
  // beside the automatic one): one of the three luckiest wins 4.0 % of
  // the time (2.5 % with outliers), one alone 1.8 %; within the 5 % the
  // race promises.
  for (unsigned N : {1u, 3u, 6u, 11u})
    for (bool Outliers : {false, true})
      EXPECT_LT(screenedWinRate(N, 0.02, Outliers, 4000), 0.05)
          << N << " candidates" << (Outliers ? " with outliers" : "");
}

TEST(TuneStatisticsTest, GainOutOfReach) {
  // 2 % slower or 1 % faster, 5 % apart: 25 rounds would not show a gain.
  EXPECT_TRUE(gainOutOfReach({1.02, 1.07, 0.97, 1.03, 0.99, 1.04}, 25, 1e-4));
  EXPECT_TRUE(gainOutOfReach({0.99, 1.04, 0.94, 1.0, 0.96, 1.01}, 25, 1e-4));
  // 10 % faster in the same noise: they would.
  EXPECT_FALSE(gainOutOfReach({0.9, 0.95, 0.85, 0.91, 0.87, 0.92}, 25, 1e-4));
  EXPECT_FALSE(gainOutOfReach({0.9}, 25, 1e-4));
}

TEST(TuneStatisticsTest, ChooseWinnerTakesALeaderThatBeatTheOriginal) {
  // sph under fast-math, on a noisy day: the leader raced 8 rounds and beat
  // the original; the automatic plan left the race after 3 as a near tie,
  // with a lower median over those 3 that beats nothing yet.
  auto Plan = [](std::vector<double> Ratios) {
    TunedPlan P;
    P.S = TunedPlan::Measured;
    P.Ratios = std::move(Ratios);
    return P;
  };
  std::vector<TunedPlan> Plans{
      Plan({}), Plan({0.749, 0.752, 0.838}),
      Plan({0.745, 0.717, 0.804, 0.625, 0.768, 0.896, 0.831, 0.756}),
      Plan({0.778, 0.758, 0.793})};
  EXPECT_FALSE(beatsOriginal(Plans[1].Ratios, 3));
  EXPECT_TRUE(beatsOriginal(Plans[2].Ratios, 3));
  EXPECT_EQ(chooseWinner(Plans, 3), 2);
  // Of two that beat it, the lower median; a plan not measured (dropped,
  // not raced) is never chosen.
  Plans.push_back(Plan({0.70, 0.71, 0.69, 0.70, 0.72, 0.70}));
  EXPECT_EQ(chooseWinner(Plans, 3), 4);
  Plans[4].S = TunedPlan::Dropped;
  EXPECT_EQ(chooseWinner(Plans, 3), 2);
  // Nothing beats it: -1.
  EXPECT_EQ(chooseWinner({Plan({}), Plan({0.9, 1.1, 1.0, 0.95})}, 1), -1);
}

TEST(TuneStatisticsTest, RatioBoundsKeepTheRaceHonest) {
  // A plan without gain wins at most one time in twenty, raced round by
  // round: the tuner tests it after every round (at one level each time,
  // 8 % and 12 % here).
  EXPECT_LT(winRate(0, 0.02, false, 4000), 0.05);
  EXPECT_LT(winRate(0, 0.02, true, 4000), 0.05);
  // A 20 % gain in 2 % noise wins nearly always (mesh-cpp's SoA), and a
  // 5 % gain mostly.
  EXPECT_GT(winRate(0.20, 0.02, false, 1000), 0.99);
  EXPECT_GT(winRate(0.05, 0.02, true, 1000), 0.8);
  // Gains small against the noise stop as out of reach: in 5 % of noise
  // with outliers, none and 2 % raced 8.6 and 14.6 rounds on average
  // without that rule, 4.8 and 6.4 with it; a 10 % gain still wins 92 % of
  // the time (95 % without), a 2 % gain in 2 % of noise 28 % (30 %).
  for (double Gain : {0.0, 0.02}) {
    double Rounds = 0;
    winRate(Gain, 0.05, true, 2000, &Rounds);
    EXPECT_LT(Rounds, 8) << Gain;
  }
  EXPECT_GT(winRate(0.10, 0.05, true, 2000), 0.9);
  EXPECT_EQ(lookLevel(0.05, 1), 0.025);
  EXPECT_NEAR(lookLevel(0.05, 3), 0.05 / 12, 1e-15);
}

TEST(OutputMatchTest, Exact) {
  EXPECT_EQ(outputDifference("a 1\nb 2\n", "a 1\nb 2\n", 0), "");
  EXPECT_EQ(outputDifference("a 1\nb 2\n", "a 1\nb 3\n", 0),
            "line 2: 'b 3' where the original printed 'b 2'");
  EXPECT_EQ(outputDifference("x\n", "x\nextra\n", 0),
            "line 2: 'extra' where the original printed ''");
  // A line that ends where the other goes on is quoted, not the next one.
  EXPECT_EQ(outputDifference("e 1.0\nz\n", "e 1.0001\nz\n", 0),
            "line 1: 'e 1.0001' where the original printed 'e 1.0'");
  // A long line from the word that differs on, so that the quotes differ.
  EXPECT_EQ(
      outputDifference("nbody: 4096 bodies, 10 steps, checksum -1.25e+03\n",
                       "nbody: 4096 bodies, 10 steps, checksum -1.27e+03\n", 0),
      "line 1: '...-1.27e+03' where the original printed '...-1.25e+03'");
}

TEST(OutputMatchTest, Tolerance) {
  EXPECT_EQ(outputDifference("e = 1.000000\n", "e =  1.0000001\n", 1e-6), "");
  EXPECT_EQ(outputDifference("e = 1.0\n", "e = 1.1\n", 1e-6),
            "line 1: '1.1' where the original printed '1.0'");
  // Words still compare exactly; a missing number is a difference.
  EXPECT_EQ(outputDifference("ok 1\n", "OK 1\n", 0.5),
            "line 1: 'OK' where the original printed 'ok'");
  EXPECT_EQ(outputDifference("1 2\n", "1\n", 0.1),
            "the output ends where the original printed '2'");
  // Numbers inside words, as printf("%e,", x) prints them; a sign after a
  // letter or digit is an operator.
  EXPECT_EQ(
      outputDifference("v=-6.800553e+01, 2\n", "v=-6.800557e+01, 2\n", 1e-3),
      "");
  EXPECT_EQ(outputDifference("v=-6.8e+01,\n", "v=-7.8e+01,\n", 1e-3),
            "line 1: '-7.8e+01' where the original printed '-6.8e+01'");
  EXPECT_EQ(outputDifference("t1-2\n", "t1-2\n", 1e-3), "");
  EXPECT_EQ(outputDifference("x1-2\n", "x1+2\n", 1e-3),
            "line 1: '+' where the original printed '-'");
  // The same word matches, even one that is not a number to compare.
  EXPECT_EQ(outputDifference("nan\n", "nan\n", 0.1), "");
}

RecordPlan particle(std::vector<Layout> Layouts) {
  RecordPlan R;
  R.Name = "P";
  for (const char *N : {"x", "y", "m"})
    R.Fields.push_back(Field{N, 4, 0, "float"});
  ClusterPlan XY, M;
  XY.Fields.Fields = {0, 1};
  XY.Chosen = Layouts[0];
  M.Fields.Fields = {2};
  M.Chosen = Layouts[1];
  R.Clusters = {XY, M};
  return R;
}

/// particle() with every field a cluster of its own, in AoS (cluster-cpp's
/// plan: the record's SoA).
RecordPlan singles() {
  RecordPlan R = particle({Layout::aos(), Layout::aos()});
  R.Clusters[0].Fields.Fields = {0};
  ClusterPlan Y;
  Y.Fields.Fields = {1};
  Y.Chosen = Layout::aos();
  R.Clusters.push_back(Y);
  return R;
}

/// The names of \p Plan's tuning candidates, at most \p Max.
std::vector<std::string> candidateNames(const LayoutPlan &Plan, unsigned Max) {
  std::vector<std::string> Names;
  for (const TuneCandidate &T : tuneCandidates(Plan, Max))
    Names.push_back(T.Name);
  return Names;
}

TEST(TuneCandidatesTest, AutomaticThenSoAThenNeighbours) {
  LayoutPlan Plan;
  Plan.Records.push_back(particle({Layout::tiled(64), Layout::aos()}));
  std::vector<TuneCandidate> C = tuneCandidates(Plan, 20);
  std::vector<std::string> Want = {
      "automatic",
      "--layout P=soa",
      // Every cluster tiled by 16.
      "--layout P=split:{x,y}tiled:16{m}tiled:16",
      "--layout P=split:{x,y}aos{m}aos",
      // {x,y} tiled a factor of 4 either side. {x,y} SoA with {m} AoS is
      // the whole record's SoA, and {m} SoA the automatic plan: one array
      // of m either way.
      "--layout P=split:{x,y}tiled:16{m}aos",
      "--layout P=split:{x,y}tiled:256{m}aos",
      "--layout P=split:{x,y}tiled:64{m}tiled:16",
  };
  EXPECT_EQ(candidateNames(Plan, 20), Want);
  EXPECT_TRUE(C[0].Overrides.empty());
  ASSERT_EQ(C[1].Overrides.size(), 1u);
  EXPECT_EQ(C[1].Overrides[0].Record, "P");
  // At most Max plans.
  EXPECT_EQ(tuneCandidates(Plan, 3).size(), 3u);
}

TEST(TuneCandidatesTest, OneFieldClustersAreAlikeInAoSAndSoA) {
  // Every field alone in AoS (cluster-cpp's plan): that is the record's
  // SoA, and so is each field's SoA; only tiling a field changes how its
  // loops run.
  LayoutPlan Plan;
  Plan.Records.push_back(singles());
  EXPECT_EQ(
      candidateNames(Plan, 20),
      (std::vector<std::string>{
          "automatic", "--layout P=split:{x}tiled:16{m}tiled:16{y}tiled:16",
          "--layout P=split:{x}tiled:16{m}aos{y}aos",
          "--layout P=split:{x}aos{m}tiled:16{y}aos",
          "--layout P=split:{x}aos{m}aos{y}tiled:16"}));
}

TEST(TuneCandidatesTest, OneTileSizeForTheClustersLoopsRead) {
  // A cold cluster keeps its layout: no loop reads it, and tiling it would
  // only spend a plan.
  RecordPlan R = particle({Layout::soa(), Layout::aos()});
  R.Clusters[1].Fields.Cold = true;
  LayoutPlan Plan;
  Plan.Records.push_back(R);
  // ({x,y} SoA beside one field m is the record's SoA: the automatic plan.)
  EXPECT_EQ(candidateNames(Plan, 3),
            (std::vector<std::string>{"automatic",
                                      "--layout P=split:{x,y}tiled:16{m}aos",
                                      "--layout P=split:{x,y}aos{m}aos"}));
}

TEST(TuneCandidatesTest, GpuRecordsTryTheWholeRecordTiledByWarps) {
  // A significant CUDA kernel: the record was planned for a GPU, where
  // tiles are warps (128), and the whole record tiled is a plan of its own
  // (mosquito-cu's oracle). Every field alone: the record's SoA is the
  // automatic plan.
  RecordPlan R = singles();
  KernelSummary Movement;
  Movement.Name = "movement";
  Movement.Cuda = true;
  R.Kernels = {Movement};
  LayoutPlan Plan;
  Plan.Records.push_back(R);
  EXPECT_EQ(candidateNames(Plan, 5),
            (std::vector<std::string>{
                "automatic", "--layout P=tiled:128",
                "--layout P=split:{x}tiled:128{m}tiled:128{y}tiled:128",
                "--layout P=split:{x}tiled:128{m}aos{y}aos",
                "--layout P=split:{x}aos{m}tiled:128{y}aos"}));
  // An insignificant CUDA kernel (the record's time is the CPU's), or
  // none: tiles of 16, and no whole-record tiling.
  Plan.Records[0].Kernels[0].Significant = false;
  EXPECT_EQ(
      candidateNames(Plan, 2),
      (std::vector<std::string>{
          "automatic", "--layout P=split:{x}tiled:16{m}tiled:16{y}tiled:16"}));
  // Sub-arrays passed to CUDA copies: no tiles at all (they would only be
  // refused when rendered).
  Plan.Records[0].Kernels[0].Significant = true;
  Plan.Records[0].CudaCallAt = "mosquito.cu:390:3";
  Plan.Records[0].SubArrayAt = "mosquito.cu:400:3";
  ASSERT_TRUE(Plan.Records[0].tilesBlockedByTransfers());
  EXPECT_EQ(candidateNames(Plan, 20), (std::vector<std::string>{"automatic"}));
}

TEST(TuneCandidatesTest, UntransformableRecordsHaveNoPlans) {
  LayoutPlan Plan;
  RecordPlan R = particle({Layout::soa(), Layout::soa()});
  R.Blockers.push_back(Blocker{});
  Plan.Records.push_back(R);
  EXPECT_EQ(tuneCandidates(Plan, 20).size(), 1u);
}

} // namespace
