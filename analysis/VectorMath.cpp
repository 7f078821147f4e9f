//===- VectorMath.cpp - Math functions a vectorized loop can call ---------===//
//
// See VectorMath.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/VectorMath.h"
#include "analysis/AstUtil.h"
#include "analysis/StackSpace.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace dlopt {
namespace {

/// The double versions with a vector form: glibc's libmvec (2.35 and
/// later, x86-64), then what gcc emits as instructions.
const llvm::StringSet<> &vectorForms() {
  static const llvm::StringSet<> Names = {
      "acos", "acosh",     "asin",    "asinh", "atan",  "atan2", "atanh",
      "cbrt", "cos",       "cosh",    "erf",   "erfc",  "exp",   "exp10",
      "exp2", "expm1",     "hypot",   "log",   "log10", "log1p", "log2",
      "pow",  "sin",       "sinh",    "tan",   "tanh",  "sqrt",  "fma",
      "fabs", "fmin",      "fmax",    "floor", "ceil",  "trunc", "round",
      "rint", "nearbyint", "copysign"};
  return Names;
}

StringRef nameOf(unsigned BuiltinID, const ASTContext &Ctx) {
  StringRef Name = Ctx.BuiltinInfo.getName(BuiltinID);
  Name.consume_front("__builtin_");
  return Name;
}

/// The builtin \p FD is, or that it returns called on its one parameter:
/// C++'s std::cos(float) is `{ return __builtin_cosf(__x); }` in <cmath>.
unsigned mathBuiltin(const FunctionDecl *FD, const ASTContext &Ctx) {
  if (!FD)
    return 0;
  if (unsigned ID = FD->getBuiltinID())
    return ID;
  const FunctionDecl *Definition = nullptr;
  const auto *Body = FD->getNumParams() == 1 && FD->hasBody(Definition)
                         ? dyn_cast_or_null<CompoundStmt>(Definition->getBody())
                         : nullptr;
  if (!Body || Body->size() != 1 ||
      !inSystemHeader(Ctx.getSourceManager(), Definition->getLocation()))
    return 0;
  const auto *Return = dyn_cast<ReturnStmt>(Body->body_front());
  const auto *Inner =
      Return && Return->getRetValue()
          ? dyn_cast<CallExpr>(Return->getRetValue()->IgnoreParenImpCasts())
          : nullptr;
  const FunctionDecl *Callee = Inner ? Inner->getDirectCallee() : nullptr;
  if (!Callee || Inner->getNumArgs() != 1 ||
      varOf(Inner->getArg(0)) != Definition->getParamDecl(0))
    return 0;
  return Callee->getBuiltinID();
}

/// sin or cos of one precision: "sin"/"cos" and the suffix ("", "f", "l").
std::optional<std::pair<bool, StringRef>> sinOrCos(const CallExpr *Call,
                                                   const ASTContext &Ctx) {
  unsigned ID = mathBuiltin(Call->getDirectCallee(), Ctx);
  if (!ID || Call->getNumArgs() != 1)
    return std::nullopt;
  StringRef Name = nameOf(ID, Ctx);
  bool IsSin = Name.starts_with("sin");
  StringRef Suffix = Name.drop_front(3);
  if ((!IsSin && !Name.starts_with("cos")) ||
      !(Suffix.empty() || Suffix == "f" || Suffix == "l"))
    return std::nullopt;
  return std::make_pair(IsSin, Suffix);
}

struct TrigCall {
  bool IsSin;
  StringRef Suffix;
  llvm::FoldingSetNodeID Argument;
};

void collectTrigCalls(const Stmt *S, const ASTContext &Ctx,
                      llvm::SmallVectorImpl<TrigCall> &Out) {
  if (!S)
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (auto Kind = sinOrCos(Call, Ctx)) {
      TrigCall T{Kind->first, Kind->second, {}};
      Call->getArg(0)->IgnoreParenImpCasts()->Profile(T.Argument, Ctx,
                                                      /*Canonical=*/true);
      Out.push_back(std::move(T));
    }
  for (const Stmt *Child : subStatements(S))
    withStackSpace([&] { collectTrigCalls(Child, Ctx, Out); });
}

} // namespace

bool hasVectorForm(unsigned BuiltinID, const ASTContext &Ctx) {
  StringRef Name = nameOf(BuiltinID, Ctx);
  // "erf" is double, "erff" float; long double ("expl") has none.
  return vectorForms().contains(Name) ||
         (Name.consume_back("f") && vectorForms().contains(Name));
}

bool callsSinAndCosOfOneValue(const Stmt *Body, const ASTContext &Ctx) {
  llvm::SmallVector<TrigCall, 4> Calls;
  collectTrigCalls(Body, Ctx, Calls);
  for (const TrigCall &A : Calls)
    for (const TrigCall &B : Calls)
      if (A.IsSin && !B.IsSin && A.Suffix == B.Suffix &&
          A.Argument == B.Argument)
        return true;
  return false;
}

} // namespace dlopt
