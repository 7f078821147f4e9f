//===- HandleLayout.cpp - The generated code for one record's plan --------===//
//
// A HandleLayout made from a record and its plan; the C handle, its helpers
// (HandlePrinter) and the fixed-size arrays' storage. The C++ containers
// are printed in VectorContainer.cpp; every access is spelled by
// HandleMember.
//
//===----------------------------------------------------------------------===//
#include "rewriter/HandleLayout.h"
#include "analysis/AstUtil.h"
#include "analysis/SpecialMembers.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace dlopt;
using llvm::StringRef;

/// \p T as code outside the record can spell it: a type the record
/// declares (`using real = float;`) is named `Body::real` in the generated
/// declarations, which live outside the record.
static QualType spellable(QualType T, const ASTContext &Ctx) {
  return TypeName::getFullyQualifiedType(T, Ctx);
}

/// How the generated code, placed right after \p RD's definition, names
/// the element type: a typedef of its file declared by then (`typedef
/// struct {...} P;`, or one before the definition), else the tag. A
/// typedef declared later (`typedef struct triple pos_t;` after `struct
/// triple {...};`) is not known there yet, and one of another file may be
/// included before the definition in some files only.
static std::string elementTypeName(const RecordDecl *RD, StringRef Tag,
                                   ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const TypedefNameDecl *> Typedefs = typedefsOf(RD, Ctx);
  for (const TypedefNameDecl *TD : Typedefs)
    if (SM.getFileID(SM.getExpansionLoc(TD->getLocation())) ==
            SM.getFileID(SM.getExpansionLoc(RD->getLocation())) &&
        SM.isBeforeInTranslationUnit(TD->getBeginLoc(), RD->getEndLoc()))
      return TD->getName().str();
  if (Tag.empty() && !Typedefs.empty())
    return Typedefs.front()->getName().str();
  return (RD->isStruct() ? "struct " : "class ") + Tag.str();
}

std::unique_ptr<HandleLayout> HandleLayout::create(const RecordPlan &Plan,
                                                   const RecordDecl *RD,
                                                   ASTContext &Ctx) {
  if (Plan.unchanged() || Plan.Clusters.empty())
    return nullptr;
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  bool Neutral = Plan.sharedWithC() && !Ctx.getLangOpts().OpenCL;
  // C names a struct type with its keyword; C++ does not need it, and
  // must not put it before a qualified member type (Body::real), which a
  // record C also sees has none of.
  Policy.SuppressTagKeyword = Ctx.getLangOpts().CPlusPlus && !Neutral;
  std::unique_ptr<HandleLayout> L(new HandleLayout(Policy));
  L->RecordTag = recordName(RD);
  L->CPlusPlus = Ctx.getLangOpts().CPlusPlus;
  L->OpenCL = Ctx.getLangOpts().OpenCL;
  L->Cuda = Ctx.getLangOpts().CUDA;
  L->Neutral = Neutral;
  L->ClHost = !L->OpenCL && Plan.hasBuffers();
  L->RestrictMembers = Plan.Restrict && !L->OpenCL && !L->Cuda && !L->ClHost;
  if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD)) {
    L->ConstructsElements = !CXX->hasTrivialDefaultConstructor();
    L->ConstructsFromFields = fieldwiseConstructor(CXX) != nullptr;
    L->addForwarders(CXX, Ctx);
  }
  L->Notation = Plan.notation();
  L->ElementType = elementTypeName(RD, L->RecordTag, Ctx);
  L->addFields(RD, Ctx);
  if (L->CPlusPlus)
    L->addNamespaces(RD);
  L->addMembers(Plan);
  L->addShift(Plan);
  L->addMemberTypes(Ctx);
  return L;
}

void HandleLayout::addForwarders(const CXXRecordDecl *CXX,
                                 const ASTContext &Ctx) {
  // Every member function the proxies can spell a forwarder for (a
  // header's declarations must not depend on the uses or the definitions
  // one includer sees; Legality admits the calls).
  for (const CXXMethodDecl *MD : CXX->methods()) {
    if (MD->isImplicit() || MD->isStatic() ||
        isa<CXXConstructorDecl, CXXDestructorDecl>(MD) ||
        !proxyMethodRefusal(MD, /*CheckBody=*/false).empty())
      continue;
    std::string Decl, Args;
    llvm::raw_string_ostream D(Decl);
    spellable(MD->getReturnType(), Ctx).print(D, Policy);
    D << " " << MD->getNameAsString() << "(";
    for (unsigned I = 0; I < MD->getNumParams(); ++I) {
      std::string Arg = "a" + std::to_string(I);
      QualType ParamType = spellable(MD->getParamDecl(I)->getType(), Ctx);
      std::string Type = ParamType.getAsString(Policy);
      D << (I ? ", " : "");
      ParamType.print(D, Policy, Arg);
      Args += (I ? ", " : "") + ("std::forward<" + Type + ">(" + Arg + ")");
    }
    D << ")" << (MD->isConst() ? " const" : "");
    Forwarded.push_back({D.str(), MD->getNameAsString() + "(" + Args + ")",
                         MD->getReturnType()->isVoidType(), MD->isConst()});
  }
}

