//===- DeclarationRenderer.cpp - Handles replace T* and T[N] --------------===//
//
// See DeclarationRenderer.h. The uses are UseRenderer.cpp's.
//
//===----------------------------------------------------------------------===//
#include "rewriter/DeclarationRenderer.h"
#include "rewriter/OpenCLRenderer.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

std::string DeclarationRenderer::lengthText(const DeclaratorDecl *D,
                                            uint64_t Value) {
  if (const TypeSourceInfo *TSI = D->getTypeSourceInfo())
    if (auto ATL = TSI->getTypeLoc().getAs<ArrayTypeLoc>())
      if (const Expr *Size = ATL.getSizeExpr())
        if (auto R = rangeOf(Size->getSourceRange()))
          return SM.getBufferData(R->File)
              .substr(R->Begin, R->End - R->Begin)
              .str();
  return std::to_string(Value);
}

/// `T *pi = &a[i]` -> `ptrdiff_t pi = i`: an element pointer is an index
/// into its array (its initializer is an ElementAddress); so is an element
/// reference, `T &r = a[i]`. In `T *low,
/// *high;` the second declarator loses its `*` after the comma.
void DeclarationRenderer::elementPointer(const RecordDecl *RD,
                                         const VarDecl *VD) {
  std::optional<FileRange> Range;
  if (const VarDecl *Previous = Uses.previousDeclarator(VD)) {
    std::optional<Token> Comma =
        Lexer::findNextToken(Previous->getEndLoc(), SM, LO);
    if (Comma && Comma->is(tok::comma))
      Range = charRangeOf(Comma->getEndLoc(), VD->getLocation());
    if (Range)
      return textSite(RD, *Range, " ", /*Needs=*/0);
  } else if ((Range = charRangeOf(VD->getBeginLoc(), VD->getLocation()))) {
    return textSite(RD, *Range, "ptrdiff_t ", HandleLayout::IndexType);
  }
  cannotRender(RD, VD->getLocation(), "an element pointer's type");
}

void DeclarationRenderer::declaration(const DeclaratorDecl *D) {
  if (const auto *VD = dyn_cast<VarDecl>(D))
    if (std::optional<ElementUse> E = Uses.elementReferenceDeclaration(VD)) {
      // `T &r = a[i]` -> `ptrdiff_t r = (i)`, as an element pointer.
      if (State.keptOnHost(Uses.elementReference(VD)->arrayDecl()))
        return;
      if (!E->Verdict.Use)
        return cannotRender(E->Record, E->Verdict.Loc, E->Verdict.Refusal);
      return elementPointer(E->Record, VD);
    }
  const RecordDecl *RD = handleRecord(D->getType());
  if (!RD) // void *tmp = realloc(a, ...): VoidHandles.cpp.
    RD = Uses.voidHandleRecord(D);
  // T **out, a pointer to the caller's handle: HandlePointers.cpp.
  bool PointsToHandle = !RD && (RD = Uses.handlePointerRecord(D));
  // A __shared__ tile keeps the record (analysis/AstUtil.h): no handle.
  if (!RD || keepsRecord(D) || State.WalkingPointers.count(D))
    return;
  if (State.keptOnHost(D))
    return keptDeclarator(RD, D);
  const HandleLayout *L = Layouts.lookup(RD);
  UseVerdict V = Uses.declaration(D, RD);
  if (!V.Use)
    return cannotRender(RD, V.Loc, V.Refusal);
  if (V.Use->Kind == UseKind::WalkingPointer)
    return; // The loop renders it (LoopRenderer.cpp).
  if (V.Use->Kind == UseKind::ElementPointer)
    return elementPointer(RD, V.Use->Var);
  if (V.Use->Kind == UseKind::KernelParameter)
    return OpenCL.kernelParameter(RD, cast<ParmVarDecl>(D));
  if (const auto *FD = dyn_cast<FieldDecl>(D))
    return arrayMember(RD, FD);
  std::string Name = D->getNameAsString();

  if (const auto *P = dyn_cast<ParmVarDecl>(D)) {
    std::string Text = L->handleName() + (PointsToHandle ? " *" : "") +
                       (Name.empty() ? "" : (PointsToHandle ? "" : " ") + Name);
    return addSite(
        RD, P->getSourceRange(), P->getLocation(),
        [Text](const EditSet &, const LaneContext *) { return Text; },
        "a parameter");
  }
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD)
    return;
  // `extern T a[N];` (in a header, say) names the handle the defining file
  // makes: the storage stays there.
  if (VD->hasExternalStorage() && !VD->isThisDeclarationADefinition() &&
      VD->getType()->isArrayType()) {
    std::string Text = "extern " + L->handleName() + " " + Name;
    return addSite(
        RD, VD->getSourceRange(), VD->getLocation(),
        [Text](const EditSet &, const LaneContext *) { return Text; },
        "an extern array declaration");
  }
  if (const auto *CAT = Ctx.getAsConstantArrayType(VD->getType()))
    return arrayDefinition(RD, VD, CAT);
  pointerVariable(RD, VD);
}

