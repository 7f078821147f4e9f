//===- CallFrequencies.cpp - How often functions run, from their calls ----===//
//
// See CallFrequencies.h. Frequencies are kept as shares per entry point, so
// that one walk over the unit's call graph gives both the unit's count and
// what the program's merge needs to scale it.
//
//===----------------------------------------------------------------------===//
#include "analysis/CallFrequencies.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Mangle.h"

using namespace clang;
using namespace dlopt;

std::string dlopt::callableName(const FunctionDecl *FD) {
  if (!FD || FD->isMain() || !FD->isExternallyVisible())
    return "";
  ASTNameGenerator Names(FD->getASTContext());
  return Names.getName(FD);
}

void CallFrequencies::addCaller(const FunctionDecl *Caller,
                                const CallCounts &Calls) {
  for (const auto &[Callee, Executions] : Calls)
    Callers[Callee].push_back({Caller->getCanonicalDecl(), Executions});
}

bool CallFrequencies::called(const FunctionDecl *FD) const {
  return Callers.count(FD->getCanonicalDecl()) > 0;
}

CallFrequencies::Shares CallFrequencies::sharesOf(const FunctionDecl *FD) {
  FD = FD->getCanonicalDecl();
  if (auto It = Done.find(FD); It != Done.end())
    return It->second;
  auto It = Callers.find(FD);
  if (It == Callers.end())
    return Done[FD] = {{FD, 1.0}};
  if (!InProgress.insert(FD).second)
    return {};
  // Copied: the recursion below may grow Callers' buckets.
  auto Sites = It->second;
  llvm::DenseMap<const FunctionDecl *, double> Sum;
  Shares Out;
  for (const auto &[Caller, Executions] : Sites)
    for (const auto &[Entry, Runs] : sharesOf(Caller)) {
      auto [At, New] = Sum.try_emplace(Entry, Out.size());
      if (New)
        Out.push_back({Entry, 0.0});
      Out[At->second].second += Runs * Executions;
    }
  InProgress.erase(FD);
  // Called only from its own cycle: it runs at least once.
  if (Out.empty())
    Out.push_back({FD, 1.0});
  return Done[FD] = Out;
}

double CallFrequencies::of(const FunctionDecl *FD) {
  double Frequency = 0;
  for (const auto &[Entry, Runs] : sharesOf(FD))
    Frequency += Runs;
  // Loops a profile measured as never running leave 0; the function is
  // still taken to run once, as a function called only from a cycle is.
  return std::max(Frequency, 1.0);
}

EntryShares CallFrequencies::entryShares(const FunctionDecl *FD) {
  EntryShares Out;
  for (const auto &[Entry, Runs] : sharesOf(FD))
    Out[callableName(Entry)] += Runs;
  return Out;
}