void HandleLayout::addFields(const RecordDecl *RD, const ASTContext &Ctx) {
  for (const FieldDecl *FD : RD->fields()) {
    FieldNames.push_back(FD->getNameAsString());
    FieldTypes.push_back(spellable(FD->getType(), Ctx));
  }
  ContainerPrintable = UseClassifier::containerElementRefusal(RD).empty();
}

void HandleLayout::addNamespaces(const RecordDecl *RD) {
  for (const DeclContext *DC = RD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      std::string Name = NS->getName().str();
      if (!NS->isAnonymousNamespace())
        Qualifier = Name + "::" + Qualifier;
      OpenNamespaces = std::string(NS->isInline() ? "inline " : "") +
                       "namespace " + Name + (Name.empty() ? "" : " ") + "{\n" +
                       OpenNamespaces;
      CloseNamespaces += "} // namespace " + Name + "\n";
    }
}

void HandleLayout::addMembers(const RecordPlan &Plan) {
  bool AllSoA = true, AllTiled = true;
  for (const ClusterPlan &C : Plan.Clusters) {
    const std::vector<unsigned> &Fs = C.Fields.Fields;
    bool Tiled = C.Chosen.Kind == LayoutKind::Tiled;
    AllTiled &= Tiled;
    AllSoA &= !Tiled && (C.Chosen.Kind == LayoutKind::SoA || Fs.size() == 1);
    if (!Tiled && (C.Chosen.Kind == LayoutKind::SoA || Fs.size() == 1)) {
      for (unsigned F : Fs)
        Members.push_back(
            {HandleMember::FieldArray, FieldNames[F], {F}, 0, ""});
      continue;
    }
    std::vector<std::string> Names;
    for (unsigned F : Fs)
      Names.push_back(FieldNames[F]);
    std::string Name = C.Fields.Cold ? "cold"
                       : Fs.size() == FieldNames.size()
                           ? "tiles"
                           : llvm::join(Names, "_");
    if (Name.size() > 32)
      Name = Names.front() + "_group";
    HandleMember M{Tiled ? HandleMember::Tiles : HandleMember::Group, Name, Fs,
                   0, ""};
    M.Tile = Tiled ? C.Chosen.Tile : 0;
    M.RecordName = RecordTag + (Tiled ? "_tile_" : "_") + Name;
    Members.push_back(std::move(M));
  }
  HandleName = RecordTag + (AllSoA ? "_soa" : AllTiled ? "_tiled" : "_split");

  // Member names must differ from each other.
  for (unsigned I = 0; I < Members.size(); ++I)
    for (unsigned J = 0; J < I; ++J)
      if (Members[I].Name == Members[J].Name) {
        Members[I].Name += "_" + std::to_string(I);
        Members[I].RecordName += "_" + std::to_string(I);
      }
}

void HandleLayout::addShift(const RecordPlan &Plan) {
  bool Tiles = llvm::any_of(Members, [](const HandleMember &M) {
    return M.K == HandleMember::Tiles;
  });
  if (!Tiles || Plan.SubArrayAt.empty())
    return;
  // A name no member has.
  ShiftName = "offset";
  while (llvm::any_of(
      Members, [&](const HandleMember &M) { return M.Name == ShiftName; }))
    ShiftName += "_";
}

void HandleLayout::addMemberTypes(ASTContext &Ctx) {
  MemberOfField.assign(FieldNames.size(), 0);
  for (unsigned M = 0; M < Members.size(); ++M) {
    for (unsigned F : Members[M].Fields)
      MemberOfField[F] = M;
    const HandleMember &Mem = Members[M];
    if (Mem.K == HandleMember::FieldArray) {
      QualType Element = FieldTypes[Mem.Fields[0]];
      // The buffers a kernel receives are __global.
      if (OpenCL)
        Element = Ctx.getAddrSpaceQualType(Element, LangAS::opencl_global);
      QualType Ptr = Ctx.getPointerType(Element);
      PointerQualTypes.push_back(Ptr);
      ConstPointerQualTypes.push_back(Ctx.getPointerType(Element.withConst()));
      PointerTypes.push_back(Ptr.getAsString(Policy));
    } else {
      PointerQualTypes.push_back(QualType());
      ConstPointerQualTypes.push_back(QualType());
      PointerTypes.push_back(pointerDecl(M, ""));
    }
    MemberDecls.push_back(memberDecl(M));
  }
}

std::string HandleLayout::memberDecl(unsigned M) const {
  const std::string &Name = Members[M].Name;
  if (!RestrictMembers)
    return pointerDecl(M, Name);
  // __restrict, which C and C++ (and a header shared by both) accept.
  if (PointerQualTypes[M].isNull())
    return "struct " + Members[M].RecordName + " *__restrict " + Name;
  PrintingPolicy P = Policy;
  P.Restrict = false;
  QualType T = PointerQualTypes[M];
  T.addRestrict();
  std::string Decl;
  llvm::raw_string_ostream OS(Decl);
  T.print(OS, P, Name);
  return OS.str();
}

