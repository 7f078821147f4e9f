//===- RecordRewriter.cpp - A LayoutPlan becomes source edits -------------===//
//
// Every edit is a Site: a range of the main file and a function that renders
// its new text from the current EditSet, so an enclosing site sees the
// rewritten text of what it contains (a[b[i].k].x). Sites are applied
// smallest first. A strip-mined loop is a site whose rendering applies the
// sites of its body twice, once per lane and once for the remainder.
//
//===----------------------------------------------------------------------===//
#include "rewriter/RecordRewriter.h"
#include "analysis/AstUtil.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Format/Format.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Regex.h"
#include <functional>

using namespace clang;
using namespace dlopt;

namespace {

/// Inside a strip-mined loop: the induction variable's tile and lane.
struct LaneContext {
  const VarDecl *InductionVar;
  std::string TileVar, LaneVar;
  uint64_t Tile;
};

struct Site {
  unsigned Begin, End;
  const RecordDecl *Record;
  std::function<std::string(const EditSet &, const LaneContext *)> Render;
  bool IsLoop = false;
};

const Expr *skipParensAndCasts(const Expr *E) {
  while (true) {
    if (const auto *P = dyn_cast<ParenExpr>(E))
      E = P->getSubExpr();
    else if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
      E = C->getSubExpr();
    else
      return E;
  }
}

class LayoutRewriter {
public:
  LayoutRewriter(ASTContext &Ctx, std::vector<RewriteTarget> &Targets)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()) {
    for (RewriteTarget &T : Targets)
      Layouts[T.Decl] = T.Layout.get();
    if (OptionalFileEntryRef File =
            SM.getFileEntryRefForID(SM.getMainFileID())) {
      llvm::Expected<format::FormatStyle> FileStyle =
          format::getStyle("file", File->getName(), "LLVM",
                           SM.getBufferData(SM.getMainFileID()));
      if (FileStyle)
        Style = *FileStyle;
      else
        llvm::consumeError(FileStyle.takeError());
    }
  }

  RewriteResult run(std::vector<RewriteTarget> &Targets);

  // Called by the visitor.
  void declaration(const DeclaratorDecl *D);
  void functionReturn(const FunctionDecl *FD);
  void reference(const DeclRefExpr *DRE);
  void memberReference(const MemberExpr *ME);
  void initList(const InitListExpr *List);
  void allocation(const Expr *Call, const ValueDecl *Target);
  void arrayExpression(const Expr *E);
  void loop(const ForStmt *For);

  const RecordDecl *handleRecord(QualType T) const {
    const RecordDecl *RD = elementRecord(T);
    if (!RD || !Layouts.count(RD))
      return nullptr;
    if (T->isPointerType() && T->getPointeeType()->isPointerType())
      return nullptr;
    return RD;
  }
  bool isHandleVar(const ValueDecl *D) const {
    return isa<VarDecl>(D) && handleRecord(D->getType());
  }

private:
  // --- Ranges ---

