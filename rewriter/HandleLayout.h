//===- HandleLayout.h - The generated code of a record's plan --*- C++ -*-===//
//
// One "handle" type per (record, plan) stands for "pointer to an array of the
// record" (docs/design.md, "Rewriting principles"). Each cluster of the plan
// becomes one or more handle members:
//
//   SoA cluster, or any one-field cluster   one array per field  h.x[i]
//   AoS cluster in a split                  array of a small record
//                                           h.vx_vy_vz[i].vx
//   Tiled(T) cluster                        array of tiles
//                                           h.x_y[i / T].x[i % T]
//
// HandleLayout names these members, prints the declarations and helpers
// (alloc, calloc, realloc, free, get, set) and the C++ containers
// (VectorContainer.cpp), and spells every access, through HandleMember.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_REWRITER_HANDLELAYOUT_H
#define DLOPT_REWRITER_HANDLELAYOUT_H

#include "analysis/LayoutPlan.h"
#include "rewriter/HandleMember.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringRef.h"
#include <set>
#include <string>
#include <vector>

namespace dlopt {

struct CudaFunction; // analysis/UseClassifier.h

class HandleLayout {
public:
  /// Null if the plan keeps the record as it is.
  static std::unique_ptr<HandleLayout> create(const RecordPlan &Plan,
                                              const clang::RecordDecl *RD,
                                              clang::ASTContext &Ctx);

  const std::string &handleName() const { return HandleName; }
  /// How the source names one element: "Body" (typedef) or "struct Body".
  const std::string &elementType() const { return ElementType; }
  const std::vector<HandleMember> &members() const { return Members; }
  const std::string &fieldName(unsigned F) const { return FieldNames[F]; }
  unsigned fieldCount() const { return FieldNames.size(); }
  bool isTiled(unsigned F) const {
    return memberOf(F).K == HandleMember::Tiles;
  }
  uint64_t tileOf(unsigned F) const { return memberOf(F).Tile; }

  /// Helpers a rewrite used; only those are generated, since clang warns
  /// about unused static functions.
  enum Helper : uint64_t {
    Alloc = 1,
    Calloc = 2,
    Realloc = 4,
    Free = 8,
    Get = 16,
    Set = 32,
    /// The handle type itself (any C-style array was rewritten).
    HandleType = 64,
    /// C++: the container that replaces std::vector<T> (VectorContainer.cpp).
    Container = 128,
    /// C++: the class template that replaces std::array<T, N>.
    ArrayContainer = 256,
    /// ptrdiff_t, the type of element pointers (UseKind::ElementPointer).
    IndexType = 512,
    /// The handle moved by k elements (UseKind::SubArray).
    Offset = 1024,
    /// qsort of copies of the elements (UseKind::LibrarySort).
    Sort = 2048,
    /// memcpy, memmove and memset per array (UseKind::ArrayCopy).
    Copy = 4096,
    Move = 8192,
    Fill = 16384,
    /// fwrite and fread through a staging array (UseKind::FileIO).
    Write = 32768,
    Read = 65536,
    /// bsearch over copies of the elements (UseKind::LibrarySearch).
    Search = 131072,
    /// The distance between two positions in elements
    /// (UseKind::HandleComparison).
    Diff = 262144,
    /// lfind and lsearch over copies of the elements (UseKind::LibrarySearch).
    Find = 524288,
    Insert = 1048576,
    /// OpenCL host code: the buffers of the layout, one cl_mem per member,
    /// and the calls on them (OpenCLHelpers.cpp).
    ClBuffers = 2097152,
    ClCreate = 4194304,
    ClWrite = 8388608,
    ClRead = 16777216,
    ClSetArgs = 33554432,
    ClRelease = 67108864,
    ClRetain = 134217728,
    ClCopy = 268435456,
    /// The boundary strategy: buffers created from, written from and read
    /// into the host's own array of T, through a staging copy in the
    /// layout (OpenCLHelpers.cpp).
    ClCreateAos = 1ull << 29,
    ClWriteAos = 1ull << 30,
    ClReadAos = 1ull << 31,
    /// clEnqueueFillBuffer with one element as the pattern.
    ClFill = 1ull << 32,
    /// clEnqueueMapBuffer and clEnqueueUnmapMemObject: per array (the
    /// whole program), or of a staging array of T (the boundary).
    ClMap = 1ull << 33,
    ClMapAos = 1ull << 34,
    /// CUDA runtime calls per array of the layout, one helper each, named
    /// after the call (UseKind::CudaCall, CudaHelpers.cpp): the bit of the
    /// K-th of cudaFunctions() is CudaFirst << K (cudaHelper).
    CudaFirst = 1ull << 35,
    /// The boundary strategy's copies between the host's own array of T
    /// and an array in the layout, two per copying function of
    /// cudaFunctions() (cudaAosHelper).
    CudaAosFirst = 1ull << 47,
    /// Allocation and release through the program's own functions
    /// (analysis/AllocatorFunctions.h), passed by pointer.
    AllocBy = 1ull << 55,
    FreeBy = 1ull << 56,
    /// Allocation through the program's calloc-like function, and
    /// reallocation through its realloc-like one.
    CallocBy = 1ull << 57,
    ReallocBy = 1ull << 58,
  };
  /// Every CUDA helper: room for 12 runtime functions and 4 copying ones.
  static constexpr uint64_t CudaHelpers = 0xFFFFFull << 35;
  void use(Helper H) const { Used |= H; }
  /// Every helper, whether used or not (for declarations in a header);
  /// but no reference helper of an array field, which C cannot spell that
  /// way.
  void useAllHelpers() const;
  /// The reference helper of tiled field F (for indices with side effects).
  std::string fieldRef(llvm::StringRef Handle, llvm::StringRef Index,
                       unsigned F) const;

