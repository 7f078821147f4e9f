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
// (ContainerRewriter.cpp). Every member is inline, so after inlining
// v[i].x is fields.x[i], as written by hand.
//
//===----------------------------------------------------------------------===//
#include "rewriter/HandleLayout.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace dlopt;
using llvm::StringRef;

std::string HandleLayout::containerRefusal() const {
  if (!CPlusPlus)
    return "std::vector outside C++";
  return ContainerRefusal;
}

std::string HandleLayout::storedField(StringRef I, unsigned F) const {
  return memberOf(F).element("fields", I, FieldNames[F]);
}

std::string HandleLayout::storedLaneField(StringRef Tile, StringRef Lane,
                                          unsigned F) const {
  return memberOf(F).lane("fields", Tile, Lane, containerTile(), FieldNames[F]);
}

std::string HandleLayout::containerDeclarations() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  const std::string &T = RecordTag;
  const std::string C = HandleName + "_vector", R = refName(),
                    CR = constRefName(), It = iteratorName();
  bool AnyTiles = llvm::any_of(Members, [](const HandleMember &M) {
    return M.K == HandleMember::Tiles;
  });

  std::string Headers;
  for (StringRef H : {"array", "cstddef", "functional", "initializer_list",
                      "iterator", "stdexcept", "utility", "vector"})
    if ((H != "array" || (Used & ArrayContainer)) &&
        (H != "vector" || (Used & Container)))
      Headers += "#include <" + H.str() + ">\n";
  OS << includes(Headers);

  // The proxies: one reference per field.
  for (bool Const : {false, true}) {
    const std::string &Name = Const ? CR : R;
    OS << "/* " << (Const ? "A read-only element" : "An element")
       << " of the containers below: its fields, by reference. */\n"
       << "struct " << Name << " {\n";
    for (unsigned F = 0; F < FieldNames.size(); ++F) {
      QualType Ty = Const ? FieldTypes[F].withConst() : FieldTypes[F];
      std::string Decl;
      llvm::raw_string_ostream D(Decl);
      Ty.print(D, Policy, "&" + FieldNames[F]);
      OS << "  " << D.str() << ";\n";
    }
    // A constructor rather than aggregate initialization: since C++20 a
    // class that declares its copy constructor (below) is no aggregate.
    OS << "  " << Name << "(";
    for (unsigned F = 0; F < FieldNames.size(); ++F) {
      QualType Ty = Const ? FieldTypes[F].withConst() : FieldTypes[F];
      std::string Param;
      llvm::raw_string_ostream P(Param);
      Ty.print(P, Policy, "&a" + std::to_string(F));
      OS << (F ? ", " : "") << P.str();
    }
    OS << ")\n      : ";
    for (unsigned F = 0; F < FieldNames.size(); ++F)
      OS << (F ? ", " : "") << FieldNames[F] << "(a" << F << ")";
    OS << " {}\n";
    OS << "  operator " << T << "() const {\n    " << T << " e;\n";
    for (const std::string &F : FieldNames)
      OS << "    e." << F << " = " << F << ";\n";
    OS << "    return e;\n  }\n";
    if (!Const) {
      // Copies of a proxy refer to the same element (the library's
      // algorithms pass proxies by value to swap).
      OS << "  " << R << "(const " << R << " &) = default;\n"
         << "  " << R << " &operator=(const " << T << " &e) {\n";
      for (const std::string &F : FieldNames)
        OS << "    " << F << " = e." << F << ";\n";
      OS << "    return *this;\n  }\n"
         << "  " << R << " &operator=(const " << R << " &e) {\n"
         << "    return *this = " << T << "(e);\n  }\n"
         << "  [[maybe_unused]] friend void swap(" << R << " a, " << R
         << " b) {\n"
         << "    " << T << " t = a;\n    a = " << T << "(b);\n    b = t;\n"
         << "  }\n";
      // Non-const member functions run on a copy that is assigned back:
      // v[i].move(dt) keeps its spelling.
      for (const ForwardedMethod &M : Forwarded) {
        if (M.Const)
          continue;
        OS << "  " << M.Declaration << " {\n    " << T << " e = *this;\n    "
           << (M.ReturnsVoid ? "" : "auto r = ") << "e." << M.Call
           << ";\n    *this = e;\n";
        if (!M.ReturnsVoid)
          OS << "    return r;\n";
        OS << "  }\n";
      }
    }
    // Const ones on a copy.
    for (const ForwardedMethod &M : Forwarded)
      if (M.Const)
        OS << "  " << M.Declaration << " {\n    "
           << (M.ReturnsVoid ? "" : "return ") << T << "(*this)." << M.Call
           << ";\n  }\n";
    OS << "};\n\n";
  }

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
        "k]; }\n"
     << "  " << It << " &operator++() { ++i; return *this; }\n"
     << "  " << It << " &operator--() { --i; return *this; }\n"
     << "  " << It << " operator++(int) { " << It
     << " t = *this; ++i; return t; }\n"
     << "  " << It << " operator--(int) { " << It
     << " t = *this; --i; return t; }\n"
     << "  " << It
     << " &operator+=(difference_type k) { i += k; return "
        "*this; }\n"
     << "  " << It
     << " &operator-=(difference_type k) { i -= k; return "
        "*this; }\n"
     << "  friend " << It << " operator+(" << It
     << " a, difference_type k) { return a += k; }\n"
     << "  friend " << It << " operator+(difference_type k, " << It
     << " a) { return a += k; }\n"
     << "  friend " << It << " operator-(" << It
     << " a, difference_type k) { return a -= k; }\n"
     << "  friend difference_type operator-(const " << It << " &a, const " << It
     << " &b) {\n"
     << "    return difference_type(a.i) - difference_type(b.i);\n  }\n";
  for (StringRef Op : {"==", "!=", "<", ">", "<=", ">="})
    OS << "  friend bool operator" << Op << "(const " << It << " &a, const "
       << It << " &b) { return a.i " << Op << " b.i; }\n";
  OS << "\nprivate:\n  Container *c = nullptr;\n  std::size_t i = 0;\n};\n\n";

  // The container.
  // A member returning the proxy of one element, whose fields \p Field
  // spells: operator[](i), element(tile, lane).
  auto Accessor = [&](StringRef Type, StringRef Signature,
                      llvm::function_ref<std::string(unsigned)> Field) {
    std::vector<std::string> Refs;
    for (unsigned F = 0; F < FieldNames.size(); ++F)
      Refs.push_back(Field(F));
    return "  " + Type.str() + " " + Signature.str() +
           (Type == "const_reference" ? " const" : "") + " {\n    return {" +
           llvm::join(Refs, ", ") + "};\n  }\n";
  };
  // A group's value from element e, e.g. {e.vx, e.vy, e.vz}.
  auto GroupValue = [&](const HandleMember &M, StringRef E) {
    std::vector<std::string> Values;
    for (unsigned F : M.Fields)
      Values.push_back(E.str() + "." + FieldNames[F]);
    return M.RecordName + "{" + llvm::join(Values, ", ") + "}";
  };
  // The lanes of element I in tiled members set from e.
  auto SetLanes = [&](StringRef I, StringRef E, StringRef Indent) {
    std::string Out;
    for (const HandleMember &M : Members)
      if (M.K == HandleMember::Tiles)
        for (unsigned F : M.Fields)
          Out += Indent.str() + storedField(I, F) + " = " + E.str() + "." +
                 FieldNames[F] + ";\n";
    return Out;
  };
  // What both containers have: element access, iterators, the storage.
  auto ElementAccess = [&](StringRef C) {
    std::string Out;
    llvm::raw_string_ostream AS(Out);
    auto Indexed = [&](unsigned F) { return storedField("i", F); };
    auto Lane = [&](unsigned F) { return storedLaneField("tile", "lane", F); };
    for (StringRef Ref : {"reference", "const_reference"})
      AS << Accessor(Ref, "operator[](size_type i)", Indexed);
    if (uint64_t Tile = containerTile()) {
      // Strip-mined loops (StripMining.cpp) index tile and lane apart, so
      // that no access divides and the lane loop vectorizes.
      AS << "  /* (*this)[tile * " << Tile << " + lane], for loops over "
         << "whole tiles. */\n";
      for (StringRef Ref : {"reference", "const_reference"})
        AS << Accessor(Ref, "element(size_type tile, size_type lane)", Lane);
    }
    for (StringRef Ref : {"reference", "const_reference"}) {
      StringRef Const = Ref == "reference" ? "" : " const";
      AS << "  " << Ref << " at(size_type i)" << Const << " {\n"
         << "    if (i >= size())\n"
         << "      throw std::out_of_range(\"" << C << "::at\");\n"
         << "    return (*this)[i];\n  }\n"
         << "  " << Ref << " front()" << Const << " { return (*this)[0]; }\n"
         << "  " << Ref << " back()" << Const
         << " { return (*this)[size() - 1]; }\n";
    }
    AS << "  iterator begin() { return {this, 0}; }\n"
       << "  iterator end() { return {this, size()}; }\n"
       << "  const_iterator begin() const { return {this, 0}; }\n"
       << "  const_iterator end() const { return {this, size()}; }\n"
       << "  const_iterator cbegin() const { return begin(); }\n"
       << "  const_iterator cend() const { return end(); }\n\n";
    return Out;
  };
  // One std::vector or std::array per field or group (\p Length "": a
  // vector).
  auto Storage = [&](StringRef Kind, StringRef Length) {
    std::string Out;
    llvm::raw_string_ostream SS(Out);
    SS << "  /* The storage: one " << Kind
       << " per field or group of fields. */\n  struct {\n";
    for (const HandleMember &M : Members) {
      std::string Elem;
      if (M.K == HandleMember::FieldArray) {
        llvm::raw_string_ostream D(Elem);
        FieldTypes[M.Fields[0]].print(D, Policy);
      } else {
        Elem = M.RecordName;
      }
      SS << "    " << Kind << "<" << Elem;
      if (!Length.empty())
        SS << ", " << M.length(Length);
      SS << "> " << M.Name << ";\n";
    }
    SS << "  } fields;\n";
    return Out;
  };
  auto Types = [&](StringRef C) {
    return "  using value_type = " + T +
           ";\n"
           "  using size_type = std::size_t;\n"
           "  using difference_type = std::ptrdiff_t;\n"
           "  using reference = " +
           R + ";\n  using const_reference = " + CR +
           ";\n  using iterator = " + It + "<" + C.str() +
           ", reference>;\n  using const_iterator = " + It + "<const " +
           C.str() + ", const_reference>;\n\n";
  };

  if (Used & ArrayContainer) {
    const std::string A = HandleName + "_array";
    OS << "/* A std::array<" << T << ", N> in the layout above. */\n"
       << "template <std::size_t N> class " << A << " {\npublic:\n"
       << Types(A);
    // std::array<T, N> default-initializes each element: a class with
    // initializers or a constructor gets them; the fields of plain data
    // stay as they are (zero in static storage).
    if (ConstructsElements)
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
       << "      (*this)[i] = value;\n  }\n\n"
       << ElementAccess(A) << Storage("std::array", "N") << "};\n\n";
  }
  if (!(Used & Container))
    return OS.str();
  const HandleMember &First = Members.front();

  OS << "/* A std::vector<" << T << "> in the layout above. */\n"
     << "class " << C << " {\npublic:\n"
     << Types(C) << "  " << C << "() = default;\n"
     << "  explicit " << C << "(size_type n) { resize(n); }\n"
     << "  " << C << "(size_type n, const " << T
     << " &value) { resize(n, value); }\n"
     << "  " << C << "(std::initializer_list<" << T << "> init) {\n"
     << "    reserve(init.size());\n"
     << "    for (const " << T << " &e : init)\n      push_back(e);\n  }\n\n";

  OS << "  size_type size() const { return "
     << (AnyTiles ? "n" : "fields." + First.Name + ".size()") << "; }\n"
     << "  bool empty() const { return size() == 0; }\n"
     << "  size_type capacity() const { return fields." << First.Name
     << ".capacity()"
     << (First.K == HandleMember::Tiles ? " * " + std::to_string(First.Tile)
                                        : "")
     << "; }\n"
     << "  void reserve(size_type n) {\n";
  for (const HandleMember &M : Members)
    OS << "    fields." << M.Name << ".reserve(" << M.length("n") << ");\n";
  OS << "  }\n"
     << "  void resize(size_type n) { resize(n, " << T << "()); }\n"
     << "  void resize(size_type n, const " << T << " &value) {\n";
  if (AnyTiles)
    OS << "    size_type old = size();\n";
  for (const HandleMember &M : Members) {
    OS << "    fields." << M.Name << ".resize(";
    if (M.K == HandleMember::FieldArray)
      OS << "n, value." << FieldNames[M.Fields[0]];
    else if (M.K == HandleMember::Group)
      OS << "n, " << GroupValue(M, "value");
    else
      OS << M.length("n");
    OS << ");\n";
  }
  if (AnyTiles)
    OS << "    this->n = n;\n"
       << "    for (size_type k = old; k < n; ++k) {\n"
       << SetLanes("k", "value", "      ") << "    }\n";
  OS << "  }\n"
     << "  void push_back(const " << T << " &e) {\n";
  if (AnyTiles)
    OS << "    size_type i = n++;\n";
  for (const HandleMember &M : Members) {
    if (M.K == HandleMember::Tiles) {
      OS << "    if (i % " << M.Tile << " == 0)\n      fields." << M.Name
         << ".emplace_back();\n";
      continue;
    }
    OS << "    fields." << M.Name << ".push_back("
       << (M.K == HandleMember::FieldArray ? "e." + FieldNames[M.Fields[0]]
                                           : GroupValue(M, "e"))
       << ");\n";
  }
  if (AnyTiles)
    OS << SetLanes("i", "e", "    ");
  OS << "  }\n"
     << "  template <class... Args> reference emplace_back(Args &&...args) "
        "{\n"
     << "    push_back(" << T << "(std::forward<Args>(args)...));\n"
     << "    return back();\n  }\n"
     << "  void pop_back() {\n";
  if (AnyTiles)
    OS << "    --n;\n";
  for (const HandleMember &M : Members)
    if (M.K == HandleMember::Tiles)
      OS << "    if (n % " << M.Tile << " == 0)\n      fields." << M.Name
         << ".pop_back();\n";
    else
      OS << "    fields." << M.Name << ".pop_back();\n";
  OS << "  }\n  void clear() {\n";
  if (AnyTiles)
    OS << "    n = 0;\n";
  for (const HandleMember &M : Members)
    OS << "    fields." << M.Name << ".clear();\n";
  OS << "  }\n\n" << ElementAccess(C) << Storage("std::vector", "");
  if (AnyTiles)
    OS << "\nprivate:\n  size_type n = 0;\n";
  OS << "};\n\n";
  return OS.str();
}
