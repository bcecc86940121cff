#pragma once
// GradLab script lexer: source text -> tokens with Python's line structure (NEWLINE, INDENT,
// DEDENT, implicit joining inside brackets, backslash continuation).
//
// tokenize() never throws. A lexical error becomes one Error token (its text is the message,
// its line:col the offending character) followed by End, so the parser reports whichever error
// comes first in the source, whether the lexer or the parser found it. The editor can also use
// the token stream for highlighting.
#include <cstdint>
#include <string>
#include <vector>

namespace gl::lang {

// clang-format off
enum class Tok : std::uint8_t {
  // Structure and literals.
  Name, Int, Float, String, Newline, Indent, Dedent, End, Error,
  // Keywords. Reserved is a Python keyword GradLab script does not support (class, import, ...).
  KwFalse, KwNone, KwTrue, KwAnd, KwAs, KwBreak, KwContinue, KwDef, KwElif, KwElse, KwFor, KwIf,
  KwIn, KwIs, KwLambda, KwNot, KwOr, KwPass, KwReturn, KwWhile, KwWith, Reserved,
  // Brackets and punctuation. DotDot only appears in `param x = 1 in 0..10`.
  LParen, RParen, LBracket, RBracket, LBrace, RBrace, Comma, Colon, Semicolon, Dot, DotDot,
  Ellipsis, Assign,
  // Operators.
  Plus, Minus, Star, Slash, DoubleSlash, Percent, At, DoubleStar, Tilde, Pipe, Caret, Amp,
  LShift, RShift, Lt, Gt, Le, Ge, EqEq, NotEq,
  // Augmented assignment.
  PlusEq, MinusEq, StarEq, SlashEq, DoubleSlashEq, PercentEq, AtEq, DoubleStarEq, PipeEq,
  CaretEq, AmpEq, LShiftEq, RShiftEq,
};
// clang-format on

struct Token {
  Tok kind = Tok::End;
  // Name: the identifier. String: the decoded value. Int/Float: the source spelling.
  // Error: the message. Keywords and operators: their spelling. Structure tokens: empty.
  std::string text;
  int line = 1;  // 1-based
  int col = 1;   // 1-based, in code points; a tab counts as one column
  std::int64_t intValue = 0;
  double floatValue = 0;
};

// Tokenizes a whole script. The stream always ends with End; an Error token, if any, is the
// one right before it.
std::vector<Token> tokenize(const std::string& source);

// For messages: "')'", "'if'", "name 'x'", "number '1.5'", "string", "end of line", ...
std::string describe(const Token& token);
// The token's class for diagnostics: name, number, string, newline, indent, dedent, end, symbol.
std::string tokenClass(const Token& token);

// The spelling of a keyword or operator kind, e.g. "**=" (empty for Name, Int, ...).
const char* spelling(Tok kind);

}  // namespace gl::lang