  std::optional<std::pair<unsigned, unsigned>> rangeOf(SourceRange R) {
    CharSourceRange CR =
        Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, LO);
    if (CR.isInvalid() || !SM.isInMainFile(CR.getBegin()))
      return std::nullopt;
    return std::make_pair(SM.getFileOffset(CR.getBegin()),
                          SM.getFileOffset(CR.getEnd()));
  }
  std::optional<std::pair<unsigned, unsigned>> charRangeOf(SourceLocation B,
                                                           SourceLocation E) {
    CharSourceRange CR =
        Lexer::makeFileCharRange(CharSourceRange::getCharRange(B, E), SM, LO);
    if (CR.isInvalid() || !SM.isInMainFile(CR.getBegin()))
      return std::nullopt;
    return std::make_pair(SM.getFileOffset(CR.getBegin()),
                          SM.getFileOffset(CR.getEnd()));
  }

  /// The current text of an expression (with nested edits applied).
  std::function<std::string(const EditSet &)> textFn(const Expr *E) {
    auto R = rangeOf(E->getSourceRange());
    if (!R)
      return nullptr;
    unsigned B = R->first, En = R->second;
    return [B, En](const EditSet &ES) { return ES.textOf(B, En); };
  }

  void refuse(const RecordDecl *RD, SourceLocation Loc, std::string Reason) {
    Refusals.push_back({RD, std::move(Reason), Loc});
  }

  void addSite(
      const RecordDecl *RD, SourceRange R, SourceLocation Loc,
      std::function<std::string(const EditSet &, const LaneContext *)> Render,
      const char *What) {
    auto Range = rangeOf(R);
    if (!Range)
      return refuse(RD, Loc,
                    std::string(What) +
                        " is spelled inside a macro or outside this file");
    Sites.push_back({Range->first, Range->second, RD, std::move(Render)});
  }

  const Stmt *parent(const Stmt *S) {
    for (const DynTypedNode &P : Ctx.getParents(*S))
      if (const Stmt *PS = P.get<Stmt>())
        return PS;
    return nullptr;
  }
  /// The parent, looking through parentheses and implicit casts other than
  /// pointer-to-boolean (a null test) and, unless \p SkipLoads, the load of
  /// a whole element; \p Child becomes the outermost expression skipped.
  const Stmt *semanticParent(const Expr *&Child, bool SkipLoads = true) {
    auto Skippable = [&](const Stmt *P) {
      if (isa<ParenExpr>(P))
        return true;
      const auto *Cast = dyn_cast<ImplicitCastExpr>(P);
      if (!Cast || Cast->getCastKind() == CK_PointerToBoolean)
        return false;
      return SkipLoads || Cast->getCastKind() != CK_LValueToRValue;
    };
    const Stmt *P = parent(Child);
    while (P && Skippable(P)) {
      Child = cast<Expr>(P);
      P = parent(P);
    }
    return P;
  }

  /// The length of an array declaration as the user wrote it (a macro name
  /// stays a macro name).
  std::string lengthText(const DeclaratorDecl *D, uint64_t Value) {
    if (const TypeSourceInfo *TSI = D->getTypeSourceInfo())
      if (auto ATL = TSI->getTypeLoc().getAs<ArrayTypeLoc>())
        if (const Expr *Size = ATL.getSizeExpr())
          if (auto R = rangeOf(Size->getSourceRange()))
            return SM.getBufferData(SM.getMainFileID())
                .substr(R->first, R->second - R->first)
                .str();
    return std::to_string(Value);
  }

  // --- Element accesses ---

  void fieldSite(const RecordDecl *RD, const MemberExpr *ME, const Expr *Handle,
                 const Expr *Index) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    const HandleLayout *L = Layouts.lookup(RD);
    unsigned F = FD->getFieldIndex();
    auto HandleText = textFn(Handle);
    auto IndexText = Index ? textFn(Index) : nullptr;
    if (!HandleText || (Index && !IndexText))
      return refuse(RD, ME->getExprLoc(),
                    "access spelled inside a macro or outside this file");
    const VarDecl *IndexVar = nullptr;
    if (Index)
      if (const auto *D = dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts()))
        IndexVar = dyn_cast<VarDecl>(D->getDecl());
    bool SideEffects = Index && Index->HasSideEffects(Ctx);
    if (L->isTiled(F))
      TiledIndexUses.push_back({Handle, IndexVar, L->tileOf(F)});
    addSite(
        RD, ME->getSourceRange(), ME->getExprLoc(),
        [=](const EditSet &ES, const LaneContext *Lane) {
          std::string H = HandleText(ES);
          std::string I = Index ? IndexText(ES) : "0";
          if (Lane && IndexVar == Lane->InductionVar && L->isTiled(F) &&
              L->tileOf(F) == Lane->Tile)
            return L->laneAccess(H, Lane->TileVar, Lane->LaneVar, F);
          if (SideEffects && L->isTiled(F)) // Evaluate the index once.
            return L->fieldRef(H, I, F);
          return L->access(H, I, F);
        },
        "a field access");
  }

  /// a[i] where the record itself is read or written.
  void elementSite(const RecordDecl *RD, const ArraySubscriptExpr *ASE,
                   const Expr *Handle, bool Embedded = false) {
    const HandleLayout *L = Layouts.lookup(RD);
    const Expr *Child = ASE;
    const Stmt *P = semanticParent(Child, /*SkipLoads=*/false);
    auto HandleText = textFn(Handle);
    if (HandleText && Embedded) // An array field: make a handle onto it.
      HandleText = [L, Text = HandleText](const EditSet &ES) {
        return L->handleOf(Text(ES));
      };
    auto IndexText = textFn(ASE->getIdx());
    if (!HandleText || !IndexText)
      return refuse(RD, ASE->getExprLoc(),
                    "access spelled inside a macro or outside this file");
    for (const FieldDecl *FD : RD->fields())
      if (FD->getType()->isArrayType())
        return refuse(RD, ASE->getExprLoc(),
                      "whole-element copy of a struct with an array field ('" +
                          FD->getNameAsString() + "') is not rewritten yet");
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
        Cast && Cast->getCastKind() == CK_LValueToRValue) {
      return addSite(
          RD, ASE->getSourceRange(), ASE->getExprLoc(),
          [=](const EditSet &ES, const LaneContext *) {
            L->use(HandleLayout::Get);
            return L->getName() + "(" + HandleText(ES) + ", " + IndexText(ES) +
                   ")";
          },
          "an element read");
    }
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
        BO && BO->getOpcode() == BO_Assign && BO->getLHS() == Child) {
      auto ValueText = textFn(BO->getRHS());
      if (!ValueText)
        return refuse(RD, BO->getExprLoc(),
                      "element write spelled inside a macro");
      return addSite(
          RD, BO->getSourceRange(), BO->getExprLoc(),
          [=](const EditSet &ES, const LaneContext *) {
            L->use(HandleLayout::Set);
            return L->setName() + "(" + HandleText(ES) + ", " + IndexText(ES) +
                   ", " + ValueText(ES) + ")";
          },
          "an element write");
    }
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
        UO && UO->getOpcode() == UO_AddrOf)
      return refuse(RD, UO->getExprLoc(),
                    "address of an element (&a[i]): a pointer to one element "
                    "has no meaning in the new layout");
    refuse(RD, ASE->getExprLoc(),
           "use of a whole element that dlopt cannot rewrite yet");
  }

  /// `!p`, `p == NULL`, `if (p)`: the handle is null when its first
  /// member is.
  void nullTestSite(const RecordDecl *RD, const DeclRefExpr *DRE) {
    std::string Text =
        Layouts.lookup(RD)->nullTest(DRE->getDecl()->getNameAsString());
    addSite(
        RD, DRE->getSourceRange(), DRE->getLocation(),
        [Text](const EditSet &, const LaneContext *) { return Text; },
        "a null test");
  }

  void nullSite(const RecordDecl *RD, const Expr *Null) {
    std::string Text = Layouts.lookup(RD)->nullValue();
    addSite(
        RD, Null->getSourceRange(), Null->getExprLoc(),
        [Text](const EditSet &, const LaneContext *) { return Text; },
        "a null pointer");
  }

