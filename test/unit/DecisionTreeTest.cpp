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
            "SoA or Tiled(T), T a power of two >= 2)");
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
  EXPECT_EQ(Builtin.target(), "x86-64");
  FeatureVector Streaming = {{"gather_fraction", 0},
                             {"cluster_fields", 4},
                             {"vectorizable", 1},
                             {"cluster_share", 0.5},
                             {"max_field_bytes", 4}};
  FeatureVector Gathered = Streaming;
  Gathered["gather_fraction"] = 1;
  FeatureVector Wide = Streaming;
  Wide["cluster_fields"] = 12;
  FeatureVector Scalar = Streaming;
  Scalar["vectorizable"] = 0;
  Scalar["cluster_share"] = 1;
  for (const FeatureVector &F : {Streaming, Gathered, Wide, Scalar})
    EXPECT_EQ(Builtin.decide(F).Chosen, File->decide(F).Chosen);
  // What design.md measured: random access over the record stays AoS, a
  // streaming vectorizable cluster goes SoA, many fields go tiled with
  // ~256 B per field block, and a whole record that cannot vectorize gains
  // nothing from moving.
  EXPECT_EQ(Builtin.decide(Gathered).Chosen, Layout::aos());
  EXPECT_EQ(Builtin.decide(Streaming).Chosen, Layout::soa());
  EXPECT_EQ(Builtin.decide(Wide).Chosen, Layout::tiled(64));
  EXPECT_EQ(Builtin.decide(Scalar).Chosen, Layout::aos());
}
} // namespace
