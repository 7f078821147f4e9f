//===- KernelFlags.cpp - The command line of an OpenCL kernel file --------===//
//
// See KernelFlags.h.
//
//===----------------------------------------------------------------------===//
#include "rewriter/KernelFlags.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace clang::tooling;
using namespace dlopt;

bool dlopt::isKernelFile(llvm::StringRef Path) {
  return llvm::sys::path::extension(Path).equals_insensitive(".cl");
}

/// The string literals that make the fourth argument of each call of
/// clBuildProgram in \p Text; the lines of the calls whose options are
/// something else (a string built at run time, Rodinia's `clOptions`) go to
/// \p Computed (NULL or 0, no options, is not that).
static std::vector<std::string>
buildOptionsIn(llvm::StringRef Text, std::vector<unsigned> &Computed) {
  LangOptions LO;
  LO.LineComment = true;
  LO.C99 = true;
  Lexer Lex(SourceLocation(), LO, Text.begin(), Text.begin(), Text.end());
  std::vector<Token> Tokens;
  for (Token T; !Lex.LexFromRawLexer(T);)
    Tokens.push_back(T);
  std::vector<std::string> Found;
  for (size_t I = 0; I + 1 < Tokens.size(); ++I) {
    if (!Tokens[I].is(tok::raw_identifier) ||
        Tokens[I].getRawIdentifier() != "clBuildProgram" ||
        !Tokens[I + 1].is(tok::l_paren))
      continue;
    unsigned Depth = 0, Arg = 0;
    std::string Options;
    bool Literal = true, Any = false, None = false;
    for (size_t J = I + 1; J < Tokens.size(); ++J) {
      const Token &T = Tokens[J];
      if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace))
        ++Depth;
      else if (T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace)) {
        if (--Depth == 0)
          break;
      } else if (Depth == 1 && T.is(tok::comma))
        ++Arg;
      else if (Depth == 1 && Arg == 3) {
        // Raw tokens: a literal's text, or an identifier's name.
        llvm::StringRef Spelling =
            T.is(tok::raw_identifier)
                ? T.getRawIdentifier()
                : (T.isLiteral()
                       ? llvm::StringRef(T.getLiteralData(), T.getLength())
                       : llvm::StringRef());
        if (T.is(tok::string_literal) && Spelling.size() >= 2) {
          Options += Spelling.drop_front().drop_back().str();
          Any = true;
        } else {
          Literal = false;
          None = Spelling == "NULL" || Spelling == "0" || Spelling == "nullptr";
        }
      }
    }
    if (Literal && Any)
      Found.push_back(Options);
    else if (!Literal && !None)
      Computed.push_back(
          1 + Text.take_front(Tokens[I].getRawIdentifier().data() - Text.data())
                  .count('\n'));
  }
  return Found;
}

std::optional<std::vector<std::string>>
dlopt::clBuildOptions(const std::vector<std::string> &Files,
                      std::string &Conflict, std::string *Computed) {
  std::optional<std::string> Options;
  for (const std::string &File : Files) {
    if (isKernelFile(File))
      continue;
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    if (!Buffer)
      continue;
    std::vector<unsigned> Lines;
    std::vector<std::string> Found =
        buildOptionsIn((*Buffer)->getBuffer(), Lines);
    if (Computed && !Lines.empty() && Computed->empty())
      *Computed = File + ":" + std::to_string(Lines.front());
    for (const std::string &O : Found) {
      if (Options && *Options != O) {
        Conflict = "\"" + *Options + "\" and \"" + O + "\"";
        return std::nullopt;
      }
      Options = O;
    }
  }
  std::vector<std::string> Words;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  std::string All = Options.value_or("");
  llvm::StringRef(All).split(Parts, ' ', -1, false);
  for (llvm::StringRef P : Parts)
    if (!P.trim().empty())
      Words.push_back(P.trim().str());
  return Words;
}

std::vector<std::string>
dlopt::kernelFileFlags(const std::vector<std::string> &Files,
                       const std::optional<std::string> &Given,
                       std::string &Warning) {
  if (Given) {
    llvm::SmallVector<llvm::StringRef, 8> Words;
    llvm::StringRef(*Given).split(Words, ' ', -1, false);
    return std::vector<std::string>(Words.begin(), Words.end());
  }
  std::string Conflict, Computed;
  if (std::optional<std::vector<std::string>> Options =
          clBuildOptions(Files, Conflict, &Computed)) {
    if (!Computed.empty())
      Warning = Computed +
                ": clBuildProgram's options are not a string literal: "
                "kernel files are parsed without them (name them with "
                "--kernel-flags)";
    return *Options;
  }
  Warning = "the host passes clBuildProgram different options (" + Conflict +
            "): kernel files are parsed with neither (name them with "
            "--kernel-flags)";
  return {};
}

