//===- TuneReport.cpp - What dl-refactor --tune measured ------------------===//
#include "tuner/TuneReport.h"
#include "analysis/PlanPrinter.h"
#include "tuner/TuneStatistics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace dlopt;

#include "tuner/TuneChart.inc"

namespace {

/// What the table and the JSON say of one plan.
struct PlanFigures {
  bool Timed = false;
  double Median = 0, Spread = 0, Speedup = 0;
  Interval SpeedupRange;
};

PlanFigures figuresOf(const TunedPlan &P) {
  PlanFigures F;
  if (P.Seconds.empty())
    return F;
  F.Timed = true;
  F.Median = median(P.Seconds);
  Interval T = medianInterval(P.Seconds);
  F.Spread = F.Median > 0 ? (T.High - T.Low) / 2 / F.Median : 0;
  if (P.Ratios.empty()) { // The original.
    F.Speedup = 1;
    F.SpeedupRange = {1, 1};
    return F;
  }
  Interval R = medianInterval(P.Ratios);
  F.Speedup = 1 / median(P.Ratios);
  F.SpeedupRange = {1 / R.High, 1 / R.Low};
  return F;
}

const char *stateName(TunedPlan::State S) {
  switch (S) {
  case TunedPlan::Measured:
    return "measured";
  case TunedPlan::Screened:
    return "not raced";
  case TunedPlan::Dropped:
    return "dropped";
  case TunedPlan::NotTried:
    return "not tried";
  }
  return "";
}

const char *statusName(TuneResult::Status S) {
  switch (S) {
  case TuneResult::Chosen:
    return "chosen";
  case TuneResult::NoneFaster:
    return "none faster";
  case TuneResult::OriginalFails:
    return "original fails";
  case TuneResult::Interrupted:
    return "interrupted";
  case TuneResult::CannotStart:
    return "cannot start";
  }
  return "";
}

} // namespace

void dlopt::printTuneTable(llvm::raw_ostream &OS, const TuneResult &R) {
  auto NameOf = [&](unsigned I) {
    return R.Plans[I].Name + (int(I) == R.ChosenPlan ? " (chosen)" : "");
  };
  size_t Width = 4; // "plan"
  for (unsigned I = 0; I < R.Plans.size(); ++I)
    Width = std::max(Width, NameOf(I).size());
  OS << llvm::left_justify("plan", Width)
     << llvm::formatv(" {0,10} {1,7} {2,18}  {3}\n", "median", "spread",
                      "speedup [95%]", "output");
  for (unsigned I = 0; I < R.Plans.size(); ++I) {
    const TunedPlan &P = R.Plans[I];
    PlanFigures F = figuresOf(P);
    std::string Output = P.S == TunedPlan::Measured
                             ? (I == 0 ? "reference" : "same")
                             : std::string(stateName(P.S)) + ": " + P.Reason;
    OS << llvm::left_justify(NameOf(I), Width);
    if (!F.Timed) {
      OS << llvm::formatv(" {0,10} {1,7} {2,18}  {3}\n", "-", "-", "-", Output);
      continue;
    }
    std::string Speedup =
        I == 0 ? "1.00x"
               : llvm::formatv("{0:f2}x [{1:f2}, {2:f2}]", F.Speedup,
                               F.SpeedupRange.Low, F.SpeedupRange.High)
                     .str();
    OS << llvm::formatv(" {0,8:f3} s {1,6:f1}% {2,18}  {3}\n", F.Median,
                        100 * F.Spread, Speedup, Output);
  }
  for (const TunedPlan &P : R.Plans)
    if (!P.Detail.empty())
      OS << P.Name << " is --layout " << P.Detail << "\n";
  OS << llvm::formatv("{0} timing rounds in {1:f1} s of a {2:f0} s budget\n",
                      R.Rounds, R.Seconds, R.Budget);
}

llvm::json::Value dlopt::tuneJson(const TuneResult &R) {
  llvm::json::Array Plans;
  for (unsigned I = 0; I < R.Plans.size(); ++I) {
    const TunedPlan &P = R.Plans[I];
    PlanFigures F = figuresOf(P);
    llvm::json::Object O{{"name", P.Name},
                         {"state", stateName(P.S)},
                         {"seconds", llvm::json::Array(P.Seconds)},
                         {"ratios", llvm::json::Array(P.Ratios)},
                         {"same_output", P.S == TunedPlan::Measured ||
                                             P.S == TunedPlan::Screened},
                         {"chosen", int(I) == R.ChosenPlan}};
    if (!P.Detail.empty())
      O["layout"] = P.Detail;
    if (!P.Reason.empty())
      O["reason"] = P.Reason;
    if (P.FirstRun > 0)
      O["first_run_s"] = P.FirstRun;
    if (F.Timed) {
      O["median_s"] = F.Median;
      O["spread"] = F.Spread;
      O["speedup"] = F.Speedup;
      O["speedup_interval"] =
          llvm::json::Array{F.SpeedupRange.Low, F.SpeedupRange.High};
    }
    Plans.push_back(std::move(O));
  }
  llvm::json::Value Chosen = nullptr;
  if (R.ChosenPlan >= 0)
    Chosen = R.Plans[R.ChosenPlan].Name;
  return llvm::json::Object{
      {"status", statusName(R.S)},   {"message", R.Message},
      {"chosen", std::move(Chosen)}, {"rounds", R.Rounds},
      {"elapsed_s", R.Seconds},      {"budget_s", R.Budget},
      {"plans", std::move(Plans)}};
}

/// Draws the chart with the embedded script; "" or why not. The python3
/// first on PATH may be one without matplotlib (a pyenv or a venv): the
/// system's is tried next.
static std::string drawChart(llvm::StringRef Json, llvm::StringRef Png) {
  llvm::SmallString<128> Script;
  if (llvm::sys::fs::createTemporaryFile("dlopt-tune-chart", "py", Script))
    return "cannot write the chart script";
  llvm::FileRemover Remove(Script);
  if (llvm::Error E = writeOutputFile(
          Script, [](llvm::raw_ostream &OS) { OS << TuneChartScript; }))
    return llvm::toString(std::move(E));
  std::vector<std::string> Pythons;
  if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName("python3"))
    Pythons.push_back(*P);
  if (llvm::sys::fs::can_execute("/usr/bin/python3"))
    Pythons.push_back("/usr/bin/python3");
  if (Pythons.empty())
    return "no python3 to draw the chart";
  std::optional<llvm::StringRef> Quiet[] = {llvm::StringRef("/dev/null"),
                                            llvm::StringRef("/dev/null"),
                                            llvm::StringRef("/dev/null")};
  for (const std::string &Python : Pythons) {
    llvm::StringRef Args[] = {Python, Script, Json, Png};
    if (llvm::sys::ExecuteAndWait(Python, Args, std::nullopt, Quiet, 120) == 0)
      return "";
  }
  return "python3 could not draw the chart (is matplotlib installed?)";
}

llvm::Error dlopt::writeTuneReport(llvm::StringRef Path, const TuneResult &R,
                                   std::string &Warning) {
  if (llvm::Error E = writeOutputFile(Path, [&](llvm::raw_ostream &OS) {
        OS << llvm::formatv("{0:2}", tuneJson(R)) << "\n";
      }))
    return E;
  llvm::SmallString<256> Png(Path);
  llvm::sys::path::replace_extension(Png, "png");
  Warning = drawChart(Path, Png);
  return llvm::Error::success();
}
