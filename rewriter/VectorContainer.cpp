//===- VectorContainer.cpp - The containers replacing std::vector, array --===//
//
// In C++, a std::vector<T> whose T gets a new layout becomes a generated
// container with the vector's interface over one std::vector per handle
// member, and a std::array<T, N> a class template on N over one std::array
// per member (docs/cxx.md):
//
//   Body_split_vector       size, resize, reserve, push_back, emplace_back,
//                           pop_back, clear, [], at, front, back, iterators
//   Body_split_array<N>     size, empty, fill, [], at, front, back, iterators
//   Body_split_ref / _cref  what v[i] and *it return: one reference per
//                           field, so that v[i].x and `for (auto &&b : v)
//                           b.x` keep their spelling; converts to and
//                           assigns from a T, swaps by ADL
//   Body_split_iterator     random access, dereferencing to the proxy
//
// Only declarations and a few range-for variables change at the uses
// (ContainerRenderer.cpp). Every member is inline, so after inlining
// v[i].x is fields.x[i], as written by hand.
//
//===----------------------------------------------------------------------===//
#include "rewriter/HandleLayout.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace dlopt;
using llvm::StringRef;

uint64_t HandleLayout::containerTile() const {
  for (const HandleMember &M : Members)
    if (M.K == HandleMember::Tiles)
      return M.Tile;
  return 0;
}

namespace dlopt {
/// Prints the containers of one layout, one piece of their text per member
/// function. A friend of HandleLayout: it reads the fields, members and
/// forwarded methods that the C handle is printed from too.
class ContainerPrinter {
public:
  explicit ContainerPrinter(const HandleLayout &L)
      : L(L), OS(Text), T(L.RecordTag), R(L.refName()), CR(L.constRefName()),
        It(L.iteratorName()),
        AnyTiles(llvm::any_of(L.Members, [](const HandleMember &M) {
          return M.K == HandleMember::Tiles;
        })) {}

  /// The #include lines, the proxies and the iterator, then each container
  /// the rewrite used.
  std::string print();

private:
  // These print one part of the text each, to OS.
  void includes();
  /// The element proxy: a reference per field, read-only if \p Const.
  void proxy(bool Const);
  void proxyConstructor(llvm::StringRef Name, bool Const);
  /// Copying a proxy, assigning an element through it, swapping two.
  void proxyAssignments();
  /// The element's member functions, run on a copy.
  void forwarders(bool Const);
  void iterator();
  void iteratorArithmetic();
  /// The class template replacing std::array<T, N>.
  void arrayContainer();
  /// The class replacing std::vector<T>.
  void vectorContainer();
  void vectorConstructors(llvm::StringRef C);
  /// size, empty, capacity, reserve.
  void vectorCapacity();
  void vectorResize();
  /// push_back, emplace_back, pop_back, clear.
  void vectorPushAndPop();
  /// The member types of container \p C.
  void types(llvm::StringRef C);
  /// [], element(tile, lane), at, front, back and the iterators of \p C.
  void elementAccess(llvm::StringRef C);
  /// The members' storage: a \p Kind each, of \p Length ("" for a vector).
  void storage(llvm::StringRef Kind, llvm::StringRef Length);

  // These return text for the parts above.
  std::string accessor(llvm::StringRef Type, llvm::StringRef Signature,
                       llvm::function_ref<std::string(unsigned)> Field) const;
  std::string groupValue(const HandleMember &M, llvm::StringRef E) const;
  std::string setLanes(llvm::StringRef I, llvm::StringRef E,
                       llvm::StringRef Indent) const;
  /// Field F of element I of the container's storage.
  std::string storedField(llvm::StringRef I, unsigned F) const {
    return L.memberOf(F).element("fields", I, L.FieldNames[F]);
  }
  /// Field F of lane \p Lane of tile \p Tile (containerTile() elements).
  std::string storedLaneField(llvm::StringRef Tile, llvm::StringRef Lane,
                              unsigned F) const {
    return L.memberOf(F).lane("fields", Tile, Lane, L.containerTile(),
                              L.FieldNames[F]);
  }

  const HandleLayout &L;
  std::string Text;
  llvm::raw_string_ostream OS;
  /// The record, the proxies and the iterator.
  const std::string &T;
  const std::string R, CR, It;
  /// Some member is tiled: the vector keeps its element count itself.
  const bool AnyTiles;
};
} // namespace dlopt

std::string HandleLayout::containerDeclarations() const {
  return ContainerPrinter(*this).print();
}

