//===- Refactor.cpp - Analysis, forced plans and rewriting of one TU ------===//
#include "rewriter/Refactor.h"
#include "analysis/AstUtil.h"
#include "rewriter/HandleLayout.h"
#include "rewriter/RecordRewriter.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace dlopt;

/// The names users may call the record by: its tag and its typedefs.
static std::vector<std::string> namesOf(const RecordDecl *RD, ASTContext &Ctx) {
  std::vector<std::string> Names;
  if (!RD->getName().empty())
    Names.push_back(RD->getName().str());
  for (const TypedefNameDecl *TD : typedefsOf(RD, Ctx))
    Names.push_back(TD->getName().str());
  return Names;
}

RefactorResult
dlopt::refactorTranslationUnit(ASTContext &Ctx, const AnalysisOptions &Opts,
                               const std::vector<PlanOverride> &Forced) {
  RefactorResult Out;
  AnalysisResult A = analyzeTranslationUnit(Ctx, Opts);
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<RewriteTarget> Targets;
  std::vector<bool> IsForced;
  for (unsigned I = 0; I < A.Plan.Records.size(); ++I) {
    RecordPlan &R = A.Plan.Records[I];
    const RecordDecl *RD = A.Decls[I];
    std::vector<std::string> Names = namesOf(RD, Ctx);
    const PlanOverride *O = nullptr;
    for (const PlanOverride &P : Forced)
      if (llvm::is_contained(Names, P.Record))
        O = &P;
    if (O) {
      Out.UsedOverrides.insert(O->Record);
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
    }
    if (!R.transformable()) {
      Out.Notes.push_back(R.Location + ": struct " + R.Name +
                          " kept: not transformable (" +
                          R.Blockers.front().Reason + ")");
      continue;
    }
    std::unique_ptr<HandleLayout> L = HandleLayout::create(R, RD, Ctx);
    if (!L) {
      Out.Notes.push_back(R.Location + ": struct " + R.Name +
                          " kept: the plan is AoS");
      continue;
    }
    Targets.push_back({RD, std::move(L)});
    IsForced.push_back(O != nullptr);
  }
  // A record rewritten by an earlier run has no arrays left to plan: its
  // forced plan is already in place.
  StringRef Main = SM.getBufferData(SM.getMainFileID());
  for (const PlanOverride &P : Forced)
    if (!Out.UsedOverrides.count(P.Record) &&
        Main.contains(HandleLayout::beginMarker(P.Record))) {
      Out.UsedOverrides.insert(P.Record);
      Out.Notes.push_back("struct " + P.Record +
                          " is already in a generated layout");
    }
  if (!Out.Errors.empty())
    return Out; // Nothing is written when a forced plan fails.

  RewriteResult RR = rewriteRecords(Ctx, Targets);
  for (unsigned I = 0; I < Targets.size(); ++I) {
    const RecordDecl *RD = Targets[I].Decl;
    std::string Name = recordName(RD);
    std::vector<std::string> Reasons;
    for (const Refusal &F : RR.Refusals)
      if (F.Record == RD)
        Reasons.push_back(formatLoc(SM, F.Loc) + ": " + F.Reason);
    if (Reasons.empty()) {
      if (llvm::is_contained(RR.Rewritten, RD))
        Out.Notes.push_back(formatLoc(SM, RD->getLocation()) + ": struct " +
                            Name + " rewritten as " +
                            Targets[I].Layout->handleName());
      continue;
    }
    for (const std::string &Reason : Reasons)
      (IsForced[I] ? Out.Errors : Out.Notes)
          .push_back(Reason + " (struct " + Name + " " +
                     (IsForced[I] ? "cannot take the forced plan)"
                                  : "kept as it is)"));
  }
  if (Out.Errors.empty())
    Out.Edits = std::move(RR.Edits);
  return Out;
}

//===----------------------------------------------------------------------===//
// Unified diff
//===----------------------------------------------------------------------===//

static unsigned countLines(llvm::StringRef Text) {
  return Text.count('\n') + (!Text.empty() && !Text.ends_with("\n"));
}

std::string dlopt::unifiedDiff(const EditSet &Edits) {
  // The edits carry their original ranges, so the changed lines are known
  // without a diff algorithm: each edit replaces the whole lines it touches.
  const std::string &Old = Edits.original();
  auto LineStart = [&](unsigned Off) {
    size_t P = llvm::StringRef(Old).substr(0, Off).rfind('\n');
    return P == llvm::StringRef::npos ? 0u : unsigned(P + 1);
  };
  auto LineEnd = [&](unsigned Off) { // Just past the line's newline.
    size_t P = Old.find('\n', Off);
    return P == std::string::npos ? unsigned(Old.size()) : unsigned(P + 1);
  };
  struct Change {
    unsigned Begin, End; // Whole lines of the original.
  };
  std::vector<Change> Changes;
  for (auto [B, E] : Edits.ranges()) {
    // An insertion at the start of a line only adds lines.
    Change C = E == B && LineStart(B) == B
                   ? Change{B, B}
                   : Change{LineStart(B), LineEnd(E > B ? E - 1 : B)};
    if (!Changes.empty() && C.Begin <= Changes.back().End)
      Changes.back().End = std::max(Changes.back().End, C.End);
    else
      Changes.push_back(C);
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (Changes.empty())
    return Out;
  OS << "--- " << Edits.path() << "\n+++ " << Edits.path() << "\n";
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
