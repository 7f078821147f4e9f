//===- OpenCLHost.h - What the host code of an OpenCL program connects ----===//
//
// An OpenCL program is host code plus kernel files, and the host is where a
// record's array meets its kernels: it creates kernels by name
// (clCreateKernel(program, "forces", &err)), buffers of n * sizeof(T) bytes
// (clCreateBuffer), copies host arrays into and out of them
// (clEnqueueWriteBuffer, clEnqueueReadBuffer) and binds each buffer to a
// kernel argument by index (clSetKernelArg(k, 0, sizeof(cl_mem), &buf)).
// This reads those calls from a host translation unit: which variable or
// member holds which kernel, which holds a buffer of which record, and
// which kernel argument each such buffer becomes. Analysis only: legality
// turns the connections into symbols that the kernel files must match
// (WholeProgram.h) and everything it cannot connect into a refusal, and the
// rewriter renders the uses it lists (OpenCLUses.cpp): the whole-program
// strategy, where each array of the new layout has a buffer of its own.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_OPENCLHOST_H
#define DLOPT_ANALYSIS_OPENCLHOST_H

#include "analysis/LayoutPlan.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlopt {

class UseClassifier;

/// The OpenCL API calls the host analysis knows, by what they do to a
/// buffer.
enum class ClCall {
  None,
  CreateKernel,  // clCreateKernel(program, name, &err)
  CreateProgram, // clCreateProgramWithSource(context, n, strings, ...)
  CreateBuffer,  // clCreateBuffer(context, flags, bytes, host, &err)
  WriteBuffer, // clEnqueueWriteBuffer(queue, buf, blocking, off, bytes, p, ...)
  ReadBuffer,  // clEnqueueReadBuffer(queue, buf, blocking, off, bytes, p, ...)
  CopyBuffer,  // clEnqueueCopyBuffer(queue, src, dst, src_off, dst_off, bytes,
               // ...)
  FillBuffer, // clEnqueueFillBuffer(queue, buf, pattern, size, off, bytes, ...)
  MapBuffer,  // (T *)clEnqueueMapBuffer(queue, buf, blocking, flags, off,
              // bytes, ..., &err)
  UnmapBuffer,     // clEnqueueUnmapMemObject(queue, buf, mapped, ...)
  SetKernelArg,    // clSetKernelArg(kernel, index, size, &buf)
  SetKernelArgSvm, // clSetKernelArgSVMPointer(kernel, index, pointer)
  ReleaseBuffer,   // clReleaseMemObject(buf), clRetainMemObject(buf)
  Unsupported,     // another call on buffers: rectangles, sub-buffers...
};

/// Which of the calls above \p Call is, by the callee's name (OpenCL's
/// API is C: no overloads, and the names are reserved to it).
ClCall classifyClCall(const clang::CallExpr *Call);

/// Whether \p T is spelled as OpenCL's cl_mem (through any sugar).
bool isClMem(clang::QualType T);
/// The base type of \p VD as written (`cl_mem` of `cl_mem spare[2]`).
clang::TypeLoc baseTypeLoc(const clang::VarDecl *VD);
/// Why the local declaration \p DS, which declares a record's buffers
/// beside other cl_mem variables, cannot be respelled as a declaration per
/// run of declarators (OpenCLRenderer), or "" (OpenCLUses.cpp).
std::string unsplittable(clang::ASTContext &Ctx, const clang::DeclStmt *DS);
/// Whether \p T is spelled as OpenCL's cl_kernel.
bool isClKernel(clang::QualType T);

/// A buffer of a candidate record's elements.
struct ClBuffer {
  const clang::RecordDecl *Record = nullptr;
  clang::SourceLocation Created;
};

/// A clCreateKernel call and the kernel name it passes ("" where it is no
/// string literal).
struct KernelCreation {
  const clang::CallExpr *Call;
  std::string Name;
};

/// clSetKernelArg binding a record's buffer to a kernel argument.
struct ClKernelArgument {
  const clang::RecordDecl *Record = nullptr;
  /// The kernel's name, or empty if the kernel it sets is not created from
  /// a string literal in this file (Problem says so).
  std::string Kernel;
  unsigned Index = 0;
  /// False where the index could not be followed (a problem says so): the
  /// binding is to some argument of the kernel.
  bool IndexKnown = true;
  const clang::ValueDecl *Buffer = nullptr;
  clang::SourceLocation At;
  const clang::CallExpr *Call = nullptr;
};

