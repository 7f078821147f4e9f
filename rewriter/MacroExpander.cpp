//===- MacroExpander.cpp - A macro invocation, expanded in place ----------===//
#include "rewriter/MacroExpander.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace dlopt;

/// The text of each argument of the invocation whose raw tokens \p Toks
/// are (the name first), split at top-level commas; none if the tokens are
/// not NAME ( ... ).
static std::optional<std::vector<std::string>>
argumentsOf(llvm::ArrayRef<Token> Toks, llvm::StringRef Text, unsigned Base,
            const SourceManager &SM) {
  if (Toks.size() < 3 || !Toks[1].is(tok::l_paren) ||
      !Toks.back().is(tok::r_paren))
    return std::nullopt;
  std::vector<std::string> Args;
  unsigned Depth = 0, Start = SM.getFileOffset(Toks[1].getEndLoc()) - Base;
  for (const Token &T : Toks.drop_front(2)) {
    unsigned At = SM.getFileOffset(T.getLocation()) - Base;
    bool Last = &T == &Toks.back();
    if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace))
      ++Depth;
    else if (!Last && T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace))
      --Depth;
    if ((Depth == 0 && T.is(tok::comma)) || Last) {
      Args.push_back(Text.slice(Start, At).trim().str());
      Start = At + T.getLength();
    }
  }
  return Args;
}

/// Whether two texts put side by side could lex as one token.
static bool couldJoin(llvm::StringRef Left, llvm::StringRef Right) {
  if (Left.empty() || Right.empty())
    return false;
  auto Word = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  llvm::StringRef Ops = "+-*/%<>=!&|^.#:";
  char L = Left.back(), R = Right.front();
  return (Word(L) && Word(R)) || (Ops.contains(L) && Ops.contains(R));
}

/// Why \p MI cannot be expanded as text (none if it can).
static std::optional<std::string> unexpandable(const MacroInfo *MI,
                                               llvm::StringRef Name,
                                               const SourceManager &SM) {
  std::string Macro = "macro '" + Name.str() + "'";
  if (SM.isInSystemHeader(MI->getDefinitionLoc()))
    return Macro + " is defined in a system header";
  if (MI->isVariadic())
    return Macro + " is variadic (not expanded yet)";
  for (const Token &T : MI->tokens())
    if (T.isOneOf(tok::hash, tok::hashhash, tok::hashat))
      return Macro + " stringizes or pastes its arguments (# or ##)";
  return std::nullopt;
}

namespace {
/// Expands a macro as the preprocessor does, on text: the body with each
/// parameter replaced by its argument's text, rescanned for invocations of
/// function-like macros of the program (in the body or in the arguments),
/// which are expanded in turn; a macro is not expanded inside its own
/// expansion. Object-like macros (constants) stay as they are written.
class TextExpander {
public:
  TextExpander(Preprocessor &PP, SourceLocation At) : PP(PP), At(At) {}

  std::string expand(const MacroInfo *MI, const std::vector<std::string> &Args,
                     llvm::SmallVectorImpl<const MacroInfo *> &Active) {
    std::string Out;
    for (const Token &T : MI->tokens()) {
      std::string Piece = PP.getSpelling(T);
      if (const IdentifierInfo *P = T.getIdentifierInfo())
        for (unsigned I = 0; I < MI->getNumParams(); ++I)
          if (MI->params()[I] == P)
            Piece = Args[I];
      if (!Out.empty() && (T.hasLeadingSpace() || couldJoin(Out, Piece)))
        Out += " ";
      Out += Piece;
    }
    Active.push_back(MI);
    std::string Done = rescan(Out, Active);
    Active.pop_back();
    return Done;
  }

private:
  struct RawToken {
    Token Tok;
    unsigned Offset;
  };

