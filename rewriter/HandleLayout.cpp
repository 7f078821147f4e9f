//===- HandleLayout.cpp - The generated code for one record's plan --------===//
#include "rewriter/HandleLayout.h"
#include "analysis/AstUtil.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/QualTypeNames.h"
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

std::unique_ptr<HandleLayout> HandleLayout::create(const RecordPlan &Plan,
                                                   const RecordDecl *RD,
                                                   ASTContext &Ctx) {
  if (Plan.unchanged() || Plan.Clusters.empty())
    return nullptr;
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  // C names a struct type with its keyword; C++ does not need it, and
  // must not put it before a qualified member type (Body::real).
  Policy.SuppressTagKeyword = Ctx.getLangOpts().CPlusPlus;
  std::unique_ptr<HandleLayout> L(new HandleLayout(Policy));
  L->RecordTag = recordName(RD);
  L->CPlusPlus = Ctx.getLangOpts().CPlusPlus;
  if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD)) {
    L->ConstructsElements = !CXX->hasTrivialDefaultConstructor();
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
      L->Forwarded.push_back({D.str(), MD->getNameAsString() + "(" + Args + ")",
                              MD->getReturnType()->isVoidType(),
                              MD->isConst()});
    }
  }
  L->Notation = Plan.notation();
  std::vector<const TypedefNameDecl *> Typedefs = typedefsOf(RD, Ctx);
  L->ElementType = !Typedefs.empty()
                       ? Typedefs.front()->getName().str()
                       : (RD->isStruct() ? "struct " : "class ") + L->RecordTag;
  for (const FieldDecl *FD : RD->fields()) {
    L->FieldNames.push_back(FD->getNameAsString());
    L->FieldTypes.push_back(spellable(FD->getType(), Ctx));
    // The container's proxy holds a reference to each field and assigns
    // them one by one.
    std::string Name = "'" + FD->getNameAsString() + "'";
    if (!L->ContainerRefusal.empty())
      continue;
    if (FD->getType()->isArrayType())
      L->ContainerRefusal =
          "array field " + Name +
          " in an element of a std::vector or std::array (not rewritten "
          "yet)";
    else if (FD->getType().isConstQualified())
      L->ContainerRefusal =
          "const field " + Name +
          ": an element of the rewritten container could not be assigned";
    else if (FD->getAccess() == AS_private || FD->getAccess() == AS_protected)
      L->ContainerRefusal = "non-public field " + Name +
                            ": the generated container could not reach it";
  }
  if (L->CPlusPlus)
    for (const DeclContext *DC = RD->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
        std::string Name = NS->getName().str();
        if (!NS->isAnonymousNamespace())
          L->Qualifier = Name + "::" + L->Qualifier;
        L->OpenNamespaces = std::string(NS->isInline() ? "inline " : "") +
                            "namespace " + Name + (Name.empty() ? "" : " ") +
                            "{\n" + L->OpenNamespaces;
        L->CloseNamespaces += "} // namespace " + Name + "\n";
      }

  bool AllSoA = true, AllTiled = true;
  for (const ClusterPlan &C : Plan.Clusters) {
    const std::vector<unsigned> &Fs = C.Fields.Fields;
    bool Tiled = C.Chosen.Kind == LayoutKind::Tiled;
    AllTiled &= Tiled;
    AllSoA &= !Tiled && (C.Chosen.Kind == LayoutKind::SoA || Fs.size() == 1);
    if (!Tiled && (C.Chosen.Kind == LayoutKind::SoA || Fs.size() == 1)) {
      for (unsigned F : Fs)
        L->Members.push_back(
            {HandleMember::FieldArray, L->FieldNames[F], {F}, 0, ""});
      continue;
    }
    std::vector<std::string> Names;
    for (unsigned F : Fs)
      Names.push_back(L->FieldNames[F]);
    std::string Name = C.Fields.Cold ? "cold"
                       : Fs.size() == L->FieldNames.size()
                           ? "tiles"
                           : llvm::join(Names, "_");
    if (Name.size() > 32)
      Name = Names.front() + "_group";
    HandleMember M{Tiled ? HandleMember::Tiles : HandleMember::Group, Name, Fs,
                   0, ""};
    M.Tile = Tiled ? C.Chosen.Tile : 0;
    M.RecordName = L->RecordTag + (Tiled ? "_tile_" : "_") + Name;
    L->Members.push_back(std::move(M));
  }
  L->HandleName = L->RecordTag + (AllSoA     ? "_soa"
                                  : AllTiled ? "_tiled"
                                             : "_split");

  // Member names must differ from each other.
  for (unsigned I = 0; I < L->Members.size(); ++I)
    for (unsigned J = 0; J < I; ++J)
      if (L->Members[I].Name == L->Members[J].Name) {
        L->Members[I].Name += "_" + std::to_string(I);
        L->Members[I].RecordName += "_" + std::to_string(I);
      }

  L->MemberOfField.assign(L->FieldNames.size(), 0);
  for (unsigned M = 0; M < L->Members.size(); ++M) {
    for (unsigned F : L->Members[M].Fields)
      L->MemberOfField[F] = M;
    const HandleMember &Mem = L->Members[M];
    if (Mem.K == HandleMember::FieldArray) {
      QualType Ptr = Ctx.getPointerType(L->FieldTypes[Mem.Fields[0]]);
      L->PointerTypes.push_back(Ptr.getAsString(Policy));
      std::string Decl;
      llvm::raw_string_ostream OS(Decl);
      Ptr.print(OS, Policy, Mem.Name);
      L->MemberDecls.push_back(OS.str());
    } else {
      L->PointerTypes.push_back("struct " + Mem.RecordName + " *");
      L->MemberDecls.push_back(L->PointerTypes.back() + Mem.Name);
    }
  }
  return L;
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

