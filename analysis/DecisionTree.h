//===- DecisionTree.h - The layout-selection model --------------*- C++ -*-===//
//
// A binary decision tree over ClusterFeatures whose leaves are layouts. It is
// loaded from a model file (JSON, format below); the default x86-64 model is
// compiled into the library so the plugin works without any file around.
//
//   { "format": "dlopt-model", "version": 1, "target": "x86-64",
//     "description": "...",
//     "tree": { "feature": "gather_fraction", "threshold": 0.5,
//               "left":  { ... taken when feature <= threshold ... },
//               "right": { "layout": "AoS" } } }
//
// A leaf whose layout is tiled may also name the best layout without tiles
// ("untiled": "SoA" or "AoS"), measured over the same configurations: the
// layout a record takes where the program's transfers cannot carry tiles.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_DECISIONTREE_H
#define DLOPT_ANALYSIS_DECISIONTREE_H

#include "analysis/ClusterFeatures.h"
#include "analysis/Layout.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace dlopt {

struct Decision {
  Layout Chosen;
  /// The tests on the path to the leaf, e.g. "gather_fraction=0 <= 0.5".
  std::vector<std::string> Path;
};

class DecisionTree {
public:
  /// Parses a model; errors name \p Origin and what is wrong.
  static llvm::Expected<DecisionTree> parse(llvm::StringRef Json,
                                            llvm::StringRef Origin);
  static llvm::Expected<DecisionTree> loadFile(llvm::StringRef Path);
  /// The model shipped with dlopt (models/x86-64.json).
  static const DecisionTree &builtin();
  /// The model for OpenCL kernels shipped with dlopt, calibrated on PoCL's
  /// CPU device (models/pocl-cpu.json).
  static const DecisionTree &builtinKernels();
  /// The model for CUDA kernels shipped with dlopt: calibrated on an NVIDIA
  /// H100 (models/nvidia-h100.json; the hand rules it replaced are
  /// models/nvidia-rules.json, for --model).
  static const DecisionTree &builtinCuda();

  /// The leaf's layout for \p Features. Where the leaf is tiled and
  /// \p NoTilesBecause says why tiles cannot be had: the leaf's "untiled"
  /// layout, else SoA (what a large tile is closest to), the reason in the
  /// path.
  Decision decide(const FeatureVector &Features,
                  llvm::StringRef NoTilesBecause = "") const;

  const std::string &name() const { return Name; }
  const std::string &target() const { return Target; }
  /// The target's epsilon ("cache_line": a CPU's cache line, a GPU's
  /// memory sector), 0 if the model does not say.
  unsigned cacheLine() const { return CacheLine; }

private:
  struct Node {
    std::string Feature; // Empty for a leaf.
    double Threshold = 0;
    unsigned Left = 0, Right = 0;
    Layout Leaf;
    /// The leaf's best layout without tiles, if the model names one.
    std::optional<Layout> LeafUntiled;
  };
  std::vector<Node> Nodes; // Nodes[0] is the root.
  std::string Name, Target;
  unsigned CacheLine = 0;
};

} // namespace dlopt

#endif
