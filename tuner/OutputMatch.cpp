//===- OutputMatch.cpp - Does a plan's run print what the original did? ---===//
#include "tuner/OutputMatch.h"
#include "llvm/ADT/StringExtras.h"
#include <cmath>
#include <cstdlib>
#include <optional>

using namespace dlopt;

namespace {
/// A piece of the output: a number, or the text between numbers with its
/// white space collapsed.
struct Piece {
  llvm::StringRef Text;
  std::optional<double> Number;
};

/// The length of the number [-+]?(digits[.digits]|.digits)([eE][-+]?digits)
/// at the start of \p S, or 0.
size_t numberLength(llvm::StringRef S) {
  size_t I = 0;
  if (I < S.size() && (S[I] == '-' || S[I] == '+'))
    ++I;
  size_t Digits = 0;
  while (I < S.size() && llvm::isDigit(S[I]))
    ++I, ++Digits;
  if (I < S.size() && S[I] == '.') {
    ++I;
    while (I < S.size() && llvm::isDigit(S[I]))
      ++I, ++Digits;
  }
  if (!Digits)
    return 0;
  if (I < S.size() && (S[I] == 'e' || S[I] == 'E')) {
    size_t E = I + 1;
    if (E < S.size() && (S[E] == '-' || S[E] == '+'))
      ++E;
    if (E < S.size() && llvm::isDigit(S[E])) {
      while (E < S.size() && llvm::isDigit(S[E]))
        ++E;
      I = E;
    }
  }
  return I;
}

/// \p Text as numbers and the words between them ("x=1.5," is "x=",
/// 1.5, ","), white space only separating pieces.
std::vector<Piece> pieces(llvm::StringRef Text) {
  std::vector<Piece> Out;
  size_t WordStart = llvm::StringRef::npos;
  auto EndWord = [&](size_t At) {
    if (WordStart != llvm::StringRef::npos)
      Out.push_back({Text.slice(WordStart, At), std::nullopt});
    WordStart = llvm::StringRef::npos;
  };
  for (size_t I = 0; I < Text.size();) {
    if (llvm::isSpace(Text[I])) {
      EndWord(I++);
      continue;
    }
    // A sign right after a letter or a digit is an operator ("x1-2").
    bool SignAllowed =
        I == 0 || !(llvm::isAlnum(Text[I - 1]) || Text[I - 1] == '.');
    size_t N = (Text[I] == '-' || Text[I] == '+') && !SignAllowed
                   ? 0
                   : numberLength(Text.drop_front(I));
    if (!N) {
      if (WordStart == llvm::StringRef::npos)
        WordStart = I;
      ++I;
      continue;
    }
    EndWord(I);
    llvm::StringRef Number = Text.substr(I, N);
    Out.push_back({Number, std::strtod(Number.str().c_str(), nullptr)});
    I += N;
  }
  EndWord(Text.size());
  return Out;
}

bool samePiece(const Piece &A, const Piece &B, double Tolerance) {
  if (A.Text == B.Text)
    return true;
  if (!A.Number || !B.Number)
    return false;
  return std::fabs(*A.Number - *B.Number) <=
         Tolerance * std::max(std::fabs(*A.Number), std::fabs(*B.Number));
}
} // namespace

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
  std::vector<Piece> W = pieces(Want), G = pieces(Got);
  for (size_t I = 0; I < std::max(W.size(), G.size()); ++I) {
    if (I < W.size() && I < G.size() && samePiece(W[I], G[I], Tolerance))
      continue;
    if (I >= G.size())
      return "the output ends where the original printed " + quoted(W[I].Text);
    size_t At = G[I].Text.data() - Got.data();
    return "line " + std::to_string(lineOf(Got, At)) + ": " +
           quoted(G[I].Text) +
           (I < W.size() ? " where the original printed " + quoted(W[I].Text)
                         : std::string(" after the original's output"));
  }
  return "";
}
