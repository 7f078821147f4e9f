//===- TemplateClones.cpp - Overloads of function template instantiations ===//
//
// A function template instantiation that takes an array being rewritten
// gets an overload of its own (analysis/TemplateClones.cpp decides which):
// the template's text from after its template header to its closing
// brace, with the instantiation's sites applied (Site::Clone) and each
// template parameter's name replaced by the instantiation's argument,
// inserted just after the template. The template itself stays as written
// for its other instantiations.
//
//   template <class T> float sumx(const T *v, int n) { ... v[i].x ... }
//
//   float sumx(P_soa v, int n) { ... v.x[i] ... }
//
// In a header the overload is declared inline, as the template's
// instantiations were.
//
//===----------------------------------------------------------------------===//
#include "rewriter/LayoutRewriter.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace dlopt;

namespace dlopt::rewrite {

/// \p Text with each template parameter named in \p Args replaced by its
/// argument: identifiers of that name that are no member or qualified name
/// (a parameter's name cannot be declared again inside the template).
static std::string
spellArguments(StringRef Text,
               llvm::ArrayRef<std::pair<std::string, std::string>> Args,
               const LangOptions &LO) {
  Lexer Lex(SourceLocation(), LO, Text.begin(), Text.begin(), Text.end());
  std::string Out;
  size_t Copied = 0;
  tok::TokenKind Previous = tok::unknown;
  Token Tok;
  while (true) {
    Lex.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof))
      break;
    if (Tok.is(tok::raw_identifier) &&
        !llvm::is_contained({tok::period, tok::arrow, tok::coloncolon},
                            Previous)) {
      size_t End = Lex.getBufferLocation() - Text.begin();
      size_t Begin = End - Tok.getLength();
      StringRef Name = Text.slice(Begin, End);
      for (const auto &[Param, Arg] : Args)
        if (Name == Param) {
          Out += Text.slice(Copied, Begin);
          Out += Arg;
          Copied = End;
          break;
        }
    }
    Previous = Tok.getKind();
  }
  Out += Text.substr(Copied);
  return Out;
}

std::optional<std::string> LayoutRewriter::cloneText(const FunctionDecl *FD,
                                                     SourceRange Range,
                                                     unsigned E,
                                                     const EditSet &ES) {
  if (State.Uses.cloneRecords(FD).empty())
    return std::nullopt;
  SourceLocation HeaderEnd = FD->getPrimaryTemplate()
                                 ->getTemplateParameters()
                                 ->getRAngleLoc()
                                 .getLocWithOffset(1);
  FileID File = SM.getFileID(HeaderEnd);
  unsigned B = SM.getFileOffset(HeaderEnd);
  EditSet Copy = ES.emptyCopy();
  State.ActiveSites = activeSites(State.Sites, File, FD);
  State.ActiveLoops.clear();
  Shared.applySites(Copy, B, E, nullptr, nullptr);
  std::string Text =
      spellArguments(Copy.textOf(B, E), State.Uses.cloneArguments(FD),
                     State.Ctx.getLangOpts());
  StringRef Body = StringRef(Text).ltrim();
  // Indented as the template (a member template's overload is a member).
  std::string Indent(SM.getSpellingColumnNumber(Range.getBegin()) - 1, ' ');
  // A header's function is defined in every unit that includes it.
  bool Inline = File != SM.getMainFileID() && !FD->isInlineSpecified() &&
                !FD->isConstexpr();
  return Indent + (Inline ? "inline " : "") + Body.str();
}

void LayoutRewriter::insertClones(EditSet &ES, FileID File) {
  struct Overload {
    unsigned Offset;
    std::string Arguments, Text;
  };
  std::vector<Overload> Overloads;
  std::vector<const Site *> Active = State.ActiveSites,
                            Loops = State.ActiveLoops;
  for (const FunctionDecl *FD : State.Clones) {
    std::optional<SourceRange> Range = State.Uses.cloneTemplateRange(FD);
    if (!Range || SM.getFileID(Range->getEnd()) != File)
      continue;
    unsigned End = SM.getFileOffset(Lexer::getLocForEndOfToken(
        Range->getEnd(), 0, SM, State.Ctx.getLangOpts()));
    std::optional<std::string> Text = cloneText(FD, *Range, End, ES);
    if (!Text)
      continue;
    std::string Arguments;
    for (const auto &[Param, Arg] : State.Uses.cloneArguments(FD))
      Arguments += Arg + ",";
    Overloads.push_back({End, Arguments, *Text});
  }
  State.ActiveSites = std::move(Active);
  State.ActiveLoops = std::move(Loops);
  // The same order from every unit that includes a header.
  llvm::sort(Overloads, [](const Overload &A, const Overload &B) {
    return std::tie(A.Offset, A.Arguments) < std::tie(B.Offset, B.Arguments);
  });
  Overloads.erase(std::unique(Overloads.begin(), Overloads.end(),
                              [](const Overload &A, const Overload &B) {
                                return A.Offset == B.Offset &&
                                       A.Arguments == B.Arguments;
                              }),
                  Overloads.end());
  for (const Overload &O : Overloads)
    ES.insert(O.Offset, "\n\n" + O.Text);
}

} // namespace dlopt::rewrite
