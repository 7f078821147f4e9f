//===- CudaHelpers.cpp - The CUDA runtime's calls per array of a layout ---===//
//
// The helpers of UseKind::CudaCall: each CUDA runtime call on an array of
// the record becomes one call per array of the layout, in a helper named
// after it that takes the handle where the call took the pointer and the
// element count where it took bytes, and returns the first error (so
// `CHECK(cudaMemcpy(...))` keeps working):
//
//   cudaMalloc((void **)&d, n * sizeof(T))  ->  T_soa_cudaMalloc(&d, n)
//   cudaMemcpy(d, h, n * sizeof(T), kind)   ->  T_soa_cudaMemcpy(d, h, n, kind)
//   cudaMemset(d, 0, n * sizeof(T))         ->  T_soa_cudaMemset(d, 0, n)
//   cudaFree(d)                             ->  T_soa_cudaFree(d)
//
// A tiled member copies its whole tiles at once and the last one field by
// field, as T_soa_copy does for memcpy: only the first n elements are
// touched. An allocation that fails releases what it got and leaves the
// handle null, as T_soa_alloc does.
//
// At the boundary (the host keeps its own arrays of T), a copy between
// such an array and one in the layout converts through a staging copy:
//
//   cudaMemcpy(d, h, n * sizeof(T), kind)  ->  T_soa_cudaMemcpy_from_aos(...)
//   cudaMemcpy(h, d, n * sizeof(T), kind)  ->  T_soa_cudaMemcpy_to_aos(...)
//
//===----------------------------------------------------------------------===//
#include "analysis/UseClassifier.h"
#include "rewriter/HandleLayout.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace dlopt;

HandleLayout::Helper HandleLayout::cudaHelper(const CudaFunction &F) {
  size_t K = &F - cudaFunctions().data();
  assert(K < cudaFunctions().size() && (CudaFirst << K) < CudaAosFirst &&
         "one of cudaFunctions(), within the helper bits");
  return Helper(CudaFirst << K);
}

HandleLayout::Helper HandleLayout::cudaAosHelper(const CudaFunction &F,
                                                 bool ToAos) {
  assert(F.Kind == CudaCall::Copy && "a copying function");
  unsigned Copies = llvm::count_if(
      llvm::ArrayRef(cudaFunctions().data(), &F),
      [](const CudaFunction &G) { return G.Kind == CudaCall::Copy; });
  uint64_t Bit = CudaAosFirst << (2 * Copies + ToAos);
  assert((Bit & CudaHelpers) && "within the helper bits");
  return Helper(Bit);
}

namespace dlopt {
/// Prints the CUDA helpers a rewrite used, one per function of
/// cudaFunctions(), in its order. A friend of HandleLayout.
class CudaPrinter {
public:
  explicit CudaPrinter(const HandleLayout &L)
      : L(L), OS(Text), H(L.HandleName) {}

  std::string print() {
    for (const CudaFunction &F : cudaFunctions()) {
      uint64_t Aos = F.Kind == CudaCall::Copy
                         ? HandleLayout::cudaAosHelper(F, false) |
                               HandleLayout::cudaAosHelper(F, true)
                         : 0;
      if (!(L.Used & (HandleLayout::cudaHelper(F) | Aos)))
        continue;
      switch (F.Kind) {
      case CudaCall::Allocation:
        allocation(F);
        break;
      case CudaCall::Release:
        release(F.Name);
        break;
      case CudaCall::Copy:
        perArray(F);
        for (bool ToAos : {false, true})
          if (L.Used & HandleLayout::cudaAosHelper(F, ToAos))
            aosCopy(F, ToAos);
        break;
      case CudaCall::Fill:
        perArray(F);
        break;
      case CudaCall::None:
        break;
      }
    }
    return OS.str();
  }

private:
  /// ", unsigned int flags": F's extra parameter, if it has one.
  static std::string extra(const CudaFunction &F) {
    return F.Extra.empty() ? "" : ", " + F.Extra.str();
  }
  /// Its name: "flags".
  static std::string extraName(const CudaFunction &F) {
    return F.Extra.empty() ? "" : ", " + F.Extra.rsplit(' ').second.str();
  }

  /// "if (e == cudaSuccess) e = Call;": the first error wins.
  void step(const std::string &Call) {
    OS << "  if (e == cudaSuccess)\n    e = " << Call << ";\n";
  }

  void allocation(const CudaFunction &F) {
    OS << "static inline cudaError_t " << L.cudaName(F.Name) << "(" << H
       << " *h, size_t n" << extra(F) << ") {\n"
       << "  cudaError_t e = cudaSuccess;\n";
    if (!L.ShiftName.empty())
      OS << "  h->" << L.ShiftName << " = 0;\n";
    for (const HandleMember &M : L.Members)
      OS << "  h->" << M.Name << " = 0;\n";
    for (const HandleMember &M : L.Members)
      step(F.Name.str() + "((void **)&h->" + M.Name + ", " +
           parenthesize(M.length("n")) + " * sizeof *h->" + M.Name +
           extraName(F) + ")");
    // All or nothing.
    OS << "  if (e != cudaSuccess) {\n";
    for (const HandleMember &M : L.Members)
      OS << "    " << F.Release << "(h->" << M.Name << ");\n    h->" << M.Name
         << " = 0;\n";
    OS << "  }\n  return e;\n}\n\n";
  }

