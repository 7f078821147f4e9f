//===- AllocatorFunctions.cpp - The program's own malloc and free ---------===//
//
// See AllocatorFunctions.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/AllocatorFunctions.h"
#include "analysis/AstUtil.h"
#include "analysis/CallFrequencies.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace dlopt;

namespace {

/// A function of the C library (declared in a system header, or nowhere
/// defined) named one of \p Names.
bool isLibraryCall(const CallExpr *Call,
                   std::initializer_list<llvm::StringRef> Names) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() ||
      llvm::find(Names, FD->getName()) == Names.end())
    return false;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return !FD->hasBody() || inSystemHeader(SM, FD->getLocation());
}

std::string calleeName(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return "'" + FD->getNameAsString() + "'";
  return "a call through a pointer";
}

/// How deep one program function may call another (zmalloc calling
/// xmalloc calling malloc) and still count: recursion ends there.
constexpr unsigned MaxDepth = 3;

std::string notAllocator(const FunctionDecl *FD, unsigned Depth);
bool releases(const FunctionDecl *FD, unsigned Depth);

bool callsAllocator(const CallExpr *Call, unsigned Depth) {
  if (isLibraryCall(Call, {"malloc", "calloc", "realloc", "aligned_alloc",
                           "posix_memalign", "memalign", "_mm_malloc"}))
    return true;
  return Depth < MaxDepth && Call->getNumArgs() == 1 &&
         notAllocator(Call->getDirectCallee(), Depth + 1).empty();
}

bool callsRelease(const CallExpr *Call, unsigned Depth) {
  return Call->getNumArgs() == 1 && releases(Call->getDirectCallee(), Depth);
}

/// What a candidate function is to be: what its parameters must reach.
enum class Role { Allocates, Reallocates, Releases };

/// What a candidate function's body does with one of its parameters, and
/// whether anything else it does with it could show. Each parameter must
/// reach the expected call (calloc's count and size both, realloc's
/// pointer and size both): one that did not would allocate the wrong size
/// for the blocks of a layout.
class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  BodyScan(ASTContext &Ctx, const ParmVarDecl *Param, Role R, unsigned Depth)
      : Ctx(Ctx), R(R), Depth(Depth) {
    Tainted.insert(Param);
    const auto *F = cast<FunctionDecl>(Param->getDeclContext());
    What = F->getNumParams() != 1 ? "'" + Param->getNameAsString() + "'"
           : R == Role::Releases  ? "its pointer"
                                  : "its size";
  }

  /// Why the body does not fit: it calls nothing it must, or something
  /// else it does could show; "" if it fits.
  std::string misfit(Stmt *Body) {
    // Locals computed from the parameter carry it too (padded = bytes +
    // excess): a few rounds reach what real wrappers compute.
    for (unsigned Round = 0; Round < 4; ++Round) {
      unsigned Before = Tainted.size();
      TraverseStmt(Body);
      if (Tainted.size() == Before)
        break;
    }
    Checking = true;
    TraverseStmt(Body);
    if (!Shows.empty())
      return Shows;
    if (!Calls)
      return "it passes " + What +
             (R == Role::Releases      ? " to neither free nor _mm_free"
              : R == Role::Reallocates ? " to no realloc"
                                       : " to no allocator of the C library "
                                         "or of the program");
    return "";
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (!Checking && VD->getInit() && mentions(VD->getInit()))
      Tainted.insert(VD);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      written(BO->getLHS(), BO->getRHS());
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      written(UO->getSubExpr(), nullptr);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (!Checking)
      return true;
    bool Expected = R == Role::Releases      ? callsRelease(Call, Depth + 1)
                    : R == Role::Reallocates ? isLibraryCall(Call, {"realloc"})
                                             : callsAllocator(Call, Depth);
    bool Passes = llvm::any_of(Call->arguments(),
                               [&](const Expr *A) { return mentions(A); });
    if (Expected && Passes)
      Calls = true;
    // memset of the block zeroes what the function allocated (not what a
    // realloc-like one is given: the caller's data).
    else if (Passes && !endsProgram(Call) &&
             !(R == Role::Allocates && isLibraryCall(Call, {"memset"})) &&
             Shows.empty())
      Shows = "it passes " + What + " to " + calleeName(Call);
    return true;
  }