/// What the whole-program rewrite of a record's buffers edits: the buffer
/// becomes one cl_mem per array of the layout (a T_cl struct of them), each
/// call on it a helper doing the call per array, and a kernel argument one
/// argument per array, so later argument indices count them.
enum class ClUseKind {
  /// `cl_mem buf;` (a variable or member; all its declarators hold buffers
  /// of the record): the type becomes the record's T_cl.
  BufferDeclaration,
  /// clCreateBuffer(ctx, flags, n * sizeof(T), host, &err): per array.
  Create,
  /// clEnqueueWriteBuffer, clEnqueueReadBuffer of the handle: per array.
  Write,
  Read,
  /// clEnqueueCopyBuffer between two buffers of the record: per array.
  Copy,
  /// clEnqueueFillBuffer with one element of the record as the pattern:
  /// each array filled with its part of it.
  Fill,
  /// `T *p = (T *)clEnqueueMapBuffer(...)`: the whole program maps each
  /// array (p becomes a handle; only from the buffers' start); at the
  /// boundary p is a staging array of T, read from the buffers. Unmap:
  /// per array, or the staging array written back.
  Map,
  Unmap,
  /// clSetKernelArg(k, i, sizeof(cl_mem), &buf): arguments i, i+1, ... one
  /// per array (a counter index steps past all of them).
  SetArgument,
  /// A constant index of another argument of a kernel that takes buffers
  /// of records at lower indices: it counts their arrays.
  ArgumentIndex,
  /// clReleaseMemObject(buf), clRetainMemObject(buf): per array.
  Release,
  Retain,
  /// !buf, buf == NULL, if (buf): tests the first array's buffer.
  NullTest,
};

struct ClUse {
  ClUseKind Kind = ClUseKind::NullTest;
  const clang::RecordDecl *Record = nullptr;
  /// The call (every kind but BufferDeclaration and NullTest).
  const clang::CallExpr *Call = nullptr;
  /// NullTest: the reference to the buffer. Map: the mapped pointer's
  /// value, the call with the casts around it.
  const clang::Expr *Ref = nullptr;
  /// BufferDeclaration: the variable or member.
  const clang::DeclaratorDecl *Holder = nullptr;
  /// BufferDeclaration of a local declaration that also declares other
  /// cl_mem variables (`cl_mem bodies, forces;`): those, which keep their
  /// type in a declaration of their own.
  std::vector<const clang::VarDecl *> Others;
  /// SetArgument, ArgumentIndex: the index's value.
  int64_t Index = 0;
  /// SetArgument: the buffer whose address is passed (buf in &buf), and the
  /// counter `a` where the index is written `a++` (null for a constant).
  const clang::Expr *Buffer = nullptr;
  const clang::Expr *Counter = nullptr;
  /// SetArgument, ArgumentIndex: the record of each buffer bound to a lower
  /// argument of the same kernel, one entry per argument.
  std::vector<const clang::RecordDecl *> Before;
  /// Create: the host memory argument is a null pointer constant.
  bool NoHostMemory = false;
};

/// Something about a record's buffer that cannot be connected, with its
/// reason.
struct ClProblem {
  const clang::RecordDecl *Record = nullptr;
  clang::SourceLocation At;
  std::string Reason;
  /// The strategies it blocks: a transfer of a sub-array blocks only the
  /// whole-program rewrite (at the boundary the host's pointer is packed
  /// from as it is), host memory a buffer uses in place only the boundary.
  Blocker::Scope Blocks = Blocker::Both;
};

class OpenCLHost {
public:
  using IsCandidateFn = std::function<bool(const clang::RecordDecl *)>;
  /// The candidate record whose whole elements a byte count counts
  /// (n * sizeof(T)), or null.
  using SizeRecordFn =
      std::function<const clang::RecordDecl *(const clang::Expr *)>;
  /// Whether a byte count counts whole elements of a record (n *
  /// sizeof(T), or a count the program stores: UseClassifier::elementCount).
  using CountsElementsFn =
      std::function<bool(const clang::Expr *, const clang::RecordDecl *)>;
  /// The connections of the buffers of \p Records (legality's candidates,
  /// or the records a rewrite changes): a byte count counts a record's
  /// elements as \p Uses reads allocation sizes.
  /// \p Known: the program's buffer holders (LayoutPlan::BufferHolders),
  /// whose buffers this file uses without creating them.
  static OpenCLHost
  forRecords(clang::ASTContext &Ctx, const UseClassifier &Uses,
             std::vector<const clang::RecordDecl *> Records,
             const std::map<std::string, std::string> *Known = nullptr);
  OpenCLHost(clang::ASTContext &Ctx, IsCandidateFn IsCandidate,
             SizeRecordFn RecordOfSize, CountsElementsFn CountsElements)
      : Ctx(Ctx), IsCandidate(std::move(IsCandidate)),
        RecordOfSize(std::move(RecordOfSize)),
        CountsElements(std::move(CountsElements)) {}

