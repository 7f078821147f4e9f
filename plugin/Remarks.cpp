//===- Remarks.cpp - The plugin's plan as Clang optimization remarks ------===//
//
// See Remarks.h. The remarks are Clang's own backend remark diagnostics
// (their -R groups, their [-Rpass=...] flag text), emitted only where the
// pattern of the group matches "dlopt"; the optimization record gets them
// through LLVM's remark serializer, after the compile has written its own.
//
//===----------------------------------------------------------------------===//
#include "plugin/Remarks.h"
#include "analysis/PlanPrinter.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Remarks/Remark.h"
#include "llvm/Remarks/RemarkSerializer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <deque>

using namespace clang;
using namespace dlopt;

namespace {

/// One remark of the pass "dlopt", with its notes.
struct PluginRemark {
  llvm::remarks::Type Kind;
  /// Its name in the optimization record (single word, camel case).
  const char *Name;
  SourceLocation Loc;
  /// The function the record lists it under (remarkFunction).
  std::string Function;
  std::string Text;
  std::vector<std::pair<SourceLocation, std::string>> Notes;
};

const char *const PassName = "dlopt";

/// The function whose body holds \p Loc, searched through namespaces,
/// linkage blocks and classes; empty if none.
std::string functionAt(const DeclContext *DC, SourceLocation Loc,
                       const SourceManager &SM) {
  for (const Decl *D : DC->decls()) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D);
        FD && FD->hasBody() &&
        SM.isPointWithin(Loc, SM.getExpansionLoc(FD->getBeginLoc()),
                         SM.getExpansionLoc(FD->getEndLoc())))
      return FD->getNameAsString();
    if (isa<NamespaceDecl, LinkageSpecDecl, CXXRecordDecl>(D))
      if (std::string F = functionAt(cast<DeclContext>(D), Loc, SM); !F.empty())
        return F;
  }
  return "";
}

/// The function the optimization record lists a record's remarks under
/// (LLVM's remark parser wants one): its heaviest kernel, else the function
/// of its first blocker, else main's place, the file scope.
std::string remarkFunction(const AnalysisResult &Result, unsigned I,
                           const ASTContext &Ctx) {
  const RecordPlan &R = Result.Plan.Records[I];
  const KernelSummary *Best = nullptr;
  for (const KernelSummary &K : R.Kernels)
    if (!Best || K.Weight > Best->Weight)
      Best = &K;
  if (Best)
    return Best->Name;
  const SourceManager &SM = Ctx.getSourceManager();
  for (SourceLocation Loc : Result.BlockerLocs[I])
    if (std::string F = functionAt(Ctx.getTranslationUnitDecl(),
                                   SM.getExpansionLoc(Loc), SM);
        !F.empty())
      return F;
  return "(file scope)";
}

/// The KDLG's distances within \p Epsilon, "x-y 8 B, vx-vy 16 B", and how
/// many pairs are farther apart (those bind no cluster).
std::string kdlgText(const RecordPlan &R, unsigned Epsilon) {
  KdlgEdges All = edgesWithin(R, Epsilon);
  std::vector<std::string> Edges;
  for (const KdlgEdges::Edge &E : All.Near)
    Edges.push_back(R.Fields[E.From].Name + "-" + R.Fields[E.To].Name + " " +
                    formatDistance(E.Delta) + " B");
  unsigned Far = All.Far;
  std::string S = Edges.empty() ? "no two fields accessed within epsilon"
                                : llvm::join(Edges, ", ");
  if (Far)
    S += "; " + std::to_string(Far) + (Far == 1 ? " pair" : " pairs") +
         " farther apart";
  return S;
}

/// The remarks of record \p I of \p Result.
std::vector<PluginRemark> recordRemarks(const AnalysisResult &Result,
                                        unsigned I, unsigned CacheLine) {
  const RecordPlan &R = Result.Plan.Records[I];
  SourceLocation Loc = Result.Decls[I]->getLocation();
  std::string Function =
      remarkFunction(Result, I, Result.Decls[I]->getASTContext());
  std::string Summary = summarizeRecord(R, CacheLine);
  std::vector<PluginRemark> Out;
  if (!R.transformable()) {
    // One file cannot tell whether another defines what it lacks.
    bool Linkage = llvm::all_of(R.Blockers,
                                [](const Blocker &B) { return B.FromLinkage; });
    PluginRemark M{Linkage ? llvm::remarks::Type::Analysis
                           : llvm::remarks::Type::Missed,
                   Linkage ? "LayoutNeedsProgram" : "LayoutKept",
                   Loc,
                   Function,
                   Linkage ? "struct " + R.Name +
                                 ": its arrays reach other files; the whole "
                                 "program decides (dl-refactor "
                                 "--merge-reports over every file's report)"
                           : Summary,
                   {}};
    for (unsigned B = 0; B < R.Blockers.size(); ++B)
      M.Notes.push_back({Result.BlockerLocs[I][B],
                         (Linkage ? "in this file: " : "blocks the rewrite: ") +
                             R.Blockers[B].Reason});
    // dl-refactor expands such invocations and analyzes the program again;
    // a compile sees the code as written.
    if (!R.MacroUses.empty() &&
        llvm::all_of(R.Blockers, [](const Blocker &B) { return B.InMacro; }))
      M.Notes.push_back(
          {Loc, "every use that blocks it is spelled in a macro's body: "
                "'dl-refactor --report' expands those invocations where it "
                "can and plans struct " +
                    R.Name + " with them"});
    Out.push_back(std::move(M));
    return Out;
  }
  Out.push_back({R.unchanged() ? llvm::remarks::Type::Missed
                               : llvm::remarks::Type::Passed,
                 R.unchanged() ? "LayoutKept" : "LayoutPlanned",
                 Loc,
                 Function,
                 Summary,
                 {}});
  unsigned Epsilon = R.Epsilon ? R.Epsilon : CacheLine;
  PluginRemark A{llvm::remarks::Type::Analysis,
                 "LayoutAnalysis",
                 Loc,
                 Function,
                 "struct " + R.Name + " KDLG (delta in bytes, epsilon=" +
                     std::to_string(Epsilon) + " B): " + kdlgText(R, Epsilon),
                 {}};
  for (const ClusterPlan &C : R.Clusters)
    A.Notes.push_back({Loc, "cluster " + describeCluster(R, C)});
  Out.push_back(std::move(A));
  return Out;
}