  /// \p Text with the invocations it holds expanded.
  std::string rescan(const std::string &Text,
                     llvm::SmallVectorImpl<const MacroInfo *> &Active) {
    std::vector<RawToken> Toks;
    Lexer Raw(At, PP.getLangOpts(), Text.c_str(), Text.c_str(),
              Text.c_str() + Text.size());
    for (Token T; Raw.LexFromRawLexer(T), T.isNot(tok::eof);)
      Toks.push_back({T, unsigned(Raw.getBufferLocation() - Text.c_str()) -
                             T.getLength()});
    std::string Out;
    unsigned Pos = 0;
    for (size_t I = 0; I < Toks.size(); ++I) {
      const MacroInfo *MI = invoked(Toks, I, Active);
      std::vector<std::string> Args;
      size_t Close = I;
      if (!MI || !argumentsAt(Text, Toks, I, Close, Args))
        continue;
      if (MI->getNumParams() == 0 && Args.size() == 1 && Args[0].empty())
        Args.clear();
      if (Args.size() != MI->getNumParams())
        continue;
      Out += Text.substr(Pos, Toks[I].Offset - Pos);
      Out += expand(MI, Args, Active);
      Pos = Toks[Close].Offset + Toks[Close].Tok.getLength();
      I = Close;
    }
    return Out + Text.substr(Pos);
  }

  /// The function-like macro of the program token \p I invokes, if it can
  /// be expanded and is not being expanded already.
  const MacroInfo *invoked(llvm::ArrayRef<RawToken> Toks, size_t I,
                           llvm::ArrayRef<const MacroInfo *> Active) const {
    if (!Toks[I].Tok.is(tok::raw_identifier) || I + 1 >= Toks.size() ||
        !Toks[I + 1].Tok.is(tok::l_paren))
      return nullptr;
    llvm::StringRef Name = Toks[I].Tok.getRawIdentifier();
    IdentifierInfo *II = PP.getIdentifierInfo(Name);
    const MacroInfo *MI = PP.getMacroDefinitionAtLoc(II, At).getMacroInfo();
    if (!MI || !MI->isFunctionLike() || llvm::is_contained(Active, MI) ||
        unexpandable(MI, Name, PP.getSourceManager()))
      return nullptr;
    return MI;
  }

  /// The arguments' texts of the invocation at token \p I, split at
  /// top-level commas; \p Close: its `)`.
  static bool argumentsAt(const std::string &Text,
                          llvm::ArrayRef<RawToken> Toks, size_t I,
                          size_t &Close, std::vector<std::string> &Out) {
    unsigned Depth = 0;
    unsigned Start = Toks[I + 1].Offset + 1;
    for (size_t J = I + 2; J < Toks.size(); ++J) {
      const Token &T = Toks[J].Tok;
      if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace)) {
        ++Depth;
        continue;
      }
      if (Depth > 0) {
        Depth -= T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace);
        continue;
      }
      if (T.isOneOf(tok::comma, tok::r_paren)) {
        Out.push_back(
            llvm::StringRef(Text).slice(Start, Toks[J].Offset).trim().str());
        Start = Toks[J].Offset + 1;
        if (T.is(tok::r_paren)) {
          Close = J;
          return true;
        }
      }
    }
    return false;
  }

  Preprocessor &PP;
  SourceLocation At;
};
} // namespace

