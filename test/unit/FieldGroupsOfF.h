//===- FieldGroupsOfF.h - The field groups a finder reports for f -*- C++
//-*-===//
//
// Shared by the tests of the finders of ElementFields (HeldElements,
// VectorStores): each case is a function `f` over arrays of a record `F`.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_TEST_UNIT_FIELDGROUPSOFF_H
#define DLOPT_TEST_UNIT_FIELDGROUPSOFF_H

#include "analysis/HeldElements.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

namespace dlopt {

using FieldGroupFinder = std::vector<ElementFields> (*)(
    clang::ASTContext &, const clang::FunctionDecl *,
    llvm::function_ref<bool(const clang::RecordDecl *)>);

/// Parses \p Code as C++17, runs \p Find on each function named f with the
/// record F as the only candidate, and spells each group it reports as
/// "x,y" with the field names \p Names.
inline std::vector<std::string>
fieldGroupsOfF(const std::string &Code, FieldGroupFinder Find,
               const std::vector<std::string> &Names) {
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"},
                                               "input.cpp");
  EXPECT_TRUE(AST);
  if (!AST)
    return {};
  clang::ASTContext &Ctx = AST->getASTContext();
  std::vector<std::string> Out;
  for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D);
    if (!FD || FD->getName() != "f")
      continue;
    for (const ElementFields &G :
         Find(Ctx, FD, [](const clang::RecordDecl *RD) {
           return RD->getName() == "F";
         })) {
      std::string S;
      for (unsigned I : G.Fields)
        S += (S.empty() ? "" : ",") + Names[I];
      Out.push_back(S);
    }
  }
  return Out;
}

} // namespace dlopt

#endif
