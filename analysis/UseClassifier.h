//===- UseClassifier.h - What each use of a record's array is ---*- C++ -*-===//
//
// The one place that decides what a use of a handle (a variable, parameter
// or array member holding a candidate record's array: T *p, T a[N],
// s.items) is. Each use gets exactly one UseKind from a closed vocabulary
// that the rewriter renders, or a refusal with its reason and location.
// Legality blocks a record on any refusal, so the report, the plugin's
// remark and `dl-refactor --apply` agree by construction: the rewriter asks
// the same questions here and only renders the answers (see
// docs/design.md).
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_USECLASSIFIER_H
#define DLOPT_ANALYSIS_USECLASSIFIER_H

#include "analysis/AstUtil.h"
#include "analysis/CudaMemory.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace dlopt {

/// The closed vocabulary of handle uses.
enum class UseKind {
  /// a[i].f, (a + i)->f, p->f: one field of one element.
  FieldAccess,
  /// a[i] read as a whole (copied out of the array).
  ElementRead,
  /// a[i] = v: a whole element assigned.
  ElementWrite,
  /// p = malloc(n * sizeof(T)), calloc(n, sizeof(T)), realloc(p, ...),
  /// new T[n]: an allocation of whole elements.
  Allocation,
  /// A reference that an Allocation renders with it (realloc's pointer,
  /// sizeof *p in the size): no edit of its own.
  AllocationPart,
  /// free(p), delete[] p.
  Release,
  /// !p, p == NULL, if (p).
  NullTest,
  /// A null pointer constant becoming a handle (p = NULL, f(0)).
  NullValue,
  /// sizeof *p, sizeof p[0]: the element's size, which does not change.
  ElementSize,
  /// A reference that a walking-pointer loop renders with it
  /// (`for (T *p = a; p < a + n; ++p) p->f`): the pointer, the array in the
  /// loop's header, and the pointer's field accesses.
  WalkingPointer,
  /// A standard algorithm over a container's elements that compares them
  /// (std::sort by operator<): rendered with the record's std::less.
  ContainerCall,
  /// A variable bound to an element of a container (for (auto &b : v),
  /// const T &r = v[i], auto e = v[i]): a reference binds the element
  /// proxy, so its type is respelled `auto &&` or `const auto &`; a copy
  /// stays a T, so an `auto` is respelled T (see HandleUse::Respell).
  ElementBinding,
  /// A const member function called on a container's element: called on a
  /// copy, T(v[i]).f().
  ElementCall,
  /// A call the element proxy serves as written: a non-const member
  /// function (forwarded to a copy that is assigned back), an unqualified
  /// swap, a const member function inside a template's text.
  ProxyCall,
  /// std::swap(v[i], v[j]): respelled swap, the proxy's own (found by
  /// argument-dependent lookup).
  ElementSwap,
  /// std::array<T, N> a = {{{1, 2}, ...}}: respelled as a list of T for
  /// the generated container's initializer_list constructor.
  ArrayContainerInit,
  /// The handle passed on whole: to a parameter, a return, another handle
  /// variable. Its declarations change; the use itself is not edited.
  HandleFlow,
  /// An element pointer (see ElementPointer): its declaration, respelled
  /// `ptrdiff_t`, or a use that reads the same as an index (compared with
  /// or subtracted from another, stepped, copied to another, named by
  /// OpenMP): not edited. Its field accesses and whole-element reads and
  /// writes are FieldAccess, ElementRead and ElementWrite into its array.
  ElementPointer,
  /// &a[i], a + i or a becoming (or compared with) an element pointer's
  /// value: rendered as the index, i (0 for a).
  ElementAddress,
  /// qsort(a, n, sizeof(T), cmp) with a comparator of the program: the
  /// elements are sorted as copies, T_soa_qsort(a, n, cmp); the
  /// comparator's body is left as it is (LibraryCalls.cpp).
  LibrarySort,
  /// memcpy/memmove(b, a, n * sizeof(T)) between two handles, memset(a, c,
  /// n * sizeof(T)): per array of the new layout (T_soa_copy, T_soa_move,
  /// T_soa_fill). Value: the source (the fill byte for memset).
  ArrayCopy,
  /// fwrite/fread(a, sizeof(T), n, f): through a bounded staging array of
  /// T, so the file's format does not change (T_soa_fwrite, T_soa_fread).
  FileIO,
  /// T *r = bsearch(&key, a, n, sizeof(T), cmp) with a comparator of the
  /// program (or lfind(&key, a, &n, ...), or lsearch, which appends the key
  /// it does not find): the handle moved to the element found, or a null
  /// handle;
  /// the search compares copies of the elements (T_soa_bsearch,
  /// LibraryCalls.cpp). Site: the call (with its casts).
  LibrarySearch,
  /// &a[k] or a + k passed on as an array (to a parameter that takes the
  /// array, into a handle variable, as the source of a memcpy or memmove):
  /// the handle moved by k elements (a tiled one counts the elements its
  /// tiles skip, as the offset need not be a multiple of the tile size).
  SubArray,
  /// h - g, h < g, h == g (any comparison) between two arrays of the
  /// record, each a handle or a sub-array of one (`hit - grid`, `p < a +
  /// n`): the difference of their positions in elements, T_soa_diff.
  /// Site: the operator; Handle and Offset: the left operand (Offset null
  /// for a handle itself); Value and Index: the right one.
  HandleComparison,
  /// The host memory of an OpenCL buffer (clCreateBuffer's host pointer,
  /// clEnqueueWriteBuffer's or clEnqueueReadBuffer's source or target):
  /// rendered with the call, which copies per array (OpenCLHost.h).
  OpenCLCall,
  /// A __kernel's parameter taking a __global array of the record: one
  /// parameter per array of the layout, from which the body's first
  /// statement rebuilds the handle (kernel argument indices count them on
  /// the host too).
  KernelParameter,
  /// ++h, h--, h += k, h -= k as a statement of its own: the handle moved,
  /// h = T_soa_offset(h, k). Site: the operator; Index: k (null for 1).
  HandleStep,
  /// cudaMalloc(&d, n * sizeof(T)) (and cudaMallocManaged, cudaMallocHost,
  /// cudaHostAlloc), cudaFree(d) (cudaFreeHost), cudaMemcpy(dst, src, n *
  /// sizeof(T), kind) (cudaMemcpyAsync), cudaMemset(d, c, n * sizeof(T))
  /// (cudaMemsetAsync): per array of the layout, through a helper named
  /// after the call (CudaCalls.cpp). Site: the call; Handle: the array
  /// allocated, released, or written; Value: a copy's source; Count: the
  /// element count.
  CudaCall,
  /// f<P>(a, n): a call, with explicit template arguments, of a function
  /// template instantiation given an overload of its own
  /// (clonedInstantiation), whose arguments deduce every template
  /// parameter: rendered without the template arguments, so that the
  /// overload is chosen. Site: the callee (a DeclRefExpr or MemberExpr).
  TemplateCall,
  /// (T *)h where h is a handle, passed on as one (to a handle variable, a
  /// parameter, a return): the cast goes, as the handle is no pointer.
  /// `void *tmp = realloc(a, m); ... a = (T *)tmp;` makes tmp a handle too
  /// (UseClassifier::voidHandleRecord). Site: the cast; Handle: h.
  HandleCast,
};