  void release(StringRef Fn) {
    OS << "static inline cudaError_t " << L.cudaName(Fn) << "(" << H
       << " h) {\n  cudaError_t e = cudaSuccess, r;\n";
    for (const HandleMember &M : L.Members)
      OS << "  r = " << Fn << "(h." << M.Name
         << ");\n  if (e == cudaSuccess)\n    e = r;\n";
    OS << "  return e;\n}\n\n";
  }

  /// cudaMemcpy(dst, src, n, kind...) or cudaMemset(dst, c, n...): over
  /// the first n elements of each array.
  void perArray(const CudaFunction &F) {
    bool Copy = F.Kind == CudaCall::Copy;
    OS << "static inline cudaError_t " << L.cudaName(F.Name) << "(" << H
       << " dst, " << (Copy ? H + " src" : "int c") << ", size_t n"
       << (Copy ? ", enum cudaMemcpyKind kind" : "") << extra(F) << ") {\n"
       << "  cudaError_t e = cudaSuccess;\n";
    std::string Rest = (Copy ? ", kind" : "") + extraName(F);
    auto From = [&](const std::string &Member) {
      return Copy ? "src." + Member : std::string("c");
    };
    std::string Fn = F.Name.str();
    for (const HandleMember &M : L.Members) {
      if (M.K != HandleMember::Tiles) {
        step(Fn + "(dst." + M.Name + ", " + From(M.Name) +
             ", n * sizeof *dst." + M.Name + Rest + ")");
        continue;
      }
      std::string T = std::to_string(M.Tile);
      step(Fn + "(dst." + M.Name + ", " + From(M.Name) + ", n / " + T +
           " * sizeof *dst." + M.Name + Rest + ")");
      // The last tile's first n % T lanes, field by field (the address of a
      // field of a device tile is computed, never read, on the host).
      OS << "  if (n % " << T << ") {\n";
      for (unsigned Fi : M.Fields) {
        std::string Field = M.Name + "[n / " + T + "]." + L.FieldNames[Fi];
        step(Fn + "(dst." + Field + ", " + From(Field) + ", n % " + T +
             " * sizeof *dst." + M.Name + "[0]." + L.FieldNames[Fi] + Rest +
             ")");
      }
      OS << "  }\n";
    }
    OS << "  return e;\n}\n\n";
  }

  /// T_soa_cudaMemcpy_from_aos, T_soa_cudaMemcpy_to_aos: a copy between
  /// the host's own array of T, which the boundary strategy keeps, and an
  /// array in the layout, through a staging copy in the layout that lives
  /// for the call only: packed before the copy, or unpacked after it. An
  /// asynchronous one waits for its stream, as the staging copy must
  /// outlive the transfer.
  void aosCopy(const CudaFunction &F, bool ToAos) {
    const std::string &E = L.ElementType;
    OS << "/* " << F.Name << " " << (ToAos ? "into" : "from")
       << " the host's array of " << E
       << ", converted through a staging copy in the layout above. */\n"
       << "static inline cudaError_t " << L.cudaAosName(F.Name, ToAos) << "("
       << (ToAos ? E + " *dst, " + H + " src"
                 : H + " dst, const " + E + " *src")
       << ", size_t n, enum cudaMemcpyKind kind" << extra(F) << ") {\n"
       << "  cudaError_t e;\n"
       << "  " << H << " s = " << L.allocName() << "(n);\n"
       << "  if (n && !s." << L.Members.front().Name << ")\n"
       << "    return cudaErrorMemoryAllocation;\n";
    if (!ToAos)
      OS << "  for (size_t i = 0; i < n; i++)\n"
         << "    " << L.setName() << "(s, i, src[i]);\n";
    OS << "  e = " << L.cudaName(F.Name) << "(" << (ToAos ? "s, src" : "dst, s")
       << ", n, kind" << extraName(F) << ");\n";
    if (!F.Extra.empty())
      OS << "  if (e == cudaSuccess)\n    e = cudaStreamSynchronize("
         << F.Extra.rsplit(' ').second << ");\n";
    if (ToAos)
      OS << "  for (size_t i = 0; e == cudaSuccess && i < n; i++)\n"
         << "    dst[i] = " << L.getName() << "(s, i);\n";
    OS << "  " << L.freeName() << "(s);\n  return e;\n}\n\n";
  }

  const HandleLayout &L;
  std::string Text;
  llvm::raw_string_ostream OS;
  const std::string &H;
};
} // namespace dlopt

std::string HandleLayout::cudaDeclarations() const {
  return CudaPrinter(*this).print();
}