std::string HandleLayout::pointerDecl(unsigned M, StringRef Name, bool Const,
                                      bool Restrict) const {
  std::string R = Restrict ? "restrict " : "";
  if (PointerQualTypes[M].isNull()) // A generated struct's: spelled here.
    return std::string(OpenCL ? "__global " : "") + (Const ? "const " : "") +
           "struct " + Members[M].RecordName + " *" + R + Name.str();
  QualType T = Const ? ConstPointerQualTypes[M] : PointerQualTypes[M];
  if (Restrict)
    T.addRestrict();
  std::string Decl;
  llvm::raw_string_ostream OS(Decl);
  T.print(OS, Policy, Name);
  return OS.str();
}

void HandleLayout::useAllHelpers() const {
  Used = ~uint64_t(0);
  if (!CPlusPlus || !ContainerPrintable || Neutral)
    Used &= ~(Container | ArrayContainer);
  // Kernels allocate nothing and call no C library; OpenCL host helpers
  // only for a record the program's host code has buffers of (then all of
  // them, whichever file includes the header).
  if (OpenCL)
    Used &= HandleType | Get | Set | Offset | Diff | IndexType;
  if (!Cuda && !Neutral)
    Used &= ~CudaHelpers;
  if (!ClHost)
    Used &= ~(ClBuffers | ClCreate | ClWrite | ClRead | ClSetArgs | ClRelease |
              ClRetain | ClCopy | ClCreateAos | ClWriteAos | ClReadAos |
              ClFill | ClMap | ClMapAos);
  for (unsigned F = 0; F < FieldNames.size(); ++F)
    if (isTiled(F) && !FieldTypes[F]->isArrayType())
      UsedFieldRefs.insert(F);
}

std::string HandleLayout::fieldRef(StringRef Handle, StringRef Index,
                                   unsigned F) const {
  UsedFieldRefs.insert(F);
  return "(*" + HandleName + "_" + FieldNames[F] + "(" + Handle.str() + ", " +
         Index.str() + "))";
}

std::string HandleLayout::fieldDecl(unsigned F, StringRef Name) const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  FieldTypes[F].print(OS, Policy, Name);
  return OS.str();
}

std::string HandleLayout::groupRecords() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  for (const HandleMember &M : Members) {
    if (M.K == HandleMember::FieldArray)
      continue;
    OS << "struct " << M.RecordName << " {\n";
    for (unsigned F : M.Fields)
      OS << "  "
         << fieldDecl(F,
                      M.K == HandleMember::Tiles
                          ? FieldNames[F] + "[" + std::to_string(M.Tile) + "]"
                          : FieldNames[F])
         << ";\n";
    OS << "};\n\n";
  }
  return OS.str();
}

namespace dlopt {
/// Prints the C handle type and the helper functions a rewrite used. A
/// friend of HandleLayout, like ContainerPrinter.
class HandlePrinter {
public:
  explicit HandlePrinter(const HandleLayout &L)
      : L(L), OS(Text), H(L.HandleName), E(L.ElementType) {}

  /// The handle's typedef, then the helpers the rewrite used: free (which
  /// alloc and calloc call), alloc, calloc, realloc, get, set and the tiled
  /// fields' reference helpers.
  std::string print();

private:
  // These print one part of the text each, to OS.
  void handleType();
  /// H_null(): a null handle, in a header shared by C and CUDA.
  void nullHelper();
  void freeHelper();
  /// alloc, or calloc if \p Zeroed.
  void allocHelper(bool Zeroed);
  void allocByHelper(bool Counted);
  void reallocHelper(bool By);
  void freeByHelper();
  void getHelper();
  void setHelper();
  void offsetHelper();
  /// T_soa_diff(a, b): a - b in elements, as pointers into one array.
  void diffHelper();
  void sortHelper();
  /// T_soa_bsearch(key, h, n, cmp): bsearch's algorithm as glibc runs it
  /// (so equal keys find the same element), comparing copies.
  void searchHelper();
  /// T_soa_lfind(key, h, &n, cmp), or T_soa_lsearch (\p Inserts), which
  /// appends the key when no element equals it: glibc's algorithm, over
  /// copies.
  void linearSearchHelper(bool Inserts);
  /// T_soa_fwrite(h, n, f), T_soa_fread(h, n, f): the elements in AoS
  /// order, through a staging array of at most 256 of them.
  void fileHelper(bool Reads);
  /// T_soa_copy(dst, src, n) (memcpy, memmove), or T_soa_fill(dst, c, n)
  /// (memset, no \p Source): each array of the layout, over the first n
  /// elements only (a partial tile lane by lane).
  void bytewiseHelper(StringRef Name, StringRef Fn, StringRef Source);
  /// Its part for member \p M of tiles that may start inside a tile.
  void shiftedBytewise(const HandleMember &M, StringRef Fn, StringRef Source);
  void fieldRefHelpers();
  /// "Target.member = (type *)Fn(Args);" for member \p M.
  void allocate(StringRef Target, StringRef Fn, unsigned M, StringRef Args);
  /// Every member of handle \p V set to null.
  void makeNull(StringRef V, StringRef Indent = "    ");

  /// Whether any member of handle \p V is null, as a C condition.
  std::string anyNull(StringRef V) const;

  const HandleLayout &L;
  std::string Text;
  llvm::raw_string_ostream OS;
  /// The handle and the element type.
  const std::string &H, &E;
};
} // namespace dlopt

