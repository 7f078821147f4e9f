//===- OpenCLHelpers.cpp - The buffers of a layout in OpenCL host code ----===//
//
// The whole-program strategy (analysis/OpenCLUses.cpp) gives each array of
// a record's layout a buffer of its own, so a kernel reads the same layout
// the host wrote. Host code then holds a T_cl (one cl_mem per handle
// member, in the handle's order, which is also the order of the kernel's
// parameters) and calls these helpers where it called the OpenCL API on
// one buffer. Each does that call per array, with the same arguments and
// error codes: a byte count or offset of whole elements becomes the same
// count of each array's elements, a tiled array transfers whole tiles and,
// for a partial tile, only the lanes of its elements; a copy between two
// buffers copies whole tiles where both sides start one, else runs of
// lanes. The boundary strategy's helpers (T_cl_create_aos, T_cl_write_aos,
// T_cl_read_aos) take the host's own array of T instead, packed into or
// unpacked from a staging copy in the layout.
//
//===----------------------------------------------------------------------===//
#include "rewriter/HandleLayout.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace dlopt;

namespace dlopt {

/// Prints the T_cl struct and its helpers. A friend of HandleLayout.
class ClPrinter {
public:
  explicit ClPrinter(const HandleLayout &L)
      : L(L), OS(Text), H(L.HandleName), C(L.clName()) {}

  std::string print() {
    OS << "#ifdef __APPLE__\n#include <OpenCL/opencl.h>\n#else\n"
          "#include <CL/cl.h>\n#endif\n";
    if (L.Used & HandleLayout::ClCopy)
      OS << "#include <stddef.h>\n";
    OS << "\n";
    // Only those used: clang warns of unused static functions.
    uint64_t Used = L.Used;
    structType();
    if (Used & HandleLayout::ClCreate)
      create();
    if (Used & HandleLayout::ClCreateAos)
      aosCreate();
    if (Used & (HandleLayout::ClWrite | HandleLayout::ClRead |
                HandleLayout::ClWriteAos | HandleLayout::ClReadAos |
                HandleLayout::ClFill))
      transfer();
    if (Used & HandleLayout::ClWrite)
      transferWrapper(/*Write=*/true);
    if (Used & HandleLayout::ClRead)
      transferWrapper(/*Write=*/false);
    if (Used & HandleLayout::ClWriteAos)
      aosTransfer(/*Write=*/true);
    if (Used & HandleLayout::ClReadAos)
      aosTransfer(/*Write=*/false);
    if (Used & HandleLayout::ClCopy)
      copyBuffer();
    if (Used & HandleLayout::ClFill)
      fill();
    if (Used & HandleLayout::ClMap)
      map();
    if (Used & HandleLayout::ClMapAos)
      mapAos();
    if (Used & HandleLayout::ClSetArgs)
      setArgs();
    if (Used & HandleLayout::ClRelease)
      release(/*Release=*/true);
    if (Used & HandleLayout::ClRetain)
      release(/*Release=*/false);
    return OS.str();
  }

private:
  void structType() {
    OS << "/* The OpenCL buffers of an array of " << L.ElementType
       << " in the layout above: one per array, passed to kernels in this "
          "order. */\n"
       << "typedef struct " << C << " {\n";
    for (const HandleMember &M : L.Members)
      OS << "  cl_mem " << M.Name << ";\n";
    OS << "} " << C << ";\n\n";
  }

  /// The length of member \p M's array for n elements, in bytes.
  std::string bytes(const HandleMember &M) const {
    return M.length("n") + " * sizeof *h." + M.Name;
  }