public:
  /// `return NULL;` from a function that now returns a handle.
  void returnValue(const ReturnStmt *RS, const FunctionDecl *FD) {
    const RecordDecl *RD = FD ? handleRecord(FD->getReturnType()) : nullptr;
    const Expr *V = RS->getRetValue();
    if (RD && V &&
        V->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      nullSite(RD, V);
  }

private:
  /// The source of one field's initializer; nested lists are rebuilt from
  /// their semantic form, so designators and brace elision come out plain.
  std::function<std::string(const EditSet &)> initializerText(const Expr *E) {
    if (isa<ImplicitValueInitExpr>(E)) {
      std::string Zero = E->getType()->isScalarType() ? "0" : "{0}";
      return [Zero](const EditSet &) { return Zero; };
    }
    if (const auto *List = dyn_cast<InitListExpr>(E)) {
      if (!List->isSemanticForm())
        List = List->getSemanticForm();
      if (List->isStringLiteralInit())
        return textFn(List->getInit(0));
      std::vector<std::function<std::string(const EditSet &)>> Parts;
      for (const Expr *Sub : List->inits()) {
        Parts.push_back(initializerText(Sub));
        if (!Parts.back())
          return nullptr;
      }
      return [Parts](const EditSet &ES) {
        std::string S = "{";
        for (size_t I = 0; I < Parts.size(); ++I)
          S += (I ? ", " : "") + Parts[I](ES);
        return S + "}";
      };
    }
    return textFn(E);
  }

  void markReferencesHandled(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      HandledArrayExprs.insert(DRE);
    for (const Stmt *C : S->children())
      markReferencesHandled(C);
  }

  /// sizeof *p or sizeof p[0] is the element's size, which does not change:
  /// spelled sizeof(T) from now on. sizeof of the array or pointer itself
  /// would change its value.
  bool sizeofSite(const RecordDecl *RD, const DeclRefExpr *DRE) {
    const Stmt *Cur = DRE;
    const Stmt *P = parent(Cur);
    while (P &&
           isa<ParenExpr, ImplicitCastExpr, UnaryOperator, ArraySubscriptExpr>(
               P)) {
      Cur = P;
      P = parent(P);
    }
    const auto *Size = dyn_cast_or_null<UnaryExprOrTypeTraitExpr>(P);
    if (!Size)
      return false;
    const HandleLayout *L = Layouts.lookup(RD);
    if (asRecord(Size->getArgumentExpr()->getType()) != RD)
      refuse(RD, Size->getBeginLoc(),
             "sizeof of the array or pointer itself changes with the layout");
    else
      addSite(
          RD, Size->getSourceRange(), Size->getBeginLoc(),
          [L](const EditSet &, const LaneContext *) {
            return "sizeof(" + L->elementType() + ")";
          },
          "a sizeof");
    return true;
  }

  // --- State ---

  struct TiledUse {
    const Expr *Handle;
    const VarDecl *IndexVar;
    uint64_t Tile;
  };
  struct CandidateLoop {
    const ForStmt *For;
    const VarDecl *InductionVar;
    bool Declared; // for (int i = 0; ...) rather than for (i = 0; ...)
    const Expr *Bound;
  };

  void loopSite(const CandidateLoop &Loop);
  bool walkingPointerLoop(const ForStmt *For);
  llvm::SmallPtrSet<const Decl *, 4> WalkingPointers;
  std::optional<unsigned> insertionPoint(const RecordDecl *RD);

  void applySites(EditSet &ES, unsigned Begin, unsigned End,
                  const LaneContext *Lane, const Site *Enclosing);

  /// Generated code (declarations, strip-mined loops) in the style of the
  /// file: its .clang-format if it has one, else LLVM's.
  std::string format(llvm::StringRef Code, unsigned Indent,
                     bool DropSemicolon = false) const {
    format::FormatStyle S = Style;
    if (S.ColumnLimit > Indent + 20)
      S.ColumnLimit -= Indent;
    tooling::Range All(0, Code.size());
    tooling::Replacements R = format::reformat(S, Code, All);
    llvm::Expected<std::string> Out = tooling::applyAllReplacements(Code, R);
    std::string Text = Out ? *Out : Code.str();
    if (!Out)
      llvm::consumeError(Out.takeError());
    // A declaration is formatted with its `;`, which the source keeps.
    if (DropSemicolon && StringRef(Text).ends_with(";"))
      Text.pop_back();
    // Lines after the first continue at the statement's indentation.
    std::string Indented;
    for (char C : Text) {
      Indented += C;
      if (C == '\n')
        Indented.append(Indent, ' ');
    }
    return Indented;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  format::FormatStyle Style = format::getLLVMStyle();
  llvm::DenseMap<const RecordDecl *, const HandleLayout *> Layouts;
  std::vector<Site> Sites;
  std::vector<Refusal> Refusals;
  std::vector<TiledUse> TiledIndexUses;
  std::vector<CandidateLoop> PendingLoops;
  std::vector<Site> LoopSites;
  llvm::SmallPtrSet<const Expr *, 16> HandledArrayExprs;
  /// Sites whose rendering was an error (overlapping edits).
  std::vector<std::pair<const RecordDecl *, std::string>> ApplyErrors;

  friend class SiteCollector;
};

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

void LayoutRewriter::declaration(const DeclaratorDecl *D) {
  const RecordDecl *RD = handleRecord(D->getType());
  if (!RD || WalkingPointers.count(D))
    return;
  const HandleLayout *L = Layouts.lookup(RD);
  if (SM.isBeforeInTranslationUnit(D->getLocation(),
                                   RD->getBraceRange().getEnd()))
    return refuse(RD, D->getLocation(),
                  "'" + D->getNameAsString() +
                      "' is declared before the struct's definition");
  if (const auto *FD = dyn_cast<FieldDecl>(D)) {
    // An array inside another record keeps its storage there, regrouped.
    const auto *CAT = Ctx.getAsConstantArrayType(FD->getType());
    if (!CAT)
      return; // Pointer members are refused by legality.
    if (Layouts.count(FD->getParent()))
      return refuse(RD, FD->getLocation(),
                    "array member of '" + recordName(FD->getParent()) +
                        "', whose own layout changes too");
    std::string Text = L->fieldStorage(
        FD->getNameAsString(), lengthText(FD, CAT->getSize().getZExtValue()));
    unsigned Column = SM.getExpansionColumnNumber(FD->getBeginLoc()) - 1;
    return addSite(
        RD, FD->getSourceRange(), FD->getLocation(),
        [=](const EditSet &, const LaneContext *) {
          return format(Text + ";", Column, /*DropSemicolon=*/true);
        },
        "an array member");
  }
  std::string Name = D->getNameAsString();

  if (const auto *P = dyn_cast<ParmVarDecl>(D)) {
    std::string Text = L->handleName() + (Name.empty() ? "" : " " + Name);
    return addSite(
        RD, P->getSourceRange(), P->getLocation(),
        [Text](const EditSet &, const LaneContext *) { return Text; },
        "a parameter");
  }
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD)
    return;
  if (const auto *CAT = Ctx.getAsConstantArrayType(VD->getType())) {
    const auto *Init = dyn_cast_or_null<InitListExpr>(VD->getInit());
    if (VD->hasInit() && !Init)
      return refuse(RD, VD->getLocation(),
                    "array '" + Name + "' is initialized from an expression");
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
          return refuse(RD, Init->getInit(E)->getExprLoc(),
                        "element initializer of '" + Name +
                            "' is not a braced list of its fields");
        Inits.emplace_back();
        for (unsigned F = 0; F < Elem->getNumInits(); ++F) {
          auto Text = initializerText(Elem->getInit(F));
          if (!Text)
            return refuse(RD, Elem->getInit(F)->getExprLoc(),
                          "initializer spelled inside a macro");
          Inits.back().push_back(Text);
        }
      }
    }
    return addSite(
        RD, VD->getSourceRange(), VD->getLocation(),
        [=](const EditSet &ES, const LaneContext *) {
          if (!Init)
            return format(L->arrayDefinition(Storage, Name, Length, nullptr) +
                              ";",
                          Column, /*DropSemicolon=*/true);
          std::vector<std::vector<std::string>> Texts;
          for (const auto &Elem : Inits) {
            Texts.emplace_back();
            for (const auto &Field : Elem)
              Texts.back().push_back(Field(ES));
            Texts.back().resize(L->fieldCount());
          }
          return format(L->arrayDefinition(Storage, Name, Length, &Texts) + ";",
                        Column, /*DropSemicolon=*/true);
        },
        "an array definition");
  }
  // A pointer variable: its type up to the name becomes the handle.
  TypeLoc TL = VD->getTypeSourceInfo()->getTypeLoc();
  auto Range = charRangeOf(TL.getBeginLoc(), VD->getLocation());
  if (!Range)
    return refuse(RD, VD->getLocation(),
                  "declaration of '" + Name + "' is spelled inside a macro");
  std::string Text = L->handleName() + " ";
  Sites.push_back(
      {Range->first, Range->second, RD,
       [Text](const EditSet &, const LaneContext *) { return Text; }});
  if (const Expr *Init = VD->getInit()) {
    if (Init->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      addSite(
          RD, Init->getSourceRange(), Init->getExprLoc(),
          [](const EditSet &, const LaneContext *) { return "{0}"; },
          "a null initializer");
    else if (!allocatorName(Init).empty() ||
             isa<CXXNewExpr>(Init->IgnoreParenCasts()))
      allocation(Init, VD);
  }
}