std::string HandlePrinter::print() {
  handleType();
  if (L.Neutral)
    nullHelper();
  uint64_t Need = L.Used;
  if (Need & (HandleLayout::Alloc | HandleLayout::Calloc))
    Need |= HandleLayout::Free; // They release what they got when one fails.
  if (Need & HandleLayout::Free)
    freeHelper();
  for (bool Zeroed : {false, true})
    if (Need & (Zeroed ? HandleLayout::Calloc : HandleLayout::Alloc))
      allocHelper(Zeroed);
  for (bool Counted : {false, true})
    if (Need & (Counted ? HandleLayout::CallocBy : HandleLayout::AllocBy))
      allocByHelper(Counted);
  if (Need & HandleLayout::FreeBy)
    freeByHelper();
  for (bool By : {false, true})
    if (Need & (By ? HandleLayout::ReallocBy : HandleLayout::Realloc))
      reallocHelper(By);
  if (Need & (HandleLayout::Sort | HandleLayout::Write | HandleLayout::Read))
    Need |= HandleLayout::Get | HandleLayout::Set; // They gather, scatter.
  if (Need & (HandleLayout::Search | HandleLayout::Find))
    Need |= HandleLayout::Get | HandleLayout::Offset;
  if (Need & HandleLayout::Insert)
    Need |= HandleLayout::Get | HandleLayout::Set | HandleLayout::Offset;
  if (Need & HandleLayout::Get)
    getHelper();
  if (Need & HandleLayout::Set)
    setHelper();
  if ((Need & HandleLayout::Offset) && L.canOffset())
    offsetHelper();
  if (Need & HandleLayout::Diff)
    diffHelper();
  if (Need & HandleLayout::Sort)
    sortHelper();
  // A search returns a sub-array (the analysis made room for one: a tiled
  // handle counts skipped elements then); every helper of a header that
  // declares them all may have none.
  if ((Need & HandleLayout::Search) && L.canOffset())
    searchHelper();
  if ((Need & HandleLayout::Find) && L.canOffset())
    linearSearchHelper(/*Inserts=*/false);
  if ((Need & HandleLayout::Insert) && L.canOffset())
    linearSearchHelper(/*Inserts=*/true);
  if (Need & HandleLayout::Write)
    fileHelper(/*Reads=*/false);
  if (Need & HandleLayout::Read)
    fileHelper(/*Reads=*/true);
  if (Need & HandleLayout::Copy)
    bytewiseHelper(L.copyName(), "memcpy", "src");
  if (Need & HandleLayout::Move)
    bytewiseHelper(L.moveName(), "memmove", "src");
  if (Need & HandleLayout::Fill)
    bytewiseHelper(L.fillName(), "memset", "");
  fieldRefHelpers();
  return OS.str();
}

void HandlePrinter::handleType() {
  OS << "/* An array of " << E << " in the layout above. */\n"
     << "typedef struct " << H << " {\n";
  for (const std::string &Decl : L.MemberDecls)
    OS << "  " << Decl << ";\n";
  if (!L.ShiftName.empty())
    OS << "  size_t " << L.ShiftName
       << "; /* elements the tiles skip (a sub-array) */\n";
  OS << "} " << H << ";\n\n";
}

void HandlePrinter::nullHelper() {
  // C's compound literal (H){0} and C++'s H{} are no expression of the
  // other language (and g++ warns on the first).
  OS << L.deviceHelper() << H << " " << H << "_null(void) {\n  " << H
     << " h;\n";
  for (const HandleMember &M : L.Members)
    OS << "  h." << M.Name << " = 0;\n";
  if (!L.ShiftName.empty())
    OS << "  h." << L.ShiftName << " = 0;\n";
  OS << "  return h;\n}\n\n";
}

void HandlePrinter::allocate(StringRef Target, StringRef Fn, unsigned M,
                             StringRef Args) {
  OS << "  " << Target << "." << L.Members[M].Name << " = ("
     << L.PointerTypes[M] << ")" << Fn << "(" << Args << ");\n";
}

std::string HandlePrinter::anyNull(StringRef V) const {
  std::vector<std::string> Tests;
  for (const HandleMember &M : L.Members)
    Tests.push_back("!" + V.str() + "." + M.Name);
  return llvm::join(Tests, " || ");
}

void HandlePrinter::makeNull(StringRef V, StringRef Indent) {
  for (const HandleMember &M : L.Members)
    OS << Indent << V << "." << M.Name << " = 0;\n";
}

void HandlePrinter::offsetHelper() {
  OS << L.deviceHelper() << H << " " << L.offsetName() << "(" << H
     << " h, ptrdiff_t k) {\n";
  for (const HandleMember &M : L.Members)
    if (M.K != HandleMember::Tiles)
      OS << "  h." << M.Name << " += k;\n";
  if (!L.ShiftName.empty())
    OS << "  h." << L.ShiftName << " += k;\n";
  OS << "  return h;\n}\n\n";
}

