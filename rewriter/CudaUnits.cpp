//===- CudaUnits.cpp - A CUDA file parsed for its host and device sides ---===//
//
// See CudaUnits.h.
//
//===----------------------------------------------------------------------===//
#include "rewriter/CudaUnits.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace clang::tooling;
using namespace dlopt;

/// The suffix that names a device-side unit ("k.cu (device side)"); units
/// are named in messages, so it reads as one.
static constexpr llvm::StringLiteral DeviceSuffix = " (device side)";

/// Where the stand-in header lives, in memory only (ClangTool keeps the
/// mapped path and text by reference).
static constexpr llvm::StringLiteral StandInDir = "/dlopt-cuda-stand-in";
static constexpr llvm::StringLiteral StandInHeader =
    "texture_fetch_functions.h";
static constexpr llvm::StringLiteral StandInPath =
    "/dlopt-cuda-stand-in/texture_fetch_functions.h";

bool dlopt::isCudaFile(llvm::StringRef Path) {
  return llvm::sys::path::extension(Path).equals_insensitive(".cu");
}

std::vector<std::string>
dlopt::withCudaDeviceSides(std::vector<std::string> Files) {
  std::vector<std::string> Out;
  for (std::string &F : Files) {
    bool Cuda = isCudaFile(F);
    Out.push_back(F);
    if (Cuda)
      Out.push_back(F + DeviceSuffix.str());
  }
  return Out;
}

std::optional<std::string> dlopt::cudaDeviceSideOf(llvm::StringRef Unit) {
  if (!Unit.consume_back(DeviceSuffix) || !isCudaFile(Unit))
    return std::nullopt;
  return Unit.str();
}

/// Whether \p Args choose the GPU architecture already.
static bool namesArchitecture(const CommandLineArguments &Args) {
  return llvm::any_of(Args, [](llvm::StringRef A) {
    return A.starts_with("--cuda-gpu-arch") || A.starts_with("--offload-arch");
  });
}

void dlopt::prepareCudaTool(ClangTool &Tool, bool DeviceSide) {
  Tool.appendArgumentsAdjuster(
      [DeviceSide](const CommandLineArguments &Args, StringRef) {
        CommandLineArguments Out = Args;
        Out.push_back("-Wno-unknown-cuda-version");
        if (!DeviceSide) {
          Out.push_back("--cuda-host-only");
        } else {
          Out.push_back("--cuda-device-only");
          if (!namesArchitecture(Args))
            Out.push_back("--cuda-gpu-arch=sm_90");
        }
        return Out;
      });
  Tool.mapVirtualFile(StandInPath, "/* dlopt: stand-in for a header CUDA 13 "
                              "removed (rewriter/CudaUnits.h) */\n");
}

void dlopt::addCudaStandIn(CompilerInstance &CI) {
  if (!CI.getLangOpts().CUDA)
    return;
  HeaderSearchOptions &HS = CI.getHeaderSearchOpts();
  // The toolkit's include directory: the one with cuda_runtime.h that the
  // driver put on the path.
  for (const HeaderSearchOptions::Entry &E : HS.UserEntries) {
    llvm::SmallString<256> Runtime(E.Path), Texture(E.Path);
    llvm::sys::path::append(Runtime, "cuda_runtime.h");
    llvm::sys::path::append(Texture, StandInHeader);
    if (!llvm::sys::fs::exists(Runtime))
      continue;
    if (!llvm::sys::fs::exists(Texture))
      HS.AddPath(StandInDir, frontend::System, /*IsFramework=*/false,
                 /*IgnoreSysRoot=*/true);
    return;
  }
}
