//===- AnalyzerTest.cpp - The pipeline on small C and C++ sources ---------===//
#include "analysis/Analyzer.h"
#include "analysis/AccessCollector.h"
#include "analysis/Candidates.h"
#include "analysis/SkippedCode.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace dlopt;

namespace {

LayoutPlan analyze(const std::string &Code,
                   std::vector<std::string> Args = {"-std=c11"},
                   const char *File = "input.c") {
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(Code, Args, File);
  EXPECT_TRUE(AST);
  EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  return analyzeTranslationUnit(AST->getASTContext(), AnalysisOptions()).Plan;
}

const RecordPlan &record(const LayoutPlan &P, llvm::StringRef Name) {
  for (const RecordPlan &R : P.Records)
    if (R.Name == Name)
      return R;
  ADD_FAILURE() << "no record " << Name.str();
  static RecordPlan None;
  return None;
}

unsigned field(const RecordPlan &R, llvm::StringRef Name) {
  for (unsigned F = 0; F < R.Fields.size(); ++F)
    if (R.Fields[F].Name == Name)
      return F;
  ADD_FAILURE() << "no field " << Name.str();
  return 0;
}

const char *Prelude = "void *malloc(unsigned long);\n"
                      "void *calloc(unsigned long, unsigned long);\n"
                      "void *realloc(void *, unsigned long);\n"
                      "void free(void *);\n"
                      "void *memcpy(void *, const void *, unsigned long);\n"
                      "int printf(const char *, ...);\n";

// The paper's example, written as C: a and b read in a 32-iteration loop,
// c after it, d never.
TEST(AnalyzerTest, PaperExampleFromSource) {
  LayoutPlan P = analyze(R"(
    struct S { float a, b, c, d; };
    static float kernel(struct S *s) {
      float acc = 0;
      for (int i = 0; i < 32; ++i)
        acc = acc + s[i].a * s[i].b;
      return acc + s[0].c;
    }
  )");
  const RecordPlan &R = record(P, "S");
  ASSERT_TRUE(R.transformable());
  const Kdlg &G = R.Graph;
  unsigned A = field(R, "a"), B = field(R, "b"), C = field(R, "c"),
           D = field(R, "d");
  EXPECT_EQ(G.delta(A, B), 4);
  EXPECT_EQ(G.delta(C, B), 252);
  EXPECT_EQ(G.delta(C, A), 256);
  EXPECT_EQ(G.delta(D, A), InfiniteDistance);
  EXPECT_FALSE(G.accessed(D));
  ASSERT_EQ(R.Kernels.size(), 1u);
  EXPECT_EQ(R.Kernels[0].Name, "kernel");
  ASSERT_EQ(R.Kernels[0].Loops.size(), 1u);
  EXPECT_EQ(R.Kernels[0].Loops[0].TripCount, 32);
  EXPECT_EQ(R.Kernels[0].Loops[0].TripSource, "constant");
  // The partition; the layouts are the model's (DecisionTreeTest).
  std::vector<std::vector<unsigned>> Clusters;
  for (const ClusterPlan &C : R.Clusters)
    Clusters.push_back(C.Fields.Fields);
  EXPECT_EQ(Clusters, (std::vector<std::vector<unsigned>>{{A, B}, {C}, {D}}));
}

TEST(AnalyzerTest, TripCounts) {
  LayoutPlan P = analyze(R"(
    #define N 100
    enum { M = 7 };
    const int K = 12;
    struct P { double x, y; };
    static struct P g[4096];
    static void k(struct P *p, int n) {
      for (int i = 0; i < N; ++i) p[i].x = 0;          /* 100 */
      for (int i = 1; i <= M; i += 2) p[i].x = 0;      /* 1,3,5,7: 4 */
      for (int i = K; i > 0; i--) p[i].x = 0;          /* 12 */
      for (int i = 0; i < n; ++i) g[i].y = p[i].x;     /* g's length */
      for (int i = 0; i < n; ++i) p[i].y = 1;          /* unknown */
      int j = 0;
      while (j < n) { p[j].x = 2; ++j; }              /* unknown */
    }
  )");
  const RecordPlan &R = record(P, "P");
  ASSERT_EQ(R.Kernels.size(), 1u);
  const std::vector<LoopInfo> &L = R.Kernels[0].Loops;
  ASSERT_EQ(L.size(), 6u);
  EXPECT_EQ(L[0].TripCount, 100);
  EXPECT_EQ(L[1].TripCount, 4);
  EXPECT_EQ(L[2].TripCount, 12);
  EXPECT_EQ(L[3].TripCount, 4096);
  EXPECT_EQ(L[3].TripSource, "array length");
  EXPECT_EQ(L[4].TripCount, 512e3);
  EXPECT_EQ(L[4].TripSource, "heuristic");
  EXPECT_EQ(L[5].TripCount, 512e3);
}

// A loop that halves a range (a binary search, a bisection, a counter
// halved) runs about log2 of it; a loop that steps a bound, or sets it to
// anything else, is an ordinary loop.
TEST(AnalyzerTest, HalvingLoopsRunLog2OfTheirRange) {
  LayoutPlan P = analyze(R"(
    struct P { double e, x; };
    static long search(struct P *g, long n, double q, double dt, long w) {
      long lower = 0, upper = n - 1;
      while (upper - lower > 1) {                   /* halving */
        long mid = lower + (upper - lower) / 2;
        if (g[mid].e > q) upper = mid; else lower = mid;
      }
      long lo = 0, hi = n;
      while (lo < hi) {                              /* halving */
        long m = (lo + hi) >> 1;
        if (g[m].e < q) lo = m + 1; else hi = m;
      }
      long length = n, base = 0;
      while (length > 1) {                           /* halving */
        long half = length / 2;
        if (g[base + half].e <= q) base += half;
        length -= half;
      }
      for (long len = n; len > 0; len /= 2) g[len].x = 0; /* halving */
      long lowerLimit = 0, upperLimit = n, span = n;
      while (span > 1) {                             /* halving (XSBench) */
        long examinationPoint = lowerLimit + (span / 2);
        if (g[examinationPoint].e > q) upperLimit = examinationPoint;
        else lowerLimit = examinationPoint;
        span = upperLimit - lowerLimit;
      }
      long a = 0, b = n;
      while (a < b) {                                /* a step: not one */
        long m = (a + b) / 2;
        g[m].x += 1;
        ++a;
      }
      while (a < b) {                                /* another value */
        g[a].x = (a + b) / 2;
        b = g[a].e > q ? a : b - 1;
      }
      for (double t = 0; t < q; t += dt / 2)         /* a constant step */
        g[0].x += t;
      long k = 0;
      while (k < n) {                                /* a constant step */
        g[k].x = 0;
        k += w / 2;
      }
      return lower + lo + base + lowerLimit;
    }
  )");
  const RecordPlan &R = record(P, "P");
  ASSERT_EQ(R.Kernels.size(), 1u);
  const std::vector<LoopInfo> &L = R.Kernels[0].Loops;
  ASSERT_EQ(L.size(), 9u);
  for (unsigned I = 0; I < 5; ++I) {
    EXPECT_EQ(L[I].TripCount, 19) << "loop " << I;
    EXPECT_EQ(L[I].TripSource, "halving") << "loop " << I;
  }
  for (unsigned I = 5; I < 9; ++I)
    EXPECT_EQ(L[I].TripSource, "heuristic") << "loop " << I;
}

TEST(AnalyzerTest, OpenMPParallelForCountsAsTheArray) {
  LayoutPlan P = analyze(R"(
    struct P { float x, y; };
    static struct P a[2048];
    static void k(int n) {
      #pragma omp parallel for
      for (int i = 0; i < n; ++i) a[i].x += a[i].y;
    }
    static void k2(struct P *p, int n) {
      #pragma omp parallel for
      for (int i = 0; i < n; ++i) p[i].x += 1;
    }
  )",
                         {"-std=c11", "-fopenmp"});
  const RecordPlan &R = record(P, "P");
  ASSERT_EQ(R.Kernels.size(), 2u);
  ASSERT_EQ(R.Kernels[0].Loops.size(), 1u);
  EXPECT_EQ(R.Kernels[0].Loops[0].TripCount, 2048);
  EXPECT_EQ(R.Kernels[0].Loops[0].TripSource, "openmp over array");
  EXPECT_EQ(R.Kernels[1].Loops[0].TripCount, 1e6);
  EXPECT_EQ(R.Kernels[1].Loops[0].TripSource, "openmp over array");
}