std::string HandleLayout::declarations() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  const std::string &H = HandleName, &E = ElementType;
  OS << beginMarker(RecordTag) << "\n"
     << "/* " << Notation << " */\n";
  if (!(Used & HandleType)) { // Only std::vector<T> was rewritten.
    OS << groupRecords() << containerDeclarations() << endMarker();
    return OS.str();
  }
  OS << includes("#include <stdlib.h>\n") << groupRecords();
  OS << "/* An array of " << E << " in the layout above. */\n"
     << "typedef struct " << H << " {\n";
  for (const std::string &Decl : MemberDecls)
    OS << "  " << Decl << ";\n";
  OS << "} " << H << ";\n\n";

  auto Assign = [&](StringRef Target, StringRef Fn, unsigned M,
                    StringRef Args) {
    OS << "  " << Target << "." << Members[M].Name << " = (" << PointerTypes[M]
       << ")" << Fn << "(" << Args << ");\n";
  };
  auto AnyNull = [&](StringRef V) {
    std::vector<std::string> Tests;
    for (const HandleMember &M : Members)
      Tests.push_back("!" + V.str() + "." + M.Name);
    return llvm::join(Tests, " || ");
  };
  auto MakeNull = [&](StringRef V) {
    for (const HandleMember &M : Members)
      OS << "    " << V << "." << M.Name << " = 0;\n";
  };

  unsigned Need = Used;
  if (Need & (Alloc | Calloc))
    Need |= Free; // They release what they got when one block fails.
  if (Need & Free) {
    OS << "static inline void " << freeName() << "(" << H << " h) {\n";
    for (const HandleMember &M : Members)
      OS << "  free(h." << M.Name << ");\n";
    OS << "}\n\n";
  }

  // alloc and calloc: one block per member; all null if any fails.
  for (bool Zeroed : {false, true}) {
    if (!(Need & (Zeroed ? Calloc : Alloc)))
      continue;
    OS << "static inline " << H << " " << (Zeroed ? callocName() : allocName())
       << "(size_t n) {\n  " << H << " h;\n";
    for (unsigned M = 0; M < Members.size(); ++M) {
      std::string Mem = "h." + Members[M].Name;
      std::string Count = Members[M].length("n");
      Assign("h", Zeroed ? "calloc" : "malloc", M,
             Zeroed ? Count + ", sizeof *" + Mem
                    : parenthesize(Count) + " * sizeof *" + Mem);
    }
    OS << "  if (" << AnyNull("h") << ") {\n    " << freeName() << "(h);\n";
    MakeNull("h");
    OS << "  }\n  return h;\n}\n\n";
  }

  // realloc: every member moves; if one cannot, all is released and the
  // result is null, as a failed realloc of the whole array would leave the
  // program without it.
  if (Need & Realloc) {
    OS << "static inline " << H << " " << reallocName() << "(" << H
       << " h, size_t n) {\n  " << H << " r;\n";
    for (unsigned M = 0; M < Members.size(); ++M) {
      std::string Mem = "h." + Members[M].Name;
      Assign("r", "realloc", M,
             Mem + ", " + parenthesize(Members[M].length("n")) + " * sizeof *" +
                 Mem);
    }
    OS << "  if (" << AnyNull("r") << ") {\n";
    for (const HandleMember &M : Members)
      OS << "    free(r." << M.Name << " ? r." << M.Name << " : h." << M.Name
         << ");\n";
    MakeNull("r");
    OS << "  }\n  return r;\n}\n\n";
  }

  if (Need & Get) {
    OS << "static inline " << E << " " << getName() << "(" << H
       << " h, size_t i) {\n  " << E << " v;\n";
    for (unsigned F = 0; F < FieldNames.size(); ++F)
      OS << "  v." << FieldNames[F] << " = " << access("h", "i", F) << ";\n";
    OS << "  return v;\n}\n\n";
  }

  if (Need & Set) {
    OS << "static inline " << E << " " << setName() << "(" << H
       << " h, size_t i, " << E << " v) {\n";
    for (unsigned F = 0; F < FieldNames.size(); ++F)
      OS << "  " << access("h", "i", F) << " = v." << FieldNames[F] << ";\n";
    OS << "  return v;\n}\n\n";
  }

  // Tiled fields also get a reference helper, so an index with side effects
  // (a[i++].x) is evaluated exactly once.
  for (unsigned F = 0; F < FieldNames.size(); ++F)
    if (UsedFieldRefs.count(F))
      OS << "static inline " << fieldDecl(F, "*") << " " << HandleName << "_"
         << FieldNames[F] << "(" << H << " h, size_t i) {\n"
         << "  return &" << access("h", "i", F) << ";\n}\n\n";
  if (CPlusPlus && (Used & (Container | ArrayContainer)))
    OS << containerDeclarations();
  OS << endMarker();
  return OS.str();
}

