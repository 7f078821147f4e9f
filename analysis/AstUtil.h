//===- AstUtil.h - Small shared AST questions -------------------*- C++ -*-===//
#ifndef DLOPT_ANALYSIS_ASTUTIL_H
#define DLOPT_ANALYSIS_ASTUTIL_H

#include "analysis/LayoutPlan.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang {
class CXXMemberCallExpr;
} // namespace clang

namespace dlopt {

/// The record T when \p Ty is T[N], T[], T* (cv-qualifiers ignored), or
/// null.
const clang::RecordDecl *elementRecord(clang::QualType Ty);

/// Whether \p D is an array whose elements keep the record as it is,
/// whatever the layout: a CUDA __shared__ array (a block's tile, filled by
/// whole-element copies), as OpenCL's __local arrays, whose address space
/// elementRecord() sees in their type. Its only uses are its elements.
bool keepsRecord(const clang::ValueDecl *D);

/// The reference to an array that keeps the record (keepsRecord()) which
/// \p Array is, or null.
const clang::DeclRefExpr *keptArray(const clang::Expr *Array);

/// elementRecord() of the array \p Array, or null when it names an array
/// that keeps the record (keepsRecord()).
const clang::RecordDecl *elementRecordOf(const clang::Expr *Array);

/// The record T when \p Ty is std::vector<T> or std::array<T, N>, a
/// reference to one, or a cv-qualified one; else null. Such a container is
/// an array of T for the analysis, with its own set of uses (see Legality).
const clang::RecordDecl *containerElementRecord(clang::QualType Ty);

/// True if \p Ty (or what it refers to) is a std::array.
bool isStdArray(clang::QualType Ty);

/// N of a std::array<T, N> (or a reference to one); 0 for anything else.
uint64_t stdArrayLength(clang::QualType Ty);

/// How messages name the container type \p Ty: "std::vector<P>",
/// "std::array<P, 8>".
std::string containerSpelling(clang::QualType Ty);

/// v.begin(), v.end(), v.cbegin() or v.cend() on a std::vector or
/// std::array of a record, through copies and conversions (to a
/// const_iterator), and with \p WithOffset plus or minus an integer; null
/// otherwise.
const clang::CXXMemberCallExpr *containerBeginEnd(const clang::Expr *E,
                                                  bool WithOffset = true);

/// The container v when \p E is the address of its whole storage, `&v[0]`
/// or `v.data()`, for a std::vector or std::array of a record; else null.
const clang::Expr *containerStorage(const clang::Expr *E);

/// The std::vector<T> whose iterator or const_iterator \p Ty is (or refers
/// to); a null type otherwise. (std::array's iterators are plain pointers,
/// which this does not follow.)
clang::QualType iteratorContainer(clang::QualType Ty);

/// v[i], v.at(i), v.front() or v.back() on a std::vector<T> or
/// std::array<T, N>, or *it or it-> with an iterator of a std::vector<T>
/// (parens and implicit casts ignored): the container expression (the
/// iterator for *it) and its type, and the index (null for front, back
/// and iterators); all null otherwise.
struct ContainerElement {
  const clang::Expr *Container = nullptr;
  const clang::Expr *Index = nullptr;
  const clang::RecordDecl *Record = nullptr;
  clang::QualType ContainerType;
  /// The element is *it or it->.
  bool ViaIterator = false;
};
ContainerElement asContainerElement(const clang::Expr *E);

/// A standard algorithm that only moves, swaps and compares whole elements
/// of one container of T, through its iterators: std::sort, stable_sort,
/// partial_sort, nth_element, reverse, rotate and shuffle over v.begin(),
/// v.end() (or cbegin/cend, plus or minus an integer); or one that hands
/// each element to a function that reads it (OnlyReads). The generated
/// container's iterator serves them as they are. Record is null for any
/// other call.
struct ContainerAlgorithm {
  const clang::Expr *Container = nullptr;
  const clang::RecordDecl *Record = nullptr;
  /// Whether the algorithm compares elements (with operator< unless a
  /// comparison function is passed), and that function.
  bool Compares = false;
  const clang::Expr *Compare = nullptr;
  /// std::for_each, count_if, find_if, find_if_not, any_of, all_of,
  /// none_of: the function (Compare) is given each element to read; none
  /// moves.
  bool OnlyReads = false;
  /// The begin()/end() calls that make the iterators.
  llvm::SmallVector<const clang::CXXMemberCallExpr *, 3> Iterators;
};
ContainerAlgorithm asContainerAlgorithm(const clang::CallExpr *Call);

/// True for a call of std::swap(a, b).
bool isStdSwap(const clang::CallExpr *Call);

/// Whether \p E is the condition \p P tests (C tests a pointer there
/// without converting it to bool): if (p), while (p), p ? a : b, p && q.
bool isConditionOf(const clang::Stmt *P, const clang::Expr *E);

/// Whether \p P, the parent of the pointer \p E, tests it for null: an
/// implicit conversion to bool, `!E`, a condition (isConditionOf), or a
/// comparison with a null pointer constant (`E == NULL`, `0 != E`).
bool testsForNull(const clang::Stmt *P, const clang::Expr *E,
                  clang::ASTContext &Ctx);

/// \p E without parentheses, implicit casts and explicit casts to a pointer
/// to void: `(void *)&a[i]` as an argument of fread is `&a[i]`, the
/// conversion the call would make anyway.
const clang::Expr *ignoreVoidPointerCasts(const clang::Expr *E);

/// True when \p Arg is the second argument of va_start(ap, last): the name
/// of the function's last parameter, whose value is not read.
bool isVaStartName(const clang::CallExpr *Call, const clang::Expr *Arg);

/// The record T when \p Ty is T (cv-qualifiers ignored), or null.
const clang::RecordDecl *asRecord(clang::QualType Ty);

/// The name users know the record by: its tag, else its typedef, else "".
std::string recordName(const clang::RecordDecl *RD);

/// The file-scope typedefs that name \p RD, in source order.
std::vector<const clang::TypedefNameDecl *>
typedefsOf(const clang::RecordDecl *RD, clang::ASTContext &Ctx);

/// "malloc", "calloc" or "realloc" if \p E (ignoring casts and parens) calls
/// one of them, the name of the program's own allocation function it calls
/// (AllocatorFunctions.h: `prk_malloc(bytes)`, allocating like malloc;
/// `xcalloc(n, size)` like calloc, `xrealloc(p, bytes)` like realloc
/// (reallocates() tells); or one only declared here that another
/// file may define so: Legality makes that an ExternalSymbol::Allocator),
/// else "".
llvm::StringRef allocatorName(const clang::Expr *E);

/// The variable \p E names after stripping parens, casts and the addition
/// or subtraction of integers (a + i, p - 1), or null.
const clang::ValueDecl *rootDecl(const clang::Expr *E);

/// An OpenCL __kernel or CUDA __global__ function: its body runs once per
/// work-item.
bool isGpuKernel(const clang::FunctionDecl *FD);

/// "threadIdx.x" for CUDA's threadIdx.x (a property of a builtin variable,
/// read through an opaque value), and so on for blockIdx, blockDim and
/// gridDim; else "".
std::string cudaBuiltinIndex(const clang::Expr *E);

/// "file:line:col" of the spelling (or expansion) location of \p Loc.
SourcePos formatLoc(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// The code dlopt generated, between the markers it puts around it ("dlopt:
/// begin generated layout" ... "dlopt: end generated layout"): its records,
/// arrays and helpers are dlopt's own and never analyzed again. The markers
/// of a file are found once (a walk asks at every declaration).
class GeneratedCode {
public:
  explicit GeneratedCode(const clang::SourceManager &SM) : SM(SM) {}
  bool contains(clang::SourceLocation Loc) const;
  /// Whether the file defining \p RD holds a layout dlopt generated for it
  /// (an earlier run rewrote its arrays).
  bool hasLayoutOf(const clang::RecordDecl *RD) const;

private:
  const clang::SourceManager &SM;
  /// Per file: [begin marker, end marker) offsets.
  mutable llvm::DenseMap<clang::FileID,
                         std::vector<std::pair<unsigned, unsigned>>>
      Ranges;
};

/// \p File's path made absolute against its compile command's directory
/// (what a compilation database's relative names are relative to), with
/// "." and ".." removed.
std::string absolutePath(const clang::SourceManager &SM, clang::FileID File);

/// \p File's real path when there is one, else its name: what identifies
/// a file across translation units.
std::string realPathOf(const clang::SourceManager &SM, clang::FileID File);

/// The file that holds \p RD's definition (realPathOf): with the name,
/// what identifies the record across translation units.
std::string definitionFile(const clang::SourceManager &SM,
                           const clang::RecordDecl *RD);

/// Why the element proxies cannot forward member function \p MD ("" if
/// they can). A forwarder calls it on a copy of the element (and assigns a
/// non-const one's copy back), which is the same as calling it on the
/// element when the function keeps no part of the object: it returns no
/// reference or pointer, and uses `this` only to reach members or as
/// `*this`. It must be defined in the file, take no default arguments and
/// be no template, so that the forwarder can be spelled. Without
/// \p CheckBody, only what the forwarder's spelling needs (the same in
/// every file that includes the record, with its definition or not).
std::string proxyMethodRefusal(const clang::CXXMethodDecl *MD,
                               bool CheckBody = true);

/// True if \p Loc lies in a system header.
bool inSystemHeader(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// A function whose parameter and result types cannot change with a
/// record's layout: a library's (declared in a system header), or an
/// instantiation of a function template, whose one text serves other types
/// too.
bool hasFixedTypes(const clang::FunctionDecl *FD);

/// True for a declaration of the standard library (or another system
/// header), which the visitors skip: std::vector<T>'s own pointers to T and
/// std::sort's instantiations are not the program's arrays to rewrite.
bool isLibraryDecl(const clang::Decl *D);

/// Whether the text of \p R is one range of a file the rewriter may edit
/// (a macro's argument is; its body, or a system header, is not).
bool spelledInFile(const clang::ASTContext &Ctx, clang::SourceRange R);

/// The first parent of \p E that \p Skip does not pass through, with
/// \p Child set to the last expression passed (E itself if none); an
/// empty node where a node has no single parent.
clang::DynTypedNode
parentPast(clang::ASTContext &Ctx, const clang::Expr *E,
           const clang::Expr *&Child,
           llvm::function_ref<bool(const clang::Expr *)> Skip);

/// The statements inside \p S: its children, and for a region OpenMP
/// outlines (a CapturedStmt, whose children are only the values it
/// captures) its body too. Walkers of statements go through this, so that
/// they see the code under `#pragma omp parallel` and its kin.
llvm::SmallVector<const clang::Stmt *, 4> subStatements(const clang::Stmt *S);

/// Whether \p S names \p D anywhere (OpenMP regions' bodies included).
bool refersTo(const clang::Stmt *S, const clang::Decl *D);

/// Every reference to \p D in \p S (OpenMP regions' bodies included).
void referencesTo(const clang::Stmt *S, const clang::Decl *D,
                  std::vector<const clang::DeclRefExpr *> &Out);

/// Whether \p S declares a variable other than \p D named like it.
bool declaresOtherNamed(const clang::Stmt *S, const clang::NamedDecl *D);

/// The body of the function that holds the local variable \p VD (through
/// the regions OpenMP outlines, which are declaration contexts of their
/// own); null for a variable outside functions.
const clang::Stmt *enclosingBody(const clang::VarDecl *VD);

/// Parentheses and implicit casts, which pass a value on as it is (a
/// Skip for parentPast).
bool isParenOrImplicitCast(const clang::Expr *E);

/// `const T &`: an lvalue reference to a const-qualified type.
bool isConstLValueReference(clang::QualType T);

/// Whether \p S is or holds a statement for which \p Is holds (OpenMP
/// regions' bodies included).
bool containsAny(const clang::Stmt *S,
                 llvm::function_ref<bool(const clang::Stmt *)> Is);

/// Whether \p S is or holds a loop (for, range-for, while, do).
bool containsLoop(const clang::Stmt *S);

/// `do { ... } while (0)`, as CHECK() macros write: its body runs once.
bool runsOnce(clang::ASTContext &Ctx, const clang::Stmt *S);

/// The variable \p E names (through parentheses and implicit casts), or
/// null.
const clang::VarDecl *varOf(const clang::Expr *E);

/// Adds to \p Out the variables \p S assigns, steps (++, --) or declares.
void collectVarying(const clang::Stmt *S,
                    llvm::SmallPtrSetImpl<const clang::VarDecl *> &Out);

/// What changes() counts as a change besides an assignment and a step.
struct ChangeRules {
  /// A call given the target as an lvalue: a reference that may write it.
  bool ThroughCalls = false;
  /// An array decaying to a pointer lets it out as its address does.
  bool Decay = false;
  /// The address (or decayed array) given straight to a pointer-to-const
  /// parameter of a known callee is read, not let out (how
  /// clEnqueueNDRangeKernel takes its sizes).
  bool ConstParamsRead = false;
};

/// Whether \p S assigns what \p Target accepts (an lvalue, parentheses
/// stripped), steps it (++, --), takes its address, or does what \p Rules
/// add.
bool changes(const clang::Stmt *S,
             llvm::function_ref<bool(const clang::Expr *)> Target,
             ChangeRules Rules);

/// Whether \p S assigns \p V, steps it (++, --) or takes its address.
bool assignsTo(const clang::Stmt *S, const clang::VarDecl *V);

/// Walks loop bound \p E's integer arithmetic (+, -, *, /, %, shifts, unary
/// minus, parentheses, implicit casts) down to its operands, and calls
/// \p Operand on each that is not an integer literal, a sizeof or an
/// enumerator. False if some operator is another one, or \p Operand says so.
bool walkBoundArithmetic(const clang::Expr *E,
                         llvm::function_ref<bool(const clang::Expr *)> Operand);

/// Whether a loop bound can be read once per tile instead of once per
/// iteration, as a strip-mined loop reads it: made of constants and local
/// variables that \p Body does not assign (memory or a global could change
/// behind a store or a call in the body). The rewriter strip-mines only
/// such loops (or those over a container's size it proves stable), and the
/// analysis counts only their accesses as loop-indexed, so that the model
/// judges a tiled layout by the form it will be written in.
bool isStableLoopBound(const clang::Expr *Bound, const clang::Stmt *Body);

} // namespace dlopt

#endif
