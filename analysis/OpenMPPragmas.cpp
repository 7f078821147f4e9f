//===- OpenMPPragmas.cpp - OpenMP clauses read as text --------------------===//
//
// See OpenMPPragmas.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/OpenMPPragmas.h"
#include "clang/Basic/CharInfo.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <optional>

using namespace clang;
using namespace dlopt;

OpenMPEffect dlopt::clauseEffect(llvm::omp::Clause K) {
  using llvm::omp::Clause;
  if (llvm::is_contained(
          {Clause::OMPC_map, Clause::OMPC_to, Clause::OMPC_from,
           Clause::OMPC_use_device_ptr, Clause::OMPC_use_device_addr,
           Clause::OMPC_is_device_ptr, Clause::OMPC_has_device_addr},
          K))
    return OpenMPEffect::Maps;
  if (llvm::is_contained({Clause::OMPC_private, Clause::OMPC_firstprivate,
                          Clause::OMPC_lastprivate, Clause::OMPC_reduction,
                          Clause::OMPC_task_reduction,
                          Clause::OMPC_in_reduction, Clause::OMPC_linear,
                          Clause::OMPC_copyin, Clause::OMPC_copyprivate},
                         K))
    return OpenMPEffect::Copies;
  return OpenMPEffect::None;
}

/// The identifier \p Text begins with, or "".
static llvm::StringRef leadingIdentifier(llvm::StringRef Text) {
  return Text.take_while([](char C) { return isAsciiIdentifierContinue(C); });
}

/// Splits \p List at the commas outside brackets and parentheses.
static std::vector<llvm::StringRef> topLevelItems(llvm::StringRef List) {
  std::vector<llvm::StringRef> Items;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < List.size(); ++I) {
    char C = List[I];
    Depth += (C == '(' || C == '[') - (C == ')' || C == ']');
    if (C == ',' && Depth == 0) {
      Items.push_back(List.slice(Start, I));
      Start = I + 1;
    }
  }
  Items.push_back(List.substr(Start));
  return Items;
}

/// The names a clause's argument lists: after its modifiers (`+ :`,
/// `tofrom:`), each item's variable or member (`a[0:n]` names a).
static std::vector<std::string> clauseNames(llvm::StringRef Args) {
  int Depth = 0;
  size_t Colon = llvm::StringRef::npos;
  for (size_t I = 0; I < Args.size(); ++I) {
    char C = Args[I];
    Depth += (C == '(' || C == '[') - (C == ')' || C == ']');
    if (C == ':' && Depth == 0)
      Colon = I;
  }
  if (Colon != llvm::StringRef::npos)
    Args = Args.substr(Colon + 1);
  std::vector<std::string> Names;
  for (llvm::StringRef Item : topLevelItems(Args)) {
    // The last name of `params.items[0:n]`, `s->grid`: the member.
    std::string Last;
    for (Item = Item.trim(); !Item.empty();) {
      llvm::StringRef Name = leadingIdentifier(Item);
      if (Name.empty())
        break;
      Last = Name.str();
      Item = Item.drop_front(Name.size()).ltrim();
      if (!Item.consume_front(".") && !Item.consume_front("->"))
        break;
      Item = Item.ltrim();
    }
    if (!Last.empty())
      Names.push_back(Last);
  }
  return Names;
}