/// The CUDA runtime's calls on device memory (CudaCalls.cpp).
enum class CudaCall { None, Allocation, Release, Copy, Fill };

/// A CUDA runtime function the analysis follows: the vocabulary of
/// UseKind::CudaCall, which the rewriter's helpers mirror one for one.
struct CudaFunction {
  llvm::StringLiteral Name;
  CudaCall Kind;
  /// The parameter after those of its kind (the pointer; a copy's source,
  /// a fill's value; the byte count; a copy's direction), if any, and the
  /// value a call that leaves it to its default passes.
  llvm::StringLiteral Extra, ExtraDefault;
  /// An allocation's release.
  llvm::StringLiteral Release;

  /// The arguments of its kind (Extra not counted).
  unsigned kindArgs() const;
};

/// Every CUDA runtime function the analysis follows.
llvm::ArrayRef<CudaFunction> cudaFunctions();

const char *useKindName(UseKind K);

/// How an ElementBinding's declared type is respelled.
enum class Respelling {
  /// As written (`auto &&`, `const auto &`, `T e`).
  None,
  /// `auto e = v[i]` -> `T e`: a copy must stay a T.
  AsRecord,
  /// `T &b`, `const T &r` -> `auto &&b`, `const auto &r`: the proxy.
  AsProxy,
};

/// One classified use.
struct HandleUse {
  UseKind Kind = UseKind::HandleFlow;
  /// The expression whose text the rendering replaces: the member access,
  /// the subscript, the assignment, the call, the sizeof, the null
  /// constant.
  const clang::Expr *Site = nullptr;
  /// What names the array (a DeclRefExpr, or a MemberExpr of an array
  /// member).
  const clang::Expr *Handle = nullptr;
  /// The element's index (FieldAccess, Element*); null for p->f (index 0).
  const clang::Expr *Index = nullptr;
  /// FieldAccess: the field's member expression.
  const clang::MemberExpr *Field = nullptr;
  /// ElementWrite: the value assigned. NullValue: the null constant.
  const clang::Expr *Value = nullptr;
  /// NullValue passed to a parameter or given to a pointer member: that
  /// parameter or member.
  const clang::ValueDecl *Target = nullptr;
  /// ElementWrite through a compound assignment operator of the class
  /// (`a[i] += v;` as a statement; Site the operator call, Value v): the
  /// element is read, updated and written back.
  bool Updates = false;
  /// ElementWrite through a non-const reference parameter (`move(a[i],
  /// dt);` as a statement; Site the call): the element is copied out, the
  /// call made on the copy, the copy written back. An ElementRead so where
  /// the callee only reads it (the call's value may then be used: nothing
  /// is written back).
  bool ByReference = false;
  /// The handle is an array member of another record (its storage lives
  /// in that record).
  bool Embedded = false;
  /// ElementBinding: the variable, how its type is respelled, and whether
  /// it is a range-for variable its body never names (a reference bound to
  /// a proxy it never uses draws a warning: respelled [[maybe_unused]]).
  const clang::VarDecl *Var = nullptr;
  Respelling Respell = Respelling::None;
  bool Unused = false;
  /// Allocation: the element count, factors to multiply (none: one
  /// element); with CountInBytes, one byte count to divide by the
  /// element's size (bytes = n * sizeof(T); malloc(bytes)).
  llvm::SmallVector<const clang::Expr *, 2> Count = {};
  bool CountInBytes = false;
  /// A use through an element pointer: the handle it points into, whose
  /// name the rendering spells (Handle is then the pointer, Index its
  /// value).
  const clang::VarDecl *Array = nullptr;
  /// LibrarySort, ArrayCopy, FileIO: the call's array is the sub-array
  /// &Handle[Offset] or Handle + Offset (each array of the layout moved by
  /// Offset elements).
  const clang::Expr *Offset = nullptr;
};