private:
  /// An assignment to \p LHS (of \p RHS, if any): a global or static
  /// variable written shows (a count of the bytes allocated would count
  /// differently); a local set from the parameter carries it. Memory
  /// reached through a pointer is the block's (a header before it).
  void written(const Expr *LHS, const Expr *RHS) {
    const VarDecl *VD = storedVariable(LHS);
    // A realloc-like function's block holds the caller's elements.
    if (!VD && R == Role::Reallocates && Checking && mentions(LHS) &&
        Shows.empty())
      Shows = "it writes through " + What;
    if (!VD)
      return;
    if (VD->hasGlobalStorage() && Checking && Shows.empty())
      Shows = "it writes '" + VD->getNameAsString() + "', a " +
              (VD->isStaticLocal() ? "static" : "global") + " variable";
    else if (!VD->hasGlobalStorage() && !Checking && RHS && mentions(RHS))
      Tainted.insert(VD);
  }

  /// The variable whose own storage \p E is (v, v.f, v[i] of an array v),
  /// or null where it is reached through a pointer.
  static const VarDecl *storedVariable(const Expr *E) {
    while (true) {
      E = E->IgnoreParenImpCasts();
      if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
        E = ME->getBase();
      else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
               AS &&
               AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        E = AS->getBase();
      else
        break;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  }

  /// Whether \p E reads the parameter or a local computed from it.
  bool mentions(const Expr *E) const {
    if (!E)
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()))
      return Tainted.count(DRE->getDecl());
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child); CE && mentions(CE))
        return true;
    return false;
  }

  /// Whether \p Call lies in a block that ends the program (the message
  /// before exit(1) or abort() when memory runs out).
  bool endsProgram(const CallExpr *Call) const {
    DynTypedNodeList Parents = Ctx.getParents(*Call);
    while (!Parents.empty()) {
      if (const auto *Block = Parents[0].get<CompoundStmt>()) {
        for (const Stmt *S : Block->body())
          if (const auto *C = dyn_cast<CallExpr>(S))
            if (const FunctionDecl *FD = C->getDirectCallee();
                FD && FD->isNoReturn())
              return true;
        return false;
      }
      Parents = Ctx.getParents(Parents[0]);
    }
    return false;
  }

  ASTContext &Ctx;
  Role R;
  /// The parameter in messages ("its size", "'count'").
  std::string What;
  /// How many program functions deep this one is called.
  unsigned Depth;
  llvm::SmallPtrSet<const Decl *, 8> Tainted;
  bool Checking = false;
  bool Calls = false;
  /// What shows besides the allocation, first found.
  std::string Shows;
};

/// Whether \p FD's parameters are of types \p Params and its result of type
/// \p Result.
bool hasType(const FunctionDecl *FD, llvm::ArrayRef<QualType> Params,
             QualType Result) {
  ASTContext &Ctx = FD->getASTContext();
  if (FD->getNumParams() != Params.size() || FD->isVariadic() ||
      !Ctx.hasSameType(FD->getReturnType(), Result))
    return false;
  for (unsigned I = 0; I < Params.size(); ++I)
    if (!Ctx.hasSameType(FD->getParamDecl(I)->getType().getUnqualifiedType(),
                         Params[I]))
      return false;
  return true;
}

/// A function of a user file, defined, with parameters of types \p Params
/// and result \p Result, as a plain function (or a static member).
const FunctionDecl *userFunction(const FunctionDecl *FD,
                                 llvm::ArrayRef<QualType> Params,
                                 QualType Result) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody() || !hasType(Def, Params, Result) ||
      Def->isTemplateInstantiation())
    return nullptr;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Def); M && !M->isStatic())
    return nullptr;
  if (inSystemHeader(Def->getASTContext().getSourceManager(),
                     Def->getLocation()))
    return nullptr;
  return Def;
}

/// Why \p FD is no function of the program in role \p R with parameters
/// of types \p Params (spelled \p Spelling), \p Depth calls deep; "" if it
/// is one.
std::string misfit(const FunctionDecl *FD, llvm::ArrayRef<QualType> Params,
                   llvm::StringRef Spelling, Role R, unsigned Depth) {
  if (!FD)
    return "it is called through a pointer";
  ASTContext &Ctx = FD->getASTContext();
  const FunctionDecl *Def = userFunction(FD, Params, Ctx.VoidPtrTy);
  if (!Def)
    return FD->getDefinition() &&
                   !inSystemHeader(Ctx.getSourceManager(), FD->getLocation())
               ? ("it is not `" + Spelling + "`").str()
               : "it is not defined in the analyzed files";
  for (const ParmVarDecl *Param : Def->parameters()) {
    BodyScan Scan(Ctx, Param, R, Depth);
    if (std::string Why = Scan.misfit(Def->getBody()); !Why.empty())
      return Why;
  }
  return "";
}

std::string notAllocator(const FunctionDecl *FD, unsigned Depth) {
  QualType Size = FD ? FD->getASTContext().getSizeType() : QualType();
  return misfit(FD, Size, "void *f(size_t bytes)", Role::Allocates, Depth);
}