  void create() {
    OS << "/* clCreateBuffer per array, for the elements of `bytes` (the "
          "host memory of each, if any, is h's). */\n"
       << "static inline " << C << " " << L.clCreateName()
       << "(cl_context c, cl_mem_flags flags, size_t bytes, " << H
       << " h, cl_int *err) {\n"
       << "  size_t n = bytes / sizeof(" << L.ElementType << ");\n"
       << "  " << C << " b = {0};\n"
       << "  cl_int e = CL_SUCCESS;\n";
    for (const HandleMember &M : L.Members)
      OS << "  if (e == CL_SUCCESS)\n    b." << M.Name
         << " = clCreateBuffer(c, flags, " << bytes(M) << ", h." << M.Name
         << ", &e);\n";
    OS << "  if (e != CL_SUCCESS) {\n";
    for (const HandleMember &M : L.Members)
      OS << "    if (b." << M.Name << ")\n      clReleaseMemObject(b." << M.Name
         << ");\n";
    for (const HandleMember &M : L.Members)
      OS << "    b." << M.Name << " = 0;\n";
    OS << "  }\n  if (err)\n    *err = e;\n  return b;\n}\n\n";
  }

  /// T_cl_transfer: the elements [first, first + n) of every array, from
  /// or to a host handle whose element 0 is the buffers' element `base` (0,
  /// or where a staging copy starts: a multiple of every tile).
  void transfer() {
    OS << "static inline cl_int " << H
       << "_cl_copy(cl_bool write, cl_command_queue q, cl_mem m, cl_bool "
          "blocking, size_t offset, size_t bytes, void *p, cl_uint nwait, "
          "const cl_event *wait) {\n"
          "  return write ? clEnqueueWriteBuffer(q, m, blocking, offset, "
          "bytes, p, nwait, wait, 0)\n"
          "               : clEnqueueReadBuffer(q, m, blocking, offset, "
          "bytes, p, nwait, wait, 0);\n}\n\n";
    OS << "/* The elements of `bytes` from `offset` (in bytes of "
       << L.ElementType
       << "), per array, h's element 0 being the buffers' element `base`; "
          "`event`, if given, completes with all of them. */\n"
       << "static inline cl_int " << H
       << "_cl_transfer(cl_bool write, cl_command_queue q, " << C
       << " b, cl_bool blocking, size_t offset, size_t bytes, size_t base, "
       << H << " h, cl_uint nwait, const cl_event *wait, cl_event *event) {\n"
       << "  size_t first = offset / sizeof(" << L.ElementType
       << "), n = bytes / sizeof(" << L.ElementType << ");\n"
       << "  cl_int e = CL_SUCCESS;\n";
    for (const HandleMember &M : L.Members) {
      if (M.K != HandleMember::Tiles) {
        OS << "  if (e == CL_SUCCESS)\n    e = " << H << "_cl_copy(write, q, b."
           << M.Name << ", blocking, first * sizeof *h." << M.Name
           << ", n * sizeof *h." << M.Name << ", h." << M.Name
           << " + (first - base), nwait, wait);\n";
        continue;
      }
      tiledTransfer(M);
    }
    endWithMarker();
  }

  /// The end of a helper of several enqueued commands: `event`, if asked
  /// for, completes with all of them.
  void endWithMarker() {
    OS << "  if (e == CL_SUCCESS && event)\n"
          "    e = clEnqueueMarkerWithWaitList(q, 0, 0, event);\n"
          "  return e;\n}\n\n";
  }

  /// Whole tiles at once; the lanes of a partial tile field by field.
  void tiledTransfer(const HandleMember &M) {
    std::string T = std::to_string(M.Tile), A = "h." + M.Name;
    std::string Tile = A + "[t - base / " + T + "]";
    OS << "  for (size_t i = first; e == CL_SUCCESS && i < first + n;) {\n"
       << "    size_t t = i / " << T << ", l = i % " << T
       << ", k = first + n - i;\n"
       << "    if (l == 0 && k >= " << T << ") {\n"
       << "      e = " << H << "_cl_copy(write, q, b." << M.Name
       << ", blocking, t * sizeof *" << A << ", k / " << T << " * sizeof *" << A
       << ", &" << Tile << ", nwait, wait);\n"
       << "      i += k / " << T << " * " << T << ";\n"
       << "      continue;\n    }\n"
       << "    if (k > " << T << " - l)\n      k = " << T << " - l;\n";
    for (unsigned F : M.Fields) {
      std::string Lane = Tile + "." + L.FieldNames[F] + "[l]";
      OS << "    if (e == CL_SUCCESS)\n      e = " << H
         << "_cl_copy(write, q, b." << M.Name << ", blocking, t * sizeof *" << A
         << " + (size_t)((char *)&" << Lane << " - (char *)&" << Tile
         << "), k * sizeof " << Lane << ", &" << Lane << ", nwait, wait);\n";
    }
    OS << "    i += k;\n  }\n";
  }