/// `T *pi = &a[i]`: a local pointer whose every value is the address of an
/// element of one handle, Array (ElementPointers.cpp). It becomes an index
/// into Array.
struct ElementPointer {
  const clang::VarDecl *Var = nullptr;
  const clang::VarDecl *Array = nullptr;
  /// An element reference into a member's array (`T &r = s->items[i];`,
  /// `items[i]` in a member function) has no Array: the member expression
  /// it was bound through, spelled again at each use.
  const clang::MemberExpr *Member = nullptr;
  /// The array's declaration: the handle variable or the member.
  const clang::ValueDecl *arrayDecl() const {
    return Array ? static_cast<const clang::ValueDecl *>(Array)
                 : Member->getMemberDecl();
  }
};

/// `for (T *p = a; p < a + n; ++p)` (or `p != a + n`) whose body uses p
/// only as `p->f` and never assigns a: rendered as a counted loop over a.
struct WalkingLoop {
  const clang::ForStmt *For = nullptr;
  const clang::VarDecl *Pointer = nullptr;
  const clang::DeclRefExpr *Array = nullptr;
  const clang::Expr *Count = nullptr;
  std::vector<const clang::MemberExpr *> Accesses;
};

/// A use, or why it cannot be rewritten.
struct UseVerdict {
  std::optional<HandleUse> Use;
  std::string Refusal;
  clang::SourceLocation Loc;

  static UseVerdict of(HandleUse U) { return {U, "", {}}; }
  static UseVerdict refused(clang::SourceLocation L, std::string Why) {
    return {std::nullopt, std::move(Why), L};
  }
};

/// A use of an element of a container, with the container's record.
struct ElementUse {
  const clang::RecordDecl *Record = nullptr;
  UseVerdict Verdict;
};

/// Whether a record is one being asked about (Legality: every candidate;
/// the rewriter: the records it rewrites).
using RecordFilter = std::function<bool(const clang::RecordDecl *)>;

class UseClassifier {
public:
  UseClassifier(clang::ASTContext &Ctx, RecordFilter Wanted)
      : Ctx(Ctx), Wanted(std::move(Wanted)) {}

  /// The record whose arrays \p T holds (T *, T[N]), if it is wanted.
  const clang::RecordDecl *handleRecord(clang::QualType T) const;
  /// The record of the std::vector or std::array \p T, if it is wanted
  /// and its containers are not kept (keepContainersOf).
  const clang::RecordDecl *containerRecord(clang::QualType T) const;
  /// Records whose std::vector and std::array keep their type and uses:
  /// at the CUDA boundary every container is the host's own memory, which
  /// keeps its layout (the rewriter's classifier).
  void keepContainersOf(RecordFilter Kept) { KeptContainers = std::move(Kept); }

  /// The record of a handle variable or parameter, else null.
  const clang::RecordDecl *handleVarRecord(const clang::ValueDecl *D) const;
  /// The record of a local `void *` variable that holds only arrays of it
  /// (initialized by realloc of one, tested for null, converted back to a
  /// pointer to the record: VoidHandles.cpp), else null.
  const clang::RecordDecl *voidHandleRecord(const clang::ValueDecl *D) const;

  /// A call of malloc, calloc or realloc, or a new[] (UseClassifier::
  /// allocation says whether its size is one the rewrite can render).
  static bool isAllocation(const clang::Expr *E);
  /// A call of bsearch, maybe behind casts; its value can initialize or be
  /// assigned to a handle (UseClassifier::search).
  /// Whether \p Size is `sizeof a` of an array variable T a[N] of \p RD.
  static bool isFixedArrayOf(const clang::Expr *Size,
                             const clang::RecordDecl *RD);
  static bool isSearch(const clang::Expr *E);
  /// A call of clEnqueueMapBuffer, maybe behind casts: the OpenCL host
  /// analysis judges the mapping (OpenCLUses.cpp) and renders it.
  static bool isMapping(const clang::Expr *E);
  UseVerdict search(const clang::Expr *Init, const clang::RecordDecl *RD) const;
  /// Whether the value of \p E (an allocation, a bsearch) is assigned to,
  /// or initializes, a handle variable.
  bool keptInHandle(const clang::Expr *E) const;

  /// A reference to a handle variable or parameter. Uses of the kinds that
  /// have no edit of their own are classified too.
  UseVerdict reference(const clang::DeclRefExpr *DRE) const;

  /// `s.items` where items is a pointer member holding a handle (T
  /// *items): classified as a use of a handle variable is. Null if \p ME
  /// names no such member.
  std::optional<UseVerdict> memberHandle(const clang::MemberExpr *ME) const;
  /// The record whose handle the pointer member \p D holds, if it is one.
  const clang::RecordDecl *memberHandleRecord(const clang::ValueDecl *D) const;
  /// A handle variable, a pointer member holding a handle, or `*out` of a
  /// handle pointer out.
  bool isHandleExpr(const clang::Expr *E) const;

  // --- Handle pointers: `T **out` parameters a function stores an array
  // into (HandlePointers.cpp) ---

  /// The record whose handle parameter \p D points to (`T **out`), else
  /// null. Its uses: `*out`, a use of that handle (derefHandle), and null
  /// tests (handlePointerReference); its type becomes `T_soa *`.
  const clang::RecordDecl *handlePointerRecord(const clang::ValueDecl *D) const;
  /// Whether \p E is `*out` of a handle pointer out.
  bool isHandlePointerDeref(const clang::Expr *E) const;
  /// `*out`, out a handle pointer: classified as a use of a handle
  /// variable is. Null if \p UO is no such dereference.
  std::optional<UseVerdict> derefHandle(const clang::UnaryOperator *UO) const;
  /// A reference to a handle pointer: `*out` (its use is the handle's) and
  /// null tests are not edited; anything else is refused.
  UseVerdict handlePointerReference(const clang::DeclRefExpr *DRE) const;
  /// The handle-pointer parameter \p AddrOf (`&h`) is passed to as a
  /// call's argument, else null.
  const clang::ParmVarDecl *
  handlePointerParameter(const clang::UnaryOperator *AddrOf) const;
  /// &h[k] or h + k of a handle of \p RD.
  bool isSubArrayOf(const clang::Expr *E, const clang::RecordDecl *RD) const;