  /// The comment that opens the generated code of record \p Tag (analysis
  /// skips records between it and the closing one; see GeneratedCode).
  static std::string beginMarker(llvm::StringRef Tag) {
    return "/* dlopt: begin generated layout of " + Tag.str() + " */";
  }
  std::string endMarker() const {
    return "/* dlopt: end generated layout of " + RecordTag + " */\n";
  }

  /// The declarations and used helper functions, inserted after the record.
  std::string declarations() const;

  // --- CUDA (CudaHelpers.cpp) ---

  /// Whether the record is declared in a CUDA file: the helpers device code
  /// can call are __host__ __device__.
  bool cuda() const { return Cuda; }
  /// Whether host code binds the record's buffers to OpenCL kernels (its
  /// device arrays are OpenCL buffers, not CUDA's).
  bool clHost() const { return ClHost; }
  /// The helper of the CUDA runtime function \p F (UseKind::CudaCall), one
  /// of cudaFunctions(), and its name, T_soa_cudaMemcpy.
  static Helper cudaHelper(const CudaFunction &F);
  std::string cudaName(llvm::StringRef Fn) const {
    return HandleName + "_" + Fn.str();
  }
  /// At the boundary: the copy \p F (cudaMemcpy, cudaMemcpyAsync) from the
  /// host's own array of T into an array in the layout, or with \p ToAos
  /// the other way, and its name, T_soa_cudaMemcpy_from_aos.
  static Helper cudaAosHelper(const CudaFunction &F, bool ToAos);
  std::string cudaAosName(llvm::StringRef Fn, bool ToAos) const {
    return cudaName(Fn) + (ToAos ? "_to_aos" : "_from_aos");
  }

  /// The declaration of member \p M in the handle struct: pointerDecl,
  /// __restrict where RestrictMembers.
  std::string memberDecl(unsigned M) const;

  // --- OpenCL (OpenCLHelpers.cpp) ---