/// Why \p FD is no calloc-like allocator function `void *F(size_t count,
/// size_t size)`; "" if it is one.
std::string notCountedAllocator(const FunctionDecl *FD) {
  QualType Size = FD->getASTContext().getSizeType();
  return misfit(FD, {Size, Size}, "void *f(size_t count, size_t size)",
                Role::Allocates, /*Depth=*/0);
}

/// Why \p FD is no realloc-like function `void *F(void *p, size_t bytes)`
/// passing both to realloc; "" if it is one.
std::string notReallocLike(const FunctionDecl *FD) {
  ASTContext &Ctx = FD->getASTContext();
  return misfit(FD, {Ctx.VoidPtrTy, Ctx.getSizeType()},
                "void *f(void *p, size_t bytes)", Role::Reallocates,
                /*Depth=*/0);
}

/// Why \p FD is no release function (free, _mm_free or one of the
/// program's); "" if it is one.
std::string notRelease(const FunctionDecl *FD, unsigned Depth) {
  if (!FD || !FD->getIdentifier())
    return "it is called through a pointer";
  ASTContext &Ctx = FD->getASTContext();
  if ((FD->getName() == "free" || FD->getName() == "_mm_free") &&
      (!FD->hasBody() ||
       inSystemHeader(Ctx.getSourceManager(), FD->getLocation())))
    return "";
  const FunctionDecl *Def =
      userFunction(FD, QualType(Ctx.VoidPtrTy), Ctx.VoidTy);
  if (!Def)
    return FD->getDefinition() ? "it is not `void f(void *p)`"
                               : "it is not defined in the analyzed files";
  if (Depth > MaxDepth)
    return "it calls release functions too deep";
  BodyScan Scan(Ctx, Def->getParamDecl(0), Role::Releases, Depth);
  return Scan.misfit(Def->getBody());
}

bool releases(const FunctionDecl *FD, unsigned Depth) {
  return notRelease(FD, Depth).empty();
}

/// The C library's allocations an allocator function makes, itself or
/// through the program's allocators it calls.
class AllocatorCalls : public RecursiveASTVisitor<AllocatorCalls> {
public:
  explicit AllocatorCalls(unsigned Depth) : Depth(Depth) {}

  bool VisitCallExpr(CallExpr *Call) {
    std::string Release;
    if (isLibraryCall(Call, {"malloc", "calloc", "realloc", "aligned_alloc",
                             "posix_memalign", "memalign"}))
      Release = "free";
    else if (isLibraryCall(Call, {"_mm_malloc"}))
      Release = "_mm_free";
    else if (Depth < MaxDepth && Call->getNumArgs() == 1 &&
             notAllocator(Call->getDirectCallee(), Depth + 1).empty())
      Release = releaseOf(Call->getDirectCallee(), Depth + 1);
    else
      return true;
    if (Release.empty() || (!Found.empty() && Found != Release))
      Mixed = true;
    Found = Release;
    return true;
  }

  static std::string releaseOf(const FunctionDecl *FD, unsigned Depth) {
    const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
    if (!Def || !Def->getBody())
      return "";
    AllocatorCalls Calls(Depth);
    Calls.TraverseStmt(Def->getBody());
    return Calls.Mixed ? "" : Calls.Found;
  }

private:
  unsigned Depth;
  std::string Found;
  bool Mixed = false;
};

} // namespace

std::string dlopt::allocatorRelease(const FunctionDecl *FD) {
  return isAllocatorFunction(FD) || isCallocLikeFunction(FD) ||
                 isReallocLikeFunction(FD)
             ? AllocatorCalls::releaseOf(FD, 0)
             : "";
}

/// Whether \p FD's first parameter is a pointer (realloc's shape).
static bool takesPointer(const FunctionDecl *FD) {
  return FD->getNumParams() && FD->getParamDecl(0)->getType()->isPointerType();
}

std::string dlopt::notAllocatorFunction(const FunctionDecl *FD) {
  if (!FD || FD->getNumParams() != 2)
    return notAllocator(FD, 0);
  return takesPointer(FD) ? notReallocLike(FD) : notCountedAllocator(FD);
}

std::string dlopt::allocatorKind(const FunctionDecl *FD) {
  if (FD->getNumParams() != 2)
    return "`void *f(size_t bytes)` allocating as malloc does";
  return takesPointer(FD)
             ? "`void *f(void *p, size_t bytes)` reallocating as realloc does"
             : "`void *f(size_t count, size_t size)` allocating as calloc does";
}

bool dlopt::isReallocLikeFunction(const FunctionDecl *FD) {
  return FD && FD->getNumParams() == 2 && notReallocLike(FD).empty();
}