  /// `s.items` where items is an array member of a handle record's type.
  /// Null if \p ME names no such member.
  std::optional<UseVerdict> arrayMember(const clang::MemberExpr *ME) const;

  /// An allocation \p Init (a call of malloc/calloc/realloc or a new[])
  /// that becomes the handle of \p RD.
  UseVerdict allocation(const clang::Expr *Init,
                        const clang::RecordDecl *RD) const;

  /// `e[i]` or `e->f` on an array of a handle record that no handle names
  /// (f()[i], (p + 1)[0] ...): the refusal, if \p E is one.
  std::optional<UseVerdict> unnamedArray(const clang::Expr *E) const;

  /// A declaration whose type becomes the handle of \p RD (a variable, a
  /// parameter, an array member of another record): rendered as the handle,
  /// or refused (declared before the record's definition, initialized in a
  /// way the rewrite cannot regroup, spelled inside a macro). A walking
  /// pointer is a WalkingPointer use.
  UseVerdict declaration(const clang::DeclaratorDecl *D,
                         const clang::RecordDecl *RD) const;

  /// A function returning a handle of \p RD: its return type is rewritten.
  UseVerdict functionReturn(const clang::FunctionDecl *FD,
                            const clang::RecordDecl *RD) const;

  /// Whether \p VD is the pointer of a walking-pointer loop.
  bool isWalkingPointer(const clang::VarDecl *VD) const;

  /// Where the generated declarations of \p RD go: the `;` that ends its
  /// definition. A refusal if there is no such place: the record is
  /// defined inside a macro, not at file scope, or together with
  /// variables (struct S {...} a[10];).
  std::variant<clang::SourceLocation, UseVerdict>
  definitionEnd(const clang::RecordDecl *RD) const;

  /// A braced initializer of a record that has array or pointer members
  /// holding handle records: setting an array member is refused (its
  /// storage is regrouped), leaving it to zero is fine; a pointer member's
  /// value is taken as pointerMemberValue says.
  std::vector<std::pair<const clang::RecordDecl *, UseVerdict>>
  memberArrayInitializers(const clang::InitListExpr *List) const;

  /// `items(new T[n])`, `items(nullptr)` in a constructor's initializer list,
  /// items a pointer member holding a handle: the allocation or the null
  /// handle. None for another array of the record (`items(o.items)`, as
  /// written) or any other member; refused for any other value.
  std::optional<std::pair<const clang::RecordDecl *, UseVerdict>>
  memberInitializer(const clang::CXXCtorInitializer *Init) const;

  // --- Containers: std::vector<T> and std::array<T, N> in C++
  // (ContainerUses.cpp) ---

  /// A spelling of a container of \p RD (std::vector<T>, std::array<T, N>
  /// or a nested name through one) over \p R, which the rewrite renames:
  /// refused for an element record no generated container can hold, as a
  /// template argument, inside a macro, or for a std::array whose length its
  /// spelling does not show.
  UseVerdict containerType(const clang::RecordDecl *RD, clang::QualType T,
                           clang::SourceRange R, bool InTemplateArgument) const;

  /// Why a generated container cannot hold elements of \p RD (its proxy
  /// holds a reference to each field and assigns them one by one: an array,
  /// a const or a non-public field), or "".
  static std::string containerElementRefusal(const clang::RecordDecl *RD);

  /// sizeof of a container of a handle record: its value would change.
  std::optional<UseVerdict>
  containerSizeof(const clang::UnaryExprOrTypeTraitExpr *E) const;

  /// N in the spelling `std::array<T, N>`: the text after the last comma
  /// at the top level of the template argument list.
  static std::optional<std::string> arrayLength(llvm::StringRef Spelling);

  /// The container of a wanted record whose element \p E is: v[i],
  /// v.at(i), v.front(), *it, a copy of one, or a reference variable bound
  /// to one (a range-for variable included). Null if none.
  clang::QualType elementContainer(const clang::Expr *E) const;

  /// A variable bound to an element of a container (kind ElementBinding),
  /// or refused: a structured binding, an `auto` copy inside a template's text,
  /// a declaration spelled inside a macro. None if \p VD is no such variable.
  std::optional<ElementUse>
  elementBinding(const clang::VarDecl *VD,
                 const clang::FunctionDecl *Instantiation) const;

  /// e.f() on an element of a container: ElementCall or ProxyCall, or
  /// refused for a function the proxy cannot forward (proxyMethodRefusal),
  /// one that hands out a reference or pointer, or a call spelled inside a
  /// macro.
  std::optional<ElementUse>
  elementCall(const clang::CXXMemberCallExpr *Call,
              const clang::FunctionDecl *Instantiation) const;

  /// std::swap of elements: ElementSwap (ProxyCall when unqualified), or
  /// refused with an object that is not an element, inside a template's
  /// text, or spelled inside a macro.
  std::optional<ElementUse>
  elementSwap(const clang::CallExpr *Call,
              const clang::FunctionDecl *Instantiation) const;

  /// A braced list of elements initializing a std::array of a wanted
  /// record (its syntactic form): ArrayContainerInit, or refused where an
  /// element is spelled inside a macro.
  std::optional<ElementUse>
  arrayContainerInit(const clang::InitListExpr *List) const;