void HandlePrinter::diffHelper() {
  OS << L.deviceHelper() << "ptrdiff_t " << L.diffName() << "(" << H << " a, "
     << H << " b) {\n";
  // A member that is not tiled moves with the position; tiles stay where
  // they start, and the count of elements they skip moves instead.
  for (const HandleMember &M : L.Members)
    if (M.K != HandleMember::Tiles) {
      OS << "  return a." << M.Name << " - b." << M.Name << ";\n}\n\n";
      return;
    }
  const HandleMember &M = L.Members.front();
  OS << "  return (a." << M.Name << " - b." << M.Name << ") * " << M.Tile;
  if (!L.ShiftName.empty())
    OS << " + ((ptrdiff_t)a." << L.ShiftName << " - (ptrdiff_t)b."
       << L.ShiftName << ")";
  OS << ";\n}\n\n";
}

void HandlePrinter::bytewiseHelper(StringRef Name, StringRef Fn,
                                   StringRef Source) {
  std::string From = Source.empty() ? "c" : Source.str() + ".";
  OS << "static inline void " << Name << "(" << H << " dst, "
     << (Source.empty() ? "int c" : H + " src") << ", size_t n) {\n";
  for (const HandleMember &M : L.Members) {
    auto Arg = [&](StringRef Suffix) {
      return Source.empty() ? std::string("c") : From + M.Name + Suffix.str();
    };
    if (M.K != HandleMember::Tiles) {
      OS << "  " << Fn << "(dst." << M.Name << ", " << Arg("")
         << ", n * sizeof *dst." << M.Name << ");\n";
      continue;
    }
    if (!L.ShiftName.empty()) {
      shiftedBytewise(M, Fn, Source);
      continue;
    }
    std::string T = std::to_string(M.Tile);
    OS << "  " << Fn << "(dst." << M.Name << ", " << Arg("") << ", n / " << T
       << " * sizeof *dst." << M.Name << ");\n"
       << "  if (n % " << T << ") {\n";
    for (unsigned F : M.Fields)
      OS << "    " << Fn << "(dst." << M.Name << "[n / " << T << "]."
         << L.FieldNames[F] << ", " << Arg("[n / " + T + "]." + L.FieldNames[F])
         << ", n % " << T << " * sizeof *dst." << M.Name << "[0]."
         << L.FieldNames[F] << ");\n";
    OS << "  }\n";
  }
  OS << "}\n\n";
}

void HandlePrinter::shiftedBytewise(const HandleMember &M, StringRef Fn,
                                    StringRef Source) {
  // Tiles that start at different lanes do not line up: field by field,
  // element by element. memmove's ranges may overlap: it walks away from
  // the side it writes, copying down when dst starts before src.
  // Each member in a block of its own (a split may have several).
  auto Field = [&](StringRef Handle, StringRef I, unsigned F) {
    return M.element(Handle, I, L.FieldNames[F], L.ShiftName);
  };
  OS << "  {\n";
  if (Fn == "memmove")
    OS << "    int down = (char *)&" << Field("dst", "0", M.Fields[0])
       << " < (char *)&" << Field("src", "0", M.Fields[0]) << ";\n"
       << "    for (size_t j = 0; j < n; j++) {\n"
       << "      size_t i = down ? j : n - 1 - j;\n";
  else
    OS << "    for (size_t i = 0; i < n; i++) {\n";
  for (unsigned F : M.Fields) {
    std::string To = Field("dst", "i", F);
    OS << "      " << Fn << "(&" << To << ", "
       << (Source.empty() ? std::string("c") : "&" + Field(Source, "i", F))
       << ", sizeof " << To << ");\n";
  }
  OS << "    }\n  }\n";
}

void HandlePrinter::fileHelper(bool Reads) {
  OS << "/* " << (Reads ? "fread" : "fwrite")
     << " of the elements in the file's order (one T after the other), "
        "through a\n   bounded staging array. */\n"
     << "static inline size_t " << (Reads ? L.freadName() : L.fwriteName())
     << "(" << H << " h, size_t n, FILE *f) {\n"
     << "  " << E << " tmp[256];\n"
     << "  size_t done = 0;\n"
     << "  while (done < n) {\n"
     << "    size_t k = n - done < 256 ? n - done : 256;\n";
  if (Reads)
    OS << "    size_t got = fread(tmp, sizeof(" << E << "), k, f);\n"
       << "    for (size_t i = 0; i < got; i++)\n"
       << "      " << L.setName() << "(h, done + i, tmp[i]);\n";
  else
    OS << "    for (size_t i = 0; i < k; i++)\n"
       << "      tmp[i] = " << L.getName() << "(h, done + i);\n"
       << "    size_t got = fwrite(tmp, sizeof(" << E << "), k, f);\n";
  OS << "    done += got;\n"
     << "    if (got < k)\n"
     << "      break;\n"
     << "  }\n"
     << "  return done;\n}\n\n";
}

void HandlePrinter::sortHelper() {
  OS << "/* qsort of the elements: sorted as copies, with the comparator as "
        "it\n"
        "   is written. */\n"
     << "static inline void " << L.sortName() << "(" << H
     << " h, size_t n, int (*cmp)(const void *, const void *)) {\n"
     << "  " << E << " *tmp = (" << E << " *)malloc(n * sizeof(" << E << "));\n"
     << "  if (!tmp && n)\n"
     << "    abort();\n"
     << "  for (size_t i = 0; i < n; i++)\n"
     << "    tmp[i] = " << L.getName() << "(h, i);\n"
     << "  qsort(tmp, n, sizeof(" << E << "), cmp);\n"
     << "  for (size_t i = 0; i < n; i++)\n"
     << "    " << L.setName() << "(h, i, tmp[i]);\n"
     << "  free(tmp);\n}\n\n";
}