std::optional<std::string> dlopt::expandInvocation(Preprocessor &PP,
                                                   FileID File, unsigned Begin,
                                                   unsigned End,
                                                   std::string &Why) {
  const SourceManager &SM = PP.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(File);
  if (End > Buffer.size() || Begin >= End) {
    Why = "the invocation is not in one file";
    return std::nullopt;
  }
  llvm::StringRef Text = Buffer.slice(Begin, End);
  // The invocation's raw tokens: its name and arguments as written.
  SourceLocation Start = SM.getComposedLoc(File, Begin);
  // The lexer stops at a null character: a copy ends in one.
  std::string Copy = Text.str();
  Lexer Raw(Start, PP.getLangOpts(), Copy.c_str(), Copy.c_str(),
            Copy.c_str() + Copy.size());
  std::vector<Token> Toks;
  for (Token T; Raw.LexFromRawLexer(T), T.isNot(tok::eof);)
    Toks.push_back(T);
  if (Toks.empty() || !Toks[0].is(tok::raw_identifier)) {
    Why = "the invocation does not start with the macro's name";
    return std::nullopt;
  }
  IdentifierInfo *II = PP.getIdentifierInfo(Toks[0].getRawIdentifier());
  const MacroInfo *MI = PP.getMacroDefinitionAtLoc(II, Start).getMacroInfo();
  if (!MI) {
    Why = "macro '" + II->getName().str() + "' is not defined there";
    return std::nullopt;
  }
  std::string Name = "macro '" + II->getName().str() + "'";
  if (std::optional<std::string> Not = unexpandable(MI, II->getName(), SM)) {
    Why = *Not;
    return std::nullopt;
  }
  std::vector<std::string> Args;
  if (MI->isFunctionLike()) {
    std::optional<std::vector<std::string>> A =
        argumentsOf(Toks, Text, Begin, SM);
    // A macro of no parameters is invoked with one empty argument.
    if (A && MI->getNumParams() == 0 && A->size() == 1 && A->front().empty())
      A->clear();
    if (!A || A->size() != MI->getNumParams()) {
      Why = "the arguments of " + Name + " cannot be read";
      return std::nullopt;
    }
    // The expansion is one line: a comment in an argument would end it.
    for (const std::string &Arg : *A)
      if (llvm::StringRef(Arg).contains("//") ||
          llvm::StringRef(Arg).contains("/*")) {
        Why = "an argument of " + Name + " holds a comment";
        return std::nullopt;
      }
    Args = std::move(*A);
  } else if (Toks.size() != 1) {
    Why = Name + " is not the whole invocation";
    return std::nullopt;
  }
  llvm::SmallVector<const MacroInfo *, 4> Active;
  return TextExpander(PP, Start).expand(MI, Args, Active);
}

static void byOffset(std::vector<Expansion> &Expansions) {
  llvm::sort(Expansions, [](const Expansion &A, const Expansion &B) {
    return A.Begin < B.Begin;
  });
}

std::string dlopt::expandAll(llvm::StringRef Text,
                             std::vector<Expansion> Expansions) {
  byOffset(Expansions);
  std::string Out;
  unsigned Pos = 0;
  for (const Expansion &E : Expansions) {
    Out += Text.slice(Pos, E.Begin);
    Out += E.Text;
    Pos = E.End;
  }
  Out += Text.substr(Pos);
  return Out;
}

EditSet dlopt::composeExpansions(const std::string &Path,
                                 llvm::StringRef Original,
                                 std::vector<Expansion> Expansions,
                                 const EditSet &Rewrite) {
  byOffset(Expansions);
  // Where each expansion lies in the expanded text.
  struct Region {
    unsigned Begin, End; // in the expanded text
    bool Expanded;
  };
  std::vector<Region> Regions;
  long Shift = 0;
  for (const Expansion &E : Expansions) {
    Regions.push_back({unsigned(E.Begin + Shift),
                       unsigned(E.Begin + Shift + E.Text.size()), true});
    Shift += long(E.Text.size()) - long(E.End - E.Begin);
  }
  for (auto [B, E] : Rewrite.ranges())
    Regions.push_back({B, E, false});
  llvm::stable_sort(Regions, [](const Region &A, const Region &B) {
    return A.Begin < B.Begin;
  });
  // Overlapping regions become one (an insertion at a region's start is
  // part of it; one at its end belongs to what follows).
  std::vector<Region> Merged;
  for (const Region &R : Regions)
    if (!Merged.empty() &&
        (R.Begin < Merged.back().End || R.Begin == Merged.back().Begin)) {
      Merged.back().End = std::max(Merged.back().End, R.End);
      Merged.back().Expanded |= R.Expanded;
    } else {
      Merged.push_back(R);
    }
  // A position of the expanded text outside every expansion, in Original.
  auto ToOriginal = [&](unsigned X) {
    long Shift = 0;
    for (const Expansion &E : Expansions) {
      if (E.Begin + Shift >= X)
        break;
      Shift += long(E.Text.size()) - long(E.End - E.Begin);
    }
    return unsigned(long(X) - Shift);
  };
  EditSet Out(Path, Original);
  for (const Region &R : Merged) {
    std::string Text = Rewrite.textOf(R.Begin, R.End);
    unsigned B = ToOriginal(R.Begin), E = ToOriginal(R.End);
    if (B == E && !R.Expanded) {
      Out.insert(B, Text);
      continue;
    }
    if (llvm::Error Err = Out.replace(B, E, std::move(Text)))
      llvm::consumeError(std::move(Err)); // Merged regions never overlap.
  }
  return Out;
}