bool dlopt::isAllocatorFunction(const FunctionDecl *FD) {
  return FD && FD->getNumParams() == 1 && notAllocator(FD, 0).empty();
}

bool dlopt::isCallocLikeFunction(const FunctionDecl *FD) {
  return FD && FD->getNumParams() == 2 && notCountedAllocator(FD).empty();
}

bool dlopt::isReleaseFunction(const FunctionDecl *FD) {
  return releases(FD, 0);
}

/// \p FD, declared in a user file and defined in no part of this
/// translation unit, and not one of the C library's (malloc declared by
/// hand).
static bool declaredOnly(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() || FD->getDefinition() || FD->getBuiltinID())
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD); M && !M->isStatic())
    return false;
  return !inSystemHeader(FD->getASTContext().getSourceManager(),
                         FD->getLocation());
}

/// Whether \p FD has the type of an allocator function: `void *F(size_t)`,
/// `void *F(size_t, size_t)` or `void *F(void *, size_t)`.
static bool hasAllocatorType(const FunctionDecl *FD) {
  ASTContext &Ctx = FD->getASTContext();
  QualType Size = Ctx.getSizeType();
  return hasType(FD, Size, Ctx.VoidPtrTy) ||
         hasType(FD, {Size, Size}, Ctx.VoidPtrTy) ||
         hasType(FD, {Ctx.VoidPtrTy, Size}, Ctx.VoidPtrTy);
}

/// Whether \p FD has the type of a release function: `void F(void *)`.
static bool hasReleaseType(const FunctionDecl *FD) {
  ASTContext &Ctx = FD->getASTContext();
  return hasType(FD, QualType(Ctx.VoidPtrTy), Ctx.VoidTy);
}

bool dlopt::isExternalAllocator(const FunctionDecl *FD) {
  return declaredOnly(FD) && hasAllocatorType(FD);
}

bool dlopt::reallocates(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() || Call->getNumArgs() != 2)
    return false;
  if (FD->getName() == "realloc")
    return true;
  return (isReallocLikeFunction(FD) || isExternalAllocator(FD)) &&
         takesPointer(FD);
}

bool dlopt::isExternalRelease(const FunctionDecl *FD) {
  return declaredOnly(FD) && hasReleaseType(FD);
}

std::string dlopt::notAllocatorReason(llvm::StringRef Name,
                                      llvm::StringRef Why) {
  return ("pointer from '" + Name +
          "', which is not a known allocator (malloc, calloc, realloc, or "
          "the program's own that allocates as they do): " +
          Why)
      .str();
}

/// The definitions of \p DC and of the extern "C" blocks and namespaces in
/// it.
static void exportedFrom(const DeclContext *DC,
                         std::map<std::string, std::string> &Allocators,
                         std::vector<std::string> &Releases,
                         std::map<std::string, std::string> &Misfits) {
  for (const Decl *D : DC->decls()) {
    if (isa<LinkageSpecDecl, NamespaceDecl>(D)) {
      exportedFrom(cast<DeclContext>(D), Allocators, Releases, Misfits);
      continue;
    }
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->doesThisDeclarationHaveABody() ||
        !FD->isExternallyVisible() || !FD->getIdentifier() ||
        inSystemHeader(FD->getASTContext().getSourceManager(),
                       FD->getLocation()))
      continue;
    // By the name other files call it by (mangled in C++: an overload of
    // another type is another function).
    std::string Symbol = callableName(FD);
    std::string Name = FD->getQualifiedNameAsString();
    if (Symbol.empty())
      continue;
    if (hasAllocatorType(FD)) {
      if (std::string Why = notAllocatorFunction(FD); Why.empty())
        Allocators[Symbol] = allocatorRelease(FD);
      else
        Misfits[Symbol] = notAllocatorReason(Name, Why);
    } else if (hasReleaseType(FD)) {
      if (std::string Why = notRelease(FD, 0); Why.empty())
        Releases.push_back(Symbol);
      else
        Misfits[Symbol] = "released by '" + Name +
                          "', which is not a release function (free, "
                          "_mm_free, or the program's own that releases as "
                          "they do): " +
                          Why;
    }
  }
}

void dlopt::exportedAllocatorFunctions(
    ASTContext &Ctx, std::map<std::string, std::string> &Allocators,
    std::vector<std::string> &Releases,
    std::map<std::string, std::string> &Misfits) {
  exportedFrom(Ctx.getTranslationUnitDecl(), Allocators, Releases, Misfits);
  llvm::sort(Releases);
  Releases.erase(std::unique(Releases.begin(), Releases.end()), Releases.end());
}
