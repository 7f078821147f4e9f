//===- StackSpace.h - Deep ASTs walked within the stack ---------*- C++ -*-===//
//
// A sum of 15,000 terms is a binary tree 15,000 levels deep, and a recursive
// walk of it takes a stack frame per level: with 8 MiB of stack the walk
// crashes before it reaches the leaves. Two defences, as clang has them:
//
// - withStackSpace() goes around each step of a recursive walk. When the
//   thread's stack is nearly used up it runs the step on a new thread's
//   stack (clang::runWithSufficientStackSpace, which Sema uses for deep
//   template instantiation), so a walk goes as deep as the AST does. This
//   needs the bottom of the thread's stack noted (clang::noteBottomOfStack:
//   clang's driver notes its main thread's, runOnLargeStack() its own);
//   where it is not, the check is skipped.
// - runOnLargeStack() runs a whole translation unit's work (parse, analysis,
//   rewrite) on a thread with a large stack, for the recursion that checks
//   nothing: clang's parser and constant evaluator, and the walks that are
//   not wrapped.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_STACKSPACE_H
#define DLOPT_ANALYSIS_STACKSPACE_H

#include "clang/Basic/Stack.h"
#include "llvm/Support/thread.h"
#include <optional>
#include <type_traits>

namespace dlopt {

/// Calls \p F and returns what it returns, on a new stack if this thread's
/// is nearly exhausted.
template <typename Fn> auto withStackSpace(Fn &&F) -> decltype(F()) {
  using Result = decltype(F());
  if constexpr (std::is_void_v<Result>) {
    clang::runWithSufficientStackSpace([] {}, F);
  } else {
    std::optional<Result> R;
    clang::runWithSufficientStackSpace([] {}, [&] { R.emplace(F()); });
    return std::move(*R);
  }
}

/// The stack of the threads runOnLargeStack() starts: a 100,000-term sum
/// takes clang's parser about 12 MiB. Only the pages used are ever touched.
constexpr unsigned LargeStackSize = 256u << 20;

/// Calls \p F on a new thread with a LargeStackSize stack, its bottom noted
/// for withStackSpace(), and waits for it.
template <typename Fn> void runOnLargeStack(Fn &&F) {
  llvm::thread T(std::optional<unsigned>(LargeStackSize), [&] {
    clang::noteBottomOfStack();
    F();
  });
  T.join();
}

} // namespace dlopt

#endif
