//===- CudaUnits.cpp - A CUDA file parsed for its host and device sides ---===//
//
// See CudaUnits.h.
//
//===----------------------------------------------------------------------===//
#include "rewriter/CudaUnits.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/ADT/StringExtras.h"
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

/// The GPU architecture of nvcc's -arch=sm_90, --gpu-architecture sm_90,
/// -gencode arch=compute_90,code=sm_90 (its code=), else "".
static std::string nvccArchitecture(StringRef Option) {
  if (size_t At = Option.rfind("sm_"); At != StringRef::npos)
    return Option.substr(At)
        .take_while([](char C) { return llvm::isAlnum(C) || C == '_'; })
        .str();
  return "";
}

/// nvcc's options that take the next argument as their value, none of
/// which clang needs.
static bool takesValue(StringRef A) {
  return llvm::is_contained({"-Xptxas",
                             "-Xcudafe",
                             "-Xlinker",
                             "-Xnvlink",
                             "-Xarchive",
                             "--ptxas-options",
                             "--linker-options",
                             "-ccbin",
                             "--compiler-bindir",
                             "-x",
                             "--x",
                             "-t",
                             "--threads",
                             "-maxrregcount",
                             "--maxrregcount",
                             "-rdc",
                             "--relocatable-device-code",
                             "-MF",
                             "-MT",
                             "-MQ",
                             "-odir",
                             "--output-directory",
                             "-Xfatbin",
                             "--diag-suppress"},
                            A);
}

/// An nvcc command (a CMake CUDA project's compile database) as clang's:
/// the preprocessor's options, the language standard, the optimization
/// level and the host compiler's options (-Xcompiler) kept, the GPU
/// architecture translated, nvcc's own options (and its warning options,
/// whose spelling is its own: -Werror all-warnings) left out.
static CommandLineArguments fromNvcc(const CommandLineArguments &Args) {
  CommandLineArguments Out = {Args.front()};
  auto Keep = [&](StringRef A) {
    return A.starts_with("-D") || A.starts_with("-I") || A.starts_with("-U") ||
           A.starts_with("-std=") || A.starts_with("-O") ||
           A.starts_with("-isystem") || A == "-c" || !A.starts_with("-");
  };
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    bool Separate = A == "-D" || A == "-I" || A == "-U" || A == "-isystem" ||
                    A == "-include" || A == "-o";
    bool Argument = I + 1 < Args.size();
    if ((A == "-Xcompiler" || A == "--compiler-options") && Argument) {
      llvm::SmallVector<StringRef, 4> Parts;
      StringRef(Args[++I]).split(Parts, ',', -1, false);
      for (StringRef P : Parts)
        Out.push_back(P.str());
    } else if ((A == "-arch" || A == "--gpu-architecture" || A == "-gencode") &&
               Argument) {
      if (std::string Arch = nvccArchitecture(Args[++I]); !Arch.empty())
        Out.push_back("--cuda-gpu-arch=" + Arch);
    } else if (A.starts_with("-arch=") || A.starts_with("-gencode=") ||
               A.starts_with("--gpu-architecture=")) {
      if (std::string Arch = nvccArchitecture(A); !Arch.empty())
        Out.push_back("--cuda-gpu-arch=" + Arch);
    } else if (Separate && Argument) {
      Out.push_back(Args[I]);
      Out.push_back(Args[++I]);
    } else if (takesValue(A) ||
               (A == "-Werror" && Argument && !Args[I + 1].empty() &&
                Args[I + 1][0] != '-')) {
      I += Argument; // An nvcc option and its value.
    } else if (Keep(A)) {
      Out.push_back(Args[I]);
    }
  }
  return Out;
}

/// clang's command with nvcc's spellings of the GPU architecture, which a
/// user may give after `--` as they give them to nvcc (-arch=sm_90,
/// --gpu-architecture=sm_90), in clang's.
static CommandLineArguments
nvccArchitectures(const CommandLineArguments &Args) {
  CommandLineArguments Out;
  for (const std::string &A : Args) {
    StringRef Arg = A;
    if (Arg.starts_with("-arch=sm_") ||
        Arg.starts_with("--gpu-architecture=sm_"))
      Out.push_back("--cuda-gpu-arch=" + nvccArchitecture(Arg));
    else
      Out.push_back(A);
  }
  return Out;
}

void dlopt::prepareCudaTool(ClangTool &Tool, bool DeviceSide) {
  Tool.appendArgumentsAdjuster([DeviceSide](const CommandLineArguments &Args,
                                            StringRef) {
    bool Nvcc = !Args.empty() && llvm::sys::path::stem(Args.front()) == "nvcc";
    CommandLineArguments Out = Nvcc ? fromNvcc(Args) : nvccArchitectures(Args);
    Out.push_back("-Wno-unknown-cuda-version");
    if (!DeviceSide) {
      Out.push_back("--cuda-host-only");
    } else {
      Out.push_back("--cuda-device-only");
      if (!namesArchitecture(Out))
        Out.push_back("--cuda-gpu-arch=sm_90");
    }
    return Out;
  });
  Tool.mapVirtualFile(StandInPath, "/* dlopt: stand-in for a header CUDA 13 "
                                   "removed (rewriter/CudaUnits.h) */\n");
}

void dlopt::prepareNvccHostTool(ClangTool &Tool) {
  Tool.appendArgumentsAdjuster([](const CommandLineArguments &Args, StringRef) {
    if (Args.empty() || llvm::sys::path::stem(Args.front()) != "nvcc")
      return Args;
    CommandLineArguments Out = fromNvcc(Args);
    llvm::erase_if(Out, [](const std::string &A) {
      return StringRef(A).starts_with("--cuda-gpu-arch=");
    });
    return Out;
  });
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
    // CUDA 13 moved Thrust, CUB and libcu++ to include/cccl, which nvcc
    // puts on the path and clang 19's driver does not.
    llvm::SmallString<256> Cccl(E.Path), Thrust(E.Path), Moved;
    llvm::sys::path::append(Cccl, "cccl");
    llvm::sys::path::append(Thrust, "thrust");
    llvm::sys::path::append(Moved = Cccl, "thrust");
    if (!llvm::sys::fs::is_directory(Thrust) &&
        llvm::sys::fs::is_directory(Moved))
      HS.AddPath(Cccl, frontend::System, /*IsFramework=*/false,
                 /*IgnoreSysRoot=*/true);
    return;
  }
}
