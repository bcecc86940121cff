#include "engine/lang/lexer.h"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <system_error>

namespace gl::lang {
namespace {

// Python's own limits: deeper nesting is never intended and would only grow the parser's stack.
constexpr std::size_t kMaxIndentLevels = 100;
constexpr int kMaxBracketDepth = 200;

struct Spelled {
  Tok kind;
  const char* text;
};

// Longest spelling first, so the lexer can take the first match.
// clang-format off
constexpr Spelled kOperators[] = {
    {Tok::DoubleStarEq, "**="}, {Tok::DoubleSlashEq, "//="}, {Tok::LShiftEq, "<<="},
    {Tok::RShiftEq, ">>="}, {Tok::Ellipsis, "..."},
    {Tok::DoubleStar, "**"}, {Tok::DoubleSlash, "//"}, {Tok::LShift, "<<"}, {Tok::RShift, ">>"},
    {Tok::Le, "<="}, {Tok::Ge, ">="}, {Tok::EqEq, "=="}, {Tok::NotEq, "!="},
    {Tok::PlusEq, "+="}, {Tok::MinusEq, "-="}, {Tok::StarEq, "*="}, {Tok::SlashEq, "/="},
    {Tok::PercentEq, "%="}, {Tok::AtEq, "@="}, {Tok::PipeEq, "|="}, {Tok::CaretEq, "^="},
    {Tok::AmpEq, "&="}, {Tok::DotDot, ".."},
    {Tok::LParen, "("}, {Tok::RParen, ")"}, {Tok::LBracket, "["}, {Tok::RBracket, "]"},
    {Tok::LBrace, "{"}, {Tok::RBrace, "}"}, {Tok::Comma, ","}, {Tok::Colon, ":"},
    {Tok::Semicolon, ";"}, {Tok::Dot, "."}, {Tok::Assign, "="}, {Tok::Plus, "+"},
    {Tok::Minus, "-"}, {Tok::Star, "*"}, {Tok::Slash, "/"}, {Tok::Percent, "%"}, {Tok::At, "@"},
    {Tok::Tilde, "~"}, {Tok::Pipe, "|"}, {Tok::Caret, "^"}, {Tok::Amp, "&"}, {Tok::Lt, "<"},
    {Tok::Gt, ">"},
};

constexpr Spelled kKeywords[] = {
    {Tok::KwFalse, "False"}, {Tok::KwNone, "None"}, {Tok::KwTrue, "True"}, {Tok::KwAnd, "and"},
    {Tok::KwAs, "as"}, {Tok::KwAssert, "assert"}, {Tok::KwBreak, "break"},
    {Tok::KwContinue, "continue"}, {Tok::KwDef, "def"}, {Tok::KwDel, "del"},
    {Tok::KwElif, "elif"}, {Tok::KwElse, "else"}, {Tok::KwFor, "for"}, {Tok::KwFrom, "from"},
    {Tok::KwIf, "if"}, {Tok::KwImport, "import"}, {Tok::KwIn, "in"}, {Tok::KwIs, "is"},
    {Tok::KwLambda, "lambda"},
    {Tok::KwNot, "not"}, {Tok::KwOr, "or"}, {Tok::KwPass, "pass"}, {Tok::KwReturn, "return"},
    {Tok::KwWhile, "while"}, {Tok::KwWith, "with"},
};
// clang-format on

// Python keywords we do not support; lexing them as keywords lets the parser say so.
constexpr const char* kReserved[] = {"class",   "global", "nonlocal", "try",   "except",
                                     "finally", "raise",  "yield",    "async", "await"};

struct LexError {
  int line, col;
  std::string message;
};

bool isDigit(int c) { return c >= '0' && c <= '9'; }
bool isAsciiIdentStart(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// Letters outside ASCII that may appear in names (teachers like `η = 0.1`): Latin, Greek,
// Cyrillic, kana, CJK and Hangul blocks. A cheap stand-in for Unicode's XID tables.
bool isIdentCodePoint(char32_t cp) {
  if (cp >= 0xC0 && cp <= 0x24F) return cp != 0xD7 && cp != 0xF7;
  return (cp >= 0x370 && cp <= 0x3FF && cp != 0x37E && cp != 0x387) ||
         (cp >= 0x400 && cp <= 0x4FF) || (cp >= 0x3040 && cp <= 0x30FF) ||
         (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF);
}

void appendUtf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

std::string hexCodePoint(char32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", unsigned(cp));
  return buf;
}

class Lexer {
 public:
  explicit Lexer(const std::string& source) {
    // Accept Windows and old Mac line ends: everything below only knows '\n'.
    s_.reserve(source.size());
    for (std::size_t i = 0; i < source.size(); ++i) {
      if (source[i] != '\r') {
        s_ += source[i];
      } else {
        s_ += '\n';
        if (i + 1 < source.size() && source[i + 1] == '\n') ++i;
      }
    }
    if (s_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;  // UTF-8 byte order mark
  }

  std::vector<Token> run() {
    try {
      bool lineStart = true;
      for (;;) {
        if (lineStart) {
          if (!startLine()) break;
          lineStart = false;
        }
        int c = cur();
        if (c < 0) break;
        if (c == ' ' || c == '\t' || c == '\f') {
          bump();
        } else if (c == '#') {
          skipComment();
        } else if (c == '\n') {
          // Inside brackets a line end is just white space (implicit line joining).
          if (depth_ == 0) {
            emit(Tok::Newline, line_, col_);
            lineStart = true;
          }
          bump();
        } else if (c == '\\') {
          continuation();
        } else if (isDigit(c) || (c == '.' && isDigit(cur(1)))) {
          lexNumber();
        } else if (c == '"' || c == '\'') {
          lexString(line_, col_, false);
        } else if (identCharLength() > 0) {
          lexNameOrPrefixedString();
        } else {
          lexOperator();
        }
      }
      if (!out_.empty() && out_.back().kind != Tok::Newline) emit(Tok::Newline, line_, col_);
      for (; indents_.size() > 1; indents_.pop_back()) emit(Tok::Dedent, line_, col_);
    } catch (const LexError& e) {
      emit(Tok::Error, e.line, e.col, e.message);
    }
    emit(Tok::End, line_, col_);
    return std::move(out_);
  }

 private:
  int cur(std::size_t k = 0) const {
    std::size_t i = pos_ + k;
    return i < s_.size() ? static_cast<unsigned char>(s_[i]) : -1;
  }

  // Columns count code points: UTF-8 continuation bytes do not advance them.
  void bump() {
    unsigned char c = static_cast<unsigned char>(s_[pos_++]);
    if (c == '\n') {
      ++line_;
      col_ = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++col_;
    }
  }

  void emit(Tok kind, int line, int col, std::string text = {}) {
    Token t;
    t.kind = kind;
    t.line = line;
    t.col = col;
    t.text = std::move(text);
    out_.push_back(std::move(t));
  }

  // Decodes the UTF-8 sequence at pos_+k; returns its length (0 if invalid).
  int decode(std::size_t k, char32_t& cp) const {
    int c = cur(k);
    if (c < 0) return 0;
    if (c < 0x80) {
      cp = char32_t(c);
      return 1;
    }
    int len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0) return 0;
    cp = char32_t(c & (0x3F >> (len - 1)));
    for (int i = 1; i < len; ++i) {
      int d = cur(k + i);
      if (d < 0 || (d & 0xC0) != 0x80) return 0;
      cp = (cp << 6) | char32_t(d & 0x3F);
    }
    static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return len;
  }

  // Length in bytes of the identifier character at pos_+k, or 0.
  int identCharLength(std::size_t k = 0, bool start = true) const {
    int c = cur(k);
    if (c < 0) return 0;
    if (c < 0x80) return isAsciiIdentStart(c) || (!start && isDigit(c)) ? 1 : 0;
    char32_t cp;
    int len = decode(k, cp);
    return len > 0 && isIdentCodePoint(cp) ? len : 0;
  }

  void skipComment() {
    while (cur() >= 0 && cur() != '\n') bump();
  }

  // Measures the indentation of the next non-blank line and emits INDENT/DEDENT. Blank and
  // comment-only lines do not count. Returns false at the end of the input.
  // As in Python, the indentation is also measured with tabs one column wide: when the two
  // measures disagree on deeper / same / shallower, the meaning depends on the tab size
  // (TabError).
  bool startLine() {
    int width = 0, narrow = 0;
    for (;;) {
      width = narrow = 0;
      for (;; bump()) {
        int c = cur();
        if (c == ' ') {
          ++width, ++narrow;
        } else if (c == '\t') {
          width = (width / 8 + 1) * 8;  // like Python: a tab advances to the next multiple of 8
          ++narrow;
        } else if (c == '\f') {
          width = narrow = 0;
        } else {
          break;
        }
      }
      if (cur() == '#') skipComment();
      if (cur() < 0) return false;
      if (cur() != '\n') break;
      bump();
    }
    const LexError tabError{line_, col_, "inconsistent use of tabs and spaces in indentation"};
    if (width > indents_.back()) {
      if (narrow <= narrowIndents_.back()) throw tabError;
      if (indents_.size() > kMaxIndentLevels)
        throw LexError{line_, col_, "too many levels of indentation"};
      indents_.push_back(width);
      narrowIndents_.push_back(narrow);
      emit(Tok::Indent, line_, col_);
      return true;
    }
    while (width < indents_.back()) {
      indents_.pop_back();
      narrowIndents_.pop_back();
      emit(Tok::Dedent, line_, col_);
    }
    if (width != indents_.back())
      throw LexError{line_, col_, "unindent does not match any outer indentation level"};
    if (narrow != narrowIndents_.back()) throw tabError;
    return true;
  }

  void continuation() {
    int line = line_, col = col_;
    bump();
    if (cur() == '\n') {
      bump();
      return;
    }
    if (cur() < 0)
      throw LexError{line, col, "unexpected end of file after line continuation character"};
    throw LexError{line, col, "unexpected character after line continuation character"};
  }

  void lexNameOrPrefixedString() {
    int line = line_, col = col_;
    std::size_t start = pos_;
    for (int len = identCharLength(0, true); len > 0; len = identCharLength(0, false))
      for (int i = 0; i < len; ++i) bump();
    std::string word = s_.substr(start, pos_ - start);

    if ((cur() == '"' || cur() == '\'') && word.size() <= 2) {
      std::string lower;
      for (char ch : word) lower += char(ch | 0x20);
      if (lower == "r" || lower == "u") return lexString(line, col, lower == "r");
      if (lower == "f" || lower == "rf" || lower == "fr")
        return lexFString(line, col, lower != "f");
      if (lower.find_first_not_of("bfr") == std::string::npos)
        throw LexError{line, col, "bytes literals are not supported in GradLab script"};
    }
    for (const Spelled& k : kKeywords)
      if (word == k.text) return emit(k.kind, line, col, std::move(word));
    for (const char* r : kReserved)
      if (word == r) return emit(Tok::Reserved, line, col, std::move(word));
    emit(Tok::Name, line, col, std::move(word));
  }

  // Appends digits (dropping the single underscores Python allows between them).
  void readDigits(std::string& out, int base, int line, int col, const char* error) {
    auto isDigitOf = [base](int c) {
      if (base == 16) return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
      return c >= '0' && c < '0' + base;
    };
    for (;;) {
      while (isDigitOf(cur())) {
        out += char(cur());
        bump();
      }
      if (cur() == '_' && isDigitOf(cur(1))) {
        bump();
        continue;
      }
      break;
    }
    if (cur() == '_') throw LexError{line, col, error};
  }

  void lexNumber() {
    const int line = line_, col = col_;
    const std::size_t start = pos_;
    Token t;
    t.line = line;
    t.col = col;
    if (cur() == '0' && cur(1) > 0 && std::strchr("xXoObB", cur(1))) {
      lexPrefixedInt(t, start);
      return;
    }
    const char* error = "invalid decimal literal";
    std::string digits;
    const bool isFloat = readDecimal(digits, line, col, error);
    if (cur() == 'j' || cur() == 'J')
      throw LexError{line, col, "complex numbers are not supported in GradLab script"};
    if (identCharLength(0, false) > 0) throw LexError{line, col, error};
    t.text = s_.substr(start, pos_ - start);
    if (!isFloat)
      decimalInt(t, digits);
    else
      decimalFloat(t, digits, error);
    out_.push_back(std::move(t));
  }

  // 0x.., 0o.., 0b..: t has its position; start is where the literal begins.
  void lexPrefixedInt(Token& t, std::size_t start) {
    const int base = cur(1) == 'x' || cur(1) == 'X' ? 16 : cur(1) == 'o' || cur(1) == 'O' ? 8 : 2;
    const char* error = base == 16  ? "invalid hexadecimal literal"
                        : base == 8 ? "invalid octal literal"
                                    : "invalid binary literal";
    bump();
    bump();
    if (cur() == '_') bump();  // Python allows 0x_ff
    std::string digits;
    readDigits(digits, base, t.line, t.col, error);
    if (digits.empty() || identCharLength(0, false) > 0 || isDigit(cur()))
      throw LexError{t.line, t.col, error};
    t.kind = Tok::Int;
    t.text = s_.substr(start, pos_ - start);
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), t.intValue, base);
    if (r.ec != std::errc()) throw LexError{t.line, t.col, "integer literal is too large"};
    out_.push_back(std::move(t));
  }