TEST(AnalyzerTest, NestedLoopsAndBranchesInSource) {
  LayoutPlan P = analyze(R"(
    struct Q { int a, b, c, d; };
    static void k(struct Q *q, int n) {
      for (int i = 0; i < n; ++i) {
        int s = q[i].a;
        for (int j = 0; j < 10; ++j)
          s += q[j].b;              /* 10 x 4 B between a and c */
        if (s > 0)
          q[i].c = s;
        else
          q[i].d = s;
      }
    }
  )");
  const RecordPlan &R = record(P, "Q");
  const Kdlg &G = R.Graph;
  EXPECT_EQ(G.delta(field(R, "a"), field(R, "b")), 4);
  EXPECT_EQ(G.delta(field(R, "a"), field(R, "c")), 44);
  EXPECT_EQ(G.delta(field(R, "a"), field(R, "d")), 44);
  EXPECT_EQ(G.delta(field(R, "c"), field(R, "d")), 0); // Alternatives.
  ASSERT_EQ(R.Kernels.size(), 1u);
  const KernelSummary &K = R.Kernels[0];
  ASSERT_EQ(K.Loops.size(), 2u);
  EXPECT_EQ(K.Loops[1].Depth, 2u);
  ASSERT_EQ(K.Accesses.size(), 4u);
  EXPECT_FALSE(K.Accesses[0].IsWrite);
  EXPECT_EQ(K.Accesses[1].LoopDepth, 2u);
  EXPECT_TRUE(K.Accesses[2].IsWrite);
  // The loops are numbered in the order of the accesses: a and the branch's
  // c and d in the outer loop's body, b in the inner one.
  EXPECT_EQ(K.Accesses[0].Loop, 0u);
  EXPECT_EQ(K.Accesses[1].Loop, 1u);
  EXPECT_EQ(K.Accesses[2].Loop, 0u);
  EXPECT_EQ(K.Accesses[3].Loop, 0u);
}