/// Adds the names that \p Pragma, a `#pragma omp` line's text after `omp`,
/// gives copying or mapping clauses.
static void pragmaNames(llvm::StringRef Pragma, unsigned Line,
                        std::vector<OpenMPName> &Out) {
  // Tasks copy the arrays they use (firstprivate), target regions map them,
  // and so does a default of private copies, without naming them: every
  // array then counts (OpenMPName::Name "").
  llvm::SmallVector<llvm::StringRef, 8> Words;
  Pragma.split(Words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef W : Words) {
    W = leadingIdentifier(W);
    if (W == "task" || W == "taskloop" || W == "target")
      Out.push_back({"", W.str(), W == "target", Line});
  }
  std::string Compact;
  for (char C : Pragma)
    if (!llvm::isSpace(C))
      Compact += C;
  if (llvm::StringRef(Compact).contains("default(firstprivate)") ||
      llvm::StringRef(Compact).contains("default(private)"))
    Out.push_back({"", "default", false, Line});
  for (size_t I = 0; I < Pragma.size();) {
    if (!llvm::isAlpha(Pragma[I]) && Pragma[I] != '_') {
      ++I;
      continue;
    }
    llvm::StringRef Word = leadingIdentifier(Pragma.substr(I));
    size_t End = I + Word.size();
    size_t Open = End;
    while (Open < Pragma.size() && llvm::isSpace(Pragma[Open]))
      ++Open;
    I = End;
    if (Open >= Pragma.size() || Pragma[Open] != '(')
      continue;
    int Depth = 0;
    size_t Close = Open;
    for (; Close < Pragma.size(); ++Close) {
      Depth += (Pragma[Close] == '(') - (Pragma[Close] == ')');
      if (Depth == 0)
        break;
    }
    // The threadprivate directive lists its variables as a clause does.
    OpenMPEffect Effect =
        Word == "threadprivate"
            ? OpenMPEffect::Copies
            : clauseEffect(llvm::omp::getOpenMPClauseKind(Word));
    bool Maps = Effect == OpenMPEffect::Maps;
    if (Effect != OpenMPEffect::None)
      for (std::string &Name :
           clauseNames(Pragma.slice(Open + 1, std::min(Close, Pragma.size()))))
        Out.push_back({std::move(Name), Word.str(), Maps, Line});
    I = Close;
  }
}

std::optional<llvm::StringRef> dlopt::openMPPragmaText(llvm::StringRef Line) {
  Line = Line.ltrim();
  if (!Line.consume_front("#"))
    return std::nullopt;
  Line = Line.ltrim();
  if (!Line.consume_front("pragma") || Line.empty() || !llvm::isSpace(Line[0]))
    return std::nullopt;
  Line = Line.ltrim();
  if (!Line.consume_front("omp") || (!Line.empty() && !llvm::isSpace(Line[0])))
    return std::nullopt;
  return Line;
}

/// The string of a `_Pragma("...")` whose `_Pragma` \p After follows, if
/// it is spelled so.
static std::optional<llvm::StringRef> pragmaString(llvm::StringRef After) {
  After = After.ltrim();
  if (!After.consume_front("(") || !(After = After.ltrim()).consume_front("\""))
    return std::nullopt;
  return After.take_until([](char C) { return C == '"'; });
}

std::vector<OpenMPName> dlopt::openMPPragmaNames(const SourceManager &SM,
                                                 FileID File) {
  std::vector<OpenMPName> Out;
  llvm::StringRef Text = SM.getBufferData(File);
  unsigned Line = 0;
  while (!Text.empty()) {
    auto [Raw, Rest] = Text.split('\n');
    unsigned First = ++Line;
    std::string Joined = Raw.str();
    // A directive continues over lines ending in a backslash.
    while (llvm::StringRef(Joined).rtrim().ends_with("\\") && !Rest.empty()) {
      Joined = llvm::StringRef(Joined).rtrim().drop_back().str() + " ";
      auto [Next, After] = Rest.split('\n');
      Joined += Next.str();
      Rest = After;
      ++Line;
    }
    Text = Rest;
    // _Pragma("omp ...") anywhere on the line but in a comment.
    size_t Comment = Joined.find("//");
    for (size_t At = Joined.find("_Pragma"); At < Comment;
         At = Joined.find("_Pragma", At + 1)) {
      std::optional<llvm::StringRef> Body =
          pragmaString(llvm::StringRef(Joined).substr(At + 7));
      if (Body && Body->ltrim().consume_front("omp"))
        pragmaNames(Body->ltrim().drop_front(3), First, Out);
    }
    if (std::optional<llvm::StringRef> L = openMPPragmaText(Joined))
      pragmaNames(*L, First, Out);
  }
  return Out;
}