void HandlePrinter::searchHelper() {
  OS << "/* bsearch of the elements: compared as copies, with the comparator "
        "as "
        "it\n   is written; the handle moved to the element found, or "
        "null. */\n"
     << "static inline " << H << " " << L.searchName() << "(const void *key, "
     << H << " h, size_t n, int (*cmp)(const void *, const void *)) {\n"
     << "  size_t l = 0, u = n;\n"
     << "  while (l < u) {\n"
     << "    size_t idx = (l + u) / 2;\n"
     << "    " << E << " v = " << L.getName() << "(h, idx);\n"
     << "    int c = cmp(key, &v);\n"
     << "    if (c < 0)\n      u = idx;\n"
     << "    else if (c > 0)\n      l = idx + 1;\n"
     << "    else\n      return " << L.offsetName() << "(h, idx);\n"
     << "  }\n"
     << "  return " << L.nullValue() << ";\n}\n\n";
}

void HandlePrinter::linearSearchHelper(bool Inserts) {
  OS << "/* " << (Inserts ? "lsearch" : "lfind")
     << " of the elements: compared as copies, with the comparator as it\n"
        "   is written; the handle moved to the element found, or "
     << (Inserts ? "to the key appended" : "null") << ". */\n"
     << "static inline " << H << " "
     << (Inserts ? L.insertName() : L.findName()) << "(const void *key, " << H
     << " h, size_t *n, int (*cmp)(const void *, const void *)) {\n"
     << "  for (size_t idx = 0; idx < *n; idx++) {\n"
     << "    " << E << " v = " << L.getName() << "(h, idx);\n"
     << "    if (cmp(key, &v) == 0)\n"
     << "      return " << L.offsetName() << "(h, idx);\n"
     << "  }\n";
  if (Inserts)
    OS << "  " << L.setName() << "(h, *n, *(const " << E << " *)key);\n"
       << "  return " << L.offsetName() << "(h, (*n)++);\n}\n\n";
  else
    OS << "  return " << L.nullValue() << ";\n}\n\n";
}

void HandlePrinter::freeHelper() {
  OS << "static inline void " << L.freeName() << "(" << H << " h) {\n";
  for (const HandleMember &M : L.Members)
    OS << "  free(h." << M.Name << ");\n";
  OS << "}\n\n";
}

void HandlePrinter::allocHelper(bool Zeroed) {
  // One block per member; all null if any fails.
  OS << "static inline " << H << " "
     << (Zeroed ? L.callocName() : L.allocName()) << "(size_t n) {\n  " << H
     << " h;\n";
  if (!L.ShiftName.empty())
    OS << "  h." << L.ShiftName << " = 0;\n";
  for (unsigned M = 0; M < L.Members.size(); ++M) {
    std::string Mem = "h." + L.Members[M].Name;
    std::string Count = L.Members[M].length("n");
    allocate("h", Zeroed ? "calloc" : "malloc", M,
             Zeroed ? Count + ", sizeof *" + Mem
                    : parenthesize(Count) + " * sizeof *" + Mem);
  }
  OS << "  if (" << anyNull("h") << ") {\n    " << L.freeName() << "(h);\n";
  makeNull("h");
  OS << "  }\n  return h;\n}\n\n";
}

void HandlePrinter::allocByHelper(bool Counted) {
  // Each block from the program's own allocator (aligned, or exiting when
  // memory runs out, as it does), a calloc-like one given the count and the
  // size as calloc is; all null if one fails, the blocks got before
  // released by the C library's function that releases them, where the
  // analysis knows it (AllocatorFunctions.h; else null: kept).
  OS << "static inline " << H << " "
     << (Counted ? L.callocByName() : L.allocByName())
     << "(size_t n, void *(*alloc)(size_t" << (Counted ? ", size_t" : "")
     << "), void (*release)(void *)) {\n  " << H << " h;\n";
  if (!L.ShiftName.empty())
    OS << "  h." << L.ShiftName << " = 0;\n";
  for (unsigned M = 0; M < L.Members.size(); ++M) {
    std::string Count = L.Members[M].length("n");
    std::string Size = "sizeof *h." + L.Members[M].Name;
    allocate("h", "alloc", M,
             Counted ? Count + ", " + Size
                     : parenthesize(Count) + " * " + Size);
  }
  OS << "  if (" << anyNull("h") << ") {\n    if (release) {\n";
  for (const HandleMember &M : L.Members)
    OS << "      release(h." << M.Name << ");\n";
  OS << "    }\n";
  makeNull("h");
  OS << "  }\n  return h;\n}\n\n";
}

void HandlePrinter::freeByHelper() {
  OS << "static inline void " << L.freeByName() << "(" << H
     << " h, void (*release)(void *)) {\n";
  for (const HandleMember &M : L.Members)
    OS << "  release(h." << M.Name << ");\n";
  OS << "}\n\n";
}

