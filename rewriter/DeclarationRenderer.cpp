//===- DeclarationRenderer.cpp - Handles replace T* and T[N] --------------===//
//
// See DeclarationRenderer.h. The uses are UseRenderer.cpp's.
//
//===----------------------------------------------------------------------===//
#include "rewriter/DeclarationRenderer.h"
#include "rewriter/OpenCLRenderer.h"
#include "clang/AST/Attr.h"
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
    std::optional<Token> Comma = nextAfterDeclarator(Previous);
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
  std::optional<Token> Comma = nextAfterDeclarator(Previous);
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

/// Whether \p VD has internal linkage without `static`: C++ gives it to a
/// const variable at namespace scope (`const T table[N]`, `T *const head`),
/// which its storage and handle, no longer const, keep with `static` (a
/// header's table included by two files would be defined twice).
static bool implicitlyInternal(const VarDecl *VD) {
  return VD->isFileVarDecl() && !VD->isExternallyVisible() &&
         VD->getStorageClass() != SC_Static;
}

/// The attributes of the array \p VD, for its storage: keywords
/// (`_Alignas(64)`, `alignas(64)`, `__declspec(align(64))`) before it, the
/// others (`__attribute__((aligned(64)))`, `[[gnu::aligned(64)]]`) after
/// its name; `unused` and `used` for the handle too (a section or cleanup
/// is the storage's). One spelled by a macro is copied as invoked (`ALIGN`),
/// one inherited from an earlier declaration (`extern T a[N] ALIGN;`) as
/// spelled there. \p Range, the declaration's, grows over those after the
/// declarator (`T a[N] __attribute__((aligned(64)));`). None for an asm
/// label (the storage would take the array's symbol).
std::optional<DeclarationRenderer::ArrayAttributes>
DeclarationRenderer::arrayAttributes(const VarDecl *VD, SourceRange &Range) {
  ArrayAttributes Out;
  bool Trailing = false, First = !Uses.previousDeclarator(VD);
  for (const Attr *A : VD->attrs()) {
    if (A->isImplicit())
      continue;
    if (isa<AsmLabelAttr>(A))
      return std::nullopt;
    CharSourceRange R = SM.getExpansionRange(A->getRange());
    // The first declarator's text is replaced from its specifiers on: one
    // spelled before them (C++'s `alignas(64) static T a[N];`) stays, and
    // applies to the storage defined first.
    if (!A->isInherited() && First &&
        SM.isBeforeInTranslationUnit(R.getBegin(), Range.getBegin()))
      continue;
    bool Macro = A->getLocation().isMacroID();
    std::string Text = Lexer::getSourceText(R, SM, LO).str();
    std::string Spelled =
        A->isKeywordAttribute()    ? keywordAttribute(R)
        : Macro                    ? Text
        : A->isGNUAttribute()      ? "__attribute__((" + Text + "))"
        : A->isDeclspecAttribute() ? "__declspec(" + Text + ")"
                                   : "[[" + Text + "]]";
    bool Before =
        A->isKeywordAttribute() || A->isDeclspecAttribute() ||
        (Macro && !A->isInherited() &&
         SM.isBeforeInTranslationUnit(R.getBegin(), VD->getLocation()));
    if (Before)
      Out.Before += Spelled + " ";
    else
      Out.After += " " + Spelled;
    if (isa<UnusedAttr, UsedAttr>(A))
      Out.HandleAfter += " " + Spelled;
    Trailing |= !A->isInherited() &&
                SM.isBeforeInTranslationUnit(VD->getEndLoc(), R.getBegin());
  }
  if (!Trailing)
    return Out;
  SourceLocation End = declaratorEnd(VD);
  if (End.isInvalid())
    return std::nullopt;
  Range.setEnd(End);
  return Out;
}

/// The last token of \p VD's declarator, attributes after it included:
/// the one before the `;` or `,` that ends it (invalid in a macro).
SourceLocation DeclarationRenderer::declaratorEnd(const VarDecl *VD) const {
  unsigned Depth = 0;
  SourceLocation Loc = VD->getEndLoc();
  for (;;) {
    std::optional<Token> Next = Lexer::findNextToken(Loc, SM, LO);
    if (!Next || Next->is(tok::eof) || Next->getLocation().isMacroID())
      return SourceLocation();
    if (Depth == 0 && Next->isOneOf(tok::semi, tok::comma))
      return Loc;
    if (Next->isOneOf(tok::l_paren, tok::l_square))
      ++Depth;
    else if (Next->isOneOf(tok::r_paren, tok::r_square) && Depth > 0)
      --Depth;
    Loc = Next->getLocation();
  }
}

