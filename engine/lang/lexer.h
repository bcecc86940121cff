#pragma once
// GradLab script lexer: source text -> tokens with Python's line structure (NEWLINE, INDENT,
// DEDENT, implicit joining inside brackets, backslash continuation).
//
// tokenize() never throws. A lexical error becomes one Error token (its text is the message,
// its line:col the offending character) followed by End, so the parser reports whichever error
// comes first in the source, whether the lexer or the parser found it. The editor can also use
// the token stream for highlighting.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gl::lang {

// clang-format off
enum class Tok : std::uint8_t {
  // Structure and literals. FString: an f-string, its pieces in Token::fstring.
  Name, Int, Float, String, FString, Newline, Indent, Dedent, End, Error,
  // Keywords. Reserved: a Python keyword the parser handles by its text (class, global, try,
  // raise, ...) or names in an error (yield, async, ...).
  KwFalse, KwNone, KwTrue, KwAnd, KwAs, KwAssert, KwBreak, KwContinue, KwDef, KwDel, KwElif,
  KwElse, KwFor, KwFrom, KwIf, KwImport, KwIn, KwIs, KwLambda, KwNot, KwOr, KwPass, KwReturn,
  KwWhile, KwWith, Reserved,
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

// One piece of an f-string: literal text (escapes decoded) or a replacement field
// `{expr!conv:spec}`, whose expression the parser parses from its source text.
struct FStringPiece {
  bool isField = false;
  std::string text;                // literal: the text; field: the expression's source
  int line = 0, col = 0;           // field: where the expression's source starts
  char conversion = 0;             // 'r', 's', 'a', or 0 for none
  std::string selfDoc;             // `{x=}`: the text "x=" shown before the value; empty otherwise
  bool hasSpec = false;            // a ':' was written (the spec may still be empty)
  std::vector<FStringPiece> spec;  // the format spec: literals and nested fields
};

struct Token {
  Tok kind = Tok::End;
  // Name: the identifier. String: the decoded value. Int/Float: the source spelling.
  // Error: the message. Keywords and operators: their spelling. Structure tokens: empty.
  std::string text;
  int line = 1;  // 1-based
  int col = 1;   // 1-based, in code points; a tab counts as one column
  std::int64_t intValue = 0;
  double floatValue = 0;
  std::shared_ptr<const std::vector<FStringPiece>> fstring;  // FString: its pieces
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