  /// Whether the record is declared in OpenCL C: the handle's members are
  /// __global pointers, and only helpers OpenCL C can compile are printed.
  bool openCL() const { return OpenCL; }
  /// Member \p M's pointer declared as \p Name: "__global float *b_x";
  /// with \p Const to const elements, with \p Restrict a restrict pointer
  /// ("__global const float *restrict b_x": a kernel parameter's own).
  std::string pointerDecl(unsigned M, llvm::StringRef Name, bool Const = false,
                          bool Restrict = false) const;
  /// Member \p M's pointer type: "__global float *".
  const std::string &pointerType(unsigned M) const { return PointerTypes[M]; }
  /// The host's struct of one cl_mem per member, and its helpers.
  std::string clName() const { return HandleName + "_cl"; }
  std::string clCreateName() const { return HandleName + "_cl_create"; }
  std::string clWriteName() const { return HandleName + "_cl_write"; }
  std::string clReadName() const { return HandleName + "_cl_read"; }
  std::string clSetArgsName() const { return HandleName + "_cl_set_args"; }
  std::string clReleaseName() const { return HandleName + "_cl_release"; }
  std::string clRetainName() const { return HandleName + "_cl_retain"; }
  std::string clCopyName() const { return HandleName + "_cl_copy_buffer"; }
  std::string clFillName() const { return HandleName + "_cl_fill"; }
  std::string clMapName() const { return HandleName + "_cl_map"; }
  std::string clUnmapName() const { return HandleName + "_cl_unmap"; }
  std::string clMapAosName() const { return HandleName + "_cl_map_aos"; }
  std::string clUnmapAosName() const { return HandleName + "_cl_unmap_aos"; }
  std::string clCreateAosName() const { return HandleName + "_cl_create_aos"; }
  std::string clWriteAosName() const { return HandleName + "_cl_write_aos"; }
  std::string clReadAosName() const { return HandleName + "_cl_read_aos"; }

  /// Field F of element Index of the array Handle, for any index.
  std::string access(llvm::StringRef Handle, llvm::StringRef Index,
                     unsigned F) const;
  /// Field F (tiled with this tile size) at tile Tile, lane Lane of a
  /// strip-mined loop whose lanes start at \p Peel (empty: 0); \p Aligned:
  /// the loop peels to a tile boundary of Handle (HandleMember::lane).
  std::string laneAccess(llvm::StringRef Handle, llvm::StringRef Tile,
                         llvm::StringRef Lane, unsigned F,
                         llvm::StringRef Peel = llvm::StringRef(),
                         bool Aligned = false) const;
  /// An expression that is null exactly when the handle is null.
  std::string nullTest(llvm::StringRef Handle) const;
  /// A null handle as an expression: "(H){0}" in C, "H{}" in C++, a call
  /// of the H_null() helper in a header shared by C and CUDA.
  std::string nullValue() const {
    if (Neutral)
      return HandleName + "_null()";
    return CPlusPlus ? HandleName + "{}" : "(" + HandleName + "){0}";
  }
  /// The storage and handle definition for a fixed-size array.
  /// \p Inits, if given, holds per element the initializer text of each
  /// field ("" for zero); elements past its end are zero. \p Attributes
  /// (` __attribute__((aligned(64)))`) follow the storage's name,
  /// \p HandleAttributes (` __attribute__((unused))`) the handle's.
  std::string
  arrayDefinition(llvm::StringRef StorageClass, llvm::StringRef Name,
                  llvm::StringRef Length,
                  const std::vector<std::vector<std::string>> *Inits,
                  llvm::StringRef Attributes = "",
                  llvm::StringRef HandleAttributes = "") const;

  /// An array member of another record: "struct { float x[N]; ... } Name",
  /// whose members are spelled like the handle's, so accesses read alike.
  std::string fieldStorage(llvm::StringRef Name, llvm::StringRef Length) const;
  /// A handle onto storage such as a fieldStorage() member.
  std::string handleOf(llvm::StringRef Storage) const;

