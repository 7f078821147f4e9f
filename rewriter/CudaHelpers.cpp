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
//===----------------------------------------------------------------------===//
#include "rewriter/HandleLayout.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace dlopt;

HandleLayout::Helper HandleLayout::cudaHelper(StringRef Fn) {
  return llvm::StringSwitch<Helper>(Fn)
      .Case("cudaMalloc", CudaMalloc)
      .Case("cudaMallocManaged", CudaMallocManaged)
      .Case("cudaMallocHost", CudaMallocHost)
      .Case("cudaHostAlloc", CudaHostAlloc)
      .Case("cudaFree", CudaFree)
      .Case("cudaFreeHost", CudaFreeHost)
      .Case("cudaMemcpy", CudaMemcpy)
      .Case("cudaMemcpyAsync", CudaMemcpyAsync)
      .Case("cudaMemset", CudaMemset)
      .Case("cudaMemsetAsync", CudaMemsetAsync);
}

namespace dlopt {
/// Prints the CUDA helpers a rewrite used. A friend of HandleLayout.
class CudaPrinter {
public:
  explicit CudaPrinter(const HandleLayout &L)
      : L(L), OS(Text), H(L.HandleName) {}

  std::string print() {
    for (auto [Bit, Fn, Extra] : Allocators)
      if (L.Used & Bit)
        allocation(Fn, Extra);
    for (StringRef Fn : {"cudaFree", "cudaFreeHost"})
      if (L.Used & HandleLayout::cudaHelper(Fn))
        release(Fn);
    for (auto [Fn, Extra] : {std::pair<StringRef, StringRef>{"cudaMemcpy", ""},
                             {"cudaMemcpyAsync", ", cudaStream_t stream"}})
      if (L.Used & HandleLayout::cudaHelper(Fn))
        perArray(Fn, "src", "enum cudaMemcpyKind kind" + Extra.str());
    for (auto [Fn, Extra] : {std::pair<StringRef, StringRef>{"cudaMemset", ""},
                             {"cudaMemsetAsync", ", cudaStream_t stream"}})
      if (L.Used & HandleLayout::cudaHelper(Fn))
        perArray(Fn, "", Extra.drop_front(2));
    return OS.str();
  }

private:
  struct Allocator {
    HandleLayout::Helper Bit;
    StringRef Fn;
    /// The call's arguments after the size: flags.
    bool Flags;
  };
  static constexpr Allocator Allocators[] = {
      {HandleLayout::CudaMalloc, "cudaMalloc", false},
      {HandleLayout::CudaMallocManaged, "cudaMallocManaged", true},
      {HandleLayout::CudaMallocHost, "cudaMallocHost", false},
      {HandleLayout::CudaHostAlloc, "cudaHostAlloc", true}};

  /// "if (e == cudaSuccess) e = Call;": the first error wins.
  void step(const std::string &Call) {
    OS << "  if (e == cudaSuccess)\n    e = " << Call << ";\n";
  }

  void allocation(StringRef Fn, bool Flags) {
    bool Host = Fn == "cudaMallocHost" || Fn == "cudaHostAlloc";
    OS << "static inline cudaError_t " << L.cudaName(Fn) << "(" << H
       << " *h, size_t n" << (Flags ? ", unsigned int flags" : "") << ") {\n"
       << "  cudaError_t e = cudaSuccess;\n";
    if (!L.ShiftName.empty())
      OS << "  h->" << L.ShiftName << " = 0;\n";
    for (const HandleMember &M : L.Members)
      OS << "  h->" << M.Name << " = 0;\n";
    for (const HandleMember &M : L.Members)
      step(Fn.str() + "((void **)&h->" + M.Name + ", " +
           parenthesize(M.length("n")) + " * sizeof *h->" + M.Name +
           (Flags ? ", flags" : "") + ")");
    // All or nothing.
    OS << "  if (e != cudaSuccess) {\n";
    for (const HandleMember &M : L.Members)
      OS << "    " << (Host ? "cudaFreeHost" : "cudaFree") << "(h->" << M.Name
         << ");\n    h->" << M.Name << " = 0;\n";
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

  /// cudaMemcpy(dst, src, n, kind...) (\p Source "src") or cudaMemset(dst,
  /// c, n...): over the first n elements of each array.
  void perArray(StringRef Fn, StringRef Source, StringRef Extra) {
    OS << "static inline cudaError_t " << L.cudaName(Fn) << "(" << H
       << " dst, " << (Source.empty() ? "int c" : H + " src") << ", size_t n"
       << (Extra.empty() ? "" : ", " + Extra.str()) << ") {\n"
       << "  cudaError_t e = cudaSuccess;\n";
    std::string Rest = Source.empty() ? "" : ", kind";
    if (Extra.ends_with("stream"))
      Rest += ", stream";
    auto From = [&](const std::string &Member) {
      return Source.empty() ? std::string("c") : "src." + Member;
    };
    for (const HandleMember &M : L.Members) {
      if (M.K != HandleMember::Tiles) {
        step(Fn.str() + "(dst." + M.Name + ", " + From(M.Name) +
             ", n * sizeof *dst." + M.Name + Rest + ")");
        continue;
      }
      std::string T = std::to_string(M.Tile);
      step(Fn.str() + "(dst." + M.Name + ", " + From(M.Name) + ", n / " + T +
           " * sizeof *dst." + M.Name + Rest + ")");
      // The last tile's first n % T lanes, field by field (the address of a
      // field of a device tile is computed, never read, on the host).
      OS << "  if (n % " << T << ") {\n";
      for (unsigned F : M.Fields) {
        std::string Field = M.Name + "[n / " + T + "]." + L.FieldNames[F];
        OS << "  ";
        step(Fn.str() + "(dst." + Field + ", " + From(Field) + ", n % " + T +
             " * sizeof *dst." + M.Name + "[0]." + L.FieldNames[F] + Rest +
             ")");
      }
      OS << "  }\n";
    }
    OS << "  return e;\n}\n\n";
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