/// The token after \p VD's declarator and its attributes: the `,` before
/// the next declarator, or the `;`.
std::optional<Token>
DeclarationRenderer::nextAfterDeclarator(const VarDecl *VD) const {
  SourceLocation End = declaratorEnd(VD);
  if (End.isInvalid())
    return std::nullopt;
  return Lexer::findNextToken(End, SM, LO);
}

/// The text of a keyword attribute spelled over \p R (`_Alignas`, or the
/// `alignas` macro of <stdalign.h>) with its argument (`_Alignas(64)`).
std::string DeclarationRenderer::keywordAttribute(CharSourceRange R) const {
  SourceLocation End = R.getEnd();
  std::optional<Token> Open = Lexer::findNextToken(End, SM, LO);
  if (Open && Open->is(tok::l_paren)) {
    unsigned Depth = 0;
    for (std::optional<Token> T = Open; T && !T->is(tok::eof);
         T = Lexer::findNextToken(T->getLocation(), SM, LO)) {
      Depth += T->is(tok::l_paren);
      if (T->is(tok::r_paren) && --Depth == 0) {
        End = T->getLocation();
        break;
      }
    }
  }
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R.getBegin(), End),
                              SM, LO)
      .str();
}

/// Per element of \p Init, the initializer list of the array \p Name, how
/// to write each field's initializer (none: zero); false, with the
/// reason, where an element is not a braced list of its fields.
bool DeclarationRenderer::elementInitializers(const RecordDecl *RD,
                                              const std::string &Name,
                                              const InitListExpr *Init,
                                              const HandleLayout &L,
                                              ElementInits &Out) {
  Init = Init->isSemanticForm() ? Init : Init->getSemanticForm();
  for (unsigned E = 0; E < Init->getNumInits(); ++E) {
    const auto *Elem = dyn_cast<InitListExpr>(Init->getInit(E));
    if (!Elem && isa<ImplicitValueInitExpr>(Init->getInit(E))) {
      Out.emplace_back(); // Zero: every field "0".
      continue;
    }
    if (!Elem || Elem->getNumInits() != L.fieldCount()) {
      cannotRender(RD, Init->getInit(E)->getExprLoc(),
                   "element initializer of '" + Name +
                       "' is not a braced list of its fields");
      return false;
    }
    Out.emplace_back();
    for (unsigned F = 0; F < Elem->getNumInits(); ++F) {
      auto Text = initializerText(Elem->getInit(F));
      if (!Text) {
        cannotRender(RD, Elem->getInit(F)->getExprLoc(),
                     "initializer spelled inside a macro");
        return false;
      }
      Out.back().push_back(Text);
    }
  }
  return true;
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
  bool Internal = VD->getStorageClass() == SC_Static || implicitlyInternal(VD);
  std::string Storage = Internal ? "static" : "";
  SourceRange Range = VD->getSourceRange();
  std::optional<ArrayAttributes> Attrs = arrayAttributes(VD, Range);
  if (!Attrs)
    return cannotRender(RD, VD->getLocation(),
                        "an attribute of array '" + Name +
                            "' (an asm label, or one after a declarator "
                            "that a macro ends)");
  Storage = Attrs->Before + Storage;
  // The line's indentation (`alignas(64) static T a[N];` begins its
  // declaration's range at static).
  unsigned Column =
      Lexer::getIndentationForLine(SM.getExpansionLoc(VD->getBeginLoc()), SM)
          .size();
  ElementInits Inits;
  if (Init && !elementInitializers(RD, Name, Init, *L, Inits))
    return;
  // A later declarator of the same declaration (T a[N], b[N];) shares the
  // specifiers: it becomes a definition of its own from the comma on.
  std::string Separator, After = Attrs->After, HandleAfter = Attrs->HandleAfter;
  if (const VarDecl *Previous = Uses.previousDeclarator(VD)) {
    std::optional<Token> Comma = nextAfterDeclarator(Previous);
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
                 format(L->arrayDefinition(Storage, Name, Length, nullptr,
                                           After, HandleAfter) +
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
               format(L->arrayDefinition(Storage, Name, Length, &Texts, After,
                                         HandleAfter) +
                          ";",
                      Column, /*DropSemicolon=*/true);
      },
      "an array definition");
}

/// Where \p D's name begins, with the scope that qualifies it (`P
/// *Sim::parts = nullptr;`, `P *Pool::make(int n) {`): a respelled type
/// ends there.
static SourceLocation nameBegin(const DeclaratorDecl *D) {
  if (NestedNameSpecifierLoc Q = D->getQualifierLoc())
    return Q.getBeginLoc();
  return D->getLocation();
}

