//===- ExpansionFormat.cpp - Expanded macro invocations, formatted --------===//
#include "rewriter/ExpansionFormat.h"
#include "clang/Tooling/Core/Replacement.h"
#include <algorithm>

using namespace clang;
using namespace dlopt;

namespace {

/// A stretch of the new text, [Begin, End), that differs from the old one
/// (or may), with how much longer it made the text.
struct Span {
  unsigned Begin, End;
  long Growth;
};

/// The edits of \p ES as spans of its new text, one per original offset
/// (an insertion and the replacement at one offset are one edit).
std::vector<std::pair<unsigned, unsigned>> editRanges(const EditSet &ES) {
  std::vector<std::pair<unsigned, unsigned>> Out;
  for (auto [B, E] : ES.ranges())
    if (!Out.empty() && Out.back().first == B)
      Out.back().second = std::max(Out.back().second, E);
    else
      Out.push_back({B, E});
  return Out;
}

/// Touching or overlapping spans, merged (\p Spans sorted by Begin).
std::vector<Span> merged(std::vector<Span> Spans) {
  llvm::stable_sort(
      Spans, [](const Span &A, const Span &B) { return A.Begin < B.Begin; });
  std::vector<Span> Out;
  for (const Span &S : Spans)
    if (!Out.empty() && S.Begin <= Out.back().End) {
      Out.back().End = std::max(Out.back().End, S.End);
    } else {
      Out.push_back(S);
    }
  return Out;
}

} // namespace

EditSet dlopt::formatExpansions(const EditSet &Composed,
                                const std::vector<Expansion> &Expansions,
                                const format::FormatStyle &Style) {
  // Where each edit lands in the new text; the expansions' are formatted.
  std::vector<Span> Edits;
  std::vector<tooling::Range> ToFormat;
  long Shift = 0;
  for (auto [B, E] : editRanges(Composed)) {
    long Size = Composed.textOf(B, E).size();
    bool Expanded = llvm::any_of(Expansions, [&](const Expansion &X) {
      return X.Begin < E && B < X.End;
    });
    Span S{unsigned(B + Shift), unsigned(B + Shift + Size), Size - long(E - B)};
    if (Expanded)
      ToFormat.push_back({S.Begin, S.End - S.Begin});
    Edits.push_back(S);
    Shift += S.Growth;
  }
  if (ToFormat.empty())
    return Composed;
  std::string Text = Composed.apply();
  tooling::Replacements Formatting = format::reformat(Style, Text, ToFormat);
  llvm::Expected<std::string> Formatted =
      tooling::applyAllReplacements(Text, Formatting);
  if (!Formatted) {
    llvm::consumeError(Formatted.takeError());
    return Composed;
  }
  // The stretches of the new text that differ from the original once
  // formatted: edits and formatting that touch, merged. Each is one edit.
  std::vector<Span> Changes;
  for (const tooling::Replacement &R : Formatting)
    Changes.push_back(
        {R.getOffset(), R.getOffset() + R.getLength(),
         long(R.getReplacementText().size()) - long(R.getLength())});
  std::vector<Span> Stretches = Edits;
  Stretches.insert(Stretches.end(), Changes.begin(), Changes.end());
  Stretches = merged(std::move(Stretches));
  EditSet Out = Composed.emptyCopy();
  long EditShift = 0, FormatShift = 0;
  for (const Span &S : Stretches) {
    long EditGrowth = 0, FormatGrowth = 0;
    for (const Span &E : Edits)
      if (E.Begin >= S.Begin && E.End <= S.End)
        EditGrowth += E.Growth;
    for (const Span &C : Changes)
      if (C.Begin >= S.Begin && C.End <= S.End)
        FormatGrowth += C.Growth;
    unsigned B = S.Begin - EditShift, E = S.End - EditShift - EditGrowth;
    std::string New = Formatted->substr(S.Begin + FormatShift,
                                        S.End - S.Begin + FormatGrowth);
    EditShift += EditGrowth;
    FormatShift += FormatGrowth;
    if (B == E) {
      if (!New.empty())
        Out.insert(B, New);
    } else if (llvm::Error Err = Out.replace(B, E, std::move(New))) {
      llvm::consumeError(std::move(Err)); // Stretches never overlap.
      return Composed;
    }
  }
  return Out;
}

format::FormatStyle dlopt::styleOfFile(const std::string &Path,
                                       llvm::StringRef Code) {
  llvm::Expected<format::FormatStyle> Style =
      format::getStyle("file", Path, "LLVM", Code);
  if (Style)
    return *Style;
  llvm::consumeError(Style.takeError());
  return format::getLLVMStyle();
}