bool shown(const CodeGenOptions &CG, llvm::remarks::Type K) {
  switch (K) {
  case llvm::remarks::Type::Passed:
    return CG.OptimizationRemark.patternMatches(PassName);
  case llvm::remarks::Type::Missed:
    return CG.OptimizationRemarkMissed.patternMatches(PassName);
  default:
    return CG.OptimizationRemarkAnalysis.patternMatches(PassName);
  }
}

unsigned diagId(llvm::remarks::Type K) {
  switch (K) {
  case llvm::remarks::Type::Passed:
    return diag::remark_fe_backend_optimization_remark;
  case llvm::remarks::Type::Missed:
    return diag::remark_fe_backend_optimization_remark_missed;
  default:
    return diag::remark_fe_backend_optimization_remark_analysis;
  }
}

/// Appends \p Remarks to the YAML optimization record of the compile, if
/// it keeps one and its passes filter lets "dlopt" in.
void appendToRecord(CompilerInstance &CI,
                    llvm::ArrayRef<PluginRemark> Remarks) {
  const CodeGenOptions &CG = CI.getCodeGenOpts();
  DiagnosticsEngine &Diags = CI.getDiagnostics();
  if (CG.OptRecordFile.empty() || Remarks.empty() ||
      (!CG.OptRecordPasses.empty() &&
       !llvm::Regex(CG.OptRecordPasses).match(PassName)))
    return;
  auto Warn = [&](const std::string &Message) {
    Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Warning, "%0"))
        << "dlopt: " + Message;
  };
  if (!CG.OptRecordFormat.empty() && CG.OptRecordFormat != "yaml")
    return Warn("the optimization record format '" + CG.OptRecordFormat +
                "' is not written by dlopt (only 'yaml'); its remarks are "
                "left out of '" +
                CG.OptRecordFile + "'");
  std::error_code EC;
  llvm::raw_fd_ostream OS(CG.OptRecordFile, EC, llvm::sys::fs::OF_Append);
  if (EC)
    return Warn("cannot append to '" + CG.OptRecordFile + "': " + EC.message());
  auto Serializer = llvm::remarks::createRemarkSerializer(
      llvm::remarks::Format::YAML, llvm::remarks::SerializerMode::Separate, OS);
  if (!Serializer)
    return Warn(llvm::toString(Serializer.takeError()));
  const SourceManager &SM = CI.getSourceManager();
  // The file names the remarks' locations point into.
  std::deque<std::string> Files;
  auto Location =
      [&](SourceLocation L) -> std::optional<llvm::remarks::RemarkLocation> {
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
    if (P.isInvalid())
      return std::nullopt;
    Files.push_back(P.getFilename());
    return llvm::remarks::RemarkLocation{Files.back(), P.getLine(),
                                         P.getColumn()};
  };
  for (const PluginRemark &M : Remarks) {
    llvm::remarks::Remark Out;
    Out.RemarkType = M.Kind;
    Out.PassName = PassName;
    Out.RemarkName = M.Name;
    Out.FunctionName = M.Function;
    Out.Loc = Location(M.Loc);
    Out.Args.push_back({"String", M.Text, std::nullopt});
    for (const auto &[Loc, Note] : M.Notes)
      Out.Args.push_back({"Note", Note, Location(Loc)});
    (*Serializer)->emit(Out);
  }
}

} // namespace

void dlopt::emitRemarks(CompilerInstance &CI, const AnalysisResult &Result,
                        unsigned CacheLine) {
  DiagnosticsEngine &Diags = CI.getDiagnostics();
  const CodeGenOptions &CG = CI.getCodeGenOpts();
  unsigned NoteID = Diags.getCustomDiagID(DiagnosticsEngine::Note, "%0");
  std::vector<PluginRemark> All;
  for (unsigned I = 0; I < Result.Plan.Records.size(); ++I)
    for (PluginRemark &M : recordRemarks(Result, I, CacheLine)) {
      if (shown(CG, M.Kind)) {
        Diags.Report(M.Loc, diagId(M.Kind))
            << AddFlagValue(PassName) << "dlopt: " + M.Text;
        for (const auto &[Loc, Note] : M.Notes)
          Diags.Report(Loc, NoteID) << Note;
      }
      All.push_back(std::move(M));
    }
  appendToRecord(CI, All);
}