  /// std::sort and the other comparing algorithms over a container of a
  /// wanted record, called without a comparison: \p Instantiation is the
  /// function template instantiation being visited, if any (its text
  /// serves every instantiation, so no record can be named there).
  std::optional<UseVerdict>
  sortByOperatorLess(const clang::CallExpr *Call,
                     const clang::FunctionDecl *Instantiation) const;

  /// How the elements of an array definition \p VD start: as written (a
  /// braced list, nothing, or the implicit default constructor's nothing),
  /// zeroed (a default constructor that zeroes every field: zeroFills), or
  /// from an expression, which is not rewritten.
  enum class ArrayStart { AsWritten, Zeroed, Expression };
  static ArrayStart arrayStart(const clang::VarDecl *VD);

  /// The refusal of \p What inside the function template instantiation
  /// \p FD.
  static std::string inTemplate(const std::string &What,
                                const clang::FunctionDecl *FD);

  // --- Function templates given an overload (TemplateClones.cpp) ---

  /// Whether \p FD, a function template instantiation taking a wanted
  /// record's array (`sumx<P>(const P *v, int n)`), is rewritten as an
  /// overload of its own: the template's text with this instantiation's
  /// uses rendered and its template arguments spelled out, declared just
  /// after the template. Its uses are then judged as any function's.
  bool clonedInstantiation(const clang::FunctionDecl *FD) const;
  /// The records whose arrays the instantiation \p FD's parameters take:
  /// as handles, or as containers spelled with its template parameters
  /// (a deduced `V &` is rewritten in the shared text instead).
  llvm::SmallVector<const clang::RecordDecl *, 2>
  cloneRecords(const clang::FunctionDecl *FD) const;
  /// Why the instantiation \p FD cannot be given an overload (a member of a
  /// class template, declared apart from its definition, an argument its
  /// text cannot spell...); empty if it can.
  std::string cloneRefusal(const clang::FunctionDecl *FD) const;
  /// The whole text of a cloned instantiation's template, from `template`
  /// to the closing brace.
  std::optional<clang::SourceRange>
  cloneTemplateRange(const clang::FunctionDecl *FD) const;
  /// Each template parameter's name and the spelling of \p FD's argument
  /// for it (a fully qualified type, or an integer).
  std::vector<std::pair<std::string, std::string>>
  cloneArguments(const clang::FunctionDecl *FD) const;
  /// \p Ref (a DeclRefExpr or MemberExpr) naming a cloned instantiation, as
  /// the callee of \p Call (null if none): HandleFlow where the call will
  /// choose the overload, TemplateCall where it will once its explicit
  /// template arguments are dropped, else refused (template arguments the
  /// call's arguments do not deduce, a call before the template, the
  /// function's address taken). None if \p Ref names no cloned
  /// instantiation.
  std::optional<UseVerdict> cloneReference(const clang::Expr *Ref,
                                           const clang::CallExpr *Call) const;
  /// The function \p Ref (a DeclRefExpr or MemberExpr) names, or null.
  static const clang::FunctionDecl *namedFunction(const clang::Expr *Ref);
  /// The `<` and `>` of the template arguments \p Ref (a DeclRefExpr or
  /// MemberExpr) spells; invalid where it spells none.
  static clang::SourceRange templateArgumentAngles(const clang::Expr *Ref);
  /// A library's function or a template instantiation whose types cannot
  /// change with the layout (hasFixedTypes), unless the instantiation is
  /// given an overload.
  bool fixedTypes(const clang::FunctionDecl *FD) const {
    return hasFixedTypes(FD) && !clonedInstantiation(FD);
  }

  // --- Element pointers (ElementPointers.cpp) ---

  /// \p D as an element pointer, if it is one.
  std::optional<ElementPointer> elementPointer(const clang::ValueDecl *D) const;
  /// The declarator before \p VD in the declaration that declares both
  /// (T *low, *high;), or null.
  const clang::VarDecl *previousDeclarator(const clang::VarDecl *VD) const;
  /// The variables \p VD's declaration declares, \p VD among them.
  llvm::SmallVector<const clang::VarDecl *, 2>
  declarators(const clang::VarDecl *VD) const;
  /// The index an element pointer stands for, where it holds one element
  /// all its life (pi = &a[i], never assigned or stepped): i; the same for
  /// a local handle holding one element of a member's array all its life
  /// (p = &s->parts[i], a sub-array), and for an element reference (T &r =
  /// a[i]). Null otherwise. (The access analysis reads pi->f and r.f as
  /// a[i].f.)
  const clang::Expr *elementPointerIndex(const clang::ValueDecl *D) const;
  /// A use of an element pointer, if \p DRE names one.
  std::optional<UseVerdict>
  elementPointerUse(const clang::DeclRefExpr *DRE) const;
  /// The address of an element of the handle \p DRE names (&a[i], a + i,
  /// a) where it becomes, or is compared with, an element pointer's value:
  /// ElementAddress. None otherwise.
  std::optional<UseVerdict> elementAddress(const clang::DeclRefExpr *DRE) const;

  // --- Element references (ElementReferences.cpp) ---

  /// \p D as an element reference (`T &r = a[i];`, a local reference bound
  /// to an element of a named handle and used only as that element): an
  /// element pointer that never moves, Var the reference and Array the
  /// handle.
  std::optional<ElementPointer>
  elementReference(const clang::ValueDecl *D) const;
  /// The declaration of an element reference (kind ElementPointer:
  /// respelled as the index it becomes), or refused; none if \p VD is no
  /// element reference.
  std::optional<ElementUse>
  elementReferenceDeclaration(const clang::VarDecl *VD) const;
  /// A use of an element reference (r.f; r read, written, passed on), if
  /// \p DRE names one.
  std::optional<ElementUse>
  elementReferenceUse(const clang::DeclRefExpr *DRE) const;

  // --- Library calls over arrays (LibraryCalls.cpp) ---