std::string ContainerPrinter::print() {
  includes();
  // The proxies: one reference per field.
  for (bool Const : {false, true})
    proxy(Const);
  iterator();
  if (L.Used & HandleLayout::ArrayContainer)
    arrayContainer();
  if (L.Used & HandleLayout::Container)
    vectorContainer();
  return OS.str();
}

void ContainerPrinter::includes() {
  std::string Headers;
  for (StringRef H : {"array", "cstddef", "functional", "initializer_list",
                      "iterator", "stdexcept", "utility", "vector"})
    if ((H != "array" || (L.Used & HandleLayout::ArrayContainer)) &&
        (H != "vector" || (L.Used & HandleLayout::Container)))
      Headers += "#include <" + H.str() + ">\n";
  OS << L.includes(Headers);
}

void ContainerPrinter::proxy(bool Const) {
  const std::string &Name = Const ? CR : R;
  OS << "/* " << (Const ? "A read-only element" : "An element")
     << " of the containers below: its fields, by reference. */\n"
     << "struct " << Name << " {\n";
  for (unsigned F = 0; F < L.FieldNames.size(); ++F) {
    QualType Ty = Const ? L.FieldTypes[F].withConst() : L.FieldTypes[F];
    std::string Decl;
    llvm::raw_string_ostream D(Decl);
    Ty.print(D, L.Policy, "&" + L.FieldNames[F]);
    OS << "  " << D.str() << ";\n";
  }
  proxyConstructor(Name, Const);
  if (L.ConstructsFromFields) {
    OS << "  operator " << T << "() const { return " << T << "(";
    for (unsigned F = 0; F < L.FieldNames.size(); ++F)
      OS << (F ? ", " : "") << L.FieldNames[F];
    OS << "); }\n";
  } else {
    OS << "  operator " << T << "() const {\n    " << T << " e;\n";
    for (const std::string &F : L.FieldNames)
      OS << "    e." << F << " = " << F << ";\n";
    OS << "    return e;\n  }\n";
  }
  if (!Const)
    proxyAssignments();
  forwarders(Const);
  OS << "};\n\n";
}

void ContainerPrinter::proxyConstructor(StringRef Name, bool Const) {
  // A constructor rather than aggregate initialization: since C++20 a
  // class that declares its copy constructor (below) is no aggregate.
  OS << "  " << Name << "(";
  for (unsigned F = 0; F < L.FieldNames.size(); ++F) {
    QualType Ty = Const ? L.FieldTypes[F].withConst() : L.FieldTypes[F];
    std::string Param;
    llvm::raw_string_ostream P(Param);
    Ty.print(P, L.Policy, "&a" + std::to_string(F));
    OS << (F ? ", " : "") << P.str();
  }
  OS << ")\n      : ";
  for (unsigned F = 0; F < L.FieldNames.size(); ++F)
    OS << (F ? ", " : "") << L.FieldNames[F] << "(a" << F << ")";
  OS << " {}\n";
}

void ContainerPrinter::proxyAssignments() {
  // Copies of a proxy refer to the same element (the library's algorithms
  // pass proxies by value to swap).
  OS << "  " << R << "(const " << R << " &) = default;\n"
     << "  " << R << " &operator=(const " << T << " &e) {\n";
  for (const std::string &F : L.FieldNames)
    OS << "    " << F << " = e." << F << ";\n";
  OS << "    return *this;\n  }\n"
     << "  " << R << " &operator=(const " << R << " &e) {\n"
     << "    return *this = " << T << "(e);\n  }\n"
     << "  [[maybe_unused]] friend void swap(" << R << " a, " << R << " b) {\n"
     << "    " << T << " t = a;\n    a = " << T << "(b);\n    b = t;\n"
     << "  }\n";
}

void ContainerPrinter::forwarders(bool Const) {
  // Non-const member functions run on a copy that is assigned back:
  // v[i].move(dt) keeps its spelling. Only the writable proxy has them.
  if (!Const)
    for (const HandleLayout::ForwardedMethod &M : L.Forwarded) {
      if (M.Const)
        continue;
      OS << "  " << M.Declaration << " {\n    " << T << " e = *this;\n    "
         << (M.ReturnsVoid ? "" : "auto r = ") << "e." << M.Call
         << ";\n    *this = e;\n";
      if (!M.ReturnsVoid)
        OS << "    return r;\n";
      OS << "  }\n";
    }
  // Const ones on a copy.
  for (const HandleLayout::ForwardedMethod &M : L.Forwarded)
    if (M.Const)
      OS << "  " << M.Declaration << " {\n    "
         << (M.ReturnsVoid ? "" : "return ") << T << "(*this)." << M.Call
         << ";\n  }\n";
}

