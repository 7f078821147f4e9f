//===- OutputMatch.cpp - Does a plan's run print what the original did? ---===//
#include "tuner/OutputMatch.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include <cmath>
#include <cstdlib>
#include <optional>

using namespace dlopt;

/// The number \p Word spells, all of it; none for another word.
static std::optional<double> number(llvm::StringRef Word) {
  std::string Text = Word.str();
  char *End = nullptr;
  double V = std::strtod(Text.c_str(), &End);
  if (Text.empty() || End != Text.c_str() + Text.size())
    return std::nullopt;
  return V;
}

static bool sameWord(llvm::StringRef A, llvm::StringRef B, double Tolerance) {
  if (A == B)
    return true;
  std::optional<double> X = number(A), Y = number(B);
  if (!X || !Y || std::isnan(*X) || std::isnan(*Y))
    return false;
  return std::fabs(*X - *Y) <=
         Tolerance * std::max(std::fabs(*X), std::fabs(*Y));
}

/// 1-based line of offset \p At in \p Text.
static unsigned lineOf(llvm::StringRef Text, size_t At) {
  return 1 + Text.take_front(At).count('\n');
}

static std::string quoted(llvm::StringRef S) {
  if (S.size() > 40)
    S = S.take_front(40);
  return "'" + S.str() + "'";
}

std::string dlopt::outputDifference(llvm::StringRef Want, llvm::StringRef Got,
                                    double Tolerance) {
  if (Tolerance <= 0) {
    if (Want == Got)
      return "";
    size_t At = 0;
    while (At < Want.size() && At < Got.size() && Want[At] == Got[At])
      ++At;
    size_t Begin = Got.rfind('\n', At) == llvm::StringRef::npos
                       ? 0
                       : Got.rfind('\n', At) + 1;
    size_t WantBegin = Want.rfind('\n', At) == llvm::StringRef::npos
                           ? 0
                           : Want.rfind('\n', At) + 1;
    return "line " + std::to_string(lineOf(Got, At)) + ": " +
           quoted(Got.drop_front(Begin).split('\n').first) +
           " where the original printed " +
           quoted(Want.drop_front(WantBegin).split('\n').first);
  }
  llvm::SmallVector<llvm::StringRef, 64> W, G;
  llvm::SplitString(Want, W);
  llvm::SplitString(Got, G);
  for (size_t I = 0; I < std::max(W.size(), G.size()); ++I) {
    if (I < W.size() && I < G.size() && sameWord(W[I], G[I], Tolerance))
      continue;
    if (I >= G.size())
      return "the output ends where the original printed " + quoted(W[I]);
    size_t At = G[I].data() - Got.data();
    return "line " + std::to_string(lineOf(Got, At)) + ": " + quoted(G[I]) +
           (I < W.size() ? " where the original printed " + quoted(W[I])
                         : std::string(" after the original's output"));
  }
  return "";
}
