//===- WholeProgramTest.cpp - Unit plans merged into a program plan -------===//
#include "analysis/WholeProgram.h"
#include "analysis/PlanPrinter.h"
#include "analysis/PlanReader.h"
#include "gtest/gtest.h"

using namespace dlopt;

namespace {

/// A record of two float fields defined in "p.h", as one unit sees it.
RecordPlan record(const std::string &Unit) {
  RecordPlan R;
  R.Name = "P";
  R.Location = "p.h:1:8";
  R.DefinedIn = "/src/p.h";
  R.Units = {Unit};
  R.Size = 8;
  R.Fields = {{"a", 4, 0}, {"b", 4, 4}};
  return R;
}

/// A kernel streaming \p Fields once over 1000 elements.
KernelSummary kernel(const std::string &Name, std::vector<unsigned> Fields) {
  KernelSummary K;
  K.Name = Name;
  K.Location = Name + ".c:1:6";
  K.Weight = 4000.0 * Fields.size();
  double Pos = 0;
  for (unsigned F : Fields) {
    AccessInfo A;
    A.Field = F;
    A.LoopDepth = 1;
    A.Position = Pos;
    A.Executions = 1000;
    Pos += 4;
    K.Accesses.push_back(A);
  }
  return K;
}

LayoutPlan unit(const std::string &Name, RecordPlan R, bool HasMain = false) {
  LayoutPlan U;
  U.Planned = false;
  U.Units = {Name};
  U.HasMain = HasMain;
  U.Records.push_back(std::move(R));
  return U;
}

TEST(WholeProgramTest, OneRecordFromManyUnitsWithAllTheirKernels) {
  RecordPlan A = record("a.c"), B = record("b.c");
  A.Kernels.push_back(kernel("ka", {0}));
  B.Kernels.push_back(kernel("kb", {1}));
  LayoutPlan P =
      mergeUnits({unit("a.c", A, /*HasMain=*/true), unit("b.c", B)}, {});
  ASSERT_EQ(P.Records.size(), 1u);
  const RecordPlan &R = P.Records[0];
  EXPECT_EQ(R.Units, (std::vector<std::string>{"a.c", "b.c"}));
  ASSERT_EQ(R.Kernels.size(), 2u);
  // One kernel reads a, the other b: never together, so two clusters; a
  // single unit would have seen one accessed field and a cold one.
  EXPECT_TRUE(R.Graph.accessed(0) && R.Graph.accessed(1));
  EXPECT_EQ(R.Clusters.size(), 2u);
  EXPECT_TRUE(P.HasMain);
}

// C11 6.2.7: struct P written out alike in two .c files is one type, so
// one record, planned from both files' kernels.
TEST(WholeProgramTest, SameDefinitionInAnotherFileIsTheSameRecord) {
  RecordPlan A = record("a.c"), B = record("b.c");
  B.Location = "b.c:1:8";
  B.DefinedIn = "/src/b.c";
  B.Aliases = {"P_t"};
  A.Kernels.push_back(kernel("ka", {0}));
  B.Kernels.push_back(kernel("kb", {1}));
  LayoutPlan P = mergeUnits({unit("a.c", A), unit("b.c", B)}, {});
  ASSERT_EQ(P.Records.size(), 1u);
  EXPECT_TRUE(P.Records[0].transformable());
  EXPECT_EQ(P.Records[0].Kernels.size(), 2u);
  EXPECT_EQ(P.Records[0].Location, "p.h:1:8");
  EXPECT_EQ(P.Records[0].Aliases, std::vector<std::string>{"P_t"});
}

TEST(WholeProgramTest, SameNameDefinedDifferentlyIsRefused) {
  RecordPlan A = record("a.c"), B = record("b.c");
  B.Location = "b.c:3:8";
  B.DefinedIn = "/src/b.c";
  A.Fields[1].Type = "float";
  B.Fields[1].Type = "int";
  A.Kernels.push_back(kernel("ka", {0, 1}));
  LayoutPlan P = mergeUnits({unit("a.c", A), unit("b.c", B)}, {});
  ASSERT_EQ(P.Records.size(), 1u);
  ASSERT_EQ(P.Records[0].Blockers.size(), 1u);
  const Blocker &Why = P.Records[0].Blockers[0];
  EXPECT_EQ(Why.Reason, "struct P is defined differently in p.h:1:8 and "
                        "b.c:3:8: field 2 is 'float b' against 'int b'");
  EXPECT_EQ(Why.Location, "b.c:3:8");
  // Both views of the record, either order.
  P = mergeUnits({unit("b.c", B), unit("a.c", A)}, {});
  EXPECT_FALSE(P.Records[0].transformable());
}

TEST(WholeProgramTest, DefinitionDifferences) {
  RecordPlan A = record("a.c"), B = record("b.c");
  EXPECT_EQ(definitionDifference(A, B), "");
  B.Fields[0].Name = "x";
  EXPECT_EQ(definitionDifference(A, B), "field 1 is 'a' against 'x'");
  B = record("b.c");
  B.Fields.push_back({"c", 4, 8});
  EXPECT_EQ(definitionDifference(A, B), "2 fields against 3");
  B = record("b.c");
  B.Size = 16; // An aligned attribute.
  EXPECT_EQ(definitionDifference(A, B), "8 B against 16 B");
  // Plans from older reports have no types: names, sizes and offsets decide.
  B = record("b.c");
  B.Fields[0].Type = "float";
  EXPECT_EQ(definitionDifference(A, B), "");
}

TEST(WholeProgramTest, HeaderKernelCountsOnce) {
  RecordPlan A = record("a.c"), B = record("b.c");
  A.Kernels.push_back(kernel("inline_sum", {0, 1}));
  B.Kernels.push_back(kernel("inline_sum", {0, 1}));
  LayoutPlan P = mergeUnits({unit("a.c", A), unit("b.c", B)}, {});
  EXPECT_EQ(P.Records[0].Kernels.size(), 1u);
}

TEST(WholeProgramTest, ABlockerInOneUnitBlocksEverywhere) {
  RecordPlan A = record("a.c"), B = record("b.c");
  A.Kernels.push_back(kernel("ka", {0, 1}));
  B.Blockers.push_back({"cast of 'struct P *' to 'char *'", "b.c:9:3"});
  LayoutPlan P = mergeUnits({unit("a.c", A), unit("b.c", B)}, {});
  ASSERT_EQ(P.Records.size(), 1u);
  EXPECT_FALSE(P.Records[0].transformable());
  EXPECT_EQ(P.Records[0].Blockers[0].Location, "b.c:9:3");
  EXPECT_TRUE(P.Records[0].Clusters.empty());
}

TEST(WholeProgramTest, DifferentDefinitionsBlock) {
  RecordPlan A = record("a.c"), B = record("b.c");
  B.Fields[1].Size = 8;
  A.Kernels.push_back(kernel("ka", {0, 1}));
  LayoutPlan P = mergeUnits({unit("a.c", A), unit("b.c", B)}, {});
  ASSERT_FALSE(P.Records[0].transformable());
  // One header read two ways (different macros) by two files.
  EXPECT_EQ(P.Records[0].Blockers[0].Reason,
            "struct P is defined differently in p.h:1:8 as a.c and b.c see "
            "it (different macros?): field 2 is 'b' of 4 B at offset 4 "
            "against 8 B at 4");
}

TEST(WholeProgramTest, RecordsNoLoopIndexesAreDropped) {
  RecordPlan A = record("a.c");
  A.Indexed = false;
  EXPECT_TRUE(mergeUnits({unit("a.c", A)}, {}).Records.empty());
  // Indexed in another unit: kept, with the first unit's uses checked too.
  RecordPlan B = record("b.c");
  B.Kernels.push_back(kernel("kb", {0}));
  EXPECT_EQ(mergeUnits({unit("a.c", A), unit("b.c", B)}, {}).Records.size(),
            1u);
}

// P's elements live in a member of Box (`P pts[4]`), which a.c hashes as
// bytes (a Bytes blocker) and which World holds by value; b.c writes World's
// arrays to a file. P keeps its layout while either keeps its bytes, also
// when the plan is read back and merged again (one blocker, not two).
TEST(WholeProgramTest, RecordsOfKeptHoldersAreBlocked) {
  RecordPlan P = record("a.c");
  P.Kernels.push_back(kernel("k", {0, 1}));
  P.Arrays.push_back({"pts", "field of Box", "p.h:3:5", 4});
  RecordPlan Box = record("a.c");
  Box.Name = "Box";
  Box.Location = "p.h:2:8";
  Box.Indexed = false;
  Box.Fields = {{"pts", 32, 0, "P[4]"}};
  RecordPlan World = Box;
  World.Name = "World";
  World.Fields = {{"box", 32, 0, "struct Box"}};
  World.FileIOAt = "b.c:9:3";
  auto Merged = [&](const RecordPlan &B) {
    LayoutPlan U = unit("a.c", P, /*HasMain=*/true);
    U.Records.push_back(B);
    U.Records.push_back(World);
    return mergeUnits({U}, {});
  };
  RecordPlan Plain = Box;
  LayoutPlan Kept = Merged(Plain);
  ASSERT_EQ(Kept.Records.size(), 1u);
  ASSERT_EQ(Kept.Records[0].Blockers.size(), 1u);
  EXPECT_EQ(Kept.Records[0].Blockers[0].Reason,
            "member 'pts' of 'Box' holds its elements, and 'World', which "
            "holds 'Box', keeps its bytes (a file holds them: fwrite or fread "
            "at b.c:9:3)");
  EXPECT_EQ(Kept.Records[0].Blockers[0].Location, "p.h:3:5");
  // A blocker about Box's own arrays leaves its representation alone; one
  // reading its bytes keeps it.
  World.FileIOAt.clear();
  Box.Blockers.push_back({"no default constructor", "a.c:2:1"});
  EXPECT_TRUE(Merged(Box).Records[0].transformable());
  Box.Blockers.push_back({"cast of 'Box *' to 'char *'", "a.c:8:9"});
  Box.Blockers.back().Bytes = true;
  LayoutPlan Hashed = Merged(Box);
  ASSERT_EQ(Hashed.Records[0].Blockers.size(), 1u);
  EXPECT_EQ(Hashed.Records[0].Blockers[0].Reason,
            "member 'pts' of 'Box' holds its elements, and 'Box' keeps its "
            "layout (cast of 'Box *' to 'char *' at a.c:8:9)");
  // Read back and merged again: decided again, not repeated.
  llvm::Expected<LayoutPlan> Back = planFromJson(planToJson(Hashed));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  LayoutPlan U = unit("a.c", Back->Records[0], /*HasMain=*/true);
  U.Records.push_back(Box);
  EXPECT_EQ(mergeUnits({U}, {}).Records[0].Blockers.size(), 1u);
}

// main.c calls step() (defined in b.c) 10 times per run and set_up() once;
// step() calls relax() of c.c 3 times per run of its own; relax() calls
// step() back (a cycle adds nothing). A kernel's frequency is scaled by
// the runs of the entry points it runs from, and is then known.
TEST(WholeProgramTest, CallsFromOtherFilesScaleKernels) {
  RecordPlan A = record("a.c"), B = record("b.c"), C = record("c.c");
  KernelSummary Step = kernel("step", {0}), SetUp = kernel("set_up", {1});
  Step.Entries = {{"step", 1}};
  SetUp.Entries = {{"set_up", 1}};
  B.Kernels = {Step, SetUp};
  KernelSummary Relax = kernel("relax", {0, 1});
  Relax.Frequency = 2;
  Relax.Weight *= 2;
  Relax.Entries = {{"relax", 1}, {"", 1}};
  C.Kernels = {Relax};
  KernelSummary Callback = kernel("callback", {1});
  Callback.Entries = {{"by_pointer", 1}};
  A.Kernels = {Callback};
  LayoutPlan UA = unit("a.c", A, /*HasMain=*/true), UB = unit("b.c", B),
             UC = unit("c.c", C);
  UA.ExternalCalls = {{"step", {{"", 10}}}, {"set_up", {{"", 1}}}};
  UB.ExternalCalls = {{"relax", {{"step", 3}}}};
  UC.ExternalCalls = {{"step", {{"relax", 1}}}};
  LayoutPlan P = mergeUnits({UA, UB, UC}, {});
  EXPECT_TRUE(P.ExternalCalls.empty());
  ASSERT_EQ(P.Records.size(), 1u);
  std::map<std::string, const KernelSummary *> Of;
  for (const KernelSummary &K : P.Records[0].Kernels)
    Of[K.Name] = &K;
  ASSERT_EQ(Of.size(), 4u);
  EXPECT_DOUBLE_EQ(Of["step"]->Frequency, 10);
  EXPECT_DOUBLE_EQ(Of["step"]->Weight, 40000);
  EXPECT_DOUBLE_EQ(Of["step"]->Accesses[0].Executions, 10000);
  EXPECT_TRUE(Of["step"]->FrequencyKnown);
  EXPECT_DOUBLE_EQ(Of["set_up"]->Frequency, 1);
  EXPECT_TRUE(Of["set_up"]->FrequencyKnown);
  // relax: 30 runs through step, one from its own file's other entry.
  EXPECT_DOUBLE_EQ(Of["relax"]->Frequency, 31);
  EXPECT_DOUBLE_EQ(Of["relax"]->Weight, 8000 * 31);
  // Nothing analyzed calls by_pointer: unknown, unscaled.
  EXPECT_DOUBLE_EQ(Of["callback"]->Frequency, 1);
  EXPECT_FALSE(Of["callback"]->FrequencyKnown);
  for (const auto &[Name, K] : Of)
    EXPECT_TRUE(K->Entries.empty()) << Name;
}

// Functions without loops that b.c runs once: kick, which main.c calls per
// element in a loop, becomes a kernel called per element; reset, called
// once, is dropped.
TEST(WholeProgramTest, LoopFreeFunctionsAreKernelsOnlyWhereCallsRepeatThem) {
  RecordPlan A = record("a.c"), B = record("b.c");
  A.Kernels = {kernel("main", {0, 1})};
  KernelSummary Kick = kernel("kick", {0}), Reset = kernel("reset", {1});
  Kick.LoopFree = Reset.LoopFree = true;
  Kick.Entries = {{"kick", 1}};
  Reset.Entries = {{"reset", 1}};
  B.Kernels = {Kick, Reset};
  LayoutPlan UA = unit("a.c", A, /*HasMain=*/true), UB = unit("b.c", B);
  UA.ExternalCalls = {{"kick", {{"", 5000}}}, {"reset", {{"", 1}}}};
  LayoutPlan P = mergeUnits({UA, UB}, {});
  ASSERT_EQ(P.Records.size(), 1u);
  const std::vector<KernelSummary> &Ks = P.Records[0].Kernels;
  ASSERT_EQ(Ks.size(), 2u);
  EXPECT_EQ(Ks[1].Name, "kick");
  EXPECT_DOUBLE_EQ(Ks[1].Frequency, 5000);
  EXPECT_TRUE(Ks[1].CalledPerElement);
  EXPECT_FALSE(Ks[1].LoopFree);
}

// A header's kernel seen by three files: b.c and c.c call it, a.c does not.
// Its runs add up over the callers, whichever file comes first.
TEST(WholeProgramTest, HeaderKernelRunsAddUpOverItsFiles) {
  for (bool UncalledFirst : {true, false}) {
    RecordPlan A = record("a.c"), B = record("b.c"), C = record("c.c");
    KernelSummary Uncalled = kernel("hk", {0}), InB = kernel("hk", {0}),
                  InC = kernel("hk", {0});
    Uncalled.Entries = {{"", 1}};
    InB.FrequencyKnown = InC.FrequencyKnown = true;
    InB.Frequency = 5;
    InB.Weight *= 5;
    InB.Entries = {{"run_b", 5}};
    InC.Frequency = 7;
    InC.Weight *= 7;
    InC.Entries = {{"run_c", 7}};
    A.Kernels = {Uncalled};
    B.Kernels = {InB};
    C.Kernels = {InC};
    LayoutPlan UA = unit("a.c", A, /*HasMain=*/true), UB = unit("b.c", B),
               UC = unit("c.c", C);
    UA.ExternalCalls = {{"run_b", {{"", 10}}}, {"run_c", {{"", 100}}}};
    std::vector<LayoutPlan> Units = UncalledFirst
                                        ? std::vector<LayoutPlan>{UA, UB, UC}
                                        : std::vector<LayoutPlan>{UC, UB, UA};
    LayoutPlan P = mergeUnits(Units, {});
    ASSERT_EQ(P.Records[0].Kernels.size(), 1u);
    const KernelSummary &K = P.Records[0].Kernels[0];
    EXPECT_DOUBLE_EQ(K.Frequency, 750) << UncalledFirst;
    EXPECT_DOUBLE_EQ(K.Weight, 4000.0 * 750) << UncalledFirst;
  }
}

ExternalSymbol symbol(ExternalSymbol::Kind K, const std::string &Name,
                      const std::string &Where) {
  return {K, Name, "reason for " + Name + " at " + Where, Where};
}

TEST(WholeProgramTest, ExternalsResolveAcrossUnits) {
  RecordPlan A = record("a.c"), B = record("b.c");
  A.Kernels.push_back(kernel("ka", {0, 1}));
  A.Externals.push_back(symbol(ExternalSymbol::Use, "step", "a.c:5:3"));
  A.Externals.push_back(symbol(ExternalSymbol::Use, "cloud", "p.h:3:17"));
  B.Externals.push_back(symbol(ExternalSymbol::Definition, "step", "b.c:1:6"));

  // step is defined in b.c; cloud nowhere.
  LayoutPlan P =
      mergeUnits({unit("a.c", A, /*HasMain=*/true), unit("b.c", B)}, {});
  ASSERT_EQ(P.Records[0].Blockers.size(), 1u);
  EXPECT_EQ(P.Records[0].Blockers[0].Location, "p.h:3:17");
  EXPECT_TRUE(P.Records[0].Blockers[0].FromLinkage);

  B.Externals.push_back(
      symbol(ExternalSymbol::Definition, "cloud", "b.c:2:10"));
  P = mergeUnits({unit("a.c", A, true), unit("b.c", B)}, {});
  EXPECT_TRUE(P.Records[0].transformable());

  // Without main() anywhere, the definitions may have callers outside.
  P = mergeUnits({unit("a.c", A), unit("b.c", B)}, {});
  ASSERT_EQ(P.Records[0].Blockers.size(), 2u);
  EXPECT_EQ(P.Records[0].Blockers[0].Location, "b.c:1:6");
  EXPECT_EQ(P.Records[0].Blockers[1].Location, "b.c:2:10");
}

TEST(WholeProgramTest, AllocatorFunctionsResolveAgainstTheirDefinitions) {
  RecordPlan A = record("a.c");
  A.Kernels.push_back(kernel("ka", {0, 1}));
  A.Externals.push_back(
      symbol(ExternalSymbol::Allocator, "xmalloc", "a.c:4:9"));
  A.Externals.push_back(symbol(ExternalSymbol::Release, "xfree", "a.c:9:3"));
  LayoutPlan Util;
  Util.Planned = false;
  Util.Units = {"util.c"};
  Util.Allocators["xmalloc"] = "free";
  Util.ReleaseFunctions = {"xfree"};

  // Alone, a.c cannot tell what either does.
  LayoutPlan P = mergeUnits({unit("a.c", A, /*HasMain=*/true)}, {});
  ASSERT_EQ(P.Records[0].Blockers.size(), 2u);
  EXPECT_TRUE(P.Records[0].Blockers[0].FromLinkage);

  // util.c defines both as such; read back from its JSON report too.
  llvm::Expected<LayoutPlan> Back = planFromJson(planToJson(Util));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  P = mergeUnits({unit("a.c", A, true), *Back}, {});
  EXPECT_TRUE(P.Records[0].transformable());
  EXPECT_EQ(P.Allocators.at("xmalloc"), "free");

  // One that util.c defines as none is refused with its reason.
  Util.Allocators.clear();
  Util.AllocatorMisfits["xmalloc"] = "why";
  P = mergeUnits({unit("a.c", A, true), Util}, {});
  ASSERT_EQ(P.Records[0].Blockers.size(), 1u);
  EXPECT_EQ(P.Records[0].Blockers[0].Reason, "why");
}

/// Host "h.c" binds P's buffer to argument 0 of kernel "k" in "k.cl",
/// whose kernel streams both fields; the host's loop reads field 0.
std::vector<LayoutPlan> openCLProgram(std::vector<Blocker> HostBlockers) {
  RecordPlan Host = record("h.c"), Kernels = record("k.cl");
  Host.Kernels.push_back(kernel("host_loop", {0}));
  Host.Externals.push_back(
      symbol(ExternalSymbol::KernelArgument, "k#0", "h.c:9:3"));
  Host.Blockers = std::move(HostBlockers);
  KernelSummary K = kernel("k", {0, 1});
  K.OpenCL = true;
  Kernels.Kernels.push_back(K);
  Kernels.Externals.push_back(
      symbol(ExternalSymbol::KernelParameter, "k#0", "k.cl:1:20"));
  return {unit("h.c", Host, /*HasMain=*/true), unit("k.cl", Kernels)};
}

TEST(WholeProgramTest, TheStrategyIsTheWholeProgramUnlessOnlyItIsBlocked) {
  Blocker Cast{"cast", "h.c:4:5"};
  Cast.Blocks = Blocker::WholeOnly;
  Blocker InPlace{"in place", "h.c:7:5"};
  InPlace.Blocks = Blocker::BoundaryOnly;

  // Nothing in the way: the whole program, no conversions.
  RecordPlan R = mergeUnits(openCLProgram({}), {}).Records.at(0);
  EXPECT_TRUE(R.transformable());
  EXPECT_EQ(R.How, Strategy::Whole);
  EXPECT_EQ(R.Kernels.size(), 2u);

  // Only the host's arrays in the way: the boundary, planned from the
  // OpenCL kernel alone, with the reason kept.
  R = mergeUnits(openCLProgram({Cast}), {}).Records.at(0);
  EXPECT_TRUE(R.transformable());
  EXPECT_EQ(R.How, Strategy::Boundary);
  ASSERT_EQ(R.SetAside.size(), 1u);
  EXPECT_EQ(R.SetAside[0].Reason, "cast");
  ASSERT_EQ(R.Kernels.size(), 1u);
  EXPECT_EQ(R.Kernels[0].Name, "k");

  // Only the boundary in the way: the whole program; read back with a
  // host that blocks it, every blocker comes back.
  LayoutPlan WholePlan = mergeUnits(openCLProgram({InPlace}), {});
  R = WholePlan.Records.at(0);
  EXPECT_TRUE(R.transformable());
  EXPECT_EQ(R.How, Strategy::Whole);
  llvm::Expected<LayoutPlan> WholeBack = planFromJson(planToJson(WholePlan));
  ASSERT_TRUE(bool(WholeBack)) << llvm::toString(WholeBack.takeError());
  std::vector<LayoutPlan> Again = openCLProgram({Cast});
  Again.push_back(std::move(*WholeBack));
  EXPECT_FALSE(mergeUnits(std::move(Again), {}).Records.at(0).transformable());

  // Both: kept, with every reason.
  R = mergeUnits(openCLProgram({Cast, InPlace}), {}).Records.at(0);
  EXPECT_FALSE(R.transformable());
  EXPECT_EQ(R.Blockers.size(), 2u);

  // Forced: the other strategy's blockers go, its own stay.
  AnalysisOptions Whole;
  Whole.Strategies["P"] = Strategy::Whole;
  R = mergeUnits(openCLProgram({Cast}), Whole).Records.at(0);
  ASSERT_EQ(R.Blockers.size(), 1u);
  EXPECT_EQ(R.Blockers[0].Reason, "cast");
  AnalysisOptions Boundary;
  Boundary.Strategies["P"] = Strategy::Boundary;
  R = mergeUnits(openCLProgram({InPlace}), Boundary).Records.at(0);
  ASSERT_EQ(R.Blockers.size(), 1u);
  EXPECT_EQ(R.Blockers[0].Reason, "in place");

  // A program plan read back from its report is decided the same way.
  LayoutPlan P = mergeUnits(openCLProgram({Cast}), {});
  llvm::Expected<LayoutPlan> Back = planFromJson(planToJson(P));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  R = mergeUnits({std::move(*Back)}, {}).Records.at(0);
  EXPECT_EQ(R.How, Strategy::Boundary);
  EXPECT_EQ(R.SetAside.size(), 1u);
}

TEST(WholeProgramTest, ShadowedBlockerStandsOnceItsSymbolResolves) {
  // a.c passes the array to step() as a void *: refused, on the line of
  // the call of step, which a.c does not define.
  RecordPlan A = record("a.c"), B = record("b.c");
  A.Kernels.push_back(kernel("ka", {0, 1}));
  A.Externals.push_back(symbol(ExternalSymbol::Use, "step", "a.c:5:3"));
  A.Blockers.push_back({"passed as void *", "a.c:5:8", false, true});

  // Unresolved: the symbol's reason explains the line.
  LayoutPlan P = mergeUnits({unit("a.c", A, /*HasMain=*/true)}, {});
  ASSERT_EQ(P.Records[0].Blockers.size(), 1u);
  EXPECT_EQ(P.Records[0].Blockers[0].Reason, "reason for step at a.c:5:3");

  // Resolved: the refusal still blocks.
  B.Externals.push_back(symbol(ExternalSymbol::Definition, "step", "b.c:1:6"));
  P = mergeUnits({unit("a.c", A, true), unit("b.c", B)}, {});
  ASSERT_EQ(P.Records[0].Blockers.size(), 1u);
  EXPECT_EQ(P.Records[0].Blockers[0].Reason, "passed as void *");
  EXPECT_FALSE(P.Records[0].transformable());
}

/// How \p Unit sees "p.h": its uses, "line:col: kind".
HeaderView view(const std::string &Unit, std::vector<std::string> Uses) {
  return {"/src/p.h", Unit, std::move(Uses), "p.h", "C"};
}

TEST(WholeProgramTest, UnitsThatSeeAHeaderDifferentlyBlock) {
  RecordPlan A = record("a.c"), B = record("b.c"), C = record("c.c");
  A.Kernels.push_back(kernel("ka", {0, 1}));
  A.Headers = {view("a.c", {"12:10: field access", "9:3: handle passed on"})};
  B.Headers = {view("b.c", {"12:10: field access", "9:3: handle passed on"})};
  C.Headers = {view("c.c", {"11:10: null test", "9:3: handle passed on"})};

  LayoutPlan P = mergeUnits({unit("a.c", A, true), unit("b.c", B)}, {});
  EXPECT_TRUE(P.Records[0].transformable());

  P = mergeUnits({unit("a.c", A, true), unit("b.c", B), unit("c.c", C)}, {});
  ASSERT_EQ(P.Records[0].Blockers.size(), 1u);
  // The first use only one of them sees.
  EXPECT_EQ(P.Records[0].Blockers[0].Location, "p.h:11:10");
  EXPECT_EQ(P.Records[0].Blockers[0].Reason,
            "p.h would be rewritten differently for a.c and for c.c: only c.c "
            "sees this null test of struct P (is the header included under "
            "different macros, or a template of it instantiated for the "
            "struct in only one of them?)");

  // A unit that includes the header but sees no use there differs too.
  C.Headers = {view("c.c", {})};
  P = mergeUnits({unit("a.c", A, true), unit("c.c", C)}, {});
  ASSERT_EQ(P.Records[0].Blockers.size(), 1u);
  EXPECT_EQ(P.Records[0].Blockers[0].Location, "p.h:12:10");

  // The views travel in a unit plan's JSON (the plugin's reports).
  llvm::Expected<LayoutPlan> Back = planFromJson(planToJson(unit("c.c", C)));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  ASSERT_EQ(Back->Records[0].Headers.size(), 1u);
  EXPECT_EQ(Back->Records[0].Headers[0].File, "/src/p.h");
  EXPECT_EQ(Back->Records[0].Headers[0].Unit, "c.c");
  P = mergeUnits({unit("a.c", A, true), *Back}, {});
  EXPECT_FALSE(P.Records[0].transformable());
}

TEST(WholeProgramTest, HeaderSharedWithCHasOneForm) {
  // A C unit and a CUDA unit that see the same uses in the header: one
  // text for both (HandleLayout's shared form), and the program plan keeps
  // a view of each language so that each unit knows to write it. The same
  // for C and C++, in either order, and for all three.
  RecordPlan A = record("main.c"), B = record("gpu.cu"), C = record("x.cpp");
  A.Kernels.push_back(kernel("ka", {0, 1}));
  A.Headers = {view("main.c", {"9:3: handle passed on"})};
  A.Headers[0].Language = "C";
  B.Headers = {view("gpu.cu", {"9:3: handle passed on"})};
  B.Headers[0].Language = "CUDA";
  C.Headers = {view("x.cpp", {"9:3: handle passed on"})};
  C.Headers[0].Language = "C++";
  LayoutPlan P = mergeUnits({unit("main.c", A, true), unit("gpu.cu", B)}, {});
  EXPECT_TRUE(P.Records[0].transformable());
  EXPECT_TRUE(P.Records[0].sharedWithC());
  EXPECT_EQ(P.Records[0].Headers.size(), 2u);
  // One language alone writes its own form.
  P = mergeUnits({unit("main.c", A, true)}, {});
  EXPECT_FALSE(P.Records[0].sharedWithC());
  P = mergeUnits({unit("x.cpp", C), unit("main.c", A, true)}, {});
  EXPECT_TRUE(P.Records[0].transformable());
  EXPECT_TRUE(P.Records[0].sharedWithC());
  // C++ and CUDA first, then C: decided once all are merged.
  P = mergeUnits({unit("x.cpp", C), unit("gpu.cu", B), unit("main.c", A, true)},
                 {});
  EXPECT_TRUE(P.Records[0].transformable());
  EXPECT_EQ(P.Records[0].Headers.size(), 3u);
  // C++ and CUDA without C have no form in common: refused, with the
  // header and both units named.
  P = mergeUnits({unit("x.cpp", C), unit("gpu.cu", B)}, {});
  ASSERT_FALSE(P.Records[0].transformable());
  EXPECT_NE(P.Records[0].Blockers[0].Reason.find(
                "would be rewritten differently for x.cpp (C++) and for "
                "gpu.cu (CUDA)"),
            std::string::npos)
      << P.Records[0].Blockers[0].Reason;
}

TEST(WholeProgramTest, UnitPlanSurvivesJson) {
  RecordPlan A = record("a.c");
  A.Aliases = {"P_t"};
  A.Kernels.push_back(kernel("ka", {1, 0}));
  A.Kernels[0].Accesses[0].IsWrite = true;
  A.Kernels[0].Accesses[1].IsGather = true;
  A.Kernels[0].Accesses[1].InVectorizableLoop = false;
  A.Externals.push_back(symbol(ExternalSymbol::Use, "step", "a.c:5:3"));
  A.Blockers.push_back({"offsetof", "a.c:7:1"});
  A.Blockers.back().Bytes = true;
  A.FileIOAt = "a.c:9:3";
  A.Arrays.push_back({"ps", "malloc", "a.c:4:3", 0});
  A.Fields[1].Type = "float";
  LayoutPlan U = unit("a.c", A, true);

  llvm::Expected<LayoutPlan> Back = planFromJson(planToJson(U));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_FALSE(Back->Planned);
  EXPECT_TRUE(Back->HasMain);
  ASSERT_EQ(Back->Records.size(), 1u);
  const RecordPlan &R = Back->Records[0];
  EXPECT_EQ(R.DefinedIn, "/src/p.h");
  EXPECT_EQ(R.Fields[1].Type, "float");
  EXPECT_EQ(R.Aliases, A.Aliases);
  ASSERT_EQ(R.Blockers.size(), 1u);
  EXPECT_TRUE(R.Blockers[0].Bytes);
  EXPECT_EQ(R.FileIOAt, "a.c:9:3");
  ASSERT_EQ(R.Externals.size(), 1u);
  EXPECT_EQ(R.Externals[0].Symbol, "step");
  ASSERT_EQ(R.Kernels.size(), 1u);
  ASSERT_EQ(R.Kernels[0].Accesses.size(), 2u);
  const AccessInfo &W = R.Kernels[0].Accesses[0], &G = R.Kernels[0].Accesses[1];
  EXPECT_EQ(W.Field, 1u);
  EXPECT_TRUE(W.IsWrite);
  EXPECT_TRUE(G.IsGather);
  EXPECT_FALSE(G.InVectorizableLoop);
  EXPECT_EQ(G.Position, 4);
  // The same plan from the JSON as from the unit itself.
  EXPECT_EQ(mergeUnits({*Back}, {}).Records[0].notation(),
            mergeUnits({U}, {}).Records[0].notation());
}

TEST(WholeProgramTest, BadJsonNamesThePath) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(
      R"({"format": "dlopt-plan", "version": 1, "cache_line": 64,
          "model": "m", "records": [{"name": "P", "location": "x",
          "size": 8, "fields": [{"name": "a", "size": "4"}]}]})");
  ASSERT_TRUE(bool(V));
  llvm::Expected<LayoutPlan> P = planFromJson(*V);
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "expected uint64_t at plan.records[0].fields[0].size");
  V = llvm::json::parse(R"({"format": "other", "version": 1})");
  P = planFromJson(*V);
  ASSERT_FALSE(bool(P));
  llvm::consumeError(P.takeError());
}

} // namespace
