//===- DecisionTreeTest.cpp - Loading and evaluating layout models --------===//
#include "analysis/DecisionTree.h"
#include "gtest/gtest.h"
#include <fstream>

using namespace dlopt;

namespace {
const char *TwoLevel = R"js({
  "format": "dlopt-model", "version": 1, "target": "test",
  "tree": { "feature": "gather_fraction", "threshold": 0.5,
            "right": { "layout": "AoS" },
            "left": { "feature": "cluster_bytes", "threshold": 8,
                      "left": { "layout": "SoA" },
                      "right": { "layout": "Tiled(32)" } } } })js";

DecisionTree load(const char *Json) {
  llvm::Expected<DecisionTree> T = DecisionTree::parse(Json, "test.json");
  EXPECT_TRUE(bool(T)) << (T ? "" : llvm::toString(T.takeError()));
  return std::move(*T);
}

std::string parseError(const char *Json) {
  llvm::Expected<DecisionTree> T = DecisionTree::parse(Json, "bad.json");
  if (T)
    return "";
  return llvm::toString(T.takeError());
}

TEST(DecisionTreeTest, WalksToTheLeafAndExplainsThePath) {
  DecisionTree T = load(TwoLevel);
  EXPECT_EQ(T.target(), "test");
  Decision D = T.decide({{"gather_fraction", 0}, {"cluster_bytes", 8}});
  EXPECT_EQ(D.Chosen, Layout::soa());
  ASSERT_EQ(D.Path.size(), 2u);
  EXPECT_EQ(D.Path[0], "gather_fraction=0 <= 0.5");
  EXPECT_EQ(D.Path[1], "cluster_bytes=8 <= 8");
  EXPECT_EQ(T.decide({{"gather_fraction", 0}, {"cluster_bytes", 9}}).Chosen,
            Layout::tiled(32));
  EXPECT_EQ(T.decide({{"gather_fraction", 0.75}}).Chosen, Layout::aos());
}

TEST(DecisionTreeTest, DecidesWithoutTilesWhereTheyCannotBeHad) {
  // The second tiled leaf names its best layout without tiles; the first
  // does not, and SoA stands in.
  DecisionTree T = load(R"js({"format": "dlopt-model", "version": 1,
      "tree": {"feature": "cluster_bytes", "threshold": 8,
               "left": {"layout": "Tiled(16)"},
               "right": {"layout": "Tiled(128)", "untiled": "AoS"}}})js");
  FeatureVector Small{{"cluster_bytes", 8}}, Wide{{"cluster_bytes", 16}};
  EXPECT_EQ(T.decide(Wide).Chosen, Layout::tiled(128));
  Decision D = T.decide(Wide, "sub-arrays");
  EXPECT_EQ(D.Chosen, Layout::aos());
  ASSERT_EQ(D.Path.size(), 2u);
  EXPECT_EQ(D.Path[1], "not Tiled(128) (sub-arrays): the leaf's best layout "
                       "without tiles");
  D = T.decide(Small, "sub-arrays");
  EXPECT_EQ(D.Chosen, Layout::soa());
  EXPECT_NE(D.Path.back().find("names no layout without tiles"),
            std::string::npos);
  // An untiled leaf is what it is.
  DecisionTree Flat = load(R"js({"format": "dlopt-model", "version": 1,
      "tree": {"layout": "AoS"}})js");
  EXPECT_EQ(Flat.decide(Wide, "sub-arrays").Chosen, Layout::aos());
  EXPECT_TRUE(Flat.decide(Wide, "sub-arrays").Path.empty());
}

TEST(DecisionTreeTest, RejectsBadModelsWithAReason) {
  EXPECT_NE(parseError("{").find("bad.json: malformed JSON"),
            std::string::npos);
  EXPECT_NE(parseError(R"js({"format": "other"})js").find("not a dlopt model"),
            std::string::npos);
  EXPECT_NE(parseError(R"js({"format": "dlopt-model", "version": 2,
                           "tree": {"layout": "AoS"}})js")
                .find("unsupported model version"),
            std::string::npos);
  EXPECT_NE(parseError(R"js({"format": "dlopt-model", "version": 1})js")
                .find("no \"tree\""),
            std::string::npos);
  EXPECT_EQ(parseError(R"js({"format": "dlopt-model", "version": 1,
      "tree": {"feature": "colour", "threshold": 1,
               "left": {"layout": "AoS"}, "right": {"layout": "SoA"}}})js"),
            "bad.json: tree: unknown feature 'colour'");
  EXPECT_EQ(parseError(R"js({"format": "dlopt-model", "version": 1,
      "tree": {"feature": "cluster_bytes", "threshold": 1,
               "left": {"layout": "AoS"}, "right": {"layout": "Tiled(3)"}}})js"),
            "bad.json: tree.right: unknown layout 'Tiled(3)' (expected AoS, "
            "SoA or Tiled(T), T a power of two from 2 to 32768)");
  // A tile above the largest tile class is refused on load, not at the
  // first decision that reaches it.
  EXPECT_EQ(parseError(R"js({"format": "dlopt-model", "version": 1,
      "tree": {"feature": "cluster_bytes", "threshold": 1,
               "left": {"layout": "Tiled(65536)"}, "right": {"layout": "AoS"}}})js"),
            "bad.json: tree.left: layout 'Tiled(65536)': tile 65536 is above "
            "32768 (2^15, the largest tile class) (expected AoS, SoA or "
            "Tiled(T), T a power of two from 2 to 32768)");
  EXPECT_EQ(parseError(R"js({"format": "dlopt-model", "version": 1,
      "tree": {"layout": "Tiled(16)", "untiled": "Tiled(4)"}})js"),
            "bad.json: tree: \"untiled\" must be AoS or SoA");
  EXPECT_NE(parseError(R"js({"format": "dlopt-model", "version": 1,
      "tree": {"feature": "cluster_bytes", "left": {"layout": "AoS"}}})js")
                .find("tree: a node needs"),
            std::string::npos);
}