namespace {

/// The -D, -I and -U options of \p Args (joined or separate).
std::vector<std::string>
preprocessorOptions(const std::vector<std::string> &Args) {
  std::vector<std::string> Kept;
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "-D" || A == "-I" || A == "-U") {
      if (I + 1 < Args.size()) {
        Kept.push_back(Args[I]);
        Kept.push_back(Args[++I]);
      }
    } else if (A.starts_with("-D") || A.starts_with("-I") ||
               A.starts_with("-U")) {
      Kept.push_back(Args[I]);
    }
  }
  return Kept;
}

/// OpenCL's build options clang's driver takes: the others (a vendor's)
/// would stop the parse, and -Werror would stop it on clang's warnings,
/// which are not the device compiler's.
bool clangTakes(llvm::StringRef Option) {
  return Option.starts_with("-D") || Option.starts_with("-I") ||
         Option.starts_with("-U") || Option.starts_with("-cl-std=") ||
         llvm::is_contained(
             {"-cl-fast-relaxed-math", "-cl-mad-enable", "-cl-finite-math-only",
              "-cl-unsafe-math-optimizations", "-cl-no-signed-zeros",
              "-cl-denorms-are-zero", "-cl-single-precision-constant",
              "-cl-opt-disable", "-cl-strict-aliasing", "-cl-kernel-arg-info",
              "-cl-fp32-correctly-rounded-divide-sqrt",
              "-cl-uniform-work-group-size"},
             Option);
}

/// The value a device compiler gives __OPENCL_VERSION__ for OpenCL C
/// \p Std ("CL1.2", "CL3.0"): the device's OpenCL version, which every
/// device compiler defines (PoCL, vendors' drivers) and clang does not.
/// Headers shared with the host test it to tell the kernels' side; the
/// device is not known here, so the language version stands for it.
static std::string deviceVersion(llvm::StringRef Std) {
  Std.consume_front_insensitive("CL");
  auto [Major, Minor] = Std.split('.');
  unsigned M = 1, N = 2;
  if (Major.getAsInteger(10, M) || Minor.getAsInteger(10, N))
    return "120";
  return std::to_string(M * 100 + N * 10);
}

class KernelFlagsDatabase : public CompilationDatabase {
public:
  KernelFlagsDatabase(const CompilationDatabase &Base,
                      std::vector<std::string> Flags)
      : Base(Base), Flags(std::move(Flags)) {}

  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<CompileCommand> Commands = Base.getCompileCommands(File);
    if (!isKernelFile(File))
      return Commands;
    for (CompileCommand &C : Commands) {
      if (C.CommandLine.empty())
        continue;
      std::vector<std::string> Args = {C.CommandLine.front()};
      std::string Version = "CL1.2";
      for (const std::string &F : Flags)
        if (llvm::StringRef(F).starts_with("-cl-std="))
          Version = llvm::StringRef(F).drop_front(8).str();
      // First, so that the file's own -D or -U of it wins.
      Args.push_back("-D__OPENCL_VERSION__=" + deviceVersion(Version));
      for (std::string &A : preprocessorOptions(C.CommandLine))
        Args.push_back(std::move(A));
      for (size_t I = 0; I < Flags.size(); ++I) {
        llvm::StringRef F = Flags[I];
        // `-I dir`, `-D NAME` as two words: both, or the option would take
        // the next flag for its argument.
        if (F == "-D" || F == "-I" || F == "-U") {
          if (I + 1 < Flags.size()) {
            Args.push_back(Flags[I]);
            Args.push_back(Flags[++I]);
          }
        } else if (clangTakes(F) && !F.starts_with("-cl-std=")) {
          Args.push_back(Flags[I]);
        }
      }
      Args.push_back("-cl-std=" + Version);
      Args.push_back(C.Filename);
      C.CommandLine = std::move(Args);
    }
    return Commands;
  }
  std::vector<std::string> getAllFiles() const override {
    return Base.getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    std::vector<CompileCommand> All;
    for (const std::string &File : getAllFiles())
      for (CompileCommand &C : getCompileCommands(File))
        All.push_back(std::move(C));
    return All;
  }

private:
  const CompilationDatabase &Base;
  std::vector<std::string> Flags;
};

} // namespace

std::unique_ptr<CompilationDatabase>
dlopt::withKernelFlags(const CompilationDatabase &Base,
                       std::vector<std::string> KernelFlags) {
  return std::make_unique<KernelFlagsDatabase>(Base, std::move(KernelFlags));
}