  /// qsort, memcpy, memmove, memset, fwrite or fread: calls the classifier
  /// decides
  /// (libraryCall), which see an array of the record whole.
  static bool isArrayLibraryCall(const clang::CallExpr *Call);

  /// The object \p E takes the address of, if it is `&x` or `&s.m` with x
  /// or s.m one object of \p RD (no array's element): what a handle of
  /// the record's arrays cannot be made from.
  static const clang::Expr *singleObjectAddress(const clang::Expr *E,
                                                const clang::RecordDecl *RD);
  /// fwrite or fread.
  static bool isFileCall(const clang::CallExpr *Call);

  /// The comparator of a qsort call, if \p Call is one naming a function.
  static const clang::FunctionDecl *
  qsortComparator(const clang::CallExpr *Call);
  /// The record whose arrays \p FD compares, if FD is a comparator of this
  /// file's qsorts and bsearches of a wanted record and is used for nothing
  /// else: its body
  /// works on copies of elements, T as it is, and is not rewritten. FD may
  /// be defined in another file (then ExternalSymbol::SortedWith).
  const clang::RecordDecl *
  sortComparatorRecord(const clang::FunctionDecl *FD) const;
  /// Comparators defined here for another file's qsorts: externally
  /// visible functions of two void pointers that this file never names,
  /// whose bodies cast their parameters to pointers to one wanted record;
  /// each with that record (ExternalSymbol::Comparator).
  const llvm::DenseMap<const clang::FunctionDecl *, const clang::RecordDecl *> &
  externalComparators() const;
  /// A function left as it is: one of the two above.
  bool keptComparator(const clang::FunctionDecl *FD) const;

  // --- The CUDA runtime (CudaCalls.cpp) ---

  /// The CUDA runtime function \p Call calls, if one followed (by name
  /// and number of arguments), else null.
  static const CudaFunction *cudaFunction(const clang::CallExpr *Call);
  /// Which of the CUDA runtime's memory calls \p Call is.
  static CudaCall cudaCall(const clang::CallExpr *Call) {
    const CudaFunction *F = cudaFunction(Call);
    return F ? F->Kind : CudaCall::None;
  }
  /// The array a CUDA allocation allocates: d of cudaMalloc(&d, ...), maybe
  /// through a cast to void ** (null for any other call).
  static const clang::Expr *cudaAllocated(const clang::CallExpr *Call);
  /// The allocation call whose first argument is the address of the handle
  /// \p E (cudaMalloc(&d, ...), cudaMalloc((void **)&d, ...)), else null.
  const clang::CallExpr *cudaAllocationOf(const clang::Expr *E) const;
  /// Where the array \p D (a variable, parameter, pointer member or
  /// function) holds lives, in a CUDA unit: the data flow of the unit
  /// (CudaMemory.h), built on the first question.
  const CudaMemory &cudaMemory() const;

  // --- Handles ---

  /// The name of a handle expression, for messages: 'p', or 'items' of
  /// s.items.
  static std::string handleName(const clang::Expr *Handle);

  /// Null pointer constants passed to handle parameters: f(0), f(NULL).
  std::vector<std::pair<const clang::RecordDecl *, UseVerdict>>
  nullArguments(const clang::CallExpr *Call) const;

  /// The walking-pointer loop \p For is, if it is one over a handle.
  std::optional<WalkingLoop> walkingLoop(const clang::ForStmt *For) const;

  /// Whether the text of \p E lies in one editable file (not in a macro
  /// expansion, not in a system header).
  bool spelledInFile(clang::SourceRange R) const;

  /// The element count of an allocation size of whole elements of \p RD
  /// (HandleUse::Count): a product with one factor sizeof(T) in any order
  /// and grouping (n * sizeof(T), sizeof(T) * w * h; sizeof(T) alone is one
  /// element), a local variable initialized so and never assigned
  /// (bytes = n * sizeof(T); malloc(bytes)), or a struct field every write
  /// of which stores such a product (ByteCounts.cpp; a field this file does
  /// not write is the program's to tell: byteCountFields()). False if none.
  bool elementCount(const clang::Expr *Size, const clang::RecordDecl *RD,
                    HandleUse &U) const;
  /// The record of \p Records whose whole elements \p Size counts by what
  /// this file shows (not a field only other files write), or null.
  const clang::RecordDecl *
  recordCounted(const clang::Expr *Size,
                llvm::ArrayRef<const clang::RecordDecl *> Records) const;
  /// Whether every value field \p FD is given in this file is a product
  /// n * sizeof(RD); std::nullopt if this file gives it none (other than
  /// zero).
  std::optional<bool> fieldHoldsElements(const clang::FieldDecl *FD,
                                         const clang::RecordDecl *RD) const;
  /// A struct field read as a byte count of whole elements of a record
  /// (elementCount): every write of it in the program must store one
  /// (ExternalSymbol::ByteCount).
  struct ByteCountField {
    const clang::FieldDecl *Field;
    const clang::RecordDecl *Record;
    clang::SourceLocation Loc;
  };
  const std::vector<ByteCountField> &byteCountFields() const {
    return ByteCountFields;
  }
  /// Whether \p Size is the size of one element of \p RD (sizeof(T),
  /// sizeof *p): an element count of none.
  bool isElementSize(const clang::Expr *Size,
                     const clang::RecordDecl *RD) const;