void LayoutRewriter::functionReturn(const FunctionDecl *FD) {
  const RecordDecl *RD = handleRecord(FD->getReturnType());
  if (!RD)
    return;
  std::string Text = Layouts.lookup(RD)->handleName() + " ";
  auto Range =
      charRangeOf(FD->getReturnTypeSourceRange().getBegin(), FD->getLocation());
  if (!Range)
    return refuse(RD, FD->getLocation(),
                  "return type of '" + FD->getNameAsString() +
                      "' is spelled inside a macro");
  Sites.push_back(
      {Range->first, Range->second, RD,
       [Text](const EditSet &, const LaneContext *) { return Text; }});
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

/// The element count of a malloc size in whole elements of RD:
/// n * sizeof(T), sizeof(T) * n, n * sizeof *p, sizeof(T).
static const Expr *countOfSize(const Expr *Size, const RecordDecl *RD,
                               ASTContext &Ctx, bool &One) {
  Size = Size->IgnoreParenImpCasts();
  auto IsElementSize = [&](const Expr *E) {
    const auto *S =
        dyn_cast<UnaryExprOrTypeTraitExpr>(E->IgnoreParenImpCasts());
    return S && S->getKind() == UETT_SizeOf &&
           asRecord(S->getTypeOfArgument()) == RD;
  };
  One = false;
  if (IsElementSize(Size)) {
    One = true;
    return nullptr;
  }
  const auto *Mul = dyn_cast<BinaryOperator>(Size);
  if (!Mul || Mul->getOpcode() != BO_Mul)
    return nullptr;
  if (IsElementSize(Mul->getRHS()))
    return Mul->getLHS();
  if (IsElementSize(Mul->getLHS()))
    return Mul->getRHS();
  return nullptr;
}

void LayoutRewriter::allocation(const Expr *Init, const ValueDecl *Target) {
  const RecordDecl *RD = handleRecord(Target->getType());
  const HandleLayout *L = Layouts.lookup(RD);
  const Expr *Inner = Init->IgnoreParenCasts();
  std::string Fn;
  const Expr *Count = nullptr, *Old = nullptr;
  bool One = false;
  if (const auto *New = dyn_cast<CXXNewExpr>(Inner)) {
    if (!New->isArray() || !New->getArraySize())
      return refuse(RD, New->getExprLoc(), "new of a single element");
    Fn = L->allocName();
    if (New->getInitializationStyle() != CXXNewInitializationStyle::None) {
      // new T[n]() and new T[n]{} zero the elements: calloc does too.
      const auto *List = dyn_cast_or_null<InitListExpr>(New->getInitializer());
      bool Empty =
          (List && List->getNumInits() == 0) ||
          isa_and_nonnull<CXXConstructExpr>(New->getInitializer()) ||
          isa_and_nonnull<ImplicitValueInitExpr>(New->getInitializer()) ||
          isa_and_nonnull<CXXScalarValueInitExpr>(New->getInitializer());
      if (!Empty)
        return refuse(RD, New->getExprLoc(),
                      "new[] with element initializers (not rewritten yet)");
      Fn = L->callocName();
    }
    Count = *New->getArraySize();
  } else {
    const auto *Call = cast<CallExpr>(Inner);
    StringRef Name = allocatorName(Call);
    if (Name == "calloc" && Call->getNumArgs() == 2) {
      Fn = L->callocName();
      Count = Call->getArg(0);
      bool Unit = false;
      if (countOfSize(Call->getArg(1), RD, Ctx, Unit) || !Unit)
        Count = nullptr;
    } else if (Name == "malloc" && Call->getNumArgs() == 1) {
      Fn = L->allocName();
      Count = countOfSize(Call->getArg(0), RD, Ctx, One);
    } else if (Name == "realloc" && Call->getNumArgs() == 2) {
      Fn = L->reallocName();
      Old = Call->getArg(0);
      Count = countOfSize(Call->getArg(1), RD, Ctx, One);
      const auto *OldRef = dyn_cast<DeclRefExpr>(Old->IgnoreParenCasts());
      if (!OldRef || !isHandleVar(OldRef->getDecl()))
        return refuse(RD, Old->getExprLoc(),
                      "realloc of something other than an array variable");
      HandledArrayExprs.insert(OldRef);
    }
    if (!Count && !One)
      return refuse(RD, Call->getExprLoc(),
                    "allocation size is not a whole number of '" +
                        L->elementType() +
                        "' (expected n * sizeof(T) or calloc(n, sizeof(T)))");
  }
  markReferencesHandled(Init); // e.g. sizeof *p in the size: replaced whole.
  auto CountText = Count ? textFn(Count) : nullptr;
  auto OldText = Old ? textFn(Old->IgnoreParenCasts()) : nullptr;
  if ((Count && !CountText) || (Old && !OldText))
    return refuse(RD, Init->getExprLoc(), "allocation spelled inside a macro");
  addSite(
      RD, Init->getSourceRange(), Init->getExprLoc(),
      [=](const EditSet &ES, const LaneContext *) {
        L->use(Fn == L->allocName()    ? HandleLayout::Alloc
               : Fn == L->callocName() ? HandleLayout::Calloc
                                       : HandleLayout::Realloc);
        std::string Args = OldText ? OldText(ES) + ", " : "";
        return Fn + "(" + Args + (CountText ? CountText(ES) : "1") + ")";
      },
      "an allocation");
}

//===----------------------------------------------------------------------===//
// Uses of handle variables
//===----------------------------------------------------------------------===//

void LayoutRewriter::reference(const DeclRefExpr *DRE) {
  const ValueDecl *D = DRE->getDecl();
  if (!isHandleVar(D) || HandledArrayExprs.count(DRE))
    return;
  const RecordDecl *RD = handleRecord(D->getType());
  const HandleLayout *L = Layouts.lookup(RD);
  std::string Name = "'" + D->getNameAsString() + "'";
  if (sizeofSite(RD, DRE))
    return;
  const Expr *Child = DRE;
  const Stmt *P = semanticParent(Child);

  if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P);
      ASE && ASE->getBase() == Child) {
    HandledArrayExprs.insert(ASE);
    const Expr *Elem = ASE;
    const Stmt *PP = semanticParent(Elem, /*SkipLoads=*/false);
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(PP);
        ME && !ME->isArrow() && ME->getBase() == Elem &&
        isa<FieldDecl>(ME->getMemberDecl()))
      return fieldSite(RD, ME, DRE, ASE->getIdx());
    return elementSite(RD, ASE, DRE);
  }
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(P);
      ME && ME->isArrow() && ME->getBase() == Child) {
    HandledArrayExprs.insert(ME);
    return fieldSite(RD, ME, DRE, nullptr);
  }
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P)) {
    // (a + i)->f
    if (BO->getOpcode() == BO_Add) {
      const Expr *Sum = BO;
      const auto *ME = dyn_cast_or_null<MemberExpr>(semanticParent(Sum));
      const Expr *Index = BO->getLHS() == Child ? BO->getRHS() : BO->getLHS();
      if (ME && ME->isArrow() && ME->getBase() == Sum) {
        HandledArrayExprs.insert(ME);
        return fieldSite(RD, ME, DRE, Index);
      }
      return refuse(RD, BO->getOperatorLoc(),
                    "pointer arithmetic on " + Name + " (not rewritten yet)");
    }
    if (BO->getOpcode() == BO_Assign && BO->getLHS() == Child) {
      const Expr *Src = BO->getRHS();
      if (!allocatorName(Src).empty() ||
          isa<CXXNewExpr>(Src->IgnoreParenCasts()))
        return allocation(Src, D);
      if (const auto *From = dyn_cast<DeclRefExpr>(Src->IgnoreParenCasts());
          From && isHandleVar(From->getDecl()))
        return; // Handle to handle.
      if (const auto *Call = dyn_cast<CallExpr>(Src->IgnoreParenCasts());
          Call && handleRecord(Call->getType()))
        return; // A function returning a handle.
      if (Src->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
        return nullSite(RD, Src);
      return refuse(RD, BO->getOperatorLoc(),
                    "assignment to " + Name + " that dlopt cannot rewrite");
    }
    if (BO->getOpcode() == BO_Assign && BO->getRHS() == Child) {
      if (const auto *To = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
          To && isHandleVar(To->getDecl()))
        return;
    }
    if (BO->isEqualityOp()) {
      const Expr *Other = BO->getLHS() == Child ? BO->getRHS() : BO->getLHS();
      if (Other->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
        return nullTestSite(RD, DRE);
    }
  }
  const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
  const auto *Not = dyn_cast_or_null<UnaryOperator>(P);
  if ((Cast && Cast->getCastKind() == CK_PointerToBoolean) ||
      (Not && Not->getOpcode() == UO_LNot))
    return nullTestSite(RD, DRE);
  if (const auto *Call = dyn_cast_or_null<CallExpr>(P)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->getName() == "realloc" && Call->getArg(0) == Child)
      return; // Rewritten with the realloc as a whole.
    if (Callee && Callee->getName() == "free" && Call->getNumArgs() == 1) {
      auto Arg = textFn(DRE);
      return addSite(
          RD, Call->getSourceRange(), Call->getExprLoc(),
          [=](const EditSet &ES, const LaneContext *) {
            L->use(HandleLayout::Free);
            return L->freeName() + "(" + Arg(ES) + ")";
          },
          "a free");
    }
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (Call->getArg(I) == Child && Callee && I < Callee->getNumParams() &&
          Callee->hasBody() &&
          handleRecord(Callee->getParamDecl(I)->getType()) == RD)
        return; // The parameter becomes a handle too.
    return refuse(RD, DRE->getLocation(),
                  Name + " passed to a function that does not take it as "
                         "an array of the struct");
  }
  if (const auto *Del = dyn_cast_or_null<CXXDeleteExpr>(P)) {
    if (!Del->isArrayForm())
      return refuse(RD, Del->getBeginLoc(), "delete (not delete[]) of " + Name);
    auto Arg = textFn(DRE);
    return addSite(
        RD, Del->getSourceRange(), Del->getBeginLoc(),
        [=](const EditSet &ES, const LaneContext *) {
          L->use(HandleLayout::Free);
          return L->freeName() + "(" + Arg(ES) + ")";
        },
        "a delete[]");
  }
  if (isa_and_nonnull<ReturnStmt>(P))
    return; // The function's return type becomes the handle.
  if (P == nullptr || isa<DeclStmt>(P))
    return; // An initializer: the declared variable is a handle too.
  if (const auto *VD = dyn_cast_or_null<VarDecl>(
          Ctx.getParents(*Child).empty()
              ? nullptr
              : Ctx.getParents(*Child)[0].get<Decl>()))
    if (isHandleVar(VD))
      return;
  refuse(RD, DRE->getLocation(),
         "use of " + Name + " that dlopt cannot rewrite yet (" +
             P->getStmtClassName() + ")");
}