  void transferWrapper(bool Write) {
    OS << "static inline cl_int " << (Write ? L.clWriteName() : L.clReadName())
       << "(cl_command_queue q, " << C
       << " b, cl_bool blocking, size_t offset, size_t bytes, " << H
       << " h, cl_uint nwait, const cl_event *wait, cl_event *event) {\n"
       << "  return " << H << "_cl_transfer("
       << (Write ? "CL_TRUE" : "CL_FALSE")
       << ", q, b, blocking, offset, bytes, 0, h, nwait, wait, event);\n}\n\n";
  }

  // --- The boundary strategy: the host's own array of T ---

  /// The first element of a staging copy for the buffers' element `first`:
  /// a multiple of every tile, so its tiles are the buffers'.
  std::string stagingBase() const {
    uint64_t Tile = 1;
    for (const HandleMember &M : L.Members)
      if (M.K == HandleMember::Tiles)
        Tile = std::max(Tile, M.Tile);
    // Tiles are powers of two: the largest is a multiple of the others.
    return Tile == 1 ? "first" : "first - first % " + std::to_string(Tile);
  }

  /// T_cl_write_aos / T_cl_read_aos: clEnqueueWriteBuffer and
  /// clEnqueueReadBuffer of the host's array p of T, through a staging
  /// copy in the layout that lives for the call only, so both complete
  /// before they return (a read must unpack what it read); the event, if
  /// asked for, is a marker enqueued after them.
  void aosTransfer(bool Write) {
    std::string E = L.ElementType;
    OS << "/* clEnqueue" << (Write ? "Write" : "Read")
       << "Buffer of the host's array of " << E
       << ", converted through a staging copy in the layout above; it "
          "completes before returning. */\n"
       << "static inline cl_int "
       << (Write ? L.clWriteAosName() : L.clReadAosName())
       << "(cl_command_queue q, " << C
       << " b, cl_bool blocking, size_t offset, size_t bytes, "
       << (Write ? "const " : "") << E
       << " *p, cl_uint nwait, const cl_event *wait, cl_event *event) {\n"
       << "  size_t first = offset / sizeof(" << E << "), n = bytes / sizeof("
       << E << "), base = " << stagingBase() << ";\n"
       << "  " << H << " h;\n  cl_int e;\n"
       << "  (void)blocking; /* the staging copy lives for the call only */\n";
    staging("h", "first - base", Write ? "p[i]" : "",
            "\n    return CL_OUT_OF_HOST_MEMORY;\n");
    OS << "  e = " << H << "_cl_transfer(" << (Write ? "CL_TRUE" : "CL_FALSE")
       << ", q, b, CL_TRUE, offset, bytes, base, h, nwait, wait, event);\n";
    if (!Write)
      OS << "  for (size_t i = 0; e == CL_SUCCESS && i < n; i++)\n"
         << "    p[i] = " << L.getName() << "(h, first - base + i);\n";
    OS << "  " << L.freeName() << "(h);\n  return e;\n}\n\n";
  }

  /// A staging copy \p Var of the n elements the buffers hold from
  /// element \p First on (its element 0 is the buffers' element First),
  /// \p OnFailure after the test of an allocation that failed, and, unless
  /// \p Element is empty, element i set to \p Element (packing).
  void staging(llvm::StringRef Var, llvm::StringRef First,
               llvm::StringRef Element, llvm::StringRef OnFailure) {
    std::string Shift = First == "0" ? "" : (First + " + ").str();
    OS << "  " << Var << " = " << L.allocName() << "(" << Shift << "n);\n"
       << "  if (n && !" << Var << "." << L.Members.front().Name << ")"
       << OnFailure;
    if (!Element.empty())
      OS << "  for (size_t i = 0; i < n; i++)\n"
         << "    " << L.setName() << "(" << Var << ", " << Shift << "i, "
         << Element << ");\n";
  }

