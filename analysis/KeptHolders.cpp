//===- KeptHolders.cpp - Records held in records that keep theirs ---------===//
//
// A member of record O that holds record R's elements (`nei_t nei[8]` or
// `nei_t *nei` in box_t: an ArrayRoot "field of O") becomes R's storage or
// handle when R's layout changes, so O's own representation changes with
// it. Where O's representation must stay (a use reads its bytes or escapes
// the analysis, Blocker::Bytes: a cast to `unsigned char *`, a pointer to
// it passed to code no analyzed file defines or in a way the rewrite cannot
// follow; or a file holds its bytes, RecordPlan::FileIOAt), that use would
// meet the new member: R keeps its layout too. So it does where O is held,
// in turn, by such a record (by value, in an array or through a pointer
// member).
//
//===----------------------------------------------------------------------===//
#include "analysis/WholeProgram.h"
#include "llvm/ADT/StringMap.h"
#include <deque>

using namespace dlopt;

namespace {

/// A member of record Holder that holds another record's elements.
struct Holding {
  unsigned Holder;
  std::string Member;
  SourcePos At;
};

/// The record a field of type \p Type holds by value ("box_t",
/// "struct box_t", "box_t[8]"), or "" for a pointer, reference or scalar.
std::string heldByValue(llvm::StringRef Type) {
  Type = Type.trim();
  for (llvm::StringRef Tag : {"struct ", "class ", "union "})
    if (Type.consume_front(Tag))
      break;
  Type = Type.take_until([](char C) { return C == '['; }).rtrim();
  if (Type.find_first_of("*&(<") != llvm::StringRef::npos)
    return "";
  return Type.str();
}

/// For each record of a plan (by index), the members that hold it.
struct Holdings {
  /// The members holding its elements: its array roots "field of O".
  std::vector<std::vector<Holding>> Roots;
  /// Those and the members holding one of its objects by value: the way up
  /// from a record that holds another's elements to the records above it.
  std::vector<std::vector<Holding>> Above;
};

Holdings holdings(const LayoutPlan &Plan) {
  llvm::StringMap<unsigned> ByName;
  for (unsigned I = 0; I < Plan.Records.size(); ++I) {
    ByName.try_emplace(Plan.Records[I].Name, I);
    for (const std::string &A : Plan.Records[I].Aliases)
      ByName.try_emplace(A, I);
  }
  Holdings H;
  H.Roots.resize(Plan.Records.size());
  H.Above.resize(Plan.Records.size());
  for (unsigned I = 0; I < Plan.Records.size(); ++I) {
    const RecordPlan &R = Plan.Records[I];
    for (const ArrayRoot &A : R.Arrays) {
      llvm::StringRef Outer(A.Kind);
      if (!Outer.consume_front("field of "))
        continue;
      Outer.consume_back(ArrayRoot::RewrittenMark);
      if (auto It = ByName.find(Outer); It != ByName.end()) {
        H.Roots[I].push_back({It->second, A.Name, A.Location});
        H.Above[I].push_back(H.Roots[I].back());
      }
    }
    for (const Field &F : R.Fields)
      if (auto It = ByName.find(heldByValue(F.Type)); It != ByName.end())
        H.Above[It->second].push_back({I, F.Name, R.Location});
  }
  return H;
}

/// The nearest record, from \p From up through the records that hold it,
/// that \p Kept keeps as it is (other than \p Self).
std::optional<unsigned>
nearestKept(const Holdings &H, unsigned From, unsigned Self,
            llvm::ArrayRef<std::optional<std::string>> Kept) {
  std::vector<bool> Seen(Kept.size());
  std::deque<unsigned> Work{From};
  Seen[From] = true;
  while (!Work.empty()) {
    unsigned O = Work.front();
    Work.pop_front();
    if (O != Self && Kept[O])
      return O;
    for (const Holding &Up : H.Above[O])
      if (!Seen[Up.Holder]) {
        Seen[Up.Holder] = true;
        Work.push_back(Up.Holder);
      }
  }
  return std::nullopt;
}

} // namespace

void dlopt::blockRecordsOfKeptHolders(LayoutPlan &Plan) {
  unsigned N = Plan.Records.size();
  Holdings H = holdings(Plan);
  // What keeps each record's representation as it is, before this adds to
  // it: a blocker, or a file holding its bytes (an fwrite or fread of its
  // arrays converts its own layout's changes only).
  std::vector<std::optional<std::string>> Kept(N);
  for (unsigned I = 0; I < N; ++I) {
    const RecordPlan &K = Plan.Records[I];
    auto Bytes =
        llvm::find_if(K.Blockers, [](const Blocker &B) { return B.Bytes; });
    if (Bytes != K.Blockers.end())
      Kept[I] =
          "keeps its layout (" + Bytes->Reason + " at " + Bytes->Location + ")";
    else if (!K.FileIOAt.empty())
      Kept[I] = "keeps its bytes (a file holds them: fwrite or fread at " +
                K.FileIOAt + ")";
  }
  for (unsigned I = 0; I < N; ++I) {
    for (const Holding &First : H.Roots[I]) {
      std::optional<unsigned> Keeper = nearestKept(H, First.Holder, I, Kept);
      if (!Keeper)
        continue;
      const std::string &O = Plan.Records[First.Holder].Name;
      std::string Reason = "member '" + First.Member + "' of '" + O +
                           "' holds its elements, and '" +
                           Plan.Records[*Keeper].Name + "'";
      if (*Keeper != First.Holder)
        Reason += ", which holds '" + O + "',";
      Reason += " " + *Kept[*Keeper];
      // Found over the program's records: decided again by each merge.
      Plan.Records[I].Blockers.push_back(
          {Reason, First.At, /*FromLinkage=*/true});
      break;
    }
  }
}
