//===- CudaCalls.cpp - The CUDA runtime's calls on a record's arrays ------===//
//
// The part of UseClassifier that decides calls of the CUDA runtime that
// allocate, copy, fill and release device (or pinned, or managed) memory
// holding a record's array: cudaMalloc(&d, n * sizeof(T)) and its kin,
// cudaMemcpy(dst, src, n * sizeof(T), kind) and cudaMemcpyAsync,
// cudaMemset(d, c, n * sizeof(T)) and cudaMemsetAsync, cudaFree(d). Device
// memory is an array of T like any other (`T *d`), so in the whole-program
// strategy it takes the layout with the host's arrays: each call works per
// array of the layout, as the C library's memcpy does (LibraryCalls.cpp),
// through a helper named after it (T_soa_cudaMalloc(&d, n) ...) that
// returns the first error. Launches are calls of the kernel, whose
// parameter becomes a handle (UseClassifier::callUse). Copies of a
// sub-array are not followed yet.
//
//===----------------------------------------------------------------------===//
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace dlopt;

static constexpr CudaFunction CudaFunctions[] = {
    {"cudaMalloc", CudaCall::Allocation, "", "", "cudaFree"},
    {"cudaMallocManaged", CudaCall::Allocation, "unsigned int flags",
     "cudaMemAttachGlobal", "cudaFree"},
    {"cudaMallocHost", CudaCall::Allocation, "", "", "cudaFreeHost"},
    {"cudaHostAlloc", CudaCall::Allocation, "unsigned int flags", "",
     "cudaFreeHost"},
    {"cudaFree", CudaCall::Release, "", "", ""},
    {"cudaFreeHost", CudaCall::Release, "", "", ""},
    {"cudaMemcpy", CudaCall::Copy, "", "", ""},
    {"cudaMemcpyAsync", CudaCall::Copy, "cudaStream_t stream", "0", ""},
    {"cudaMemset", CudaCall::Fill, "", "", ""},
    {"cudaMemsetAsync", CudaCall::Fill, "cudaStream_t stream", "0", ""},
};

llvm::ArrayRef<CudaFunction> dlopt::cudaFunctions() { return CudaFunctions; }

unsigned CudaFunction::kindArgs() const {
  switch (Kind) {
  case CudaCall::Allocation:
    return 2; // &d, bytes
  case CudaCall::Release:
    return 1; // d
  case CudaCall::Copy:
    return 4; // dst, src, bytes, kind
  case CudaCall::Fill:
    return 3; // d, value, bytes
  case CudaCall::None:
    break;
  }
  return 0;
}

const CudaFunction *UseClassifier::cudaFunction(const CallExpr *Call) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier())
    return nullptr;
  unsigned Args = Call->getNumArgs();
  for (const CudaFunction &F : CudaFunctions) {
    // Extra may be left to its default (in C, not passed at all).
    unsigned Most = F.kindArgs() + !F.Extra.empty();
    unsigned Least = F.ExtraDefault.empty() ? Most : F.kindArgs();
    if (Callee->getName() == F.Name && Args >= Least && Args <= Most)
      return &F;
  }
  return nullptr;
}

const Expr *UseClassifier::cudaAllocated(const CallExpr *Call) {
  if (cudaCall(Call) != CudaCall::Allocation)
    return nullptr;
  const auto *Address =
      dyn_cast<UnaryOperator>(Call->getArg(0)->IgnoreParenCasts());
  return Address && Address->getOpcode() == UO_AddrOf ? Address->getSubExpr()
                                                      : nullptr;
}

const CallExpr *UseClassifier::cudaAllocationOf(const Expr *E) const {
  // &d, maybe cast to void ** and parenthesized, as the call's first
  // argument.
  const Expr *Child = E;
  const Stmt *P = semanticParent(Child);
  const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  const Expr *Address = UO;
  while (isa_and_nonnull<CastExpr, ParenExpr>(parent(Address)))
    Address = cast<Expr>(parent(Address));
  const auto *Call = dyn_cast_or_null<CallExpr>(parent(Address));
  if (!Call || cudaCall(Call) != CudaCall::Allocation ||
      Call->getArg(0) != Address)
    return nullptr;
  return Call;
}

const CudaMemory &UseClassifier::cudaMemory() const {
  if (!Memory)
    Memory.emplace(Ctx);
  return *Memory;
}

std::optional<UseVerdict>
UseClassifier::cudaAllocation(const RecordDecl *RD, const Expr *Handle) const {
  const CallExpr *Call = cudaAllocationOf(Handle);
  if (!Call)
    return std::nullopt;
  std::string Fn = Call->getDirectCallee()->getName().str();
  HandleUse U{UseKind::CudaCall, Call, Handle};
  if (!elementCount(Call->getArg(1), RD, U))
    return UseVerdict::refused(
        Call->getExprLoc(), Fn + " of " + handleName(Handle) +
                                " with a byte count that is not n * sizeof(" +
                                recordName(RD) +
                                ") in any order or a variable or struct "
                                "field set so");
  return checked(UseVerdict::of(U), "a CUDA allocation");
}