  /// T_cl_create_aos: clCreateBuffer with the host's array of T as its
  /// host memory, packed into a staging copy first (the flags copy it:
  /// the analysis admits no CL_MEM_USE_HOST_PTR here).
  void aosCreate() {
    std::string E = L.ElementType;
    OS << "/* clCreateBuffer per array from the host's array of " << E
       << ", packed into a staging copy in the layout above. */\n"
       << "static inline " << C << " " << L.clCreateAosName()
       << "(cl_context c, cl_mem_flags flags, size_t bytes, const " << E
       << " *p, cl_int *err) {\n"
       << "  size_t n = bytes / sizeof(" << E << ");\n"
       << "  " << H << " h;\n  " << C << " b = {0};\n";
    staging("h", "0", "p[i]",
            " {\n    if (err)\n      *err = CL_OUT_OF_HOST_MEMORY;\n"
            "    return b;\n  }\n");
    OS << "  b = " << L.clCreateName() << "(c, flags, bytes, h, err);\n"
       << "  " << L.freeName() << "(h);\n  return b;\n}\n\n";
  }

  /// T_cl_copy_buffer: clEnqueueCopyBuffer of the elements [s, s + n) of
  /// src to [d, d + n) of dst, per array.
  void copyBuffer() {
    const std::string &First = L.Members.front().Name;
    OS << "/* The elements of `bytes` from `src_offset` of src to "
          "`dst_offset` of dst (in bytes of "
       << L.ElementType
       << "), per array; `event`, if given, completes with all of them. */\n"
       << "static inline cl_int " << L.clCopyName() << "(cl_command_queue q, "
       << C << " src, " << C
       << " dst, size_t src_offset, size_t dst_offset, size_t bytes, cl_uint "
          "nwait, const cl_event *wait, cl_event *event) {\n"
       << "  size_t s = src_offset / sizeof(" << L.ElementType
       << "), d = dst_offset / sizeof(" << L.ElementType
       << "), n = bytes / sizeof(" << L.ElementType << ");\n"
       << "  " << H << " h = {0}; /* for the sizes of its arrays' items */\n"
       << "  cl_int e = CL_SUCCESS;\n"
       << "  if (n == 0) /* the error clEnqueueCopyBuffer gives */\n"
       << "    return clEnqueueCopyBuffer(q, src." << First << ", dst." << First
       << ", 0, 0, 0, nwait, wait, event);\n";
    for (const HandleMember &M : L.Members) {
      if (M.K == HandleMember::Tiles) {
        tiledCopy(M);
        continue;
      }
      OS << "  if (e == CL_SUCCESS)\n    e = clEnqueueCopyBuffer(q, src."
         << M.Name << ", dst." << M.Name << ", s * sizeof *h." << M.Name
         << ", d * sizeof *h." << M.Name << ", n * sizeof *h." << M.Name
         << ", nwait, wait, 0);\n";
    }
    endWithMarker();
  }