void HandlePrinter::reallocHelper(bool By) {
  // realloc leaves the original block where it fails, and programs count on
  // it (tmp = realloc(p, m); if (!tmp) { free(p); ... }). Each member that
  // moves is stored back into *h at once, so when one cannot move, *h still
  // holds every array, each at least as long as before with its contents,
  // and the result is null.
  // The program's realloc-like function (xrealloc) moves each block alike.
  OS << "static inline " << H << " "
     << (By ? L.reallocByName() : L.reallocName()) << "(" << H
     << " *h, size_t n" << (By ? ", void *(*by)(void *, size_t)" : "")
     << ") {\n  " << H << " r = *h;\n";
  for (unsigned M = 0; M < L.Members.size(); ++M) {
    std::string Mem = "h->" + L.Members[M].Name;
    allocate("r", By ? "by" : "realloc", M,
             Mem + ", " + parenthesize(L.Members[M].length("n")) +
                 " * sizeof *" + Mem);
    OS << "  if (!r." << L.Members[M].Name << ")\n    goto failed;\n  " << Mem
       << " = r." << L.Members[M].Name << ";\n";
  }
  OS << "  return r;\nfailed:\n";
  makeNull("r", "  ");
  OS << "  return r;\n}\n\n";
}

void HandlePrinter::getHelper() {
  OS << L.deviceHelper() << E << " " << L.getName() << "(" << H
     << " h, size_t i) {\n";
  if (L.ConstructsFromFields) { // Every field scalar: T(f0, f1, ...).
    OS << "  return " << L.qualifiedRecordName() << "(";
    for (unsigned F = 0; F < L.FieldNames.size(); ++F)
      OS << (F ? ", " : "") << L.access("h", "i", F);
    OS << ");\n}\n\n";
    return;
  }
  OS << "  " << E << " v;\n";
  for (unsigned F = 0; F < L.FieldNames.size(); ++F)
    OS << "  " << L.copyField("v." + L.FieldNames[F], L.access("h", "i", F), F)
       << ";\n";
  OS << "  return v;\n}\n\n";
}

void HandlePrinter::setHelper() {
  OS << L.deviceHelper() << E << " " << L.setName() << "(" << H
     << " h, size_t i, " << E << " v) {\n";
  for (unsigned F = 0; F < L.FieldNames.size(); ++F)
    OS << "  " << L.copyField(L.access("h", "i", F), "v." + L.FieldNames[F], F)
       << ";\n";
  OS << "  return v;\n}\n\n";
}

void HandlePrinter::fieldRefHelpers() {
  // Tiled fields also get a reference helper, so an index with side effects
  // (a[i++].x) is evaluated exactly once.
  for (unsigned F = 0; F < L.FieldNames.size(); ++F)
    if (L.UsedFieldRefs.count(F))
      OS << L.deviceHelper() << (L.OpenCL ? "__global " : "")
         << L.fieldDecl(F, "*") << " " << H << "_" << L.FieldNames[F] << "("
         << H << " h, size_t i) {\n"
         << "  return &" << L.access("h", "i", F) << ";\n}\n\n";
}

std::string HandleLayout::declarations() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << beginMarker(RecordTag) << "\n"
     << "/* " << Notation << " */\n";
  // One text for C and CUDA: the helpers device code calls are
  // __host__ __device__ only where the compiler knows the words.
  if (Neutral)
    OS << "#ifndef DLOPT_HOST_DEVICE\n#ifdef __CUDACC__\n"
          "#define DLOPT_HOST_DEVICE __host__ __device__\n#else\n"
          "#define DLOPT_HOST_DEVICE\n#endif\n#endif\n";
  if (!(Used & HandleType)) { // Only std::vector<T> was rewritten.
    OS << groupRecords() << containerDeclarations() << endMarker();
    return OS.str();
  }
  // OpenCL C has no headers: size_t and ptrdiff_t are built in.
  if (!OpenCL) {
    std::string Includes = "#include <stdlib.h>\n";
    if (Used & (IndexType | Offset | Diff | Search | Find | Insert))
      Includes = "#include <stddef.h>\n" + Includes;
    if (Used & (Write | Read))
      Includes = "#include <stdio.h>\n" + Includes;
    if ((Used & (Copy | Move | Fill)) || arrayFieldCopies())
      Includes += "#include <string.h>\n";
    OS << includes(Includes);
  }
  OS << groupRecords() << HandlePrinter(*this).print();
  if (Used & ClBuffers)
    OS << clDeclarations();
  if (Used & CudaHelpers)
    OS << (Neutral ? "#ifdef __CUDACC__\n" + cudaDeclarations() + "#endif\n"
                   : cudaDeclarations());
  if (CPlusPlus && (Used & (Container | ArrayContainer)))
    OS << containerDeclarations();
  OS << endMarker();
  return OS.str();
}

std::string HandleLayout::copyField(StringRef To, StringRef From,
                                    unsigned F) const {
  // C assigns no arrays: an array field is copied as its bytes.
  if (FieldTypes[F]->isArrayType())
    return "memcpy(" + To.str() + ", " + From.str() + ", sizeof " + To.str() +
           ")";
  return To.str() + " = " + From.str();
}

