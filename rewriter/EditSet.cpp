//===- EditSet.cpp - Nested source edits, flattened to Replacements -------===//
#include "rewriter/EditSet.h"
#include <cassert>

using namespace dlopt;
using namespace llvm;

bool EditSet::usesCRLF(StringRef Text) {
  size_t Lines = Text.count('\n'), CRLFs = Text.count("\r\n");
  return CRLFs > Lines - CRLFs;
}

std::string EditSet::withLineEnding(StringRef Text) const {
  if (!CRLF)
    return Text.str();
  // Text from textOf() already has "\r\n": only bare "\n" change, so this
  // can run again over text built from earlier edits.
  std::string Out;
  Out.reserve(Text.size() + Text.count('\n'));
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\n' && (I == 0 || Text[I - 1] != '\r'))
      Out += '\r';
    Out += Text[I];
  }
  return Out;
}

std::string EditSet::textOf(unsigned Begin, unsigned End) const {
  assert(Begin <= End && End <= Original->size());
  std::string Out;
  unsigned Pos = Begin;
  for (auto It = Edits.lower_bound({Begin, 0}); It != Edits.end(); ++It) {
    auto [EditBegin, Kind] = It->first;
    bool Insertion = Kind == 0;
    // An insertion at End belongs to what follows the range (unless the
    // range is empty: then it is all there is).
    if (EditBegin > End || (EditBegin == End && (!Insertion || Begin != End)))
      break;
    if (It->second.End > End)
      break; // Straddles the end: not inside the range.
    Out.append(*Original, Pos, EditBegin - Pos);
    Out += It->second.Text;
    Pos = It->second.End;
  }
  Out.append(*Original, Pos, End - Pos);
  return Out;
}

std::string EditSet::apply() const {
  std::string Out = textOf(0, Original->size());
  // textOf leaves an insertion at the end of its range to what follows the
  // range; at the end of the file nothing does (a header whose last text is
  // the record's definition gets the generated declarations there).
  if (!Original->empty())
    if (auto It = Edits.find({unsigned(Original->size()), 0});
        It != Edits.end())
      Out += It->second.Text;
  return Out;
}

Error EditSet::replace(unsigned Begin, unsigned End, std::string Text) {
  assert(Begin < End && End <= Original->size());
  // A replacement starting before Begin must end by Begin.
  auto First = Edits.lower_bound({Begin, 0});
  if (First != Edits.begin()) {
    auto Prev = std::prev(First);
    if (Prev->first.second == 1 && Prev->second.End > Begin)
      return createStringError(inconvertibleErrorCode(),
                               "%s: overlapping rewrites at offsets %u-%u and "
                               "%u-%u",
                               FilePath.c_str(), Prev->first.first,
                               Prev->second.End, Begin, End);
  }
  // Insertions at Begin stay in front of the new text; everything else that
  // starts inside the range must end inside it, and is absorbed (the caller
  // built Text from textOf()).
  auto It = Edits.lower_bound({Begin, 1});
  auto Last = It;
  while (Last != Edits.end() && Last->first.first < End) {
    if (Last->second.End > End)
      return createStringError(inconvertibleErrorCode(),
                               "%s: overlapping rewrites at offsets %u-%u and "
                               "%u-%u",
                               FilePath.c_str(), Last->first.first,
                               Last->second.End, Begin, End);
    ++Last;
  }
  Edits.erase(It, Last);
  // The original text again (a site that changes only in some contexts,
  // such as a strip-mined loop's lanes): no edit, so no line in a diff. It
  // is compared before the line endings change, so that a copied line of a
  // mixed file that ends in a bare "\n" stays as it was.
  if (StringRef(*Original).substr(Begin, End - Begin) == Text)
    return Error::success();
  Text = withLineEnding(Text);
  if (StringRef(*Original).substr(Begin, End - Begin) == Text)
    return Error::success();
  Edits[{Begin, 1}] = Edit{End, std::move(Text)};
  return Error::success();
}

Error EditSet::merge(const EditSet &Other) {
  std::map<Key, Edit> Merged = Edits;
  for (const auto &[K, E] : Other.Edits) {
    if (auto Same = Merged.find(K); Same != Merged.end()) {
      if (Same->second.End == E.End && Same->second.Text == E.Text)
        continue;
    } else {
      // A replacement of this set around or inside it, or one of its own
      // around one of this set's edits.
      auto Next = Merged.lower_bound(K);
      bool Overlaps =
          (Next != Merged.end() && K.second == 1 &&
           Next->first.first < E.End) ||
          (Next != Merged.begin() && std::prev(Next)->first.second == 1 &&
           std::prev(Next)->second.End > K.first);
      if (!Overlaps) {
        Merged.emplace(K, E);
        continue;
      }
    }
    return createStringError(inconvertibleErrorCode(),
                             "%s: two rewrites of offsets %u-%u differ",
                             FilePath.c_str(), K.first, E.End);
  }
  Edits = std::move(Merged);
  return Error::success();
}

void EditSet::insert(unsigned Offset, StringRef Text) {
  assert(Offset <= Original->size());
  Edit &E = Edits[{Offset, 0}];
  E.End = Offset;
  E.Text += withLineEnding(Text); // After earlier insertions at the same place.
}

std::vector<std::pair<unsigned, unsigned>> EditSet::ranges() const {
  std::vector<std::pair<unsigned, unsigned>> R;
  for (const auto &[Key, E] : Edits)
    R.push_back({Key.first, E.End});
  return R;
}

Expected<clang::tooling::Replacements> EditSet::toReplacements() const {
  clang::tooling::Replacements Result;
  for (auto It = Edits.begin(); It != Edits.end(); ++It) {
    unsigned Begin = It->first.first;
    Edit E = It->second;
    // An insertion followed by a replacement at the same offset is one
    // replacement for clang-apply-replacements.
    auto Next = std::next(It);
    if (It->first.second == 0 && Next != Edits.end() &&
        Next->first.first == Begin) {
      E = Edit{Next->second.End, E.Text + Next->second.Text};
      It = Next;
    }
    if (Error Err = Result.add(clang::tooling::Replacement(
            FilePath, Begin, E.End - Begin, E.Text)))
      return Err;
  }
  return Result;
}