TEST(AnalyzerTest, CandidateKinds) {
  LayoutPlan P = analyze(std::string(Prelude) + R"(
    struct G { int v; };  struct G garr[8];
    struct S { int v; };  static struct S sarr[8];
    struct L { int v; };
    struct M { int v; };  struct C { int v; };  struct R { int v; };
    struct F { int v; };
    struct Unused { int v; }; struct Unused notInLoop[4];
    static int use(struct F *f, int n) {
      int t = 0;
      for (int i = 0; i < n; ++i) t += f[i].v;
      return t;
    }
    int main(void) {
      struct L larr[4];
      static struct S *unusedPtr;
      struct M *m = malloc(4 * sizeof(struct M));
      struct C *c = (struct C *)calloc(4, sizeof *c);
      struct R *r = 0;
      r = realloc(r, sizeof(struct R) * 4);
      int t = notInLoop[0].v;
      for (int i = 0; i < 4; ++i)
        t += garr[i].v + sarr[i].v + (larr[i].v = i) + m[i].v + c[i].v + r[i].v;
      free(m); free(c); free(r);
      return t;
    }
  )");
  std::vector<std::string> Names;
  for (const RecordPlan &R : P.Records)
    Names.push_back(R.Name + ":" + R.Arrays[0].Kind);
  EXPECT_EQ(Names, (std::vector<std::string>{
                       "G:global array", "S:static array", "L:local array",
                       "M:malloc", "C:calloc", "R:realloc", "F:parameter"}));
  EXPECT_EQ(record(P, "G").Arrays[0].Length, 8u);
  for (const RecordPlan &R : P.Records)
    EXPECT_TRUE(R.transformable()) << R.Name << ": " << R.Blockers[0].Reason;
}

TEST(AnalyzerTest, NewArrayInCpp) {
  LayoutPlan P = analyze(R"(
    struct V { float x, y; };
    static float sum(int n) {
      V *v = new V[n];
      float s = 0;
      for (int i = 0; i < n; ++i) s += v[i].x;
      delete[] v;
      return s;
    }
  )",
                         {"-std=c++17"}, "input.cpp");
  ASSERT_EQ(P.Records.size(), 1u);
  EXPECT_EQ(P.Records[0].Arrays[0].Kind, "new[]");
  EXPECT_TRUE(P.Records[0].transformable());
}