/// `s.items[i].f` and `s.items[i]` where items is an array member of another
/// record; other uses of the member are refused.
void LayoutRewriter::memberReference(const MemberExpr *ME) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD || !Ctx.getAsConstantArrayType(FD->getType()))
    return;
  const RecordDecl *RD = handleRecord(FD->getType());
  if (!RD)
    return;
  const Expr *Child = ME;
  const Stmt *P = semanticParent(Child);
  if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P);
      ASE && ASE->getBase() == Child) {
    HandledArrayExprs.insert(ASE);
    const Expr *Elem = ASE;
    const Stmt *PP = semanticParent(Elem, /*SkipLoads=*/false);
    if (const auto *Field = dyn_cast_or_null<MemberExpr>(PP);
        Field && !Field->isArrow() && Field->getBase() == Elem &&
        isa<FieldDecl>(Field->getMemberDecl()))
      return fieldSite(RD, Field, ME, ASE->getIdx());
    return elementSite(RD, ASE, ME, /*Embedded=*/true);
  }
  refuse(RD, ME->getExprLoc(),
         "use of the array member '" + FD->getNameAsString() +
             "' other than an element access (not rewritten yet)");
}

/// A braced initializer of a record whose array member is regrouped.
void LayoutRewriter::initList(const InitListExpr *List) {
  const InitListExpr *Sem =
      List->isSemanticForm() ? List : List->getSemanticForm();
  const RecordDecl *Outer = Sem ? asRecord(Sem->getType()) : nullptr;
  if (!Outer)
    return;
  for (const FieldDecl *FD : Outer->fields()) {
    const RecordDecl *RD = handleRecord(FD->getType());
    if (!RD || !Ctx.getAsConstantArrayType(FD->getType()) ||
        FD->getFieldIndex() >= Sem->getNumInits())
      continue;
    if (!isa<ImplicitValueInitExpr>(Sem->getInit(FD->getFieldIndex())))
      refuse(RD, List->getBeginLoc(),
             "initializer of '" + recordName(Outer) +
                 "' sets its array member '" + FD->getNameAsString() +
                 "' (not rewritten yet)");
  }
}