/// Whether \p D is declared `__managed__`: clang 19 keeps no attribute for
/// it in CUDA (it warns that it ignores it), so the specifiers are read.
static bool managed(const DeclaratorDecl *D) {
  if (D->hasAttr<HIPManagedAttr>())
    return true;
  const ASTContext &Ctx = D->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(D->getOuterLocStart());
  SourceLocation End = SM.getExpansionLoc(D->getLocation());
  while (Loc.isValid() && SM.isBeforeInTranslationUnit(Loc, End)) {
    Token Tok;
    if (Lexer::getRawToken(Loc, Tok, SM, Ctx.getLangOpts(),
                           /*IgnoreWhiteSpace=*/true))
      return false;
    if (Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == "__managed__")
      return true;
    Loc = Tok.getEndLoc();
  }
  return false;
}

std::optional<UseVerdict>
UseClassifier::cudaVariable(const DeclaratorDecl *D,
                            const RecordDecl *RD) const {
  const char *Space = D->hasAttr<CUDASharedAttr>()     ? "__shared__"
                      : D->hasAttr<CUDAConstantAttr>() ? "__constant__"
                      : D->hasAttr<CUDADeviceAttr>()   ? "__device__"
                      : managed(D)                     ? "__managed__"
                                                       : nullptr;
  if (!Space || !isa<VarDecl>(D))
    return std::nullopt;
  return UseVerdict::refused(D->getLocation(),
                             "'" + D->getNameAsString() + "' is a " + Space +
                                 " variable holding '" + recordName(RD) +
                                 "' elements (CUDA memory spaces other than "
                                 "global memory are not rewritten yet)");
}

std::optional<UseVerdict> UseClassifier::cudaUse(const RecordDecl *RD,
                                                 const Expr *Handle,
                                                 const CallExpr *Call,
                                                 const Expr *Child) const {
  CudaCall K = cudaCall(Call);
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (K == CudaCall::None && Callee && Callee->getIdentifier() &&
      Callee->getName().starts_with("cuda")) {
    std::vector<std::string> Names;
    for (const CudaFunction &F : CudaFunctions)
      Names.push_back(F.Name.str());
    std::string Last = Names.back();
    Names.pop_back();
    return UseVerdict::refused(Call->getExprLoc(),
                               "'" + recordName(RD) + "' array passed to " +
                                   Callee->getName().str() + " (only " +
                                   llvm::join(Names, ", ") + " and " + Last +
                                   " are followed)");
  }
  if (K == CudaCall::None || K == CudaCall::Allocation)
    return std::nullopt;
  std::string Fn = Callee->getName().str();
  auto Refused = [&](const std::string &Why) {
    return UseVerdict::refused(Call->getExprLoc(), "'" + recordName(RD) +
                                                       "' array passed to " +
                                                       Fn + " " + Why);
  };
  if (K == CudaCall::Release)
    return checked(UseVerdict::of({UseKind::CudaCall, Call, Handle}),
                   "a CUDA release");
  bool Copy = K == CudaCall::Copy;
  if (Child != Call->getArg(0) && (!Copy || Child != Call->getArg(1)))
    return Refused("as other than its memory (not rewritten yet)");
  // A std::vector's storage given whole (&v[0], v.data()) is an array of
  // T in the host's memory: the boundary converts from or to it (the whole
  // program refuses it with the vector's other uses, Legality.cpp).
  auto Whole = [&](const Expr *E) {
    if (const Expr *Container = containerStorage(E))
      return containerElementRecord(Container->getType()) == RD;
    return isHandleExpr(E) &&
           handleRecord(E->IgnoreParenCasts()->getType()) == RD;
  };
  if (!Whole(Call->getArg(0)) || (Copy && !Whole(Call->getArg(1))))
    return Refused("with something that is not an array variable of it, or "
                   "a sub-array (not rewritten yet)");
  // The destination is the call's site; the source is rendered with it.
  if (Child != Call->getArg(0))
    return UseVerdict::of({UseKind::HandleFlow, Child, Handle});
  HandleUse U{UseKind::CudaCall, Call, Call->getArg(0)};
  if (!elementCount(Call->getArg(2), RD, U))
    return Refused("with a byte count that is not n * sizeof(T) in any "
                   "order or a variable or struct field set so");
  U.Value = Call->getArg(1);
  return checked(UseVerdict::of(U), "a CUDA copy");
}
