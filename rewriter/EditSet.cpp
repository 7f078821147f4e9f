//===- EditSet.cpp - Nested source edits, flattened to Replacements -------===//
#include "rewriter/EditSet.h"
#include <algorithm>
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
    } else if (!overlaps(Merged, K, E.End)) {
      Merged.emplace(K, E);
      continue;
    }
    return createStringError(inconvertibleErrorCode(),
                             "%s: two rewrites of offsets %u-%u differ",
                             FilePath.c_str(), K.first, E.End);
  }
  Edits = std::move(Merged);
  return Error::success();
}

bool EditSet::overlaps(const std::map<Key, Edit> &Set, Key K, unsigned End) {
  // A replacement of the set around or inside it, or one of its own around
  // one of the set's edits.
  auto Next = Set.lower_bound(K);
  return (Next != Set.end() && K.second == 1 && Next->first.first < End) ||
         (Next != Set.begin() && std::prev(Next)->first.second == 1 &&
          std::prev(Next)->second.End > K.first);
}

Expected<std::string> EditSet::sideBlock(unsigned Offset, StringRef HostText,
                                         StringRef KernelText,
                                         StringRef KernelTest) const {
  StringRef Text = *Original;
  bool LineStart = Offset == 0 || Text[Offset - 1] == '\n';
  bool LineEnd = Offset == Text.size() || Text[Offset] == '\n' ||
                 Text.substr(Offset).starts_with("\r\n");
  auto Begins = [](StringRef T) {
    return T.empty() || T.starts_with("\n") || T.starts_with("\r\n");
  };
  auto Ends = [](StringRef T) { return T.empty() || T.ends_with("\n"); };
  // The generated declarations go after a definition's `;`, starting with
  // a new line of their own.
  if ((!LineStart && !(Begins(HostText) && Begins(KernelText))) ||
      (!LineEnd && !(Ends(HostText) && Ends(KernelText))))
    return createStringError(inconvertibleErrorCode(),
                             "%s: the host's and the kernels' insertions at "
                             "offset %u are not on lines of their own",
                             FilePath.c_str(), Offset);
  // The line breaks both texts start with (ending the definition's line,
  // and a blank line after it) go before the block.
  auto DropBreak = [](StringRef &T) {
    return T.consume_front("\r\n") || T.consume_front("\n");
  };
  unsigned Lead = ~0u;
  for (StringRef T : {HostText, KernelText}) {
    unsigned N = 0;
    while (!T.empty() && DropBreak(T))
      ++N;
    if (!T.empty())
      Lead = std::min(Lead, N);
  }
  if (Lead == ~0u)
    Lead = 0;
  // Off a line's start, the block's first line break ends that line.
  if (!LineStart)
    Lead = std::max(Lead, 1u);
  auto Body = [&](StringRef T) {
    for (unsigned I = 0; I < Lead; ++I)
      DropBreak(T);
    std::string B = T.str();
    if (!B.empty() && !T.ends_with("\n"))
      B += "\n";
    return B;
  };
  std::string Block(Lead, '\n');
  if (KernelText.empty())
    Block += "#if !(" + KernelTest.str() + ")\n" + Body(HostText);
  else {
    Block += "#if " + KernelTest.str() + "\n" + Body(KernelText);
    if (!HostText.empty())
      Block += "#else\n" + Body(HostText);
  }
  // Lines of their own before the line at Offset, or after the text that
  // ends the line there (whose line break then ends the block's last).
  Block += "#endif";
  if (LineStart || !LineEnd || Offset == Text.size())
    Block += "\n";
  return withLineEnding(Block);
}

Expected<EditSet>
EditSet::mergeSides(const EditSet &Host, const EditSet &Kernel,
                    StringRef KernelTest,
                    function_ref<bool(unsigned, bool)> OnlySide) {
  EditSet Out = Host.emptyCopy();
  auto H = Host.Edits.begin(), K = Kernel.Edits.begin();
  while (H != Host.Edits.end() || K != Kernel.Edits.end()) {
    bool TakeH = K == Kernel.Edits.end() ||
                 (H != Host.Edits.end() && H->first <= K->first);
    bool TakeK = H == Host.Edits.end() ||
                 (K != Kernel.Edits.end() && K->first <= H->first);
    const auto &[At, E] = TakeH ? *H : *K;
    bool Alike = TakeH && TakeK && H->second.End == K->second.End &&
                 H->second.Text == K->second.Text;
    if (Alike || At.second == 1) {
      // A replacement: alike in both, or of code one side alone builds.
      if (!Alike && (TakeH == TakeK || !OnlySide(At.first, TakeK) ||
                     overlaps(TakeH ? Kernel.Edits : Host.Edits, At, E.End)))
        return createStringError(inconvertibleErrorCode(),
                                 "%s: the host's and the kernels' rewrites of "
                                 "offsets %u-%u differ",
                                 Host.FilePath.c_str(), At.first, E.End);
      Out.Edits.emplace(At, E);
    } else {
      StringRef HostText = TakeH ? StringRef(H->second.Text) : "";
      StringRef KernelText = TakeK ? StringRef(K->second.Text) : "";
      // (An insertion is never inside a replacement of its own set.)
      if (overlaps(Kernel.Edits, At, At.first) ||
          overlaps(Host.Edits, At, At.first))
        return createStringError(inconvertibleErrorCode(),
                                 "%s: an insertion at offset %u is inside a "
                                 "rewrite of the other side",
                                 Host.FilePath.c_str(), At.first);
      Expected<std::string> Block =
          Out.sideBlock(At.first, HostText, KernelText, KernelTest);
      if (!Block)
        return Block.takeError();
      Out.Edits.emplace(At, Edit{At.first, std::move(*Block)});
    }
    if (TakeH)
      ++H;
    if (TakeK)
      ++K;
  }
  return Out;
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