  /// Whole tiles where both sides start a tile; else runs of lanes that
  /// stay inside one tile of each, field by field.
  void tiledCopy(const HandleMember &M) {
    std::string T = std::to_string(M.Tile), Size = "sizeof *h." + M.Name;
    OS << "  for (size_t i = 0; e == CL_SUCCESS && i < n;) {\n"
       << "    size_t si = s + i, di = d + i, k = n - i;\n"
       << "    if (si % " << T << " == 0 && di % " << T << " == 0 && k >= " << T
       << ") {\n"
       << "      e = clEnqueueCopyBuffer(q, src." << M.Name << ", dst."
       << M.Name << ", si / " << T << " * " << Size << ", di / " << T << " * "
       << Size << ", k / " << T << " * " << Size << ", nwait, wait, 0);\n"
       << "      i += k / " << T << " * " << T << ";\n"
       << "      continue;\n    }\n"
       << "    if (k > " << T << " - si % " << T << ")\n      k = " << T
       << " - si % " << T << ";\n"
       << "    if (k > " << T << " - di % " << T << ")\n      k = " << T
       << " - di % " << T << ";\n";
    for (unsigned F : M.Fields) {
      std::string Field = L.FieldNames[F];
      std::string Lane = "sizeof h." + M.Name + "->" + Field + "[0]";
      std::string At = "offsetof(struct " + M.RecordName + ", " + Field + ")";
      OS << "    if (e == CL_SUCCESS)\n      e = clEnqueueCopyBuffer(q, src."
         << M.Name << ", dst." << M.Name << ", si / " << T << " * " << Size
         << " + " << At << " + si % " << T << " * " << Lane << ", di / " << T
         << " * " << Size << " + " << At << " + di % " << T << " * " << Lane
         << ", k * " << Lane << ", nwait, wait, 0);\n";
    }
    OS << "    i += k;\n  }\n";
  }

  /// T_cl_fill: clEnqueueFillBuffer of the elements [first, first + n)
  /// with one element, per array. An array of fields or small groups is
  /// filled with its part of the element where that is a fill pattern's
  /// size (a power of two up to 128 bytes); otherwise, and for tiles, a
  /// staging copy of the elements is written (blocking).
  void fill() {
    std::string E = L.ElementType;
    OS << "/* clEnqueueFillBuffer of the elements of `bytes` from `offset` "
          "(in bytes of "
       << E
       << ") with the element `pattern`, per array; `event`, if given, "
          "completes with all of them. */\n"
       << "static inline cl_int " << L.clFillName() << "(cl_command_queue q, "
       << C
       << " b, const void *pattern, size_t pattern_size, size_t offset, "
          "size_t bytes, cl_uint nwait, const cl_event *wait, cl_event "
          "*event) {\n"
       << "  const " << E << " *v = (const " << E << " *)pattern;\n"
       << "  size_t first = offset / sizeof(" << E << "), n = bytes / sizeof("
       << E << "), base = " << stagingBase() << ";\n"
       << "  " << H << " s;\n  cl_int e = CL_SUCCESS;\n"
       << "  (void)pattern_size; /* one element's */\n";
    bool Tiled = llvm::any_of(L.Members, [](const HandleMember &M) {
      return M.K == HandleMember::Tiles;
    });
    if (!Tiled)
      fillPerArray();
    staging("s", "first - base", "*v", "\n    return CL_OUT_OF_HOST_MEMORY;\n");
    OS << "  e = " << H
       << "_cl_transfer(CL_TRUE, q, b, CL_TRUE, offset, bytes, base, s, "
          "nwait, wait, event);\n"
       << "  " << L.freeName() << "(s);\n  return e;\n}\n\n";
  }

  /// Each array's part of the element as its own pattern, when all are a
  /// pattern's size.
  void fillPerArray() {
    std::vector<std::string> Fits;
    OS << "  {\n";
    for (unsigned I = 0; I < L.Members.size(); ++I) {
      const HandleMember &M = L.Members[I];
      std::string Item = "item" + std::to_string(I);
      if (M.K == HandleMember::FieldArray)
        OS << "    " << L.fieldDecl(M.Fields.front(), Item) << ";\n";
      else
        OS << "    struct " << M.RecordName << " " << Item << ";\n";
      for (unsigned F : M.Fields) {
        std::string To = M.K == HandleMember::FieldArray
                             ? Item
                             : Item + "." + L.FieldNames[F];
        OS << "    " << L.copyField(To, "v->" + L.FieldNames[F], F) << ";\n";
      }
      std::string S = "sizeof " + Item;
      Fits.push_back("(" + S + " & (" + S + " - 1)) == 0 && " + S + " <= 128");
    }
    OS << "    if (" << llvm::join(Fits, " &&\n        ") << ") {\n";
    for (unsigned I = 0; I < L.Members.size(); ++I) {
      std::string Item = "item" + std::to_string(I);
      OS << "      if (e == CL_SUCCESS)\n        e = clEnqueueFillBuffer(q, b."
         << L.Members[I].Name << ", &" << Item << ", sizeof " << Item
         << ", first * sizeof " << Item << ", n * sizeof " << Item
         << ", nwait, wait, 0);\n";
    }
    OS << "      if (e == CL_SUCCESS && event)\n"
          "        e = clEnqueueMarkerWithWaitList(q, 0, 0, event);\n"
          "      return e;\n    }\n  }\n";
  }