  /// The parent of \p S, looking through parentheses and implicit casts
  /// other than pointer-to-boolean (a null test) and, unless \p SkipLoads,
  /// the load of a whole element; \p Child becomes the outermost
  /// expression skipped.
  const clang::Stmt *semanticParent(const clang::Expr *&Child,
                                    bool SkipLoads = true) const;
  const clang::Stmt *parent(const clang::Stmt *S) const;

private:
  /// The value \p Value an initializer gives pointer member \p FD, which
  /// holds handles of \p RD: an allocation, or the null handle; none for
  /// another array of the record (passed on as written, the member's type
  /// changes); refused with \p Refusal for anything else.
  std::optional<UseVerdict>
  pointerMemberValue(const clang::FieldDecl *FD, const clang::RecordDecl *RD,
                     const clang::Expr *Value,
                     const std::string &Refusal) const;

  std::optional<ElementPointer>
  findElementPointer(const clang::VarDecl *VD) const;
  bool isArrayHandle(const clang::VarDecl *VD) const;
  const clang::Stmt *scopeOf(const clang::VarDecl *VD) const;
  const clang::Expr *elementIndexOf(const clang::Expr *E,
                                    const clang::VarDecl *&Array) const;
  const clang::VarDecl *pointedArray(const clang::Expr *E,
                                     const clang::VarDecl *Self) const;
  bool pointsInto(const clang::Expr *E, const clang::VarDecl *Array) const;
  bool usedAsElementPointer(const clang::DeclRefExpr *DRE) const;
  const clang::Stmt *parentPastSteps(const clang::Expr *&Value) const;
  std::optional<UseVerdict> readOrWrite(HandleUse U, const clang::Expr *Elem,
                                        const clang::Stmt *P) const;
  bool refersToElementPointer(const clang::Expr *E,
                              const clang::VarDecl *Array) const;
  UseVerdict elementPointerDeclaration(const ElementPointer &EP) const;
  /// \p Why, if given, says why \p VD is not one, where that is not
  /// plain (a reference to no element of a handle). \p Alone: without
  /// looking at the other declarators of its declaration.
  std::optional<ElementPointer> findElementReference(const clang::VarDecl *VD,
                                                     UseVerdict *Why = nullptr,
                                                     bool Alone = false) const;
  bool onlyReads(const clang::Stmt *Body,
                 const clang::ParmVarDecl *Param) const;
  std::optional<UseVerdict> referenceUse(const ElementPointer &ER,
                                         const clang::DeclRefExpr *DRE) const;
  std::optional<UseVerdict>
  referenceBinding(HandleUse U, const clang::ArraySubscriptExpr *ASE) const;
  /// \p Offset: the call's array is the sub-array of \p Handle there.
  std::optional<UseVerdict>
  libraryCall(const clang::RecordDecl *RD, const clang::Expr *Handle,
              const clang::CallExpr *Call, const clang::Expr *Child,
              const clang::Expr *Offset = nullptr) const;
  /// A variable of a CUDA memory space (__shared__, __constant__,
  /// __device__) holding an array of \p RD: refused.
  std::optional<UseVerdict> cudaVariable(const clang::DeclaratorDecl *D,
                                         const clang::RecordDecl *RD) const;
  /// \p Handle, whose address \p Child is, allocated by a CUDA call.
  std::optional<UseVerdict> cudaAllocation(const clang::RecordDecl *RD,
                                           const clang::Expr *Handle) const;
  /// \p Handle (as \p Child) given to a CUDA copy, fill or release.
  std::optional<UseVerdict> cudaUse(const clang::RecordDecl *RD,
                                    const clang::Expr *Handle,
                                    const clang::CallExpr *Call,
                                    const clang::Expr *Child) const;
  std::optional<UseVerdict> fileIO(const clang::RecordDecl *RD,
                                   const clang::Expr *Handle,
                                   const clang::CallExpr *Call,
                                   const clang::Expr *Child,
                                   const clang::Expr *Offset) const;
  std::optional<UseVerdict> bytewise(const clang::RecordDecl *RD,
                                     const clang::Expr *Handle,
                                     const clang::CallExpr *Call,
                                     const clang::Expr *Child,
                                     const clang::Expr *Offset) const;
  /// An array of a record as an operand of pointer arithmetic: a handle
  /// (Offset null), &h[k], h + k (HandleArithmetic.cpp).
  struct Position {
    const clang::Expr *Handle = nullptr;
    const clang::Expr *Offset = nullptr;
  };
  std::optional<Position> position(const clang::Expr *E,
                                   const clang::RecordDecl *RD) const;
  /// The array and the offset of the address &a[k] or a + k (none of
  /// either for another expression), whatever the array is.
  static Position addressParts(const clang::Expr *E);
  /// \p Operand (a handle, or a sub-array of one) compared with or
  /// subtracted from another array of \p RD by \p BO; none if \p BO is not
  /// such a comparison.
  std::optional<UseVerdict>
  handleComparison(const clang::RecordDecl *RD, const clang::Expr *Operand,
                   const clang::BinaryOperator *BO) const;
  /// \p Handle stepped by \p Step (++h, h -= k); none if it is not a step.
  std::optional<UseVerdict> handleStep(const clang::RecordDecl *RD,
                                       const clang::Expr *Handle,
                                       const clang::Expr *Step) const;
  std::optional<UseVerdict> subArray(const clang::RecordDecl *RD,
                                     const clang::Expr *Handle,
                                     const clang::Expr *Address,
                                     const clang::Expr *Offset) const;
  UseVerdict derefUse(const ElementPointer &EP, const clang::DeclRefExpr *DRE,
                      const clang::UnaryOperator *Deref,
                      const clang::Expr *Index) const;

  /// The range-for statement whose loop variable \p VD is, if any.
  const clang::CXXForRangeStmt *rangeForOf(const clang::VarDecl *VD) const;
  /// The respelling of a variable bound to an element, or its refusal.
  UseVerdict bindingUse(const clang::VarDecl *VD, clang::QualType Container,
                        const clang::FunctionDecl *Instantiation) const;