  /// C++ only. The containers replacing std::vector<T> and std::array<T,
  /// N> (a class template on N), spelled so that code outside the record's
  /// namespace can name them; their element proxy and iterator types.
  std::string containerName() const {
    return Qualifier + HandleName + "_vector";
  }
  std::string arrayName() const { return Qualifier + HandleName + "_array"; }
  std::string refName() const { return HandleName + "_ref"; }
  std::string constRefName() const { return HandleName + "_cref"; }
  std::string iteratorName() const { return HandleName + "_iterator"; }
  /// The tile size of the containers' element(tile, lane), which
  /// strip-mined loops use: that of the first tiled member (0: none).
  uint64_t containerTile() const;
  /// How C++ code anywhere names one element: the record's name, with its
  /// namespace.
  std::string qualifiedRecordName() const { return Qualifier + RecordTag; }
  /// True for a record in a named namespace (C++).
  bool inNamedNamespace() const { return !Qualifier.empty(); }

  std::string allocName() const { return HandleName + "_alloc"; }
  std::string callocName() const { return HandleName + "_calloc"; }
  std::string reallocName() const { return HandleName + "_realloc"; }
  std::string freeName() const { return HandleName + "_free"; }
  std::string allocByName() const { return HandleName + "_alloc_by"; }
  std::string callocByName() const { return HandleName + "_calloc_by"; }
  std::string reallocByName() const { return HandleName + "_realloc_by"; }
  std::string freeByName() const { return HandleName + "_free_by"; }
  std::string getName() const { return HandleName + "_get"; }
  std::string setName() const { return HandleName + "_set"; }
  std::string offsetName() const { return HandleName + "_offset"; }
  std::string sortName() const { return HandleName + "_qsort"; }
  std::string searchName() const { return HandleName + "_bsearch"; }
  std::string diffName() const { return HandleName + "_diff"; }
  std::string findName() const { return HandleName + "_lfind"; }
  std::string insertName() const { return HandleName + "_lsearch"; }
  std::string copyName() const { return HandleName + "_copy"; }
  std::string moveName() const { return HandleName + "_move"; }
  std::string fillName() const { return HandleName + "_fill"; }
  std::string fwriteName() const { return HandleName + "_fwrite"; }
  std::string freadName() const { return HandleName + "_fread"; }
  /// "To = From" for field \p F, or a memcpy for an array field.
  std::string copyField(llvm::StringRef To, llvm::StringRef From,
                        unsigned F) const;
  /// Whether a helper that is used copies an array field (with memcpy).
  bool arrayFieldCopies() const;
  /// Whether the handle can be moved by any number of elements: none of
  /// its members is tiled, or it counts the elements its tiles skip.
  bool canOffset() const;
  /// The handle member that counts the elements its tiles skip, where the
  /// program takes sub-arrays of a plan with tiles (an offset that is not a
  /// multiple of the tile size starts inside a tile); else empty.
  const std::string &shiftName() const { return ShiftName; }

private:
  // They print parts of declarations().
  friend class HandlePrinter;    // HandleLayout.cpp
  friend class ContainerPrinter; // VectorContainer.cpp
  friend class ClPrinter;        // OpenCLHelpers.cpp
  friend class CudaPrinter;      // CudaHelpers.cpp

  explicit HandleLayout(clang::PrintingPolicy P) : Policy(std::move(P)) {}

  // The parts of create(), in this order.
  /// Forwarded: the member functions the element proxies can forward.
  void addForwarders(const clang::CXXRecordDecl *CXX,
                     const clang::ASTContext &Ctx);
  /// FieldNames, FieldTypes and ContainerPrintable.
  void addFields(const clang::RecordDecl *RD, const clang::ASTContext &Ctx);
  /// Qualifier and the text that closes and reopens the namespaces (C++).
  void addNamespaces(const clang::RecordDecl *RD);
  /// Members, with distinct names, and the HandleName they make.
  void addMembers(const RecordPlan &Plan);
  /// ShiftName.
  void addShift(const RecordPlan &Plan);
  /// MemberOfField, PointerTypes and MemberDecls.
  void addMemberTypes(clang::ASTContext &Ctx);