void ContainerPrinter::iterator() {
  // A random-access iterator: a container and an index.
  OS << "/* An iterator of the containers below. */\n"
     << "template <class Container, class Reference> class " << It << " {\n"
     << "public:\n"
     << "  using iterator_category = std::random_access_iterator_tag;\n"
     << "  using value_type = " << T << ";\n"
     << "  using difference_type = std::ptrdiff_t;\n"
     << "  using reference = Reference;\n"
     << "  /* What it-> returns: it-> reaches the proxy's members. */\n"
     << "  struct pointer {\n"
     << "    Reference r;\n"
     << "    Reference *operator->() { return &r; }\n"
     << "  };\n\n"
     << "  " << It << "() = default;\n"
     << "  " << It << "(Container *c, std::size_t i) : c(c), i(i) {}\n"
     << "  Reference operator*() const { return (*c)[i]; }\n"
     << "  pointer operator->() const { return {(*c)[i]}; }\n"
     << "  Reference operator[](difference_type k) const { return (*c)[i + "
        "k]; }\n";
  iteratorArithmetic();
  for (StringRef Op : {"==", "!=", "<", ">", "<=", ">="})
    OS << "  friend bool operator" << Op << "(const " << It << " &a, const "
       << It << " &b) { return a.i " << Op << " b.i; }\n";
  OS << "\nprivate:\n  Container *c = nullptr;\n  std::size_t i = 0;\n};\n\n";
}

void ContainerPrinter::iteratorArithmetic() {
  OS << "  " << It << " &operator++() { ++i; return *this; }\n"
     << "  " << It << " &operator--() { --i; return *this; }\n"
     << "  " << It << " operator++(int) { " << It
     << " t = *this; ++i; return t; }\n"
     << "  " << It << " operator--(int) { " << It
     << " t = *this; --i; return t; }\n"
     << "  " << It
     << " &operator+=(difference_type k) { i += k; return *this; }\n"
     << "  " << It
     << " &operator-=(difference_type k) { i -= k; return *this; }\n"
     << "  friend " << It << " operator+(" << It
     << " a, difference_type k) { return a += k; }\n"
     << "  friend " << It << " operator+(difference_type k, " << It
     << " a) { return a += k; }\n"
     << "  friend " << It << " operator-(" << It
     << " a, difference_type k) { return a -= k; }\n"
     << "  friend difference_type operator-(const " << It << " &a, const " << It
     << " &b) {\n"
     << "    return difference_type(a.i) - difference_type(b.i);\n  }\n";
}

std::string ContainerPrinter::accessor(
    StringRef Type, StringRef Signature,
    llvm::function_ref<std::string(unsigned)> Field) const {
  // A member returning the proxy of one element, whose fields \p Field
  // spells: operator[](i), element(tile, lane).
  std::vector<std::string> Refs;
  for (unsigned F = 0; F < L.FieldNames.size(); ++F)
    Refs.push_back(Field(F));
  return "  " + Type.str() + " " + Signature.str() +
         (Type == "const_reference" ? " const" : "") + " {\n    return {" +
         llvm::join(Refs, ", ") + "};\n  }\n";
}

std::string ContainerPrinter::groupValue(const HandleMember &M,
                                         StringRef E) const {
  // A group's value from element e, e.g. {e.vx, e.vy, e.vz}.
  std::vector<std::string> Values;
  for (unsigned F : M.Fields)
    Values.push_back(E.str() + "." + L.FieldNames[F]);
  return M.RecordName + "{" + llvm::join(Values, ", ") + "}";
}

std::string ContainerPrinter::setLanes(StringRef I, StringRef E,
                                       StringRef Indent) const {
  // The lanes of element I in tiled members set from e.
  std::string Out;
  for (const HandleMember &M : L.Members)
    if (M.K == HandleMember::Tiles)
      for (unsigned F : M.Fields)
        Out += Indent.str() + storedField(I, F) + " = " + E.str() + "." +
               L.FieldNames[F] + ";\n";
  return Out;
}

