//===- ThreadVarianceTest.cpp - What differs between work-items ----------===//
//
// Each case is an OpenCL C unit (its work-item functions are clang's
// builtins); the test asks the variance of its variables by name.
//
//===----------------------------------------------------------------------===//
#include "analysis/ThreadVariance.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <map>

using namespace clang;
using namespace dlopt;

namespace {

class Unit {
public:
  explicit Unit(const std::string &Code)
      : AST(tooling::buildASTFromCodeWithArgs(
            "float pick(unsigned *seed);\n" + Code,
            {"-x", "cl", "-cl-std=CL1.2"}, "input.cl")) {
    EXPECT_TRUE(AST);
    std::vector<const FunctionDecl *> Functions;
    for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
      if (const auto *FD = dyn_cast<FunctionDecl>(D);
          FD && FD->doesThisDeclarationHaveABody()) {
        Functions.push_back(FD);
        collectVars(FD);
      }
    Variances.emplace(AST->getASTContext(), Functions);
  }

  /// "uniform", "own" or "divergent", for the variable named \p Name.
  std::string of(const std::string &Name) const {
    auto It = Vars.find(Name);
    EXPECT_NE(It, Vars.end()) << Name;
    if (It == Vars.end())
      return "?";
    switch (Variances->of(It->second)) {
    case Variance::Uniform:
      return "uniform";
    case Variance::Own:
      return "own";
    case Variance::Divergent:
      return "divergent";
    }
    return "?";
  }

private:
  void collectVars(const FunctionDecl *FD) {
    struct Finder : RecursiveASTVisitor<Finder> {
      std::map<std::string, const VarDecl *> &Out;
      explicit Finder(std::map<std::string, const VarDecl *> &Out) : Out(Out) {}
      bool VisitVarDecl(VarDecl *VD) {
        Out[VD->getNameAsString()] = VD;
        return true;
      }
    } F(Vars);
    F.TraverseDecl(const_cast<FunctionDecl *>(FD));
  }

  std::unique_ptr<ASTUnit> AST;
  std::map<std::string, const VarDecl *> Vars;
  std::optional<ThreadVariance> Variances;
};

TEST(ThreadVariance, PositionsOffsetsAndStrides) {
  Unit U("__kernel void k(__global float *a, int n, int base) {\n"
         "  int own = get_global_id(0);\n"
         "  int shifted = own + base;\n"
         "  int strided = own * 4;\n"
         "  int halved = own / 2;\n"
         "  int row = get_global_id(1);\n"
         "  int uni = n * 2 + base;\n"
         "  int grid = own;\n"
         "  grid += n;\n"
         "}\n");
  EXPECT_EQ(U.of("own"), "own");
  EXPECT_EQ(U.of("shifted"), "own");
  EXPECT_EQ(U.of("strided"), "own");
  EXPECT_EQ(U.of("halved"), "own");
  EXPECT_EQ(U.of("row"), "uniform"); // a warp lies along dimension 0
  EXPECT_EQ(U.of("uni"), "uniform");
  EXPECT_EQ(U.of("grid"), "own");
  EXPECT_EQ(U.of("n"), "uniform"); // a kernel's arguments are everyone's
}

TEST(ThreadVariance, WhatAWorkItemLoadsIsItsOwnData) {
  Unit U("__kernel void k(__global const int *idx, __global float *a,\n"
         "                int n) {\n"
         "  int own = get_global_id(0);\n"
         "  int loaded = idx[own];\n"
         "  int start = loaded - loaded % 8;\n"
         "  for (int w = start; w < start + 8; ++w)\n"
         "    a[w] += 1;\n"
         "  int first = idx[0];\n"
         "  int product = own * own;\n"
         "  for (int j = 0; j < n; ++j)\n"
         "    a[j] += 1;\n"
         "  unsigned seed = own;\n"
         "  float r = pick(&seed);\n"
         "  float same = pick(0);\n"
         "}\n");
  EXPECT_EQ(U.of("loaded"), "divergent");
  EXPECT_EQ(U.of("start"), "divergent");
  EXPECT_EQ(U.of("w"), "divergent");   // a walk from a start of its own
  EXPECT_EQ(U.of("first"), "uniform"); // loaded where everyone loads
  EXPECT_EQ(U.of("product"), "divergent");
  EXPECT_EQ(U.of("j"), "uniform");   // everyone's loop
  EXPECT_EQ(U.of("r"), "divergent"); // its own generator's state
  EXPECT_EQ(U.of("same"), "uniform");
}

TEST(ThreadVariance, ParametersTakeWhatTheirCallersPass) {
  Unit U("float window(int nuc, int count, float e) {\n"
         "  int start = nuc * count;\n"
         "  return e + start;\n"
         "}\n"
         "float unused(int p) { return p; }\n"
         "__kernel void k(__global const int *mats, int count) {\n"
         "  int own = get_global_id(0);\n"
         "  int mat = mats[own];\n"
         "  window(mat, count, 1.0f);\n"
         "}\n");
  EXPECT_EQ(U.of("nuc"), "divergent");
  EXPECT_EQ(U.of("count"), "uniform");
  EXPECT_EQ(U.of("start"), "divergent"); // through the parameter
  EXPECT_EQ(U.of("p"), "uniform");       // no caller here
}

} // namespace