/// Array expressions of a rewritten record that no handle variable explains
/// (s.items[i], f()[i]) block the record.
void LayoutRewriter::arrayExpression(const Expr *E) {
  if (HandledArrayExprs.count(E))
    return;
  const Expr *Base = nullptr;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    Base = ASE->getBase();
  else if (const auto *ME = dyn_cast<MemberExpr>(E); ME && ME->isArrow())
    Base = ME->getBase();
  if (!Base)
    return;
  const RecordDecl *RD = handleRecord(Base->getType());
  if (!RD)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(skipParensAndCasts(Base));
      BO && isa<MemberExpr>(E))
    return; // (a + i)->f, handled with a.
  refuse(RD, E->getExprLoc(),
         "access through an expression that is not an array variable");
}

//===----------------------------------------------------------------------===//
// Strip-mining
//===----------------------------------------------------------------------===//

/// Whether the statement may leave or skip the loop in ways a split into
/// tile, lane and remainder loops would change.
static bool hasEscapes(const Stmt *S) {
  if (!S)
    return false;
  if (isa<BreakStmt, GotoStmt, IndirectGotoStmt, LabelStmt, ForStmt, WhileStmt,
          DoStmt, SwitchStmt, CXXForRangeStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (hasEscapes(C))
      return true;
  return false;
}

static bool assigns(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp())
      if (const auto *D = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
        if (D->getDecl() == V)
          return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      if (const auto *D =
              dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
        if (D->getDecl() == V)
          return true;
  for (const Stmt *C : S->children())
    if (assigns(C, V))
      return true;
  return false;
}

static bool isStableBound(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(D->getDecl()))
      return true;
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    return V && (V->hasLocalStorage() || V->getType().isConstQualified());
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return (BO->isAdditiveOp() || BO->isMultiplicativeOp() ||
            BO->isShiftOp()) &&
           isStableBound(BO->getLHS()) && isStableBound(BO->getRHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Minus && isStableBound(UO->getSubExpr());
  return false;
}

static void varsOf(const Expr *E, llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      Out.push_back(V);
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      varsOf(CE, Out);
}

/// `for (T *p = a; p < a + n; ++p) ... p->f ...` becomes an index loop:
/// `for (int p_i = 0; p_i < n; ++p_i) ... a.f[p_i] ...`.
bool LayoutRewriter::walkingPointerLoop(const ForStmt *For) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *P = DS && DS->isSingleDecl()
                      ? dyn_cast<VarDecl>(DS->getSingleDecl())
                      : nullptr;
  const RecordDecl *RD = P ? handleRecord(P->getType()) : nullptr;
  if (!RD || !P->getInit())
    return false;
  const auto *Start =
      dyn_cast<DeclRefExpr>(P->getInit()->IgnoreParenImpCasts());
  if (!Start || !isHandleVar(Start->getDecl()))
    return false;
  const ValueDecl *A = Start->getDecl();
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_NE))
    return false;
  const auto *CondP =
      dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  const auto *End =
      dyn_cast<BinaryOperator>(Cond->getRHS()->IgnoreParenImpCasts());
  if (!CondP || CondP->getDecl() != P || !End || End->getOpcode() != BO_Add)
    return false;
  const auto *EndA =
      dyn_cast<DeclRefExpr>(End->getLHS()->IgnoreParenImpCasts());
  const Expr *Count = End->getRHS();
  if (!EndA || EndA->getDecl() != A || Count->HasSideEffects(Ctx))
    return false;
  const auto *Inc = dyn_cast_or_null<UnaryOperator>(
      For->getInc() ? For->getInc()->IgnoreParens() : nullptr);
  if (!Inc || !Inc->isIncrementOp() ||
      !isa<DeclRefExpr>(Inc->getSubExpr()->IgnoreParens()) ||
      cast<DeclRefExpr>(Inc->getSubExpr()->IgnoreParens())->getDecl() != P)
    return false;
  // In the body, p may only be the base of p->f, and a never reassigned.
  std::vector<const MemberExpr *> Uses;
  bool Other = false;
  std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *ME = dyn_cast<MemberExpr>(S))
      if (const auto *B =
              dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
          B && B->getDecl() == P && ME->isArrow()) {
        Uses.push_back(ME);
        return;
      }
    if (const auto *D = dyn_cast<DeclRefExpr>(S))
      Other |= D->getDecl() == P;
    for (const Stmt *C : S->children())
      Scan(C);
  };
  Scan(For->getBody());
  if (Other || assigns(For->getBody(), cast<VarDecl>(A)))
    return false;

  const HandleLayout *L = Layouts.lookup(RD);
  std::string Index = P->getNameAsString() + "_i";
  std::string Type =
      Count->IgnoreImpCasts()->getType().getAsString(Ctx.getPrintingPolicy());
  std::string Array = A->getNameAsString();
  auto CountText = textFn(Count);
  auto Header =
      charRangeOf(For->getForLoc(), For->getRParenLoc().getLocWithOffset(1));
  if (!CountText || !Header)
    return false;
  WalkingPointers.insert(P);
  markReferencesHandled(For->getInit());
  markReferencesHandled(For->getCond());
  markReferencesHandled(For->getInc());
  Sites.push_back({Header->first, Header->second, RD,
                   [=](const EditSet &ES, const LaneContext *) {
                     return "for (" + Type + " " + Index + " = 0; " + Index +
                            " < " + CountText(ES) + "; ++" + Index + ")";
                   }});
  for (const MemberExpr *ME : Uses) {
    HandledArrayExprs.insert(ME);
    markReferencesHandled(ME->getBase());
    unsigned F = cast<FieldDecl>(ME->getMemberDecl())->getFieldIndex();
    addSite(
        RD, ME->getSourceRange(), ME->getExprLoc(),
        [=](const EditSet &, const LaneContext *) {
          return L->access(Array, Index, F);
        },
        "a field access through a walking pointer");
  }
  return true;
}