  /// T_cl_map / T_cl_unmap: clEnqueueMapBuffer per array, from the
  /// buffers' start (the analysis admits no other offset), as a handle;
  /// clEnqueueUnmapMemObject of each of its arrays.
  void map() {
    std::string E = L.ElementType;
    OS << "/* clEnqueueMapBuffer per array: the elements of `bytes` from "
          "`offset` (0), as a handle in the layout above; `event`, if given, "
          "completes with all of them. Nothing stays mapped on an error. */\n"
       << "static inline " << H << " " << L.clMapName()
       << "(cl_command_queue q, " << C
       << " b, cl_bool blocking, cl_map_flags flags, size_t offset, size_t "
          "bytes, cl_uint nwait, const cl_event *wait, cl_event *event, cl_int "
          "*err) {\n"
       << "  size_t first = offset / sizeof(" << E << "), n = bytes / sizeof("
       << E << ");\n"
       << "  " << H << " h = {0};\n  cl_int e = CL_SUCCESS;\n";
    for (const HandleMember &M : L.Members) {
      std::string Size = "sizeof *h." + M.Name;
      std::string First = M.K == HandleMember::Tiles
                              ? "first / " + std::to_string(M.Tile)
                              : std::string("first");
      OS << "  if (e == CL_SUCCESS)\n    h." << M.Name << " = ("
         << L.PointerTypes[&M - &L.Members[0]] << ")clEnqueueMapBuffer(q, b."
         << M.Name << ", blocking, flags, " << First << " * " << Size << ", "
         << M.length("n") << " * " << Size << ", nwait, wait, 0, &e);\n";
    }
    OS << "  if (e == CL_SUCCESS && event)\n"
          "    e = clEnqueueMarkerWithWaitList(q, 0, 0, event);\n"
          "  if (e != CL_SUCCESS) {\n";
    for (const HandleMember &M : L.Members)
      OS << "    if (h." << M.Name << ")\n      clEnqueueUnmapMemObject(q, b."
         << M.Name << ", h." << M.Name << ", 0, 0, 0);\n    h." << M.Name
         << " = 0;\n";
    OS << "  }\n  if (err)\n    *err = e;\n  return h;\n}\n\n";
    OS << "static inline cl_int " << L.clUnmapName() << "(cl_command_queue q, "
       << C << " b, " << H
       << " h, cl_uint nwait, const cl_event *wait, cl_event *event) {\n"
       << "  cl_int e = CL_SUCCESS;\n";
    for (const HandleMember &M : L.Members)
      OS << "  if (e == CL_SUCCESS)\n    e = clEnqueueUnmapMemObject(q, b."
         << M.Name << ", h." << M.Name << ", nwait, wait, 0);\n";
    endWithMarker();
  }

