//===- DecisionTree.cpp - The layout-selection model ----------------------===//
#include "analysis/DecisionTree.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace dlopt;
using namespace llvm;

namespace {
// Generated at build time from models/x86-64.json.
#include "analysis/BuiltinModel.inc"

/// Recursive-descent reader for the "tree" object; records the first error.
class TreeReader {
public:
  explicit TreeReader(StringRef Origin) : Origin(Origin) {}

  template <typename NodeT>
  bool read(const json::Value &V, std::vector<NodeT> &Nodes, unsigned &Id,
            const std::string &Where, unsigned Depth) {
    if (Depth > 64)
      return fail(Where, "tree deeper than 64 levels");
    const json::Object *O = V.getAsObject();
    if (!O)
      return fail(Where, "expected an object");
    Id = Nodes.size();
    Nodes.emplace_back();
    if (std::optional<StringRef> L = O->getString("layout")) {
      std::string Why;
      std::optional<Layout> Parsed = Layout::parse(*L, &Why);
      if (!Parsed)
        return fail(Where, Twine(Why) +
                               " (expected AoS, SoA or Tiled(T), T a power of "
                               "two from 2 to " +
                               Twine(Layout::MaxTile) + ")");
      Nodes[Id].Leaf = *Parsed;
      if (std::optional<StringRef> U = O->getString("untiled")) {
        std::optional<Layout> Untiled = Layout::parse(*U, &Why);
        if (!Untiled || Untiled->Kind == LayoutKind::Tiled)
          return fail(Where, "\"untiled\" must be AoS or SoA");
        Nodes[Id].LeafUntiled = *Untiled;
      }
      return true;
    }
    std::optional<StringRef> F = O->getString("feature");
    std::optional<double> T = O->getNumber("threshold");
    const json::Value *Left = O->get("left"), *Right = O->get("right");
    if (!F || !T || !Left || !Right)
      return fail(Where, "a node needs either \"layout\" or all of "
                         "\"feature\", \"threshold\", \"left\", \"right\"");
    if (!isKnownFeature(*F))
      return fail(Where, "unknown feature '" + F->str() + "'");
    Nodes[Id].Feature = F->str();
    Nodes[Id].Threshold = *T;
    unsigned L = 0, R = 0;
    if (!read(*Left, Nodes, L, Where + ".left", Depth + 1) ||
        !read(*Right, Nodes, R, Where + ".right", Depth + 1))
      return false;
    Nodes[Id].Left = L;
    Nodes[Id].Right = R;
    return true;
  }

  bool fail(const std::string &Where, const Twine &Msg) {
    if (Error.empty())
      Error = (Origin + ": " + Where + ": " + Msg).str();
    return false;
  }

  StringRef Origin;
  std::string Error;
};
} // namespace

Expected<DecisionTree> DecisionTree::parse(StringRef Json, StringRef Origin) {
  Expected<json::Value> Doc = json::parse(Json);
  if (!Doc)
    return createStringError(inconvertibleErrorCode(), "%s: malformed JSON: %s",
                             Origin.str().c_str(),
                             toString(Doc.takeError()).c_str());
  const json::Object *Root = Doc->getAsObject();
  if (!Root || Root->getString("format") != StringRef("dlopt-model"))
    return createStringError(inconvertibleErrorCode(),
                             "%s: not a dlopt model (\"format\": "
                             "\"dlopt-model\" missing)",
                             Origin.str().c_str());
  if (Root->getInteger("version") != 1)
    return createStringError(inconvertibleErrorCode(),
                             "%s: unsupported model version (expected 1)",
                             Origin.str().c_str());
  const json::Value *Tree = Root->get("tree");
  if (!Tree)
    return createStringError(inconvertibleErrorCode(),
                             "%s: the model has no \"tree\"",
                             Origin.str().c_str());
  DecisionTree Model;
  TreeReader Reader(Origin);
  unsigned RootId = 0;
  if (!Reader.read(*Tree, Model.Nodes, RootId, "tree", 0))
    return createStringError(inconvertibleErrorCode(), Reader.Error.c_str());
  Model.Name = Origin.str();
  Model.Target = Root->getString("target").value_or("unknown").str();
  std::optional<int64_t> Line = Root->getInteger("cache_line");
  if (Line && (*Line < 1 || *Line > 4096))
    return createStringError(inconvertibleErrorCode(),
                             "%s: \"cache_line\" must be 1 to 4096 bytes",
                             Origin.str().c_str());
  Model.CacheLine = Line ? unsigned(*Line) : 0;
  return Model;
}

Expected<DecisionTree> DecisionTree::loadFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Buf.getError(), "cannot read model '%s': %s",
                             Path.str().c_str(),
                             Buf.getError().message().c_str());
  return parse((*Buf)->getBuffer(), Path);
}

const DecisionTree &DecisionTree::builtin() {
  static const DecisionTree Model = [] {
    Expected<DecisionTree> M = parse(BuiltinModelJson, "builtin:x86-64");
    if (!M)
      report_fatal_error(M.takeError()); // A build defect, caught by tests.
    return std::move(*M);
  }();
  return Model;
}

const DecisionTree &DecisionTree::builtinKernels() {
  static const DecisionTree Model = [] {
    Expected<DecisionTree> M =
        parse(BuiltinKernelModelJson, "builtin:pocl-cpu");
    if (!M)
      report_fatal_error(M.takeError()); // A build defect, caught by tests.
    return std::move(*M);
  }();
  return Model;
}

const DecisionTree &DecisionTree::builtinCuda() {
  static const DecisionTree Model = [] {
    Expected<DecisionTree> M =
        parse(BuiltinCudaModelJson, "builtin:nvidia-h100");
    if (!M)
      report_fatal_error(M.takeError()); // A build defect, caught by tests.
    return std::move(*M);
  }();
  return Model;
}

Decision DecisionTree::decide(const FeatureVector &Features,
                              StringRef NoTilesBecause) const {
  Decision D;
  unsigned Id = 0;
  while (!Nodes[Id].Feature.empty()) {
    const Node &N = Nodes[Id];
    auto It = Features.find(N.Feature);
    double Value = It == Features.end() ? 0 : It->second;
    bool Left = Value <= N.Threshold;
    std::string Test;
    raw_string_ostream OS(Test);
    OS << N.Feature << "=" << format("%g", Value) << (Left ? " <= " : " > ")
       << format("%g", N.Threshold);
    D.Path.push_back(OS.str());
    Id = Left ? N.Left : N.Right;
  }
  D.Chosen = Nodes[Id].Leaf;
  if (!NoTilesBecause.empty() && D.Chosen.Kind == LayoutKind::Tiled) {
    const std::optional<Layout> &Best = Nodes[Id].LeafUntiled;
    D.Path.push_back(
        "not " + D.Chosen.str() + " (" + NoTilesBecause.str() + "): " +
        (Best ? "the leaf's best layout without tiles"
              : "the model names no layout without tiles for this leaf, "
                "SoA is the nearest to a tile"));
    D.Chosen = Best ? *Best : Layout::soa();
  }
  return D;
}
