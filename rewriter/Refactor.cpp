//===- Refactor.cpp - Forced plans, and one TU rewritten by a program plan ===//
#include "rewriter/Refactor.h"
#include "analysis/AstUtil.h"
#include "analysis/WholeProgram.h"
#include "rewriter/HandleLayout.h"
#include "rewriter/RecordRewriter.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace dlopt;

static bool namedBy(const RecordPlan &R, const PlanOverride &O) {
  return R.Name == O.Record || llvm::is_contained(R.Aliases, O.Record);
}

ForcedPlans dlopt::forcePlans(LayoutPlan &Program,
                              const std::vector<PlanOverride> &Forced) {
  ForcedPlans Out;
  for (RecordPlan &R : Program.Records) {
    const PlanOverride *O = nullptr;
    for (const PlanOverride &P : Forced)
      if (namedBy(R, P))
        O = &P;
    if (!O)
      continue;
    Out.Used.insert(O->Record);
    if (!R.transformable()) {
      for (const Blocker &B : R.Blockers)
        Out.Errors.push_back(B.Location + ": " + O->Origin + ": struct " +
                             R.Name + " cannot be transformed: " + B.Reason);
      continue;
    }
    if (llvm::Error E = applyOverride(R, *O)) {
      Out.Errors.push_back(R.Location + ": " + llvm::toString(std::move(E)));
      continue;
    }
    Out.Records.insert(recordKey(R));
  }
  return Out;
}

std::set<std::string> dlopt::changingRecords(const LayoutPlan &Program) {
  std::set<std::string> Keys;
  for (const RecordPlan &R : Program.Records)
    if (R.transformable() && !R.unchanged())
      Keys.insert(recordKey(R));
  return Keys;
}

/// Record definitions at file scope (and in namespaces and extern "C"
/// blocks), in declaration order.
static void collectDefinitions(const DeclContext *DC,
                               std::vector<const RecordDecl *> &Out) {
  for (const Decl *D : DC->decls()) {
    if (const auto *RD = dyn_cast<RecordDecl>(D)) {
      if (RD->isThisDeclarationADefinition() && !RD->isUnion())
        Out.push_back(RD);
    } else if (isa<NamespaceDecl, LinkageSpecDecl>(D)) {
      collectDefinitions(cast<DeclContext>(D), Out);
    }
  }
}

RefactorResult
dlopt::rewriteTranslationUnit(ASTContext &Ctx, const LayoutPlan &Program,
                              const std::set<std::string> &Changing) {
  RefactorResult Out;
  const SourceManager &SM = Ctx.getSourceManager();
  std::map<std::string, const RecordPlan *> ByKey;
  for (const RecordPlan &R : Program.Records)
    ByKey[recordKey(R)] = &R;

  std::vector<const RecordDecl *> Definitions;
  collectDefinitions(Ctx.getTranslationUnitDecl(), Definitions);
  std::vector<RewriteTarget> Targets;
  std::vector<std::string> Keys;
  for (const RecordDecl *RD : Definitions) {
    if (inSystemHeader(SM, RD->getLocation()))
      continue;
    std::string Name = recordName(RD);
    std::string Key = recordKey(Name);
    if (Name.empty() || !Changing.count(Key) || llvm::is_contained(Keys, Key))
      continue;
    const RecordPlan &Plan = *ByKey.at(Key);
    std::unique_ptr<HandleLayout> L = HandleLayout::create(Plan, RD, Ctx);
    if (!L)
      continue;
    Targets.push_back(
        {RD, std::move(L),
         Plan.hasDeviceArrays() && Plan.How == Strategy::Boundary});
    Keys.push_back(Key);
  }
  RewriteResult RR =
      rewriteRecords(Ctx, Targets, &Program.BufferHolders, &Program.Allocators);
  for (unsigned I = 0; I < Targets.size(); ++I) {
    const RecordDecl *RD = Targets[I].Decl;
    std::vector<std::string> Reasons;
    for (const Refusal &F : RR.Refusals)
      if (F.Record == RD && F.Internal)
        Out.Internal.push_back(formatLoc(SM, F.Loc) + ": " + F.Reason +
                               " (struct " + recordName(RD) + ")");
      else if (F.Record == RD)
        Reasons.push_back(formatLoc(SM, F.Loc) + ": " + F.Reason);
    if (!Reasons.empty())
      Out.Refused[Keys[I]] = std::move(Reasons);
    else if (llvm::is_contained(RR.Rewritten, RD))
      Out.Notes.push_back(
          formatLoc(SM, RD->getLocation()) + ": struct " + recordName(RD) +
          " rewritten as " + Targets[I].Layout->handleName() +
          // The program's device arrays, which a C file that includes the
          // header of a CUDA program's record does not see itself.
          (!Targets[I].Boundary || Ctx.getLangOpts().OpenCL ? ""
           : !Targets[I].Layout->clHost()
               ? " in its device arrays (the host's arrays keep their layout)"
               : " in its OpenCL buffers (the host's arrays keep their "
                 "layout)"));
  }
  Out.Edits = std::move(RR.Edits);
  return Out;
}