void LayoutRewriter::loop(const ForStmt *For) {
  if (walkingPointerLoop(For))
    return;
  // for (int i = 0; i < n; ++i) with a body that stays inside the loop.
  const VarDecl *IV = nullptr;
  bool Declared = false;
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
      DS && DS->isSingleDecl()) {
    IV = dyn_cast<VarDecl>(DS->getSingleDecl());
    Start = IV ? IV->getInit() : nullptr;
    Declared = true;
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    if (const auto *D = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
      IV = dyn_cast<VarDecl>(D->getDecl());
    Start = BO->getRHS();
  }
  if (!IV || !Start || !IV->getType()->isIntegerType())
    return;
  Expr::EvalResult Zero;
  if (!Start->EvaluateAsInt(Zero, Ctx) || Zero.Val.getInt() != 0)
    return;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || Cond->getOpcode() != BO_LT)
    return;
  const auto *CondVar =
      dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  if (!CondVar || CondVar->getDecl() != IV)
    return;
  const Expr *Bound = Cond->getRHS();
  if (Bound->HasSideEffects(Ctx))
    return;
  const Expr *Inc = For->getInc() ? For->getInc()->IgnoreParens() : nullptr;
  bool UnitStep = false;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    UnitStep = UO->isIncrementOp();
  else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    Expr::EvalResult One;
    UnitStep = CA->getOpcode() == BO_AddAssign &&
               CA->getRHS()->EvaluateAsInt(One, Ctx) && One.Val.getInt() == 1;
  }
  if (!UnitStep || hasEscapes(For->getBody()) || assigns(For->getBody(), IV))
    return;
  // The bound is read once per tile instead of once per iteration: it must
  // be made of constants and local variables the body leaves alone (memory
  // or globals could change behind a store or a call).
  if (!isStableBound(Bound))
    return;
  llvm::SmallVector<const VarDecl *, 4> BoundVars;
  varsOf(Bound, BoundVars);
  for (const VarDecl *V : BoundVars)
    if (assigns(For->getBody(), V))
      return;
  PendingLoops.push_back({For, IV, Declared, Bound});
}

} // namespace

