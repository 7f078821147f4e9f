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

/// The line of \p Text that holds offset \p At, quoted; a line too long to
/// quote whole from the word that holds \p At on, so that the quote shows
/// the difference (nbody's "..., checksum -1.2345e+03" differed past the
/// 40 characters a quote shows, and the two quotes read alike).
static std::string quotedAround(llvm::StringRef Text, size_t At) {
  // The last newline before At (StringRef::rfind looks below its From):
  // At itself may be the newline of a line that ends where the other's
  // goes on.
  size_t Begin = Text.rfind('\n', At);
  Begin = Begin == llvm::StringRef::npos ? 0 : Begin + 1;
  llvm::StringRef Line = Text.drop_front(Begin).split('\n').first;
  size_t Column = At - Begin;
  if (Line.size() <= 40 || Column < 20)
    return quoted(Line);
  size_t Word = Line.find_last_of(" \t", Column);
  Word = Word == llvm::StringRef::npos ? Column : Word + 1;
  return "'..." + quoted(Line.drop_front(Word)).substr(1);
}

std::string dlopt::outputDifference(llvm::StringRef Want, llvm::StringRef Got,
                                    double Tolerance) {
  if (Tolerance <= 0) {
    if (Want == Got)
      return "";
    size_t At = 0;
    while (At < Want.size() && At < Got.size() && Want[At] == Got[At])
      ++At;
    return "line " + std::to_string(lineOf(Got, At)) + ": " +
           quotedAround(Got, At) + " where the original printed " +
           quotedAround(Want, At);
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