/// A declarator the CUDA boundary keeps (the host's own array) after one
/// that becomes a handle (T *d, *h;) no longer shares its type: a
/// declaration of its own, `T_soa d; T *h;`.
void DeclarationRenderer::keptDeclarator(const RecordDecl *RD,
                                         const DeclaratorDecl *D) {
  const auto *VD = dyn_cast<VarDecl>(D);
  const VarDecl *Previous = VD ? Uses.previousDeclarator(VD) : nullptr;
  if (!Previous || State.keptOnHost(Previous))
    return;
  std::optional<Token> Comma =
      Lexer::findNextToken(Previous->getEndLoc(), SM, LO);
  QualType Element =
      VD->getType()->isPointerType()
          ? VD->getType()->getPointeeType()
          : QualType(VD->getType()->getPointeeOrArrayElementType(), 0);
  auto Range = Comma && Comma->is(tok::comma)
                   ? charRangeOf(Comma->getLocation(), Comma->getEndLoc())
                   : std::nullopt;
  if (!Range)
    return cannotRender(RD, VD->getLocation(),
                        "declaration of '" + VD->getNameAsString() +
                            "' is spelled inside a macro");
  textSite(RD, *Range, "; " + Element.getAsString(Ctx.getPrintingPolicy()));
}

/// `T *items;` in another record holds the handle: `T_soa items;`.
void DeclarationRenderer::pointerMember(const RecordDecl *RD,
                                        const FieldDecl *FD) {
  if (Layouts.count(FD->getParent())) // See blockPlanDependentUses.
    return cannotRender(RD, FD->getLocation(),
                        "pointer member of '" + recordName(FD->getParent()) +
                            "', whose own layout changes too");
  auto Range = charRangeOf(FD->getBeginLoc(), FD->getLocation());
  if (!Range)
    return cannotRender(RD, FD->getLocation(), "a pointer member's type");
  textSite(RD, *Range, Layouts.lookup(RD)->handleName() + " ");
  // `= nullptr`, `{nullptr}`, `{}`: the analysis admits no other default
  // member initializer.
  if (const Expr *Init = FD->getInClassInitializer())
    addSite(
        RD, Init->getSourceRange(), Init->getExprLoc(),
        [](const EditSet &, const LaneContext *) { return "{}"; },
        "a null member initializer", /*Needs=*/0);
}

void DeclarationRenderer::arrayMember(const RecordDecl *RD,
                                      const FieldDecl *FD) {
  // An array inside another record keeps its storage there, regrouped.
  const auto *CAT = Ctx.getAsConstantArrayType(FD->getType());
  if (!CAT)
    return pointerMember(RD, FD);
  if (Layouts.count(FD->getParent())) // See blockPlanDependentUses.
    return cannotRender(RD, FD->getLocation(),
                        "array member of '" + recordName(FD->getParent()) +
                            "', whose own layout changes too");
  std::string Text = Layouts.lookup(RD)->fieldStorage(
      FD->getNameAsString(), lengthText(FD, CAT->getSize().getZExtValue()));
  unsigned Column = SM.getExpansionColumnNumber(FD->getBeginLoc()) - 1;
  addSite(
      RD, FD->getSourceRange(), FD->getLocation(),
      [=](const EditSet &, const LaneContext *) {
        return format(Text + ";", Column, /*DropSemicolon=*/true);
      },
      "an array member");
}