  // Digits, a fraction and an exponent, without underscores; true if it is a float.
  bool readDecimal(std::string& digits, int line, int col, const char* error) {
    bool isFloat = false;
    if (cur() != '.') readDigits(digits, 10, line, col, error);
    // `1..5` is an int and a DotDot (param ranges), not the float `1.` and `.5`.
    if (cur() == '.' && cur(1) != '.') {
      isFloat = true;
      if (digits.empty()) digits += '0';  // `.5`
      digits += '.';
      bump();
      if (isDigit(cur())) readDigits(digits, 10, line, col, error);
    }
    if ((cur() == 'e' || cur() == 'E') &&
        (isDigit(cur(1)) || ((cur(1) == '+' || cur(1) == '-') && isDigit(cur(2))))) {
      isFloat = true;
      digits += 'e';
      bump();
      if (cur() == '+' || cur() == '-') {
        digits += char(cur());
        bump();
      }
      readDigits(digits, 10, line, col, error);
    }
    return isFloat;
  }

  static void decimalInt(Token& t, const std::string& digits) {
    if (digits.size() > 1 && digits[0] == '0' && digits.find_first_not_of('0') != std::string::npos)
      throw LexError{t.line, t.col, "leading zeros in decimal integer literals are not permitted"};
    t.kind = Tok::Int;
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), t.intValue);
    if (r.ec != std::errc()) throw LexError{t.line, t.col, "integer literal is too large"};
  }

  static void decimalFloat(Token& t, const std::string& digits, const char* error) {
    t.kind = Tok::Float;
    // from_chars, unlike strtod, ignores the C locale (Qt sets it from the environment).
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), t.floatValue);
    if (r.ec == std::errc::result_out_of_range) {
      if (digits.find("e-") == std::string::npos)
        throw LexError{t.line, t.col, "float literal is out of range"};
      t.floatValue = 0.0;  // underflow: Python gives 0.0 too
    } else if (r.ec != std::errc()) {
      throw LexError{t.line, t.col, error};
    }
  }

  void lexString(int line, int col, bool raw) {
    const int quote = cur();
    const bool triple = cur(1) == quote && cur(2) == quote;
    const char* unterminated = triple ? "unterminated triple-quoted string" : "unterminated string";
    for (int i = triple ? 3 : 1; i > 0; --i) bump();
    std::string value;
    for (;;) {
      int c = cur();
      if (c < 0 || (c == '\n' && !triple)) throw LexError{line, col, unterminated};
      if (c == quote) {
        if (!triple) {
          bump();
          break;
        }
        if (cur(1) == quote && cur(2) == quote) {
          bump();
          bump();
          bump();
          break;
        }
      }
      if (c == '\\') {
        escape(value, raw, unterminated, line, col);
        continue;
      }
      value += char(c);
      bump();
    }
    emit(Tok::String, line, col, std::move(value));
  }

  // An f-string as in Python 3.11: the string ends at its first unescaped closing quote, so an
  // expression inside may hold strings of the other quote kind only. The expressions are kept
  // as source text with their positions; the parser parses them.
  void lexFString(int line, int col, bool raw) {
    FString f{cur(), cur(1) == cur() && cur(2) == cur(), raw, line, col};
    for (int i = f.triple ? 3 : 1; i > 0; --i) bump();
    Token t;
    t.kind = Tok::FString;
    t.line = line;
    t.col = col;
    t.fstring = std::make_shared<const std::vector<FStringPiece>>(fstringPieces(f, 0));
    out_.push_back(std::move(t));
  }

  struct FString {
    int quote;
    bool triple, raw;
    int line, col;  // where the literal starts, for "unterminated"
  };

  bool atFStringEnd(const FString& f) const {
    return cur() == f.quote && (!f.triple || (cur(1) == f.quote && cur(2) == f.quote));
  }

  // Literal text and fields up to the closing quote (level 0) or the '}' ending a format spec
  // (level > 0, left for the caller).
  std::vector<FStringPiece> fstringPieces(const FString& f, int level) {
    const char* unterminated =
        f.triple ? "unterminated triple-quoted string" : "unterminated string";
    std::vector<FStringPiece> out;
    std::string text;
    auto flush = [&] {
      if (text.empty()) return;
      FStringPiece p;
      p.text = std::move(text);
      out.push_back(std::move(p));
      text.clear();
    };
    for (;;) {
      const int c = cur();
      if (c < 0 || (c == '\n' && !f.triple)) throw LexError{f.line, f.col, unterminated};
      if (atFStringEnd(f)) {
        if (level > 0) throw LexError{line_, col_, "f-string: expecting '}'"};
        for (int i = f.triple ? 3 : 1; i > 0; --i) bump();
        break;
      }
      if (level > 0 && c == '}') break;
      if (c == '{' && level == 0 && cur(1) == '{') {
        text += '{';
        bump();
        bump();
      } else if (c == '{') {
        flush();
        out.push_back(fstringField(f, level));
      } else if (c == '}' && level == 0) {
        if (cur(1) != '}') throw LexError{line_, col_, "f-string: single '}' is not allowed"};
        text += '}';
        bump();
        bump();
      } else if (c == '\\') {
        escape(text, f.raw, unterminated, f.line, f.col);
      } else {
        text += char(c);
        bump();
      }
    }
    flush();
    return out;
  }

  // `{expr[=][!conv][:spec]}`, at its '{'.
  FStringPiece fstringField(const FString& f, int level) {
    const int braceLine = line_, braceCol = col_;
    if (level > 1) throw LexError{line_, col_, "f-string: expressions nested too deeply"};
    bump();
    FStringPiece p;
    p.isField = true;
    p.line = line_;
    p.col = col_;
    const std::size_t start = pos_;
    int depth = 0;
    std::size_t end = 0;
    for (;;) {
      const int c = cur();
      if (c < 0 || (c == '\n' && !f.triple) || atFStringEnd(f))
        throw LexError{braceLine, braceCol, "f-string: expecting '}'"};
      if (c == '\\')
        throw LexError{line_, col_, "f-string expression part cannot include a backslash"};
      if (c == '#') throw LexError{line_, col_, "f-string expression part cannot include '#'"};
      if (c == '"' || c == '\'') {
        skipInnerString(f);
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        if (++depth > kMaxBracketDepth) throw LexError{line_, col_, "too many nested parentheses"};
      } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
        --depth;
      } else if (depth == 0 && (c == '}' || c == ':' || (c == '!' && cur(1) != '='))) {
        end = pos_;
        break;
      } else if (depth == 0 && c == '=' && cur(1) != '=' && pos_ > start &&
                 std::strchr("=!<>", s_[pos_ - 1]) == nullptr) {
        end = pos_;  // `{x=}`: the text up to and after '=' is shown before the value
        bump();
        while (cur() == ' ') bump();
        if (cur() != '}' && cur() != ':' && cur() != '!')
          throw LexError{line_, col_, "f-string: expecting '}'"};
        p.selfDoc = s_.substr(start, pos_ - start);
        break;
      }
      bump();
    }
    p.text = s_.substr(start, end - start);
    if (p.text.find_first_not_of(" \t\n") == std::string::npos)
      throw LexError{braceLine, braceCol, "f-string: empty expression not allowed"};
    if (cur() == '!') {
      bump();
      if (cur() != 'r' && cur() != 's' && cur() != 'a')
        throw LexError{line_, col_,
                       "f-string: invalid conversion character: expected 's', 'r', or 'a'"};
      p.conversion = char(cur());
      bump();
    }
    if (cur() == ':') {
      bump();
      p.hasSpec = true;
      p.spec = fstringPieces(f, level + 1);
    }
    if (cur() != '}') throw LexError{line_, col_, "f-string: expecting '}'"};
    bump();
    return p;
  }

  // A string literal inside an f-string's expression (of the other quote kind), skipped whole.
  void skipInnerString(const FString& f) {
    const int line = line_, col = col_, q = cur();
    const bool triple = cur(1) == q && cur(2) == q;
    for (int i = triple ? 3 : 1; i > 0; --i) bump();
    for (;;) {
      const int c = cur();
      if (c < 0 || (c == '\n' && !triple) || atFStringEnd(f))
        throw LexError{line, col,
                       triple ? "unterminated triple-quoted string" : "unterminated string"};
      if (c == '\\') {
        bump();
        if (cur() >= 0) bump();
        continue;
      }
      if (c == q && (!triple || (cur(1) == q && cur(2) == q))) {
        for (int i = triple ? 3 : 1; i > 0; --i) bump();
        return;
      }
      bump();
    }
  }

  void escape(std::string& value, bool raw, const char* unterminated, int line, int col) {
    int escLine = line_, escCol = col_;
    bump();  // the backslash
    int e = cur();
    if (e < 0) throw LexError{line, col, unterminated};
    if (raw) {  // a raw string keeps the backslash; it only stops a quote from ending the string
      value += '\\';
      value += char(e);
      bump();
      return;
    }
    auto hex = [&](int count, const char* error) {
      char32_t cp = 0;
      for (int i = 0; i < count; ++i) {
        int h = cur();
        int v = isDigit(h)               ? h - '0'
                : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                         : -1;
        if (v < 0) throw LexError{escLine, escCol, error};
        cp = cp * 16 + char32_t(v);
        bump();
      }
      return cp;
    };
    static constexpr std::string_view kSimple = "\\\\''\"\"a\ab\bf\fn\nr\rt\tv\v";
    for (std::size_t i = 0; i < kSimple.size(); i += 2) {
      if (kSimple[i] == e) {
        value += kSimple[i + 1];
        bump();
        return;
      }
    }
    if (e == '\n') {  // backslash-newline continues the string on the next line
      bump();
    } else if (e >= '0' && e <= '7') {
      char32_t cp = 0;
      for (int i = 0; i < 3 && cur() >= '0' && cur() <= '7'; ++i) {
        cp = cp * 8 + char32_t(cur() - '0');
        bump();
      }
      appendUtf8(value, cp);
    } else if (e == 'x' || e == 'u' || e == 'U') {
      bump();
      char32_t cp = e == 'x'   ? hex(2, "truncated \\xXX escape")
                    : e == 'u' ? hex(4, "truncated \\uXXXX escape")
                               : hex(8, "truncated \\UXXXXXXXX escape");
      if (cp > 0x10FFFF) throw LexError{escLine, escCol, "illegal Unicode character in \\U escape"};
      appendUtf8(value, cp);
    } else if (e == 'N') {
      throw LexError{escLine, escCol, "\\N{...} escapes are not supported in GradLab script"};
    } else {
      value += '\\';  // unknown escapes keep their backslash, as in Python
    }
  }

  void lexOperator() {
    for (const Spelled& op : kOperators) {
      std::size_t len = std::strlen(op.text);
      if (s_.compare(pos_, len, op.text) != 0) continue;
      if (op.kind == Tok::LParen || op.kind == Tok::LBracket || op.kind == Tok::LBrace) {
        if (++depth_ > kMaxBracketDepth) throw LexError{line_, col_, "too many nested parentheses"};
      } else if (op.kind == Tok::RParen || op.kind == Tok::RBracket || op.kind == Tok::RBrace) {
        // An unmatched closer is left for the parser to report ("unexpected ')'").
        if (depth_ > 0) --depth_;
      }
      emit(op.kind, line_, col_, op.text);
      for (std::size_t i = 0; i < len; ++i) bump();
      return;
    }
    int c = cur();
    if (c < 0x80) {
      if (c >= 0x20 && c < 0x7F)
        throw LexError{line_, col_, std::string("invalid character '") + char(c) + "'"};
      throw LexError{line_, col_, "invalid non-printable character " + hexCodePoint(char32_t(c))};
    }
    char32_t cp;
    int len = decode(0, cp);
    if (len == 0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "invalid character: byte 0x%02X is not valid UTF-8", c);
      throw LexError{line_, col_, buf};
    }
    throw LexError{
        line_, col_,
        "invalid character '" + s_.substr(pos_, std::size_t(len)) + "' (" + hexCodePoint(cp) + ")"};
  }

  std::string s_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
  int depth_ = 0;  // bracket nesting; line ends inside brackets are not NEWLINEs
  std::vector<int> indents_{0};
  std::vector<int> narrowIndents_{0};  // the same levels with tabs one column wide
  std::vector<Token> out_;
};

}  // namespace