  /// Reads the translation unit's OpenCL calls; false if it makes none.
  bool collect();

  /// The variable or member that \p E names, if it names one (buf,
  /// s->buf, s.kernels.forces).
  static const clang::ValueDecl *holder(const clang::Expr *E);
  /// What clSetKernelArg's value argument \p Call takes the address of
  /// (buf in `&buf`, through casts), or null.
  static const clang::Expr *addressedValue(const clang::CallExpr *Call);

  /// The name of the kernel the variable or member \p D holds (created by
  /// clCreateKernel from a string literal), or "".
  std::string kernelName(const clang::ValueDecl *D) const {
    return Kernels.lookup(D);
  }
  /// The names of the kernels \p D holds: the one it was created with, or
  /// for a cl_kernel parameter of a static function, those its calls pass
  /// (OpenCLParameters.cpp), or for a member or global variable no kernel
  /// is created into here, its holder symbol (another file creates it);
  /// empty where some name is not known.
  std::vector<std::string> kernelNames(const clang::ValueDecl *D) const;
  /// The names of the kernels \p D holds where \p Use reads it: for a
  /// holder created into more than once (one variable reused kernel after
  /// kernel), the name of the creation that reaches Use in its function
  /// (ReusedKernelHolders.cpp), empty where none is sure to; else
  /// kernelNames(D).
  std::vector<std::string> kernelNamesAt(const clang::ValueDecl *D,
                                         const clang::Expr *Use) const;
  /// Every kernel name created into \p D (empty where one is not a string
  /// literal); kernelNames(D) for a holder created into once.
  std::vector<std::string> createdKernelNames(const clang::ValueDecl *D) const;
  /// "@Sim.move" for member move of struct Sim, "@k" for a global
  /// variable k other files can see, of type cl_kernel or cl_mem: how files
  /// name a holder that one of them creates the kernel or buffer into. ""
  /// for others.
  static std::string holderSymbol(const clang::ValueDecl *D);
  static bool isHolderSymbol(llvm::StringRef Name) {
    return Name.starts_with("@");
  }
  /// The kernels created here into holders with a symbol, by the symbol.
  std::map<std::string, std::string> kernelHolders() const;
  /// The first clSetKernelArg of each kernel (by kernelNamesAt()), and of
  /// kernels whose names are not known ("?").
  std::map<std::string, clang::SourceLocation> kernelArgumentSetters() const;
  /// The first clSetKernelArgSVMPointer of each kernel, likewise.
  const std::map<std::string, clang::SourceLocation> &
  kernelArgumentSvmSetters() const {
    return SvmKernelCalls;
  }
  /// The holders with a symbol of the buffers of \p RD.
  std::vector<std::string> bufferHolders(const clang::RecordDecl *RD) const;
  /// The record whose elements the buffer held by \p D holds, or null.
  const clang::RecordDecl *bufferRecord(const clang::ValueDecl *D) const;
  const std::vector<ClKernelArgument> &arguments() const { return Arguments; }
  /// Where the host makes a program from kernel source written in the host
  /// file itself (a string literal), which is not analyzed; invalid if none.
  clang::SourceLocation embeddedKernels() const { return EmbeddedKernels; }
  const std::vector<ClProblem> &problems() const { return Problems; }
  /// What the whole-program rewrite edits, for records without problems
  /// (OpenCLUses.cpp); their problems list what it cannot.
  const std::vector<ClUse> &uses() const { return Uses; }

private:
  friend class ClCallVisitor;
  void createKernel(const clang::CallExpr *Call, const clang::ValueDecl *To);
  void createBuffer(const clang::CallExpr *Call, const clang::ValueDecl *To);
  void transfer(const clang::CallExpr *Call);
  void copy(const clang::CallExpr *Call);
  // OpenCLParameters.cpp: buffers passed to the program's functions.
  void passedBuffers(const std::vector<const clang::Expr *> &References);
  void checkParameter(const clang::ParmVarDecl *P,
                      const std::vector<const clang::Expr *> &References);
  void passedKernels(const std::vector<const clang::Expr *> &References);
  void setKernelArg(const clang::CallExpr *Call);
  void setKernelArgSvm(const clang::CallExpr *Call);
  void checkBufferUses(const std::vector<const clang::Expr *> &References);
  const clang::RecordDecl *hostArrayRecord(const clang::Expr *E) const;
  /// \p Base: the constant a counter was last set to (the index itself
  /// for a constant).
  static std::optional<int64_t> argumentIndex(clang::ASTContext &Ctx,
                                              const clang::Expr *E,
                                              int64_t *Base = nullptr);
  // OpenCLUses.cpp: the uses, and the problems of their rewrite.
  void collectUses();
  void declarationUse(const clang::ValueDecl *Holder, const ClBuffer &B);
  void callUse(const clang::CallExpr *Call, ClCall K);
  void argumentUses();
  void sharedCallsAgree();
  bool bindsBuffer(const clang::CallExpr *Call) const;
  bool respellable(const clang::CallExpr *Call) const;
  bool wholeArray(const clang::RecordDecl *RD, const clang::Expr *Host,
                  const std::string &What);
  bool wholeElements(const clang::RecordDecl *RD, const clang::Expr *Bytes,
                     const std::string &What);
  void copiedHostMemory(const clang::RecordDecl *RD, const clang::Expr *Flags);
  bool onePattern(const clang::RecordDecl *RD, const clang::CallExpr *Fill);
  bool mapping(const clang::CallExpr *Call, ClUse &U);
  bool waitsAsync(const clang::CallExpr *Call, int Blocking, unsigned NWait,
                  const clang::RecordDecl *RD, const std::string &What,
                  Blocker::Scope Scope);
  bool unmapping(const clang::CallExpr *Call, ClUse &U);