TEST(DecisionTreeTest, MissingFileIsAnError) {
  llvm::Expected<DecisionTree> T =
      DecisionTree::loadFile("/nonexistent/dlopt-model.json");
  ASSERT_FALSE(bool(T));
  EXPECT_NE(llvm::toString(T.takeError()).find("cannot read model"),
            std::string::npos);
}

// The built-in model is models/x86-64.json, compiled in.
TEST(DecisionTreeTest, BuiltinModelIsTheShippedFile) {
  llvm::Expected<DecisionTree> File =
      DecisionTree::loadFile(DLOPT_SOURCE_DIR "/models/x86-64.json");
  ASSERT_TRUE(bool(File)) << llvm::toString(File.takeError());
  const DecisionTree &Builtin = DecisionTree::builtin();
  EXPECT_EQ(Builtin.target(), File->target());
  EXPECT_TRUE(llvm::StringRef(Builtin.target()).starts_with("x86-64"));
  // A cluster of 4 floats in a 32-byte record, read by a loop of 2^20
  // iterations: streamed as a[i], from an offset a[i + k], and gathered.
  FeatureVector Streaming = {
      {"cluster_bytes", 16},     {"cluster_fields", 4},
      {"cluster_share", 0.5},    {"max_field_bytes", 4},
      {"record_bytes", 32},      {"touched_fraction", 0.5},
      {"gather_fraction", 0},    {"write_fraction", 0.2},
      {"log2_executions", 20},   {"vectorizable", 1},
      {"loop_index_fraction", 1}};
  FeatureVector Offset = Streaming;
  Offset["loop_index_fraction"] = 0;
  FeatureVector Gathered = Offset;
  Gathered["gather_fraction"] = 1;
  FeatureVector ShortWholeGather = Gathered;
  ShortWholeGather["log2_executions"] = 12;
  ShortWholeGather["cluster_share"] = ShortWholeGather["touched_fraction"] = 1;
  FeatureVector Scalar = Streaming;
  Scalar["vectorizable"] = 0;
  for (const FeatureVector &F :
       {Streaming, Offset, Gathered, ShortWholeGather, Scalar})
    EXPECT_EQ(Builtin.decide(F).Chosen, File->decide(F).Chosen);
  // What the calibration measured (docs/calibration.md): a streamed,
  // vectorizable cluster leaves AoS; a tiled layout is chosen only where the
  // rewriter strip-mines (the flat form divides per access); random access
  // over the whole record in a loop that fits the caches stays AoS.
  EXPECT_NE(Builtin.decide(Streaming).Chosen.Kind, LayoutKind::AoS);
  EXPECT_NE(Builtin.decide(Offset).Chosen.Kind, LayoutKind::Tiled);
  EXPECT_EQ(Builtin.decide(ShortWholeGather).Chosen, Layout::aos());
}
// The built-in model for OpenCL kernels is models/pocl-cpu.json, compiled
// in: calibrated on PoCL's CPU device, where a streamed kernel cluster that
// is written too runs about twice as fast in SoA (docs/calibration.md).
TEST(DecisionTreeTest, BuiltinKernelModelIsTheShippedFile) {
  llvm::Expected<DecisionTree> File =
      DecisionTree::loadFile(DLOPT_SOURCE_DIR "/models/pocl-cpu.json");
  ASSERT_TRUE(bool(File)) << llvm::toString(File.takeError());
  const DecisionTree &Builtin = DecisionTree::builtinKernels();
  EXPECT_EQ(Builtin.target(), File->target());
  EXPECT_TRUE(llvm::StringRef(Builtin.target()).starts_with("pocl-cpu"));
  EXPECT_NE(Builtin.target(), DecisionTree::builtin().target());
  FeatureVector Streaming = {
      {"cluster_bytes", 16},     {"cluster_fields", 4},
      {"cluster_share", 0.5},    {"max_field_bytes", 4},
      {"record_bytes", 32},      {"touched_fraction", 0.5},
      {"gather_fraction", 0},    {"write_fraction", 0.2},
      {"log2_executions", 20},   {"vectorizable", 0},
      {"loop_index_fraction", 1}};
  EXPECT_EQ(Builtin.decide(Streaming).Chosen, File->decide(Streaming).Chosen);
  EXPECT_EQ(Builtin.decide(Streaming).Chosen, Layout::soa());
}
} // namespace