void DeclarationRenderer::arrayDefinition(const RecordDecl *RD,
                                          const VarDecl *VD,
                                          const ConstantArrayType *CAT) {
  const HandleLayout *L = Layouts.lookup(RD);
  std::string Name = VD->getNameAsString();
  const auto *Init = dyn_cast_or_null<InitListExpr>(VD->getInit());
  UseClassifier::ArrayStart Start = UseClassifier::arrayStart(VD);
  // A default constructor that zeroes every field: the storage is zeroed.
  bool Zeroed = Start == UseClassifier::ArrayStart::Zeroed;
  if (Start == UseClassifier::ArrayStart::Expression)
    return cannotRender(RD, VD->getLocation(),
                        "array '" + Name +
                            "' is initialized from an expression");
  std::string Length = lengthText(VD, CAT->getSize().getZExtValue());
  std::string Storage = VD->getStorageClass() == SC_Static ? "static" : "";
  unsigned Column = SM.getExpansionColumnNumber(VD->getBeginLoc()) - 1;
  // Per element, per field: how to write its initializer.
  std::vector<std::vector<std::function<std::string(const EditSet &)>>> Inits;
  if (Init) {
    Init = Init->isSemanticForm() ? Init : Init->getSemanticForm();
    for (unsigned E = 0; E < Init->getNumInits(); ++E) {
      const auto *Elem = dyn_cast<InitListExpr>(Init->getInit(E));
      if (!Elem && isa<ImplicitValueInitExpr>(Init->getInit(E))) {
        Inits.emplace_back(); // Zero: every field "0".
        continue;
      }
      if (!Elem || Elem->getNumInits() != L->fieldCount())
        return cannotRender(RD, Init->getInit(E)->getExprLoc(),
                            "element initializer of '" + Name +
                                "' is not a braced list of its fields");
      Inits.emplace_back();
      for (unsigned F = 0; F < Elem->getNumInits(); ++F) {
        auto Text = initializerText(Elem->getInit(F));
        if (!Text)
          return cannotRender(RD, Elem->getInit(F)->getExprLoc(),
                              "initializer spelled inside a macro");
        Inits.back().push_back(Text);
      }
    }
  }
  // A later declarator of the same declaration (T a[N], b[N];) shares the
  // specifiers: it becomes a definition of its own from the comma on.
  SourceRange Range = VD->getSourceRange();
  std::string Separator;
  if (const VarDecl *Previous = Uses.previousDeclarator(VD)) {
    std::optional<Token> Comma =
        Lexer::findNextToken(Previous->getEndLoc(), SM, LO);
    if (!Comma || !Comma->is(tok::comma))
      return cannotRender(RD, VD->getLocation(),
                          "array '" + Name + "' declared in a macro");
    Range.setBegin(Comma->getLocation());
    Separator = ";\n" + std::string(Column, ' ');
  }
  addSite(
      RD, Range, VD->getLocation(),
      [=](const EditSet &ES, const LaneContext *) {
        if (!Init && !Zeroed)
          return Separator +
                 format(L->arrayDefinition(Storage, Name, Length, nullptr) +
                            ";",
                        Column, /*DropSemicolon=*/true);
        std::vector<std::vector<std::string>> Texts;
        for (const auto &Elem : Inits) {
          Texts.emplace_back();
          for (const auto &Field : Elem)
            Texts.back().push_back(Field(ES));
          Texts.back().resize(L->fieldCount());
        }
        return Separator +
               format(L->arrayDefinition(Storage, Name, Length, &Texts) + ";",
                      Column, /*DropSemicolon=*/true);
      },
      "an array definition");
}

/// Where the qualifiers (const, volatile) that \p VD's type begins with
/// start: its type's location leaves them out (`const T *q`).
static SourceLocation qualifiedTypeBegin(const VarDecl *VD,
                                         const ASTContext &Ctx) {
  SourceLocation TypeBegin =
      VD->getTypeSourceInfo()->getTypeLoc().getBeginLoc();
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = VD->getBeginLoc(), Qualifiers = TypeBegin;
  if (Loc.isMacroID() || TypeBegin.isMacroID() ||
      !SM.isBeforeInTranslationUnit(Loc, TypeBegin))
    return TypeBegin;
  while (Loc.isValid() && SM.isBeforeInTranslationUnit(Loc, TypeBegin)) {
    Token Tok;
    if (Lexer::getRawToken(Loc, Tok, SM, Ctx.getLangOpts(),
                           /*IgnoreWhiteSpace=*/true))
      return TypeBegin;
    Loc = Tok.getLocation();
    if (!SM.isBeforeInTranslationUnit(Loc, TypeBegin))
      break;
    StringRef Word = Tok.is(tok::raw_identifier) ? Tok.getRawIdentifier() : "";
    bool Qualifier = Word == "const" || Word == "volatile";
    if (!Qualifier)
      Qualifiers = TypeBegin;
    else if (Qualifiers == TypeBegin)
      Qualifiers = Loc;
    Loc = Tok.getEndLoc();
  }
  return Qualifiers;
}

