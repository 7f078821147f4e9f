//===- Version.h - dlopt's version, as its front doors print it --*- C++
//-*-===//
//
// The version the CMake project declares, and the clang the tools and the
// plugin were built against (a plugin must be loaded by that clang).
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_VERSION_H
#define DLOPT_ANALYSIS_VERSION_H

#include <string>

namespace dlopt {

/// "X.Y.Z", the project's version.
const char *version();
/// "dlopt X.Y.Z\nbuilt with clang 19.1.N\n": what --version prints.
std::string versionText();

} // namespace dlopt

#endif