  /// Buffers other files create into holders this file uses (forRecords'
  /// Known), given their records among Named.
  /// True if it found any.
  bool knownBuffers(const std::vector<const clang::ValueDecl *> &Holders);

  clang::ASTContext &Ctx;
  IsCandidateFn IsCandidate;
  const std::map<std::string, std::string> *Known = nullptr;
  std::vector<const clang::RecordDecl *> Named;
  SizeRecordFn RecordOfSize;
  CountsElementsFn CountsElements;
  /// Kernels by the variable or member holding them: the name they were
  /// created with ("" if not a string literal).
  llvm::DenseMap<const clang::ValueDecl *, std::string> Kernels;
  /// Every clCreateKernel into each holder, in source order.
  llvm::DenseMap<const clang::ValueDecl *, std::vector<KernelCreation>>
      Creations;
  /// cl_kernel parameters of static functions: the kernels the calls pass,
  /// by name, in order; an empty name where a call passes one not known.
  llvm::DenseMap<const clang::ValueDecl *, std::vector<std::string>>
      KernelParameters;
  llvm::DenseMap<const clang::ValueDecl *, ClBuffer> Buffers;
  std::vector<const clang::CallExpr *> Calls;
  std::vector<ClKernelArgument> Arguments;
  std::vector<ClProblem> Problems;
  std::vector<ClUse> Uses;
  clang::SourceLocation EmbeddedKernels;
  /// Every clSetKernelArg of a kernel created here, by the kernel's name.
  llvm::StringMap<std::vector<const clang::CallExpr *>> KernelCalls;
  /// Those of kernels whose names are not known.
  std::vector<const clang::CallExpr *> UnknownKernelCalls;
  /// Every clSetKernelArgSVMPointer, by the kernel's name ("?" if not
  /// known).
  std::map<std::string, clang::SourceLocation> SvmKernelCalls;
  /// The file creates user events (clCreateUserEvent), which complete only
  /// when the host sets them (waitsAsync).
  bool UserEvents = false;
  /// The holder each clCreateBuffer stores its buffer to.
  llvm::DenseMap<const clang::CallExpr *, const clang::ValueDecl *> CreatedIn;
  /// References to buffers in the calls above, where they are connected.
  llvm::SmallPtrSet<const clang::Expr *, 16> Connected;
};

} // namespace dlopt

#endif