void ContainerPrinter::elementAccess(StringRef C) {
  // What both containers have: element access and iterators.
  auto Indexed = [&](unsigned F) { return storedField("i", F); };
  auto Lane = [&](unsigned F) { return storedLaneField("tile", "lane", F); };
  for (StringRef Ref : {"reference", "const_reference"})
    OS << accessor(Ref, "operator[](size_type i)", Indexed);
  if (uint64_t Tile = L.containerTile()) {
    // Strip-mined loops (LoopRenderer.cpp) index tile and lane apart, so
    // that no access divides and the lane loop vectorizes.
    OS << "  /* (*this)[tile * " << Tile << " + lane], for loops over "
       << "whole tiles. */\n";
    for (StringRef Ref : {"reference", "const_reference"})
      OS << accessor(Ref, "element(size_type tile, size_type lane)", Lane);
  }
  for (StringRef Ref : {"reference", "const_reference"}) {
    StringRef Const = Ref == "reference" ? "" : " const";
    OS << "  " << Ref << " at(size_type i)" << Const << " {\n"
       << "    if (i >= size())\n"
       << "      throw std::out_of_range(\"" << C << "::at\");\n"
       << "    return (*this)[i];\n  }\n"
       << "  " << Ref << " front()" << Const << " { return (*this)[0]; }\n"
       << "  " << Ref << " back()" << Const
       << " { return (*this)[size() - 1]; }\n";
  }
  OS << "  iterator begin() { return {this, 0}; }\n"
     << "  iterator end() { return {this, size()}; }\n"
     << "  const_iterator begin() const { return {this, 0}; }\n"
     << "  const_iterator end() const { return {this, size()}; }\n"
     << "  const_iterator cbegin() const { return begin(); }\n"
     << "  const_iterator cend() const { return end(); }\n\n";
}

void ContainerPrinter::storage(StringRef Kind, StringRef Length) {
  // One std::vector or std::array per field or group (\p Length "": a
  // vector).
  OS << "  /* The storage: one " << Kind
     << " per field or group of fields. */\n  struct {\n";
  for (const HandleMember &M : L.Members) {
    std::string Elem;
    if (M.K == HandleMember::FieldArray) {
      llvm::raw_string_ostream D(Elem);
      L.FieldTypes[M.Fields[0]].print(D, L.Policy);
    } else {
      Elem = M.RecordName;
    }
    OS << "    " << Kind << "<" << Elem;
    if (!Length.empty())
      OS << ", " << M.length(Length);
    OS << "> " << M.Name << ";\n";
  }
  OS << "  } fields;\n";
}

void ContainerPrinter::types(StringRef C) {
  OS << "  using value_type = " << T << ";\n"
     << "  using size_type = std::size_t;\n"
     << "  using difference_type = std::ptrdiff_t;\n"
     << "  using reference = " << R << ";\n"
     << "  using const_reference = " << CR << ";\n"
     << "  using iterator = " << It << "<" << C << ", reference>;\n"
     << "  using const_iterator = " << It << "<const " << C
     << ", const_reference>;\n\n";
}

void ContainerPrinter::arrayContainer() {
  const std::string A = L.HandleName + "_array";
  OS << "/* A std::array<" << T << ", N> in the layout above. */\n"
     << "template <std::size_t N> class " << A << " {\npublic:\n";
  types(A);
  // std::array<T, N> default-initializes each element: a class with
  // initializers or a constructor gets them; the fields of plain data stay
  // as they are (zero in static storage).
  if (L.ConstructsElements)
    OS << "  " << A << "() { fill(" << T << "()); }\n";
  else
    OS << "  " << A << "() = default;\n";
  // std::array<T, N> a = {e0, e1}: the elements not given are
  // value-initialized.
  OS << "  " << A << "(std::initializer_list<" << T << "> init) {\n"
     << "    fill(" << T << "());\n"
     << "    size_type i = 0;\n"
     << "    for (const " << T << " &e : init)\n"
     << "      (*this)[i++] = e;\n  }\n\n";
  OS << "  static constexpr size_type size() { return N; }\n"
     << "  static constexpr size_type max_size() { return N; }\n"
     << "  static constexpr bool empty() { return N == 0; }\n"
     << "  void fill(const " << T << " &value) {\n"
     << "    for (size_type i = 0; i < N; ++i)\n"
     << "      (*this)[i] = value;\n  }\n\n";
  elementAccess(A);
  storage("std::array", "N");
  OS << "};\n\n";
}