TEST(AnalyzerTest, GathersAreTold) {
  LayoutPlan P = analyze(R"(
    struct E { float a, b; };
    static void k(struct E *e, const int *idx, int n) {
      for (int i = 0; i < n; ++i) {
        int j = i + 1;
        int k = idx[i];
        e[i].a = e[2 * i + 1].b + e[j].a;  /* affine */
        e[k].b = e[idx[i]].a;               /* gathers */
      }
    }
  )");
  ASSERT_EQ(record(P, "E").Kernels.size(), 1u);
  const KernelSummary &K = record(P, "E").Kernels[0];
  ASSERT_EQ(K.Accesses.size(), 5u);
  EXPECT_FALSE(K.Accesses[0].IsGather); // e[2*i+1].b
  EXPECT_FALSE(K.Accesses[1].IsGather); // e[j].a
  EXPECT_FALSE(K.Accesses[2].IsGather); // e[i].a =
  EXPECT_TRUE(K.Accesses[3].IsGather);  // e[idx[i]].a
  EXPECT_TRUE(K.Accesses[4].IsGather);  // e[k].b =
}

// A function without loops runs in its callers' loops: an element at a
// position its arguments give (what the caller steps) is no gather; one at
// a position computed from data (a search's result, a loaded index) is.
TEST(AnalyzerTest, GathersInFunctionsWithoutLoops) {
  LayoutPlan P = analyze(R"(
    struct G { double e, x; };
    struct S { long n; struct G *grid; };
    static long find(const struct G *g, long n, double q);
    static double at(const struct S *s, int nuc, long i) {
      const struct G *p = &s->grid[nuc * s->n + i];
      return p->x + s->grid[i + 1].e;              /* arguments */
    }
    static double lookup(const struct S *s, int nuc, double q,
                         const int *idx) {
      long k = find(&s->grid[nuc * s->n], s->n, q);
      const struct G *low = &s->grid[nuc * s->n + k];
      const struct G *high = low + 1;
      return low->x + high->x + s->grid[idx[nuc]].e; /* data */
    }
    static long find(const struct G *g, long n, double q) {
      long lo = 0, hi = n - 1;
      while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (g[mid].e > q) hi = mid; else lo = mid;
      }
      return lo;
    }
    double run(const struct S *s, const int *idx, int m) {
      double t = 0;
      for (int j = 0; j < m; ++j)
        t += at(s, j % 7, j) + lookup(s, j % 7, 0.5 * j, idx);
      return t;
    }
    /* A program: S, which holds G's elements, keeps no outside callers. */
    int main(void) { return run(0, 0, 0) > 0; }
  )");
  const RecordPlan &R = record(P, "G");
  auto Kernel = [&](llvm::StringRef Name) -> const KernelSummary & {
    for (const KernelSummary &K : R.Kernels)
      if (K.Name == Name)
        return K;
    ADD_FAILURE() << "no kernel " << Name.str();
    return R.Kernels.front();
  };
  const KernelSummary &At = Kernel("at");
  ASSERT_EQ(At.Accesses.size(), 2u);
  EXPECT_FALSE(At.Accesses[0].IsGather); // p->x
  EXPECT_FALSE(At.Accesses[1].IsGather); // s->grid[i + 1].e
  const KernelSummary &Lookup = Kernel("lookup");
  ASSERT_EQ(Lookup.Accesses.size(), 3u);
  EXPECT_TRUE(Lookup.Accesses[0].IsGather); // low->x
  EXPECT_TRUE(Lookup.Accesses[1].IsGather); // high->x
  EXPECT_TRUE(Lookup.Accesses[2].IsGather); // s->grid[idx[nuc]].e
}

// The same for a std::vector's elements: v[i] at an argument's index is
// no gather in a function without loops.
TEST(AnalyzerTest, VectorElementsInFunctionsWithoutLoops) {
  LayoutPlan P = analyze(R"(
    #include <vector>
    struct E { float x, vx; };
    static void step(std::vector<E> &v, int i) { v[i].x += v[i].vx; }
    static float pick(std::vector<E> &v, const std::vector<int> &idx,
                      int i) { return v[idx[i]].x; }
    float run(std::vector<E> &v, const std::vector<int> &idx) {
      float s = 0;
      for (int i = 0; i < (int)v.size(); ++i) {
        step(v, i);
        s += pick(v, idx, i) + v[i].vx;
      }
      return s;
    }
  )",
                         {"-std=c++17"}, "input.cpp");
  const RecordPlan &R = record(P, "E");
  for (const KernelSummary &K : R.Kernels) {
    if (K.Name != "step" && K.Name != "pick")
      continue;
    ASSERT_FALSE(K.Accesses.empty()) << K.Name;
    for (const auto &A : K.Accesses)
      EXPECT_EQ(A.IsGather, K.Name == "pick") << K.Name;
  }
}