//===----------------------------------------------------------------------===//
// Unified diff
//===----------------------------------------------------------------------===//

static unsigned countLines(llvm::StringRef Text) {
  return Text.count('\n') + (!Text.empty() && !Text.ends_with("\n"));
}

/// The start of the line holding offset \p Off of \p Text.
static unsigned lineStart(llvm::StringRef Text, unsigned Off) {
  size_t P = Text.substr(0, Off).rfind('\n');
  return P == llvm::StringRef::npos ? 0u : unsigned(P + 1);
}

/// Just past the newline of the line holding offset \p Off of \p Text.
static unsigned lineEnd(llvm::StringRef Text, unsigned Off) {
  size_t P = Text.find('\n', Off);
  return P == llvm::StringRef::npos ? unsigned(Text.size()) : unsigned(P + 1);
}

namespace {
/// Whole lines of the original that the edits replace.
struct Change {
  unsigned Begin, End;
};
} // namespace

/// The edits carry their original ranges, so the changed lines are known
/// without a diff algorithm: each edit replaces the whole lines it touches.
static std::vector<Change> changedLines(const EditSet &Edits) {
  llvm::StringRef Old = Edits.original();
  std::vector<Change> Changes;
  for (auto [B, E] : Edits.ranges()) {
    // An insertion at the start of a line only adds lines.
    Change C = E == B && lineStart(Old, B) == B
                   ? Change{B, B}
                   : Change{lineStart(Old, B), lineEnd(Old, E > B ? E - 1 : B)};
    if (!Changes.empty() && C.Begin <= Changes.back().End)
      Changes.back().End = std::max(Changes.back().End, C.End);
    else
      Changes.push_back(C);
  }
  return Changes;
}

std::string dlopt::unifiedDiff(const EditSet &Edits, llvm::StringRef Name) {
  const std::string &Old = Edits.original();
  auto LineStart = [&](unsigned Off) { return lineStart(Old, Off); };
  auto LineEnd = [&](unsigned Off) { return lineEnd(Old, Off); };
  std::vector<Change> Changes = changedLines(Edits);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (Changes.empty())
    return Out;
  OS << "--- a/" << Name << "\n+++ b/" << Name << "\n";
  const unsigned Context = 3;
  auto LineNo = [&](unsigned Off) { // 1-based line of a line start.
    return unsigned(llvm::StringRef(Old).substr(0, Off).count('\n')) + 1;
  };
  int Delta = 0; // New line numbers minus old, before the current hunk.
  for (size_t H = 0; H < Changes.size();) {
    // A hunk: changes whose context overlaps.
    size_t Last = H;
    while (Last + 1 < Changes.size() &&
           LineNo(Changes[Last + 1].Begin) - (LineNo(Changes[Last].End) - 1) <=
               2 * Context + 1)
      ++Last;
    unsigned First = LineNo(Changes[H].Begin);
    unsigned Start = First > Context ? First - Context : 1;
    unsigned StartOff = Changes[H].Begin;
    for (unsigned K = Start; K < First; ++K)
      StartOff = LineStart(StartOff - 1);
    unsigned EndOff = Changes[Last].End;
    for (unsigned K = 0; K < Context && EndOff < Old.size(); ++K)
      EndOff = LineEnd(EndOff);
    std::string Body;
    int OldCount = 0, NewCount = 0;
    unsigned Pos = StartOff;
    auto Emit = [&](char Tag, llvm::StringRef Text, int &Counter) {
      while (!Text.empty()) {
        auto [Line, Rest] = Text.split('\n');
        Body += Tag;
        Body += Line.str();
        Body += "\n";
        if (Rest.empty() && !Text.ends_with("\n"))
          Body += "\\ No newline at end of file\n";
        ++Counter;
        Text = Rest;
      }
    };
    int Unused = 0;
    for (size_t C = H; C <= Last; ++C) {
      llvm::StringRef Same(Old.data() + Pos, Changes[C].Begin - Pos);
      Emit(' ', Same, Unused);
      OldCount += countLines(Same);
      NewCount += countLines(Same);
      Emit('-', llvm::StringRef(Old).slice(Changes[C].Begin, Changes[C].End),
           OldCount);
      Emit('+', Edits.textOf(Changes[C].Begin, Changes[C].End), NewCount);
      Pos = Changes[C].End;
    }
    llvm::StringRef Tail(Old.data() + Pos, EndOff - Pos);
    Emit(' ', Tail, Unused);
    OldCount += countLines(Tail);
    NewCount += countLines(Tail);
    OS << "@@ -" << Start << "," << OldCount << " +" << int(Start) + Delta
       << "," << NewCount << " @@\n"
       << Body;
    Delta += NewCount - OldCount;
    H = Last + 1;
  }
  return OS.str();
}
