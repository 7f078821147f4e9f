//===- OpenMPPragmas.cpp - OpenMP clauses read as text --------------------===//
//
// See OpenMPPragmas.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/OpenMPPragmas.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace dlopt;

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
      size_t End = 0;
      while (End < Item.size() &&
             (llvm::isAlnum(Item[End]) || Item[End] == '_'))
        ++End;
      if (End == 0)
        break;
      Last = Item.take_front(End).str();
      Item = Item.drop_front(End).ltrim();
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
    W = W.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; });
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
  static const char *const Copying[] = {
      "private",        "firstprivate", "lastprivate", "reduction",
      "task_reduction", "in_reduction", "linear",      "copyin",
      "copyprivate",    "threadprivate"};
  static const char *const Mapping[] = {"map",
                                        "to",
                                        "from",
                                        "use_device_ptr",
                                        "use_device_addr",
                                        "is_device_ptr",
                                        "has_device_addr"};
  for (size_t I = 0; I < Pragma.size();) {
    if (!llvm::isAlpha(Pragma[I]) && Pragma[I] != '_') {
      ++I;
      continue;
    }
    size_t End = I;
    while (End < Pragma.size() &&
           (llvm::isAlnum(Pragma[End]) || Pragma[End] == '_'))
      ++End;
    llvm::StringRef Word = Pragma.slice(I, End);
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
    bool Copies = llvm::is_contained(Copying, Word);
    bool Maps = llvm::is_contained(Mapping, Word);
    if (Copies || Maps)
      for (std::string &Name :
           clauseNames(Pragma.slice(Open + 1, std::min(Close, Pragma.size()))))
        Out.push_back({std::move(Name), Word.str(), Maps, Line});
    I = Close;
  }
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
      llvm::StringRef After = llvm::StringRef(Joined).substr(At + 7).ltrim();
      if (!After.consume_front("(") ||
          !(After = After.ltrim()).consume_front("\""))
        continue;
      llvm::StringRef Body = After.take_until([](char C) { return C == '"'; });
      if (Body.ltrim().consume_front("omp"))
        pragmaNames(Body.ltrim().drop_front(3), First, Out);
    }
    llvm::StringRef L = llvm::StringRef(Joined).ltrim();
    if (!L.consume_front("#"))
      continue;
    L = L.ltrim();
    if (!L.consume_front("pragma") || L.empty() || !llvm::isSpace(L[0]))
      continue;
    L = L.ltrim();
    if (!L.consume_front("omp") || (!L.empty() && !llvm::isSpace(L[0])))
      continue;
    pragmaNames(L, First, Out);
  }
  return Out;
}