  UseVerdict element(const clang::RecordDecl *RD, const clang::Expr *Handle,
                     const clang::ArraySubscriptExpr *ASE, bool Embedded) const;
  UseVerdict wholeElement(const clang::RecordDecl *RD,
                          const clang::Expr *Handle,
                          const clang::ArraySubscriptExpr *ASE,
                          bool Embedded) const;
  UseVerdict handleUse(const clang::RecordDecl *RD,
                       const clang::Expr *Handle) const;
  std::optional<UseVerdict> sizeofUse(const clang::RecordDecl *RD,
                                      const clang::Expr *Handle) const;
  std::optional<UseVerdict> inAllocation(const clang::RecordDecl *RD,
                                         const clang::Expr *Handle) const;
  UseVerdict binaryUse(const clang::RecordDecl *RD, const clang::Expr *Handle,
                       const clang::BinaryOperator *BO,
                       const clang::Expr *Child) const;
  UseVerdict callUse(const clang::RecordDecl *RD, const clang::Expr *Handle,
                     const clang::CallExpr *Call,
                     const clang::Expr *Child) const;
  UseVerdict checked(UseVerdict V, const char *What) const;
  std::optional<UseVerdict> classUse(HandleUse U, const clang::Expr *Elem,
                                     const clang::Stmt *P) const;
  std::optional<UseVerdict> byReference(HandleUse U, const clang::Expr *Elem,
                                        const clang::CallExpr *Call,
                                        const clang::ParmVarDecl *Param) const;
  std::optional<UseVerdict>
  memberByReference(HandleUse U, const clang::Expr *Elem,
                    const clang::CXXMemberCallExpr *Call) const;
  std::optional<UseVerdict> constReference(HandleUse U,
                                           const clang::Expr *Elem) const;
  bool asStatement(const clang::Expr *E) const;
  UseVerdict arrayInitializer(const clang::VarDecl *VD,
                              const clang::RecordDecl *RD) const;
  bool initializerInFile(const clang::Expr *E) const;
  bool inWalkingLoop(const clang::DeclRefExpr *DRE) const;
  std::optional<WalkingLoop> findWalkingLoop(const clang::ForStmt *For) const;
  /// elementCount; \p ProgramFields: whether a field this file does not
  /// write may be the program's byte count.
  bool elementCount(const clang::Expr *Size, const clang::RecordDecl *RD,
                    HandleUse &U, bool ProgramFields) const;
  /// The value local \p Var of function body \p Body holds where \p Use
  /// reads it, when one plain assignment reaches it along straight code
  /// (ByteCounts.cpp), or null.
  const clang::Expr *reachingValue(const clang::Expr *Use,
                                   const clang::VarDecl *Var,
                                   const clang::Stmt *Body) const;
  /// The outermost expression around \p E and the statement that holds it
  /// (null at a declaration's initializer).
  std::pair<const clang::Expr *, const clang::Stmt *>
  exprContext(const clang::Expr *E) const;
  /// The nearest allocation call or new[] among the expressions around \p E.
  const clang::Expr *allocationAbove(const clang::Expr *E) const;

  // Memos: every use climbs its expression, and a statement can be a
  // 100,000-term sum; the walking-loop test scans a loop's body.
  mutable llvm::DenseMap<const clang::Expr *,
                         std::pair<const clang::Expr *, const clang::Stmt *>>
      Contexts;
  mutable llvm::DenseMap<const clang::Expr *, const clang::Expr *> Allocations;
  /// The record whose elements each integer field this file writes
  /// counts (null: written otherwise), for fieldHoldsElements.
  mutable std::optional<
      llvm::DenseMap<const clang::FieldDecl *, const clang::RecordDecl *>>
      FieldRecords;
  mutable std::vector<ByteCountField> ByteCountFields;
  mutable llvm::DenseMap<const clang::ForStmt *, std::optional<WalkingLoop>>
      Loops;
  mutable llvm::DenseMap<const clang::VarDecl *, std::optional<ElementPointer>>
      ElementPointers, ElementReferences;
  /// Comparator functions and the record they compare (computed once),
  /// of this file's qsorts and of other files' (externalComparators).
  mutable std::optional<
      llvm::DenseMap<const clang::FunctionDecl *, const clang::RecordDecl *>>
      Comparators, ExternalComparators;
  void collectComparators() const;
  /// elementPointerIndex's answers: the access analysis asks at every
  /// access through an element pointer.
  mutable llvm::DenseMap<const clang::ValueDecl *, const clang::Expr *>
      PointerIndices;
  /// Element pointers being decided (their values may name each other).
  mutable llvm::SmallPtrSet<const clang::VarDecl *, 4> Deciding;

  bool voidHandleUse(const clang::DeclRefExpr *Ref,
                     const clang::RecordDecl *RD) const;
  mutable llvm::DenseMap<const clang::VarDecl *, const clang::RecordDecl *>
      VoidHandles;

  mutable std::optional<CudaMemory> Memory;
  /// clonedInstantiation's answers.
  mutable llvm::DenseMap<const clang::FunctionDecl *, bool> Clones;

  clang::ASTContext &Ctx;
  RecordFilter Wanted;
  RecordFilter KeptContainers;
};

/// How the program names a struct's field: "Record.field" ("" for a field
/// of an unnamed struct).
std::string fieldKey(const clang::FieldDecl *FD);
/// The integer fields of named structs this translation unit writes, by
/// fieldKey: the record whose whole elements every value stored counts
/// (n * sizeof(T)), or "" where one counts something else or the field is
/// written another way (LayoutPlan::FieldBytes). Fields given only zero are
/// left out.
std::map<std::string, std::string> fieldByteCounts(clang::ASTContext &Ctx);

} // namespace dlopt

#endif