  const HandleMember &memberOf(unsigned F) const {
    return Members[MemberOfField[F]];
  }
  /// "float x" / "float x[64]" / "float *x": field F declared as \p Name.
  std::string fieldDecl(unsigned F, llvm::StringRef Name) const;
  /// The declarations of the generated records of AoS and tiled clusters.
  std::string groupRecords() const;
  /// The containers that were used (Used: Container, ArrayContainer),
  /// their element proxies and iterator (VectorContainer.cpp).
  std::string containerDeclarations() const;
  /// The buffers of OpenCL host code (Used: ClBuffers; OpenCLHelpers.cpp).
  std::string clDeclarations() const;
  /// The CUDA runtime helpers that were used (CudaHelpers.cpp).
  std::string cudaDeclarations() const;
  /// How a helper device code may call is declared: "static inline ", and
  /// __host__ __device__ in CUDA (a macro that says so under nvcc and
  /// clang's CUDA, nothing in C, in a header shared by C and CUDA).
  std::string deviceHelper() const {
    if (Neutral)
      return "static inline DLOPT_HOST_DEVICE ";
    return Cuda ? "static inline __host__ __device__ " : "static inline ";
  }

  clang::PrintingPolicy Policy;
  std::string RecordTag, HandleName, ElementType, Notation;
  std::vector<std::string> FieldNames;
  std::vector<clang::QualType> FieldTypes;
  /// Whether a generated container can hold the record
  /// (UseClassifier::containerElementRefusal).
  bool ContainerPrintable = false;
  /// "ns::" for a record in a namespace (C++ only), and the text that
  /// closes and reopens its namespaces around #include lines.
  std::string Qualifier, CloseNamespaces, OpenNamespaces;
  /// \p Lines of #include, at file scope.
  std::string includes(llvm::StringRef Lines) const {
    return CloseNamespaces + Lines.str() + "\n" + OpenNamespaces;
  }
  std::vector<HandleMember> Members;
  std::string ShiftName;
  std::vector<unsigned> MemberOfField;
  /// Per member: the pointer type of its array, e.g. "float *", and its
  /// declaration as a handle member, e.g. "float *x" or "char (*name)[4]".
  std::vector<std::string> PointerTypes, MemberDecls;
  mutable uint64_t Used = 0;
  /// Host code (not OpenCL C) of a program with OpenCL buffers of the
  /// record: a header's generated code has every OpenCL host helper.
  bool ClHost = false;
  mutable std::set<unsigned> UsedFieldRefs;
  bool CPlusPlus = false;
  bool OpenCL = false;
  bool Cuda = false;
  /// The record's header is included by C files and CUDA files
  /// (RecordPlan::sharedWithC()): its generated code is written once
  /// for both, alike from either, in C with the CUDA parts under
  /// __CUDACC__ and no C++ containers.
  bool Neutral = false;
  /// The handle's pointers are declared __restrict (RecordPlan::Restrict:
  /// the analysis found no two pointers reaching one array).
  bool RestrictMembers = false;
  /// Per member: its pointer type, and one to const elements, for
  /// pointerDecl (null for a tile struct's, spelled in PointerTypes).
  std::vector<clang::QualType> PointerQualTypes, ConstPointerQualTypes;
  /// A class whose default constructor gives fields values (initializers
  /// or a constructor): a std::array of it constructs every element.
  bool ConstructsElements = false;
  /// A class without a default constructor, built from its fields through
  /// the constructor that takes them in order (fieldwiseConstructor): the
  /// element proxy and get make `T(f0, f1, ...)`, and a vector has no
  /// resize or constructor that makes elements from nothing.
  bool ConstructsFromFields = false;
  /// The member functions the element proxies forward, as declarations
  /// and calls: "void move(float a0)", "move(std::forward<float>(a0))". A
  /// non-const one runs on a copy assigned back (v[i].move(dt)); a const
  /// one on a copy, in both proxies (what templates and it->f() call).
  struct ForwardedMethod {
    std::string Declaration, Call;
    bool ReturnsVoid, Const;
  };
  std::vector<ForwardedMethod> Forwarded;
};

} // namespace dlopt

#endif