/// Whether \p Word is a storage-class specifier; \p Kept says whether a
/// respelled declaration keeps it (`register` goes: a handle's address may
/// be taken, by its realloc say).
static bool isStorageClass(StringRef Word, bool &Kept) {
  Kept = llvm::is_contained(
      {"static", "extern", "_Thread_local", "thread_local", "__thread"}, Word);
  return Kept || Word == "register";
}

namespace {
/// What a respelled type replaces before a declaration's name.
struct Specifiers {
  SourceLocation Begin;
  /// The storage classes it keeps, each followed by a space.
  std::string StorageClasses;
};
} // namespace

/// The specifiers of a declaration beginning at \p DeclBegin whose type
/// begins at \p TypeBegin and name at \p NameBegin that its respelled type
/// replaces: the run of storage classes and qualifiers that reaches the
/// type (`const static T *q`), the type, and all up to the name (`T static
/// *p`). A qualifier goes: the handle can move as q could, and `const
/// T_soa f(void)` would be an ignored qualifier. A storage class is kept,
/// first.
static Specifiers specifiersBefore(SourceLocation DeclBegin,
                                   SourceLocation TypeBegin,
                                   SourceLocation NameBegin,
                                   const ASTContext &Ctx) {
  Specifiers Out{TypeBegin, ""};
  const SourceManager &SM = Ctx.getSourceManager();
  if (DeclBegin.isMacroID() || TypeBegin.isMacroID() || NameBegin.isMacroID())
    return Out;
  SourceLocation RunBegin;
  std::string RunWords, AfterType;
  for (SourceLocation Loc = DeclBegin;
       Loc.isValid() && SM.isBeforeInTranslationUnit(Loc, NameBegin);) {
    Token Tok;
    if (Lexer::getRawToken(Loc, Tok, SM, Ctx.getLangOpts(),
                           /*IgnoreWhiteSpace=*/true) ||
        !SM.isBeforeInTranslationUnit(Tok.getLocation(), NameBegin))
      break;
    Loc = Tok.getLocation();
    StringRef Word = Tok.is(tok::raw_identifier) ? Tok.getRawIdentifier() : "";
    bool Kept = false;
    bool Storage = isStorageClass(Word, Kept);
    std::string Keep = Kept ? Word.str() + " " : "";
    if (!SM.isBeforeInTranslationUnit(Loc, TypeBegin)) {
      AfterType += Keep;
    } else if (Storage || Word == "const" || Word == "volatile") {
      if (RunBegin.isInvalid())
        RunBegin = Loc;
      RunWords += Keep;
    } else { // Only a run that reaches the type is replaced.
      RunBegin = SourceLocation();
      RunWords.clear();
    }
    Loc = Tok.getEndLoc();
  }
  if (RunBegin.isValid())
    Out.Begin = RunBegin;
  Out.StorageClasses = RunWords + AfterType;
  return Out;
}

void DeclarationRenderer::pointerVariable(const RecordDecl *RD,
                                          const VarDecl *VD) {
  // Its type up to the name becomes the handle; `const T *q` a handle that
  // can move, as q could.
  // A later declarator (T *a, *b;) shares the type the first one
  // respelled: only its `*` goes.
  Specifiers Spec = specifiersBefore(
      VD->getBeginLoc(), VD->getTypeSourceInfo()->getTypeLoc().getBeginLoc(),
      nameBegin(VD), Ctx);
  SourceLocation Begin = Spec.Begin;
  if (implicitlyInternal(VD))
    Spec.StorageClasses = "static " + Spec.StorageClasses;
  std::string Text =
      Spec.StorageClasses + Layouts.lookup(RD)->handleName() + " ";
  if (const VarDecl *Previous = Uses.previousDeclarator(VD)) {
    std::optional<Token> Comma = nextAfterDeclarator(Previous);
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
  auto Range = charRangeOf(Begin, nameBegin(VD));
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
  Specifiers Spec = specifiersBefore(FD->getBeginLoc(),
                                     FD->getReturnTypeSourceRange().getBegin(),
                                     nameBegin(FD), Ctx);
  std::string Text =
      Spec.StorageClasses + Layouts.lookup(RD)->handleName() + " ";
  auto Range = charRangeOf(Spec.Begin, nameBegin(FD));
  if (!Range)
    return cannotRender(RD, FD->getLocation(),
                        "return type of '" + FD->getNameAsString() +
                            "' is spelled inside a macro");
  textSite(RD, *Range, Text);
}

} // namespace dlopt::rewrite
