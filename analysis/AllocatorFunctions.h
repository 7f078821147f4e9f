//===- AllocatorFunctions.h - The program's own malloc and free -*- C++ -*-===//
//
// Real programs seldom call malloc for their arrays directly: they call
// their own `xmalloc`, `safe_malloc` or `prk_malloc(size_t bytes)`, which
// aligns the block, checks for failure or exits, and sometimes a matching
// `xfree(void *p)`, `xcalloc(count, size)` and `xrealloc(p, bytes)`. An
// allocation through such a function is an allocation like malloc's
// (calloc's, realloc's); its array in the new layout gets each of its
// blocks from the same function (and releases them through the program's
// release function), so alignment and failure handling stay the program's.
//
// A function is taken for one only when what it does besides allocating
// cannot show: it must not write a global or static variable (a counter of
// bytes allocated would count differently), each of its parameters must
// reach the C library's allocator (or the program's) and no other call,
// except on a path that ends the program (the message before exit(1) when
// memory runs out), and a realloc-like one writes nothing through its
// pointer (the caller's elements).
//
// Programs keep such functions in a file of their own (util.c), which the
// files allocating the arrays only declare. A call to a function declared
// and not defined in the file, of the type of one (`void *F(size_t)`,
// `void *F(size_t, size_t)`, `void *F(void *, size_t)`, or `void F(void *)`
// for a release), counts as one there for a while: the
// analysis records it as an external symbol (ExternalSymbol::Allocator,
// Release), which the program's merge resolves against the functions the
// other files define as such (LayoutPlan::Allocators, ReleaseFunctions), by
// the name other files call them by (callableName: mangled in C++);
// unresolved, or defined as none somewhere, it refuses the record.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_ALLOCATORFUNCTIONS_H
#define DLOPT_ANALYSIS_ALLOCATORFUNCTIONS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <map>
#include <string>
#include <vector>

namespace dlopt {

/// Whether \p FD is one of the program's allocation functions: `void *F(
/// size_t bytes)`, defined in a user file, which gets its memory from
/// malloc, calloc, realloc, aligned_alloc, posix_memalign, memalign,
/// _mm_malloc or another such function of the program under the rules
/// above.
bool isAllocatorFunction(const clang::FunctionDecl *FD);
/// Whether \p FD is a calloc-like one: `void *F(size_t count, size_t size)`,
/// defined in a user file, which passes its parameters (or what it computes
/// from them) to calloc or another allocator under the same rules
/// (darknet's xcalloc); each block of the layout is then F(n, sizeof field).
bool isCallocLikeFunction(const clang::FunctionDecl *FD);
/// Whether \p FD is a realloc-like one: `void *F(void *p, size_t bytes)`,
/// defined in a user file, which passes both to realloc under the same
/// rules (xrealloc, exiting when memory runs out); an array's realloc
/// through it reallocates each block of the layout with it.
bool isReallocLikeFunction(const clang::FunctionDecl *FD);
/// Whether \p Call reallocates its first argument: realloc, or a
/// realloc-like function of the program (also one only declared here).
bool reallocates(const clang::CallExpr *Call);
/// What kind of allocator function \p FD's type makes it, for messages
/// ("`void *f(size_t bytes)` allocating as malloc does").
std::string allocatorKind(const clang::FunctionDecl *FD);
/// Why \p FD is none of them ("it passes its size to 'printf'"); "" if it
/// is one.
std::string notAllocatorFunction(const clang::FunctionDecl *FD);
/// The C library function that releases every block allocator function
/// \p FD (or calloc- or realloc-like one) returns: "free" (its blocks come from
/// malloc, calloc, realloc, aligned_alloc, posix_memalign or memalign),
/// "_mm_free" (from _mm_malloc), or "" when they differ or \p FD is no
/// allocator function.
std::string allocatorRelease(const clang::FunctionDecl *FD);

/// Whether \p FD releases memory as free does: free or _mm_free
/// themselves, or `void F(void *p)` of a user file that passes p to one of
/// them (or to another release function of the program) and to nothing
/// else, under the rules above.
bool isReleaseFunction(const clang::FunctionDecl *FD);

/// Whether \p FD, declared in a user file and not defined in this
/// translation unit, has the type of an allocator function (`void *F(
/// size_t)`, `void *F(size_t, size_t)` or `void *F(void *, size_t)`): another
/// file of the program may define it as one.
bool isExternalAllocator(const clang::FunctionDecl *FD);
/// Likewise for a release function (`void F(void *)`).
bool isExternalRelease(const clang::FunctionDecl *FD);

/// The allocator functions (with their allocatorRelease) and the release
/// functions that \p Ctx's file defines with external linkage, by name:
/// what other files of the program may call (LayoutPlan::Allocators). The
/// functions of an allocator's type that are none go in \p Misfits, with
/// the reason that refuses an array from them (notAllocatorReason).
void exportedAllocatorFunctions(clang::ASTContext &Ctx,
                                std::map<std::string, std::string> &Allocators,
                                std::vector<std::string> &Releases,
                                std::map<std::string, std::string> &Misfits);

/// Why an array from \p Name is refused: it is no allocator function, for
/// reason \p Why (notAllocatorFunction).
std::string notAllocatorReason(llvm::StringRef Name, llvm::StringRef Why);

} // namespace dlopt

#endif