// A value class's own member functions (x += o.x in operator+=) reach the
// caller's object, not an array: a caller holding an element counts every
// field of it at the call (pu[p] += a streams both fields of pu), and the
// operator is no kernel of its own (it was one, its accesses gathers
// through `this`, run once per call: the heaviest kernel of a mesh code).
TEST(AnalyzerTest, MemberFunctionsOfTheRecordAreCountedAtTheirCalls) {
  LayoutPlan P = analyze(R"(
    struct V {
      double x, y;
      V &operator+=(const V &o) { x += o.x; y += o.y; return *this; }
      double norm() const { return x * x + this->y * y; }
    };
    static double step(V *pu, const V *pf, int n) {
      double s = 0;
      for (int p = 0; p < n; ++p) {
        pu[p] += pf[p];
        s += pu[p].norm();
      }
      return s;
    }
    int main() {
      V *pu = new V[64], *pf = new V[64];
      double s = step(pu, pf, 64);
      delete[] pu;
      delete[] pf;
      return s > 0;
    }
  )",
                         {"-std=c++17"}, "input.cpp");
  const RecordPlan &R = record(P, "V");
  std::vector<std::string> Names;
  for (const KernelSummary &K : R.Kernels)
    Names.push_back(K.Name);
  ASSERT_EQ(Names, std::vector<std::string>{"step"});
  const KernelSummary &Step = R.Kernels.front();
  // pf[p] read, pu[p] read and written, pu[p] read by norm(): 2 fields each.
  ASSERT_EQ(Step.Accesses.size(), 8u);
  for (const AccessInfo &A : Step.Accesses) {
    EXPECT_FALSE(A.IsGather);
    EXPECT_EQ(A.LoopDepth, 1u);
  }
}

// A __kernel body runs once per work-item: an implicit loop over the
// NDRange, indexed by get_global_id() like a loop variable.

// Fields the significant kernels reach once per element over the run (a
// loop that initializes them, in a function called once) while a time-step
// loop reaches others pass after pass keep the record's layout: a new one
// could only change that one pass. A field reached in the time-step loop
// too is the model's to decide.
TEST(AnalyzerTest, SetUpFieldsKeepTheirLayout) {
  const char *Code = R"(
    #include <stdlib.h>
    struct Cell { double a, b, c, mass, charge, spin; };
    static void init(struct Cell *cs, long n) {
      for (long i = 0; i < n; ++i) {
        cs[i].a = 0; cs[i].b = i; cs[i].c = 0.5 * i;
        cs[i].mass = 1; cs[i].charge = -1; cs[i].spin = 0.5;
      }
    }
    static void triad(struct Cell *cs, long n, double s) {
      for (long i = 0; i < n; ++i)
        cs[i].a = cs[i].b + s * cs[i].c USE;
    }
    int main(void) {
      long n = 1000000;
      struct Cell *cs = malloc(n * sizeof *cs);
      init(cs, n);
      for (int r = 0; r < 4; ++r)
        triad(cs, n, 3.0);
      int ok = cs[7].a > 0;
      free(cs);
      return ok;
    }
  )";
  auto Plan = [&](const std::string &Use) {
    std::string Source = Code;
    Source.replace(Source.find("USE"), 3, Use);
    return analyze(Source);
  };
  auto SetUp = [](const ClusterPlan &C) {
    return llvm::any_of(C.Why, [](const std::string &W) {
      return llvm::StringRef(W).starts_with("set-up data");
    });
  };
  LayoutPlan P = Plan("");
  const RecordPlan &R = record(P, "Cell");
  ASSERT_EQ(R.Clusters.size(), 2u);
  EXPECT_EQ(R.fieldSet(R.Clusters[1].Fields), "{mass,charge,spin}");
  EXPECT_EQ(R.Clusters[1].Chosen, Layout::aos());
  EXPECT_TRUE(SetUp(R.Clusters[1]));
  EXPECT_FALSE(SetUp(R.Clusters[0]));

  // mass read in the time-step loop too: the model decides for it; charge
  // and spin stay set-up data.
  LayoutPlan Q = Plan("* cs[i].mass");
  const RecordPlan &S = record(Q, "Cell");
  for (const ClusterPlan &C : S.Clusters)
    EXPECT_EQ(SetUp(C), S.fieldSet(C.Fields) == "{charge,spin}")
        << S.fieldSet(C.Fields);
}
TEST(AnalyzerTest, OpenCLKernels) {
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(
          R"(
    struct Particle { float x, y, vx, vy; };
    __kernel void move(__global struct Particle *p, float dt) {
      size_t i = get_global_id(0);
      p[i].x += dt * p[i].vx;
    }
    __kernel void sample(__global const struct Particle *p,
                         __global const int *idx, __global float *out) {
      size_t i = get_global_id(0);
      out[i] = p[idx[i]].y;
    }
  )",
          {"-x", "cl", "-cl-std=CL2.0", "-Xclang", "-finclude-default-header"},
          "kernel.cl");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  clang::ASTContext &Ctx = AST->getASTContext();
  std::vector<CandidateRecord> Candidates = findCandidates(Ctx);
  ASSERT_EQ(Candidates.size(), 1u);
  AccessCollector Collector(Ctx, {Candidates[0].Decl});
  std::vector<KernelTrace> Kernels = Collector.collect();
  ASSERT_EQ(Kernels.size(), 2u);
  for (const KernelTrace &K : Kernels) {
    ASSERT_EQ(K.Loops.size(), 1u);
    EXPECT_EQ(K.Loops[0].TripSource, "NDRange");
    EXPECT_EQ(K.Loops[0].TripCount, WholeArrayTrips);
  }
  std::vector<PlacedAccess> Move = Kernels[0].Trace.place();
  ASSERT_EQ(Move.size(), 2u); // vx, then x updated in place.
  EXPECT_EQ(Move[0].Access.Field, Collector.fieldId(Candidates[0].Decl, 2));
  EXPECT_FALSE(Move[0].Access.IsGather);
  EXPECT_TRUE(Move[1].Access.IsWrite);
  std::vector<PlacedAccess> Sample = Kernels[1].Trace.place();
  // idx[i] (other memory), p[idx[i]].y (a gather), out[i] (other memory).
  ASSERT_EQ(Sample.size(), 3u);
  EXPECT_EQ(Sample[1].Access.Field, Collector.fieldId(Candidates[0].Decl, 1));
  EXPECT_TRUE(Sample[1].Access.IsGather);
  EXPECT_EQ(Sample[2].Access.Field, MemoryAccess::NoField);
}