bool HandleLayout::arrayFieldCopies() const {
  return (Used & (Get | Set | Sort | Write | Read)) &&
         llvm::any_of(FieldTypes, [](QualType T) { return T->isArrayType(); });
}

bool HandleLayout::canOffset() const {
  return !ShiftName.empty() ||
         llvm::none_of(Members, [](const HandleMember &M) {
           return M.K == HandleMember::Tiles;
         });
}

std::string HandleLayout::access(StringRef Handle, StringRef Index,
                                 unsigned F) const {
  return memberOf(F).element(Handle, Index, FieldNames[F], ShiftName);
}

std::string HandleLayout::laneAccess(StringRef Handle, StringRef Tile,
                                     StringRef Lane, unsigned F, StringRef Peel,
                                     bool Aligned) const {
  assert(isTiled(F) && "the lane form of a field that is not tiled");
  return memberOf(F).lane(Handle, Tile, Lane, tileOf(F), FieldNames[F],
                          ShiftName, Peel, Aligned);
}

std::string HandleLayout::nullTest(StringRef Handle) const {
  return Handle.str() + "." + Members.front().Name;
}

/// The initializer of member \p M for \p Count elements: their values,
/// which \p Value gives per element and field, grouped as M stores them.
static std::string
memberInitializer(const HandleMember &M, size_t Count,
                  llvm::function_ref<std::string(size_t, unsigned)> Value) {
  std::vector<std::string> Items;
  switch (M.K) {
  case HandleMember::FieldArray:
    for (size_t E = 0; E < Count; ++E)
      Items.push_back(Value(E, M.Fields[0]));
    break;
  case HandleMember::Group:
    for (size_t E = 0; E < Count; ++E) {
      std::vector<std::string> Fs;
      for (unsigned F : M.Fields)
        Fs.push_back(Value(E, F));
      Items.push_back("{" + llvm::join(Fs, ", ") + "}");
    }
    break;
  case HandleMember::Tiles:
    for (size_t T = 0; T * M.Tile < Count; ++T) {
      std::vector<std::string> Fs;
      for (unsigned F : M.Fields) {
        std::vector<std::string> Lanes;
        for (size_t E = T * M.Tile; E < std::min(Count, (T + 1) * M.Tile); ++E)
          Lanes.push_back(Value(E, F));
        Fs.push_back("{" + llvm::join(Lanes, ", ") + "}");
      }
      Items.push_back("{" + llvm::join(Fs, ", ") + "}");
    }
    break;
  }
  return "{" + llvm::join(Items, ", ") + "}";
}

std::string HandleLayout::arrayDefinition(
    StringRef StorageClass, StringRef Name, StringRef Length,
    const std::vector<std::vector<std::string>> *Inits, StringRef Attributes,
    StringRef HandleAttributes) const {
  std::string Prefix = StorageClass.empty() ? "" : StorageClass.str() + " ";
  std::string Storage = Name.str() + "_storage";
  std::string S = Prefix + fieldStorage(Storage, Length) + Attributes.str();
  if (Inits) {
    size_t Count = Inits->size();
    auto Value = [&](size_t E, unsigned F) {
      const std::string &V = E < Count ? (*Inits)[E][F] : std::string();
      if (!V.empty())
        return V;
      return FieldTypes[F]->isScalarType() ? std::string("0")
                                           : std::string("{0}");
    };
    std::vector<std::string> MemberInits;
    for (const HandleMember &M : Members)
      MemberInits.push_back(memberInitializer(M, Count, Value));
    S += " = {" + llvm::join(MemberInits, ", ") + "}";
  }
  std::vector<std::string> Pointers;
  for (const HandleMember &M : Members)
    Pointers.push_back(Storage + "." + M.Name);
  // Spelled out: -Wmissing-field-initializers.
  if (!ShiftName.empty())
    Pointers.push_back("0");
  return S + ";\n" + Prefix + HandleName + " " + Name.str() +
         HandleAttributes.str() + " = {" + llvm::join(Pointers, ", ") + "}";
}

std::string HandleLayout::fieldStorage(StringRef Name, StringRef Length) const {
  std::string S = "struct {\n";
  for (const HandleMember &M : Members) {
    std::string Dim = "[" + M.length(Length) + "]";
    S += "  " +
         (M.K == HandleMember::FieldArray
              ? fieldDecl(M.Fields[0], M.Name + Dim)
              : "struct " + M.RecordName + " " + M.Name + Dim) +
         ";\n";
  }
  // Read as a handle, the storage skips no elements.
  if (!ShiftName.empty())
    S += "  size_t " + ShiftName + ";\n";
  return S + "} " + Name.str();
}

std::string HandleLayout::handleOf(StringRef Storage) const {
  std::vector<std::string> Members;
  for (const HandleMember &M : this->Members)
    Members.push_back(Storage.str() + "." + M.Name);
  if (!ShiftName.empty())
    Members.push_back(Storage.str() + "." + ShiftName);
  std::string List = "{" + llvm::join(Members, ", ") + "}";
  return CPlusPlus ? HandleName + List : "(" + HandleName + ")" + List;
}