namespace {

void LayoutRewriter::loopSite(const CandidateLoop &Loop) {
  const ForStmt *For = Loop.For;
  // A body that is one statement ends at its `;`, which its range omits.
  SourceRange BodySR = For->getBody()->getSourceRange();
  if (!isa<CompoundStmt>(For->getBody())) {
    std::optional<Token> Semi = Lexer::findNextToken(BodySR.getEnd(), SM, LO);
    if (!Semi || Semi->isNot(tok::semi))
      return;
    BodySR.setEnd(Semi->getLocation());
  }
  auto ForRange = rangeOf(SourceRange(For->getBeginLoc(), BodySR.getEnd()));
  auto BodyRange = rangeOf(BodySR);
  auto BoundRange = rangeOf(Loop.Bound->getSourceRange());
  if (!ForRange || !BodyRange || !BoundRange)
    return;
  // The tile size of the first tiled array the loop indexes with its
  // induction variable; arrays with other tile sizes use the flat form.
  const TiledUse *Use = nullptr;
  for (const TiledUse &U : TiledIndexUses) {
    unsigned At = SM.getFileOffset(SM.getExpansionLoc(U.Handle->getExprLoc()));
    if (U.IndexVar == Loop.InductionVar && At >= BodyRange->first &&
        At < BodyRange->second) {
      Use = &U;
      break;
    }
  }
  if (!Use)
    return;
  const RecordDecl *RD = handleRecord(Use->Handle->getType());
  std::string IV = Loop.InductionVar->getNameAsString();
  std::string Type =
      Loop.InductionVar->getType().getAsString(Ctx.getPrintingPolicy());
  LaneContext Lane{Loop.InductionVar, IV + "_tile", IV + "_lane", Use->Tile};
  std::string Indent(SM.getExpansionColumnNumber(For->getBeginLoc()) - 1, ' ');
  unsigned BodyB = BodyRange->first, BodyE = BodyRange->second;
  unsigned BoundB = BoundRange->first, BoundE = BoundRange->second;
  bool Declared = Loop.Declared;
  Site S{ForRange->first, ForRange->second, RD, nullptr, true};
  unsigned SiteIndex = LoopSites.size();
  S.Render = [=](const EditSet &ES, const LaneContext *) {
    const Site *Self = &LoopSites[SiteIndex];
    EditSet LaneEdits = ES, FlatEdits = ES;
    applySites(LaneEdits, BodyB, BodyE, &Lane, Self);
    applySites(FlatEdits, BodyB, BodyE, nullptr, Self);
    std::string T = std::to_string(Lane.Tile);
    std::string Bound = ES.textOf(BoundB, BoundE);
    std::string Tiles = parenthesize(Bound) + " / " + T;
    std::string Decl = Declared ? Type + " " : "";
    std::string LaneBody = LaneEdits.textOf(BodyB, BodyE);
    // Declare the induction variable in the lane loop only if the body still
    // reads it (an unused variable would be a new warning).
    llvm::Regex UsesIV("(^|[^A-Za-z0-9_])" + IV + "($|[^A-Za-z0-9_])");
    std::string SetIV = !Declared || UsesIV.match(LaneBody)
                            ? Decl + IV + " = " + Lane.TileVar + " * " + T +
                                  " + " + Lane.LaneVar + ";\n"
                            : "";
    std::string Tile = Lane.TileVar, LaneVar = Lane.LaneVar;
    std::string Code =
        "for (" + Type + " " + Tile + " = 0; " + Tile + " < " + Tiles + "; ++" +
        Tile + ") {\n" + "for (" + Type + " " + LaneVar + " = 0; " + LaneVar +
        " < " + T + "; ++" + LaneVar + ") {\n" + SetIV + LaneBody + "\n}\n}\n" +
        "for (" + Decl + IV + " = " + Tiles + " * " + T + "; " + IV + " < " +
        Bound + "; ++" + IV + ")\n" + FlatEdits.textOf(BodyB, BodyE);
    return format(Code, Indent.size());
  };
  LoopSites.push_back(std::move(S));
}

void LayoutRewriter::applySites(EditSet &ES, unsigned Begin, unsigned End,
                                const LaneContext *Lane,
                                const Site *Enclosing) {
  auto Within = [](const Site &Inner, unsigned B, unsigned E) {
    return Inner.Begin >= B && Inner.End <= E;
  };
  std::vector<const Site *> Todo;
  auto Consider = [&](const Site &S) {
    if (&S == Enclosing || !Within(S, Begin, End) || !Layouts.count(S.Record))
      return;
    // Sites inside another loop in the range are that loop's business.
    for (const Site &L : LoopSites)
      if (&L != &S && &L != Enclosing && Layouts.count(L.Record) &&
          Within(L, Begin, End) && Within(S, L.Begin, L.End))
        return;
    Todo.push_back(&S);
  };
  for (const Site &S : Sites)
    Consider(S);
  for (const Site &S : LoopSites)
    Consider(S);
  std::stable_sort(Todo.begin(), Todo.end(), [](const Site *A, const Site *B) {
    return A->End - A->Begin < B->End - B->Begin;
  });
  for (const Site *S : Todo)
    if (llvm::Error E = ES.replace(S->Begin, S->End, S->Render(ES, Lane)))
      ApplyErrors.push_back({S->Record, llvm::toString(std::move(E))});
}

/// Just after the `;` that ends the record's definition. Refused if that
/// declaration also declares variables (struct S {...} a[10];).
std::optional<unsigned> LayoutRewriter::insertionPoint(const RecordDecl *RD) {
  SourceLocation Brace = RD->getBraceRange().getEnd();
  if (Brace.isInvalid() || Brace.isMacroID() || !SM.isInMainFile(Brace)) {
    refuse(RD, RD->getLocation(),
           "the struct is defined outside the file being rewritten (headers "
           "are rewritten in whole-program mode)");
    return std::nullopt;
  }
  if (!RD->getDeclContext()->isFileContext()) {
    refuse(RD, RD->getLocation(), "the struct is not defined at file scope");
    return std::nullopt;
  }
  StringRef Typedef;
  if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
    Typedef = TD->getName();
  SourceLocation Loc = Brace;
  while (true) {
    std::optional<Token> Tok = Lexer::findNextToken(Loc, SM, LO);
    if (!Tok || Tok->is(tok::eof))
      break;
    Loc = Tok->getLocation();
    if (Tok->is(tok::semi)) {
      // After the end of the line, when nothing else follows on it.
      unsigned Off = SM.getFileOffset(Loc) + 1;
      StringRef Text = SM.getBufferData(SM.getMainFileID());
      size_t EOL = Text.find('\n', Off);
      if (EOL != StringRef::npos && Text.slice(Off, EOL).trim().empty())
        return EOL + 1;
      return Off;
    }
    // `typedef struct S {...} S;` is fine; anything else declares objects.
    bool NamesTypedef =
        Tok->is(tok::raw_identifier) &&
        (Tok->getRawIdentifier() == Typedef ||
         llvm::any_of(Ctx.getTranslationUnitDecl()->decls(), [&](Decl *D) {
           auto *TD = dyn_cast<TypedefNameDecl>(D);
           return TD && TD->getLocation() == Loc;
         }));
    if (!NamesTypedef)
      break;
  }
  refuse(RD, RD->getLocation(),
         "the struct's definition also declares variables; declare them "
         "separately");
  return std::nullopt;
}

class SiteCollector : public RecursiveASTVisitor<SiteCollector> {
public:
  explicit SiteCollector(LayoutRewriter &R) : R(R) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitDeclaratorDecl(DeclaratorDecl *D) {
    R.declaration(D);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    R.functionReturn(FD);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    R.reference(DRE);
    return true;
  }
  bool VisitForStmt(ForStmt *For) {
    R.loop(For);
    return true;
  }
  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Outer = Function;
    Function = FD;
    bool Continue = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Function = Outer;
    return Continue;
  }
  bool VisitReturnStmt(ReturnStmt *RS) {
    R.returnValue(RS, Function);
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    Arrays.push_back(E);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    R.memberReference(E);
    Arrays.push_back(E);
    return true;
  }
  bool VisitInitListExpr(InitListExpr *E) {
    R.initList(E);
    return true;
  }
  std::vector<const Expr *> Arrays;

private:
  LayoutRewriter &R;
  const FunctionDecl *Function = nullptr;
};

RewriteResult LayoutRewriter::run(std::vector<RewriteTarget> &Targets) {
  RewriteResult Result;
  SiteCollector Collector(*this);
  Collector.TraverseAST(Ctx);
  for (const Expr *E : Collector.Arrays)
    arrayExpression(E);
  for (const CandidateLoop &L : PendingLoops)
    loopSite(L);

  std::vector<std::pair<const RecordDecl *, unsigned>> Insertions;
  for (RewriteTarget &T : Targets)
    if (std::optional<unsigned> At = insertionPoint(T.Decl))
      Insertions.push_back({T.Decl, *At});

  // Refused records keep their layout; retry until the rest applies cleanly.
  StringRef Text = SM.getBufferData(SM.getMainFileID());
  std::string Path =
      SM.getFileEntryRefForID(SM.getMainFileID())->getName().str();
  while (true) {
    for (const Refusal &R : Refusals)
      Layouts.erase(R.Record);
    for (const auto &[RD, Message] : ApplyErrors) {
      Refusals.push_back(
          {RD, "conflicting rewrites: " + Message, RD->getLocation()});
      Layouts.erase(RD);
    }
    ApplyErrors.clear();
    llvm::SmallPtrSet<const RecordDecl *, 4> Used;
    for (const Site &S : Sites)
      if (Layouts.count(S.Record))
        Used.insert(S.Record);
    EditSet ES(Path, Text);
    applySites(ES, 0, Text.size(), nullptr, nullptr);
    if (!ApplyErrors.empty())
      continue;
    for (const auto &[RD, At] : Insertions)
      if (Used.count(RD))
        ES.insert(At, "\n" + format(Layouts.lookup(RD)->declarations(), 0));
    for (RewriteTarget &T : Targets)
      if (Used.count(T.Decl))
        Result.Rewritten.push_back(T.Decl);
    if (!ES.empty())
      Result.Edits = std::move(ES);
    break;
  }
  Result.Refusals = std::move(Refusals);
  return Result;
}

} // namespace

RewriteResult dlopt::rewriteRecords(ASTContext &Ctx,
                                    std::vector<RewriteTarget> &Targets) {
  LayoutRewriter R(Ctx, Targets);
  return R.run(Targets);
}