void ContainerPrinter::vectorContainer() {
  const std::string C = L.HandleName + "_vector";
  OS << "/* A std::vector<" << T << "> in the layout above. */\n"
     << "class " << C << " {\npublic:\n";
  types(C);
  vectorConstructors(C);
  vectorCapacity();
  vectorResize();
  vectorPushAndPop();
  elementAccess(C);
  storage("std::vector", "");
  if (AnyTiles)
    OS << "\nprivate:\n  size_type n = 0;\n";
  OS << "};\n\n";
}

void ContainerPrinter::vectorConstructors(StringRef C) {
  OS << "  " << C << "() = default;\n";
  // Elements from nothing need T() (a vector of a class without one has no
  // such constructor either).
  if (!L.ConstructsFromFields)
    OS << "  explicit " << C << "(size_type n) { resize(n); }\n";
  OS << "  " << C << "(size_type n, const " << T
     << " &value) { resize(n, value); }\n"
     << "  " << C << "(std::initializer_list<" << T << "> init) {\n"
     << "    reserve(init.size());\n"
     << "    for (const " << T << " &e : init)\n      push_back(e);\n  }\n\n";
}

void ContainerPrinter::vectorCapacity() {
  // Tiles hold the element count rounded up: the vector keeps its own.
  const HandleMember &First = L.Members.front();
  OS << "  size_type size() const { return "
     << (AnyTiles ? "n" : "fields." + First.Name + ".size()") << "; }\n"
     << "  bool empty() const { return size() == 0; }\n"
     << "  size_type capacity() const { return fields." << First.Name
     << ".capacity()"
     << (First.K == HandleMember::Tiles ? " * " + std::to_string(First.Tile)
                                        : "")
     << "; }\n"
     << "  void reserve(size_type n) {\n";
  for (const HandleMember &M : L.Members)
    OS << "    fields." << M.Name << ".reserve(" << M.length("n") << ");\n";
  OS << "  }\n";
}

void ContainerPrinter::vectorResize() {
  // Tiles grow by whole tiles; the lanes of new elements are set one by
  // one.
  if (!L.ConstructsFromFields)
    OS << "  void resize(size_type n) { resize(n, " << T << "()); }\n";
  OS << "  void resize(size_type n, const " << T << " &value) {\n";
  if (AnyTiles)
    OS << "    size_type old = size();\n";
  for (const HandleMember &M : L.Members) {
    OS << "    fields." << M.Name << ".resize(";
    if (M.K == HandleMember::FieldArray)
      OS << "n, value." << L.FieldNames[M.Fields[0]];
    else if (M.K == HandleMember::Group)
      OS << "n, " << groupValue(M, "value");
    else
      OS << M.length("n");
    OS << ");\n";
  }
  if (AnyTiles)
    OS << "    this->n = n;\n"
       << "    for (size_type k = old; k < n; ++k) {\n"
       << setLanes("k", "value", "      ") << "    }\n";
  OS << "  }\n";
}

void ContainerPrinter::vectorPushAndPop() {
  // A tile is added when its first lane is and removed with its last.
  OS << "  void push_back(const " << T << " &e) {\n";
  if (AnyTiles)
    OS << "    size_type i = n++;\n";
  for (const HandleMember &M : L.Members) {
    if (M.K == HandleMember::Tiles) {
      OS << "    if (i % " << M.Tile << " == 0)\n      fields." << M.Name
         << ".emplace_back();\n";
      continue;
    }
    OS << "    fields." << M.Name << ".push_back("
       << (M.K == HandleMember::FieldArray ? "e." + L.FieldNames[M.Fields[0]]
                                           : groupValue(M, "e"))
       << ");\n";
  }
  if (AnyTiles)
    OS << setLanes("i", "e", "    ");
  OS << "  }\n"
     << "  template <class... Args> reference emplace_back(Args &&...args) "
        "{\n"
     << "    push_back(" << T << "(std::forward<Args>(args)...));\n"
     << "    return back();\n  }\n"
     << "  void pop_back() {\n";
  if (AnyTiles)
    OS << "    --n;\n";
  for (const HandleMember &M : L.Members)
    if (M.K == HandleMember::Tiles)
      OS << "    if (n % " << M.Tile << " == 0)\n      fields." << M.Name
         << ".pop_back();\n";
    else
      OS << "    fields." << M.Name << ".pop_back();\n";
  OS << "  }\n  void clear() {\n";
  if (AnyTiles)
    OS << "    n = 0;\n";
  for (const HandleMember &M : L.Members)
    OS << "    fields." << M.Name << ".clear();\n";
  OS << "  }\n\n";
}
