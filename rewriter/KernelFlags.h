//===- KernelFlags.h - The command line of an OpenCL kernel file -*- C++
//-*-===//
//
// An OpenCL program's kernel files are not compiled with the host's flags:
// the host passes its own options string to clBuildProgram at run time. So
// a .cl file is parsed as OpenCL C 1.2 with only the -D, -I and -U of the
// command line (FLAGS after --) plus the options the host code passes to
// clBuildProgram as a string literal, or with --kernel-flags instead of
// those options when given.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_KERNELFLAGS_H
#define DLOPT_REWRITER_KERNELFLAGS_H

#include "clang/Tooling/CompilationDatabase.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlopt {

/// Whether \p Path names an OpenCL C kernel file (.cl).
bool isKernelFile(llvm::StringRef Path);

/// The options the host files among \p Files pass to clBuildProgram as
/// string literals (lexed, not parsed: the host need not compile for this),
/// split into words; nullopt if different calls pass different options
/// (with them in \p Conflict). \p Computed, if given, gets "file:line" of
/// the first call whose options are neither literals nor NULL.
std::optional<std::vector<std::string>>
clBuildOptions(const std::vector<std::string> &Files, std::string &Conflict,
               std::string *Computed = nullptr);

/// The options kernel files are parsed with besides their -D/-I/-U: \p Given
/// (--kernel-flags) split into words, else the host's clBuildProgram
/// options; where those differ, none, and \p Warning says so.
std::vector<std::string>
kernelFileFlags(const std::vector<std::string> &Files,
                const std::optional<std::string> &Given, std::string &Warning);

/// \p Base, with the command of each kernel file reduced to the -D, -I and
/// -U of its command plus \p KernelFlags (and -cl-std=CL1.2 unless they
/// name a version), and __OPENCL_VERSION__ defined as a device compiler
/// does. Host files keep their command.
std::unique_ptr<clang::tooling::CompilationDatabase>
withKernelFlags(const clang::tooling::CompilationDatabase &Base,
                std::vector<std::string> KernelFlags);

} // namespace dlopt

#endif
