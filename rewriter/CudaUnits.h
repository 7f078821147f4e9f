//===- CudaUnits.h - A CUDA file parsed for its host and device sides -*- C++
//-*-===//
//
// A .cu file is compiled twice, once for the host and once for the GPU, and
// code under `#ifdef __CUDA_ARCH__` is seen by the device side only. So the
// tool analyses and rewrites each .cu file as two units of the program: the
// file for the host (`--cuda-host-only`) and the same file for the device
// (`--cuda-device-only`, for sm_90 unless its command names an
// architecture). Their edits of the file must agree, as those of two units
// including one header must (ProgramRefactor step 4); where they differ,
// nothing is written and the message says so. A command of nvcc (a CMake
// CUDA project's compile database) is read as clang's: its preprocessor,
// language and host compiler options, its GPU architecture.
//
// clang 19 knows CUDA up to 12.5: a newer toolkit draws a warning
// (-Wunknown-cuda-version, silenced here) and its CUDA wrapper header still
// includes texture_fetch_functions.h, which CUDA 13 removed (LLVM later
// stopped including it). Where the toolkit clang itself found (the include
// directory its driver adds) lacks that header, the parse gets an empty one
// from memory on an include path of its own; nothing is written to disk.
// CUDA 13 also moved Thrust, CUB and libcu++ to include/cccl, which nvcc
// adds to the path and clang 19 does not: added where the toolkit has it.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_CUDAUNITS_H
#define DLOPT_REWRITER_CUDAUNITS_H

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace dlopt {

/// Whether \p Path names a CUDA file (.cu).
bool isCudaFile(llvm::StringRef Path);

/// \p Files with, after each CUDA file, the unit of its device side.
std::vector<std::string> withCudaDeviceSides(std::vector<std::string> Files);

/// The file of the device-side unit \p Unit, if it is one.
std::optional<std::string> cudaDeviceSideOf(llvm::StringRef Unit);

/// Prepares \p Tool to parse a CUDA file for the host, or for the device
/// if \p DeviceSide: the side's options, and the empty stand-in header
/// mapped in memory (used only where addCudaStandIn adds its directory).
void prepareCudaTool(clang::tooling::ClangTool &Tool, bool DeviceSide);

/// Prepares \p Tool to parse a C or C++ file whose compile command is
/// nvcc's (a project that builds its host files with nvcc too, which hands
/// them to the host compiler as they are): nvcc's options as clang's, with
/// no GPU architecture.
void prepareNvccHostTool(clang::tooling::ClangTool &Tool);

/// Adds the stand-in header's directory to \p CI's include path if the
/// CUDA toolkit its driver found lacks texture_fetch_functions.h. Called
/// before the preprocessor is set up (FrontendAction::BeginInvocation).
void addCudaStandIn(clang::CompilerInstance &CI);

} // namespace dlopt

#endif
