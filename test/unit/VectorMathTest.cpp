//===- VectorMathTest.cpp - Math calls a vectorized loop can make ---------===//
//
// Each case is a function `f` whose body is asked about: the builtins it
// calls, and whether it pairs sin and cos of one value.
//
//===----------------------------------------------------------------------===//
#include "analysis/VectorMath.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace dlopt;

namespace {

/// The body of f and the builtins it calls, by name.
class Calls : public RecursiveASTVisitor<Calls> {
public:
  const Stmt *Body = nullptr;
  std::map<std::string, unsigned> Builtins;
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->getName() == "f" && FD->hasBody())
      Body = FD->getBody();
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *FD = Call->getDirectCallee())
      if (unsigned ID = FD->getBuiltinID())
        Builtins[FD->getName().str()] = ID;
    return true;
  }
};

struct Parsed {
  std::unique_ptr<ASTUnit> AST;
  Calls Found;
};

std::unique_ptr<Parsed> parse(const std::string &Code, bool Cxx = false) {
  auto P = std::make_unique<Parsed>();
  P->AST = Cxx ? tooling::buildASTFromCodeWithArgs(
                     "#include <cmath>\n" + Code, {"-std=c++17", "-ffast-math"},
                     "input.cpp")
               : tooling::buildASTFromCodeWithArgs("#include <math.h>\n" + Code,
                                                   {"-std=c11", "-ffast-math"},
                                                   "input.c");
  EXPECT_TRUE(P->AST);
  if (P->AST)
    P->Found.TraverseDecl(P->AST->getASTContext().getTranslationUnitDecl());
  return P;
}

TEST(VectorMathTest, FunctionsWithAndWithoutVectorForms) {
  auto P = parse("double f(float x, double y, long double z) {\n"
                 "  return expf(x) + erf(y) + erff(x) + sqrt(y) + fmodf(x, 2)"
                 " + fmod(y, 2) + expl(z) + ceil(y) + remainderf(x, 3);\n}\n");
  ASSERT_TRUE(P->AST);
  const ASTContext &Ctx = P->AST->getASTContext();
  auto Has = [&](const char *Name) {
    auto It = P->Found.Builtins.find(Name);
    EXPECT_NE(It, P->Found.Builtins.end()) << Name;
    return It != P->Found.Builtins.end() && hasVectorForm(It->second, Ctx);
  };
  EXPECT_TRUE(Has("expf"));
  EXPECT_TRUE(Has("erf")); // The double version ends in f too.
  EXPECT_TRUE(Has("erff"));
  EXPECT_TRUE(Has("sqrt"));
  EXPECT_TRUE(Has("ceil")); // And the double ceil in l.
  EXPECT_FALSE(Has("fmodf"));
  EXPECT_FALSE(Has("fmod"));
  EXPECT_FALSE(Has("expl")); // No long double vector forms.
  EXPECT_FALSE(Has("remainderf"));
}

bool pairs(const std::string &Code, bool Cxx = false) {
  auto P = parse(Code, Cxx);
  EXPECT_TRUE(P->AST && P->Found.Body);
  return P->AST && P->Found.Body &&
         callsSinAndCosOfOneValue(P->Found.Body, P->AST->getASTContext());
}

TEST(VectorMathTest, SinAndCosOfOneValue) {
  EXPECT_TRUE(pairs("void f(float *x, float *y, float h) {\n"
                    "  *x += cosf(h); *y += sinf(h); }\n"));
  EXPECT_TRUE(pairs("void f(float *x, float *y, const float *h) {\n"
                    "  *x += cosf(h[0] * 2); *y += sinf((h[0] * 2)); }\n"));
  // Different arguments, or precisions, are two calls gcc keeps apart.
  EXPECT_FALSE(pairs("void f(float *x, float *y, float h, float g) {\n"
                     "  *x += cosf(h); *y += sinf(g); }\n"));
  EXPECT_FALSE(pairs("void f(double *x, float *y, float h) {\n"
                     "  *x += cos(h); *y += sinf(h); }\n"));
  EXPECT_FALSE(
      pairs("void f(float *x, float h) { *x += sinf(h) + sinf(h); }\n"));
}

TEST(VectorMathTest, SinAndCosOfOneValueThroughCxxOverloads) {
  // <cmath>'s std::cos(float) returns __builtin_cosf of its parameter.
  EXPECT_TRUE(pairs("void f(float &x, float &y, float h) {\n"
                    "  x += std::cos(h); y += std::sin(h); }\n",
                    /*Cxx=*/true));
  EXPECT_FALSE(pairs("void f(float &x, double &y, float h) {\n"
                     "  x += std::cos(h); y += std::sin(double(h)); }\n",
                     /*Cxx=*/true));
}

} // namespace