/// The OpenMP directive on the logical line \p Line, if any: its words
/// after `omp`; "?" for a lone identifier, perhaps with arguments, or a
/// line with a `_Pragma` that is not `omp` (a macro's definition may spell
/// more than it shows).
static std::optional<std::string> directiveOn(llvm::StringRef Line) {
  Line = Line.trim();
  if (size_t At = Line.find("_Pragma"); At != llvm::StringRef::npos) {
    std::optional<llvm::StringRef> Body = pragmaString(Line.substr(At + 7));
    if (Body && (Body = Body->ltrim())->consume_front("omp"))
      return Body->trim().str();
    return "?";
  }
  if (Line.starts_with("#")) {
    std::optional<llvm::StringRef> Words = openMPPragmaText(Line);
    return Words ? std::optional<std::string>(Words->trim().str())
                 : std::nullopt;
  }
  llvm::StringRef Name = leadingIdentifier(Line);
  llvm::StringRef Rest = Line.drop_front(Name.size()).trim();
  // `OMP_FOR`, `PARALLEL_FOR(dynamic)`; not the end of a condition split
  // over lines (`check(b))`), whose parentheses do not balance.
  int Depth = 0;
  for (char C : Rest)
    if ((Depth += (C == '(') - (C == ')')) < 0)
      break;
  bool Lone = Rest.empty() ||
              (Rest.starts_with("(") && Rest.ends_with(")") && Depth == 0);
  if (Name.empty() || llvm::isDigit(Name[0]) || !Lone ||
      llvm::is_contained(
          {"else", "do", "for", "while", "if", "switch", "return"}, Name))
    return std::nullopt;
  return "?";
}

std::vector<std::string> dlopt::openMPDirectivesBefore(const SourceManager &SM,
                                                       SourceLocation Loc) {
  std::vector<std::string> Out;
  auto [File, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
  llvm::StringRef Text = SM.getBufferData(File).substr(0, Offset);
  // What precedes the statement on its own line, but comments:
  // `OMP_FOR for (...)`, not `/* each point */ for (...)`.
  size_t LineStart = Text.rfind('\n') + 1;
  llvm::StringRef Prefix = Text.substr(LineStart).rtrim();
  while (Prefix.ends_with("*/") && Prefix.rfind("/*") != llvm::StringRef::npos)
    Prefix = Prefix.substr(0, Prefix.rfind("/*")).rtrim();
  if (!Prefix.trim().empty()) {
    if (std::optional<std::string> D = directiveOn(Prefix))
      Out.push_back(*D);
    return Out;
  }
  Text = Text.substr(0, LineStart);
  for (;;) {
    Text = Text.rtrim();
    if (Text.ends_with("*/")) {
      size_t Open = Text.rfind("/*");
      if (Open == llvm::StringRef::npos)
        break;
      Text = Text.substr(0, Open);
      continue;
    }
    // The last logical line: a directive continues over backslashes.
    size_t Start = Text.rfind('\n') + 1;
    while (Start > 1 &&
           Text.substr(0, Start - 1).rtrim(" \t\r").ends_with("\\"))
      Start = Text.substr(0, Start - 1).rfind('\n') + 1;
    std::string Line;
    for (llvm::StringRef Part : llvm::split(Text.substr(Start), '\n'))
      Line += Part.rtrim(" \t\r").rtrim('\\').str() + " ";
    llvm::StringRef L = llvm::StringRef(Line).trim();
    Text = Text.substr(0, Start);
    if (L.starts_with("//"))
      continue;
    if (size_t Comment = L.find("//"); Comment != llvm::StringRef::npos)
      L = L.substr(0, Comment).rtrim();
    std::optional<std::string> D = directiveOn(L);
    if (D)
      Out.push_back(*D);
    // Other directives (`#endif` of `#ifdef _OPENMP`, `#pragma GCC ivdep`)
    // may stand between; a statement ends the search.
    if (!L.starts_with("#"))
      break;
  }
  return Out;
}
