//===- PlanOverride.cpp - Plans the user forces on records ----------------===//
#include "rewriter/PlanOverride.h"
#include "analysis/RecordPlanner.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace dlopt;
using namespace llvm;

static Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Expected<PlanOverride> dlopt::parseLayoutOption(StringRef Text) {
  PlanOverride O;
  O.Origin = ("--layout " + Text).str();
  auto [Record, Spec] = Text.split('=');
  Record = Record.trim();
  Spec = Spec.trim();
  if (Record.empty() || Spec.empty())
    return fail(O.Origin +
                ": expected RECORD=soa|aos|tiled:T|split:{f,...}...");
  O.Record = Record.str();
  std::string Lower = Spec.lower();
  if (!StringRef(Lower).starts_with("split:")) {
    std::string Why;
    std::optional<Layout> L = Layout::parse(Spec, &Why);
    if (!L)
      return fail(O.Origin + ": " + Why +
                  " (expected soa, aos, tiled:T with T a power of two from 2 "
                  "to " +
                  Twine(Layout::MaxTile) + ", or split:{f1,f2}{f3})");
    O.Layouts.push_back(*L);
    return O;
  }
  StringRef Rest = Spec.drop_front(6);
  while (!Rest.empty()) {
    if (!Rest.consume_front("{"))
      return fail(O.Origin + ": expected '{' at '" + Rest + "'");
    auto [Group, After] = Rest.split('}');
    if (After.data() == nullptr || Group.size() == Rest.size())
      return fail(O.Origin + ": missing '}'");
    SmallVector<StringRef, 8> Names;
    Group.split(Names, ',', -1, /*KeepEmpty=*/false);
    std::vector<std::string> Fields;
    for (StringRef N : Names)
      if (!N.trim().empty())
        Fields.push_back(N.trim().str());
    if (Fields.empty())
      return fail(O.Origin + ": empty group {}");
    O.Groups.push_back(std::move(Fields));
    // An optional layout up to the next group.
    size_t Next = After.find('{');
    StringRef LayoutText = After.substr(0, Next).trim();
    Rest = Next == StringRef::npos ? StringRef() : After.substr(Next);
    if (LayoutText.empty()) {
      O.Layouts.push_back(Layout::aos());
      continue;
    }
    std::string Why;
    std::optional<Layout> L = Layout::parse(LayoutText, &Why);
    if (!L)
      return fail(O.Origin + ": " + Why + " after a group");
    O.Layouts.push_back(*L);
  }
  return O;
}

Expected<std::vector<PlanOverride>> dlopt::parsePlanFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return fail("cannot read plan '" + Path + "': " + Buf.getError().message());
  Expected<json::Value> Doc = json::parse((*Buf)->getBuffer());
  if (!Doc)
    return fail(Path + ": malformed JSON: " + toString(Doc.takeError()));
  const json::Object *Root = Doc->getAsObject();
  const json::Array *Records = Root ? Root->getArray("records") : nullptr;
  if (!Root || Root->getString("format") != StringRef("dlopt-plan") || !Records)
    return fail(Path + ": not a dlopt plan (\"format\": \"dlopt-plan\" with "
                       "\"records\" expected)");
  // Every writer puts "version": 1 (PlanPrinter's planToJson); a plan
  // written by hand may leave it out and is read as version 1. Any other
  // version may mean the clusters differently, so it is not guessed at.
  if (const json::Value *Version = Root->get("version"))
    if (Version->getAsInteger() != 1) {
      std::string Shown;
      raw_string_ostream(Shown) << *Version;
      return fail(Path + ": unsupported plan version " + Shown +
                  " (this dl-refactor reads version 1)");
    }
  std::vector<PlanOverride> Out;
  for (size_t I = 0; I < Records->size(); ++I) {
    std::string Where = (Path + ": records[" + Twine(I) + "]").str();
    const json::Object *R = (*Records)[I].getAsObject();
    std::optional<StringRef> Name = R ? R->getString("name") : std::nullopt;
    if (!Name)
      return fail(Where + ": missing \"name\"");
    const json::Array *Clusters = R->getArray("clusters");
    if (!Clusters)
      continue; // A record without a plan (e.g. not transformable).
    // No cluster would leave no layout for the record's fields.
    if (Clusters->empty())
      return fail(Where + ": \"clusters\" is empty (leave it out to keep "
                          "the automatic plan)");
    PlanOverride O;
    O.Record = Name->str();
    O.Origin = Where;
    for (size_t C = 0; C < Clusters->size(); ++C) {
      std::string CWhere = Where + ".clusters[" + std::to_string(C) + "]";
      const json::Object *Cl = (*Clusters)[C].getAsObject();
      const json::Array *Fields = Cl ? Cl->getArray("fields") : nullptr;
      std::optional<StringRef> LayoutText =
          Cl ? Cl->getString("layout") : std::nullopt;
      if (!Fields || !LayoutText)
        return fail(CWhere + ": needs \"fields\" and \"layout\"");
      std::string Why;
      std::optional<Layout> L = Layout::parse(*LayoutText, &Why);
      if (!L)
        return fail(CWhere + ": " + Why);
      std::vector<std::string> Names;
      for (const json::Value &F : *Fields) {
        std::optional<StringRef> N = F.getAsString();
        if (!N)
          return fail(CWhere + ": field names must be strings");
        Names.push_back(N->str());
      }
      O.Groups.push_back(std::move(Names));
      O.Layouts.push_back(*L);
    }
    Out.push_back(std::move(O));
  }
  return Out;
}

Error dlopt::applyOverride(RecordPlan &R, const PlanOverride &O) {
  std::vector<ClusterPlan> Clusters;
  std::vector<int> Owner(R.Fields.size(), -1);
  std::vector<std::vector<std::string>> Groups = O.Groups;
  if (Groups.empty()) {
    Groups.emplace_back();
    for (const Field &F : R.Fields)
      Groups.back().push_back(F.Name);
  }
  for (unsigned G = 0; G < Groups.size(); ++G) {
    ClusterPlan C;
    for (const std::string &Name : Groups[G]) {
      auto It = llvm::find_if(R.Fields,
                              [&](const Field &F) { return F.Name == Name; });
      if (It == R.Fields.end())
        return fail(O.Origin + ": struct " + R.Name + " has no field '" + Name +
                    "'");
      unsigned F = It - R.Fields.begin();
      if (Owner[F] >= 0)
        return fail(O.Origin + ": field '" + Name + "' is in two groups");
      Owner[F] = G;
      C.Fields.Fields.push_back(F);
    }
    llvm::sort(C.Fields.Fields);
    C.Features = clusterFeatures(R, C.Fields);
    C.Chosen = O.Layouts[G];
    C.Why.push_back("forced by " + O.Origin);
    Clusters.push_back(std::move(C));
  }
  for (unsigned F = 0; F < R.Fields.size(); ++F)
    if (Owner[F] < 0)
      return fail(O.Origin + ": field '" + R.Fields[F].Name + "' of struct " +
                  R.Name + " is in no group");
  R.Clusters = std::move(Clusters);
  return Error::success();
}