  /// T_cl_map_aos / T_cl_unmap_aos at the boundary: the host maps a staging
  /// array of T, read from the buffers (the map completes before it
  /// returns); unmapping writes it back unless it was mapped to read only,
  /// and frees it. A header before the elements keeps what was mapped.
  void mapAos() {
    std::string E = L.ElementType;
    std::string Region = L.clMapAosName() + "_region";
    // Its size is a multiple of both alignments: the elements after a
    // header of that size start aligned.
    std::string Head = "sizeof(" + L.clMapAosName() + "_head)";
    OS << "typedef struct " << Region << " {\n"
       << "  size_t offset, bytes;\n  cl_map_flags flags;\n} " << Region
       << ";\n\n"
       << "typedef union " << L.clMapAosName() << "_head {\n  " << Region
       << " r;\n  " << E << " e;\n} " << L.clMapAosName() << "_head;\n\n"
       << "/* clEnqueueMapBuffer of the host's view of the buffers: a staging "
          "array of "
       << E << ", read from them; it completes before returning. */\n"
       << "static inline void *" << L.clMapAosName() << "(cl_command_queue q, "
       << C
       << " b, cl_bool blocking, cl_map_flags flags, size_t offset, size_t "
          "bytes, cl_uint nwait, const cl_event *wait, cl_event *event, cl_int "
          "*err) {\n"
       << "  size_t head = " << Head << ";\n"
       << "  char *block = (char *)malloc(head + bytes);\n"
       << "  cl_int e = CL_OUT_OF_HOST_MEMORY;\n"
       << "  (void)blocking;\n"
       << "  if (block) {\n"
       << "    " << L.clMapAosName() << "_region *r = (" << L.clMapAosName()
       << "_region *)block;\n"
       << "    r->offset = offset;\n    r->bytes = bytes;\n"
       << "    r->flags = flags;\n"
       << "    e = " << L.clReadAosName() << "(q, b, CL_TRUE, offset, bytes, ("
       << E << " *)(block + head), nwait, wait, event);\n"
       << "    if (e != CL_SUCCESS) {\n      free(block);\n      block = 0;\n"
       << "    }\n  }\n"
       << "  if (err)\n    *err = e;\n"
       << "  return block ? block + head : 0;\n}\n\n";
    OS << "/* clEnqueueUnmapMemObject of a staging array: written back to the "
          "buffers unless mapped to read only, and freed. */\n"
       << "static inline cl_int " << L.clUnmapAosName()
       << "(cl_command_queue q, " << C
       << " b, void *p, cl_uint nwait, const cl_event *wait, cl_event *event) "
          "{\n"
       << "  size_t head = " << Head << ";\n"
       << "  char *block = (char *)p - head;\n"
       << "  " << L.clMapAosName() << "_region *r = (" << L.clMapAosName()
       << "_region *)block;\n"
       << "  cl_int e = CL_SUCCESS;\n"
       << "  if (r->flags & ~(cl_map_flags)CL_MAP_READ)\n"
       << "    e = " << L.clWriteAosName()
       << "(q, b, CL_TRUE, r->offset, r->bytes, (const " << E
       << " *)p, nwait, wait, event);\n"
       << "  else if (event)\n"
       << "    e = clEnqueueMarkerWithWaitList(q, nwait, wait, event);\n"
       << "  free(block);\n  return e;\n}\n\n";
  }

  void setArgs() {
    OS << "/* Kernel arguments first, first + 1, ...: one per array. */\n"
       << "static inline cl_int " << L.clSetArgsName()
       << "(cl_kernel k, cl_uint first, const " << C << " *b) {\n"
       << "  cl_int e = CL_SUCCESS;\n";
    for (unsigned M = 0; M < L.Members.size(); ++M)
      OS << "  if (e == CL_SUCCESS)\n    e = clSetKernelArg(k, first + " << M
         << ", sizeof(cl_mem), &b->" << L.Members[M].Name << ");\n";
    OS << "  return e;\n}\n\n";
  }

  void release(bool Release) {
    const char *Fn = Release ? "clReleaseMemObject" : "clRetainMemObject";
    OS << "static inline cl_int "
       << (Release ? L.clReleaseName() : L.clRetainName()) << "(" << C
       << " b) {\n  cl_int e = CL_SUCCESS, r;\n";
    for (const HandleMember &M : L.Members)
      OS << "  if ((r = " << Fn << "(b." << M.Name
         << ")) != CL_SUCCESS && e == CL_SUCCESS)\n    e = r;\n";
    OS << "  return e;\n}\n\n";
  }

  const HandleLayout &L;
  std::string Text;
  llvm::raw_string_ostream OS;
  /// The handle and the buffers' struct.
  const std::string &H;
  std::string C;
};

} // namespace dlopt

std::string HandleLayout::clDeclarations() const {
  return ClPrinter(*this).print();
}