std::vector<Token> tokenize(const std::string& source) { return Lexer(source).run(); }

const char* spelling(Tok kind) {
  for (const Spelled& op : kOperators)
    if (op.kind == kind) return op.text;
  for (const Spelled& k : kKeywords)
    if (k.kind == kind) return k.text;
  return "";
}

std::string tokenClass(const Token& t) {
  switch (t.kind) {
    case Tok::Name:
      return "name";
    case Tok::Int:
    case Tok::Float:
      return "number";
    case Tok::String:
    case Tok::FString:
      return "string";
    case Tok::Newline:
      return "newline";
    case Tok::Indent:
      return "indent";
    case Tok::Dedent:
      return "dedent";
    case Tok::End:
      return "end";
    default:
      return "symbol";
  }
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::Name:
      return "name '" + t.text + "'";
    case Tok::Int:
    case Tok::Float:
      return "number '" + t.text + "'";
    case Tok::String:
      return "string";
    case Tok::FString:
      return "f-string";
    case Tok::Newline:
      return "end of line";
    case Tok::Indent:
      return "indent";
    case Tok::Dedent:
      return "unindent";
    case Tok::End:
      return "end of file";
    case Tok::Error:
      return t.text;
    case Tok::Reserved:
      return "'" + t.text + "'";
    default:
      return std::string("'") + spelling(t.kind) + "'";
  }
}

}  // namespace gl::lang