std::string HandleLayout::access(StringRef Handle, StringRef Index,
                                 unsigned F) const {
  return memberOf(F).element(Handle, Index, FieldNames[F]);
}

std::string HandleLayout::laneAccess(StringRef Handle, StringRef Tile,
                                     StringRef Lane, unsigned F) const {
  assert(isTiled(F) && "the lane form of a field that is not tiled");
  return memberOf(F).lane(Handle, Tile, Lane, tileOf(F), FieldNames[F]);
}

std::string HandleLayout::nullTest(StringRef Handle) const {
  return Handle.str() + "." + Members.front().Name;
}

std::string HandleLayout::arrayDefinition(
    StringRef StorageClass, StringRef Name, StringRef Length,
    const std::vector<std::vector<std::string>> *Inits) const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  std::string Prefix = StorageClass.empty() ? "" : StorageClass.str() + " ";
  std::string Storage = Name.str() + "_storage";
  OS << Prefix << "struct {\n";
  std::vector<std::string> Pointers, MemberInits;
  size_t Count = Inits ? Inits->size() : 0;
  auto Value = [&](size_t E, unsigned F) {
    const std::string &V = E < Count ? (*Inits)[E][F] : std::string();
    if (!V.empty())
      return V;
    return FieldTypes[F]->isScalarType() ? std::string("0")
                                         : std::string("{0}");
  };
  for (const HandleMember &M : Members) {
    std::string Dim = "[" + M.length(Length) + "]";
    if (M.K == HandleMember::FieldArray)
      OS << "  " << fieldDecl(M.Fields[0], M.Name + Dim) << ";\n";
    else
      OS << "  struct " << M.RecordName << " " << M.Name << Dim << ";\n";
    Pointers.push_back(Storage + "." + M.Name);
    if (!Inits)
      continue;
    // The elements' values regrouped as this member stores them.
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
          for (size_t E = T * M.Tile; E < std::min(Count, (T + 1) * M.Tile);
               ++E)
            Lanes.push_back(Value(E, F));
          Fs.push_back("{" + llvm::join(Lanes, ", ") + "}");
        }
        Items.push_back("{" + llvm::join(Fs, ", ") + "}");
      }
      break;
    }
    MemberInits.push_back("{" + llvm::join(Items, ", ") + "}");
  }
  OS << "} " << Storage;
  if (Inits)
    OS << " = {" << llvm::join(MemberInits, ", ") << "}";
  OS << ";\n"
     << Prefix << HandleName << " " << Name << " = {"
     << llvm::join(Pointers, ", ") << "}";
  return OS.str();
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
  return S + "} " + Name.str();
}

std::string HandleLayout::handleOf(StringRef Storage) const {
  std::vector<std::string> Members;
  for (const HandleMember &M : this->Members)
    Members.push_back(Storage.str() + "." + M.Name);
  std::string List = "{" + llvm::join(Members, ", ") + "}";
  return CPlusPlus ? HandleName + List : "(" + HandleName + ")" + List;
}