TEST(AnalyzerTest, BlockedRecordsGetNoPlan) {
  LayoutPlan P = analyze(std::string(Prelude) + R"(
    struct B { int v, w; };
    int main(void) {
      struct B *a = malloc(8 * sizeof(struct B)), *b = malloc(8 * sizeof(struct B));
      int t = 0;
      for (int i = 0; i < 8; ++i) t += a[i].v;
      memcpy(b, a, 8 * sizeof(struct B));
      printf("%p\n", (void *)a);
      return t + b[0].w;
    }
  )");
  const RecordPlan &R = record(P, "B");
  EXPECT_FALSE(R.transformable());
  EXPECT_TRUE(R.Clusters.empty());
  EXPECT_TRUE(R.Kernels.empty());
  std::vector<std::string> Reasons;
  for (const Blocker &B : R.Blockers)
    Reasons.push_back(B.Reason);
  // (The memcpy of whole elements is rewritten per array.)
  EXPECT_EQ(Reasons, (std::vector<std::string>{
                         "'B' array passed to the variadic part of 'printf'"}));
}
// A header shared by OpenCL kernel files and host files: which side builds
// each place, from the conditionals on the OpenCL compiler's macros alone.
TEST(SkippedCodeTest, OpenCLSideOfAPlace) {
  std::string Text = "int both;\n"
                     "#ifdef __OPENCL_VERSION__\nint kernels;\n"
                     "#else\nint host;\n#endif\n"
                     "#if !defined(__OPENCL_C_VERSION__) // host\nint host2;\n"
                     "#endif\n"
                     "#if defined(__OPENCL_VERSION__) || defined(X)\nint k2;\n"
                     "#endif\n"
                     "#ifdef GUI\nint gui;\n#endif\n";
  auto At = [&](const char *Word) {
    return openCLSideAt(Text, Text.find(Word));
  };
  EXPECT_EQ(At("both"), ProgramSide::Both);
  EXPECT_EQ(At("kernels"), ProgramSide::Kernels);
  EXPECT_EQ(At("host;"), ProgramSide::Host);
  EXPECT_EQ(At("host2"), ProgramSide::Host);
  EXPECT_EQ(At("k2"), ProgramSide::Both); // Another macro too.
  EXPECT_EQ(At("gui"), ProgramSide::Both);
}

} // namespace
