//===- Version.cpp - dlopt's version, as its front doors print it ---------===//
//
// DLOPT_VERSION comes from the CMake project (analysis/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
#include "analysis/Version.h"
#include "clang/Basic/Version.h"

const char *dlopt::version() { return DLOPT_VERSION; }

std::string dlopt::versionText() {
  return std::string("dlopt ") + DLOPT_VERSION +
         "\nbuilt with clang " CLANG_VERSION_STRING "\n";
}