/// The storage-class specifiers spelled between \p Begin and \p End, each
/// followed by a space: `T static *p;` must keep its `static` when its type
/// up to the name is respelled.
static std::string storageClasses(SourceLocation Begin, SourceLocation End,
                                  const SourceManager &SM,
                                  const LangOptions &LO) {
  std::string Words;
  if (Begin.isMacroID() || End.isMacroID())
    return Words;
  for (SourceLocation Loc = Begin;
       Loc.isValid() && SM.isBeforeInTranslationUnit(Loc, End);) {
    Token Tok;
    if (Lexer::getRawToken(Loc, Tok, SM, LO, /*IgnoreWhiteSpace=*/true) ||
        !SM.isBeforeInTranslationUnit(Tok.getLocation(), End))
      break;
    StringRef Word = Tok.is(tok::raw_identifier) ? Tok.getRawIdentifier() : "";
    if (llvm::is_contained({"static", "extern", "register", "_Thread_local",
                            "thread_local", "__thread"},
                           Word))
      Words += Word.str() + " ";
    Loc = Tok.getEndLoc();
  }
  return Words;
}

void DeclarationRenderer::pointerVariable(const RecordDecl *RD,
                                          const VarDecl *VD) {
  // Its type up to the name becomes the handle; `const T *q` a handle that
  // can move, as q could.
  // A later declarator (T *a, *b;) shares the type the first one
  // respelled: only its `*` goes.
  SourceLocation Begin = qualifiedTypeBegin(VD, Ctx);
  std::string Text = Layouts.lookup(RD)->handleName() + " " +
                     storageClasses(Begin, VD->getLocation(), SM, LO);
  if (const VarDecl *Previous = Uses.previousDeclarator(VD)) {
    std::optional<Token> Comma =
        Lexer::findNextToken(Previous->getEndLoc(), SM, LO);
    // After one the CUDA boundary keeps (T *h, *d;), a declaration of its
    // own: `T *h; T_soa d;`.
    bool Kept = State.keptOnHost(Previous);
    Begin = !Comma || !Comma->is(tok::comma) ? SourceLocation()
            : Kept
                ? Comma->getLocation()
                : Lexer::getLocForEndOfToken(Comma->getLocation(), 0, SM, LO);
    if (!Kept)
      Text = " ";
    else
      Text = "; " + Text;
  }
  auto Range = charRangeOf(Begin, VD->getLocation());
  if (!Range)
    return cannotRender(RD, VD->getLocation(),
                        "declaration of '" + VD->getNameAsString() +
                            "' is spelled inside a macro");
  textSite(RD, *Range, Text);
  if (const Expr *Init = VD->getInit()) {
    if (Init->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      addSite(
          RD, Init->getSourceRange(), Init->getExprLoc(),
          [](const EditSet &, const LaneContext *) { return "{0}"; },
          "a null initializer");
    else if (UseClassifier::isAllocation(Init))
      render(RD, Uses.allocation(Init, RD));
    else if (UseClassifier::isSearch(Init))
      render(RD, Uses.search(Init, RD));
  }
}

void DeclarationRenderer::functionReturn(const FunctionDecl *FD) {
  const RecordDecl *RD = handleRecord(FD->getReturnType());
  if (!RD || State.keptOnHost(FD))
    return;
  if (UseVerdict V = Uses.functionReturn(FD, RD); !V.Use)
    return cannotRender(RD, V.Loc, V.Refusal);
  std::string Text = Layouts.lookup(RD)->handleName() + " ";
  auto Range =
      charRangeOf(FD->getReturnTypeSourceRange().getBegin(), FD->getLocation());
  if (!Range)
    return cannotRender(RD, FD->getLocation(),
                        "return type of '" + FD->getNameAsString() +
                            "' is spelled inside a macro");
  textSite(RD, *Range, Text);
}

} // namespace dlopt::rewrite
