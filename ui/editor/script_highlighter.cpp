#include "ui/editor/script_highlighter.h"

#include <QColor>
#include <QFont>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/lang/lexer.h"

namespace gl::ui {

namespace {

using gl::lang::Tok;

struct Palette {
  const char* colour;
  bool bold = false;
  bool italic = false;
};

// Indexed by ScriptHighlighter::Role. Light follows common IDE light themes; dark keeps the
// same hue families so a lesson looks alike on a projector in either mode.
constexpr Palette kLight[] = {
    {"#0033b3", true},
    {"#0033b3"},
    {"#6b2fba"},
    {"#00627a"},
    {"#1750eb"},
    {"#067d17"},
    {"#8c8c8c", false, true},
    {"#9e30c9", true},
    {"#b5460f", true},
    {"#00627a", true},
};
constexpr Palette kDark[] = {
    {"#cc7832", true},
    {"#cc7832"},
    {"#b39ddb"},
    {"#56b6c2"},
    {"#6897bb"},
    {"#98c379"},
    {"#7f848e", false, true},
    {"#c678dd", true},
    {"#e5c07b", true},
    {"#ffc66d", true},
};

bool isBuiltin(const std::string& name) {
  static const char* const kBuiltins[] = {
      "range", "len",        "print", "zip",  "enumerate", "min", "max",      "abs",
      "float", "int",        "bool",  "list", "tuple",     "sum", "reversed", "sorted",
      "round", "isinstance", "str",   "pow",  "any",       "all", "map",      "filter"};
  return std::any_of(std::begin(kBuiltins), std::end(kBuiltins),
                     [&](const char* b) { return name == b; });
}

// TensorFlow names used without the optional `tf.` prefix still deserve the tf colour.
bool isBareTfName(const std::string& name) {
  static const char* const kNames[] = {"while_loop",   "cond",        "map_fn",   "vectorized_map",
                                       "GradientTape", "TensorArray", "Variable", "stop_gradient",
                                       "einsum",       "matmul"};
  return std::any_of(std::begin(kNames), std::end(kNames),
                     [&](const char* n) { return name == n; });
}

bool isKeyword(Tok kind) { return kind >= Tok::KwFalse && kind <= Tok::Reserved; }
bool isConstant(Tok kind) {
  return kind == Tok::KwTrue || kind == Tok::KwFalse || kind == Tok::KwNone;
}
bool isStructure(Tok kind) {
  return kind == Tok::Newline || kind == Tok::Indent || kind == Tok::Dedent || kind == Tok::End;
}

// Where a string literal starts: a quote, or up to two prefix letters (r, u, b, f) and a quote.
bool startsString(const QString& text, int at) {
  for (int i = at; i < text.size() && i <= at + 2; ++i) {
    if (text[i] == u'\'' || text[i] == u'"') return true;
    if (!text[i].isLetter()) return false;
  }
  return false;
}

// Index just past the closing triple quote at or after `from`, or -1 if the line has none.
int findTripleEnd(const QString& text, int from, QChar quote) {
  const QString close(3, quote);
  for (int i = from; i < text.size(); ++i) {
    if (text[i] == u'\\') {
      ++i;
    } else if (text[i] == quote && text.mid(i, 3) == close) {
      return i + 3;
    }
  }
  return -1;
}

// One lexer token placed in the block's text (UTF-16 indices).
struct Span {
  Tok kind;
  std::string text;
  int start;
  int end;
};

}  // namespace

ScriptHighlighter::ScriptHighlighter(QTextDocument* document, Scheme scheme)
    : QSyntaxHighlighter(document), scheme_(scheme) {
  setScheme(scheme);
}

void ScriptHighlighter::setScheme(Scheme scheme) {
  scheme_ = scheme;
  const Palette* palette = scheme == Scheme::Light ? kLight : kDark;
  for (int i = 0; i < static_cast<int>(Role::Count); ++i) {
    QTextCharFormat f;
    f.setForeground(QColor(palette[i].colour));
    if (palette[i].bold) f.setFontWeight(QFont::Bold);
    if (palette[i].italic) f.setFontItalic(true);
    formats_[i] = f;
  }
  rehighlight();
}

void ScriptHighlighter::highlightBlock(const QString& text) {
  setCurrentBlockState(kNormal);
  int from = 0;
  const int previous = previousBlockState();
  if (previous == kInTripleSingle || previous == kInTripleDouble) {
    const QChar quote = previous == kInTripleSingle ? u'\'' : u'"';
    const int end = findTripleEnd(text, 0, quote);
    if (end < 0) {
      setRole(0, text.size(), Role::String);
      setCurrentBlockState(previous);
      return;
    }
    setRole(0, end, Role::String);
    from = end;
  }
  applyLexerFormats(text, from);
}

int ScriptHighlighter::formatStringAt(const QString& text, int start) {
  int i = start;
  while (i < text.size() && text[i].isLetter()) ++i;  // r"..", u'..'
  const QChar quote = text[i];
  const bool triple = text.mid(i, 3) == QString(3, quote);
  int end = -1;
  if (triple) {
    end = findTripleEnd(text, i + 3, quote);
    if (end < 0) setCurrentBlockState(quote == u'\'' ? kInTripleSingle : kInTripleDouble);
  } else {
    for (int k = i + 1; k < text.size(); ++k) {
      if (text[k] == u'\\') {
        ++k;
      } else if (text[k] == quote) {
        end = k + 1;
        break;
      }
    }
  }
  if (end < 0) end = text.size();  // unterminated: the parser reports it, colour the rest
  setRole(start, end - start, Role::String);
  return end;
}

void ScriptHighlighter::applyLexerFormats(const QString& text, int from) {
  int pos = from;
  bool lineStart = true;  // `param` is only a keyword as the first word of a line
  for (; pos < text.size(); lineStart = false) {
    while (pos < text.size() && text[pos].isSpace()) ++pos;
    if (pos >= text.size()) return;
    if (text[pos] == u'#') {
      setRole(pos, text.size() - pos, Role::Comment);
      return;
    }

    // The lexer counts columns in code points; QString indexes UTF-16 units.
    const QString chunk = text.mid(pos);
    std::vector<int> indexOfColumn;
    for (int i = 0; i < chunk.size(); ++i) {
      indexOfColumn.push_back(i);
      if (chunk[i].isHighSurrogate() && i + 1 < chunk.size()) ++i;
    }
    auto toIndex = [&](int col) {
      return pos + (col - 1 < static_cast<int>(indexOfColumn.size()) ? indexOfColumn[col - 1]
                                                                     : chunk.size());
    };

    std::vector<Span> spans;
    int furthest = pos;
    int restartAt = -1;
    for (const gl::lang::Token& t : gl::lang::tokenize(chunk.toStdString())) {
      if (t.kind == Tok::Error) {
        // Colour what the lexer refused (an unterminated string) or skip one character, then
        // carry on lexing: one typo must not leave the rest of the line grey.
        const int at = toIndex(t.col);
        restartAt = at < text.size() && startsString(text, at) ? formatStringAt(text, at)
                                                               : std::max(at + 1, furthest);
        break;
      }
      if (isStructure(t.kind)) continue;
      const int start = toIndex(t.col);
      int end = start + static_cast<int>(QString::fromStdString(t.text).size());
      if (t.kind == Tok::String) end = formatStringAt(text, start);
      spans.push_back({t.kind, t.text, start, end});
      furthest = std::max(furthest, end);
    }

    for (std::size_t i = 0; i < spans.size(); ++i) {
      const Span& s = spans[i];
      auto kindAt = [&](std::size_t k) { return k < spans.size() ? spans[k].kind : Tok::End; };
      const bool afterDot = i > 0 && spans[i - 1].kind == Tok::Dot;
      if (isConstant(s.kind)) {
        setRole(s.start, s.end - s.start, Role::Constant);
      } else if (isKeyword(s.kind)) {
        setRole(s.start, s.end - s.start, Role::Keyword);
      } else if (s.kind == Tok::Int || s.kind == Tok::Float) {
        setRole(s.start, s.end - s.start, Role::Number);
      } else if (s.kind != Tok::Name || afterDot) {
        continue;
      } else if (i > 0 && spans[i - 1].kind == Tok::KwDef) {
        setRole(s.start, s.end - s.start, Role::Definition);
      } else if (s.text == "param" && i == 0 && lineStart && kindAt(1) == Tok::Name) {
        setRole(s.start, s.end - s.start, Role::Param);
      } else if (s.text == "variant" && kindAt(i + 1) == Tok::LParen) {
        setRole(s.start, s.end - s.start, Role::Variant);
      } else if ((s.text == "tf" || s.text == "keras") && kindAt(i + 1) == Tok::Dot) {
        // Colour the whole chain `tf.random.normal` as one name.
        std::size_t last = i;
        while (kindAt(last + 1) == Tok::Dot && kindAt(last + 2) == Tok::Name) last += 2;
        setRole(s.start, spans[last].end - s.start, Role::TfName);
        i = last;
      } else if (isBareTfName(s.text)) {
        setRole(s.start, s.end - s.start, Role::TfName);
      } else if (isBuiltin(s.text)) {
        setRole(s.start, s.end - s.start, Role::Builtin);
      }
    }

    if (restartAt < 0) {
      // The lexer skips comments, so whatever follows the last token is space or a comment.
      const int hash = text.indexOf(u'#', furthest);
      if (hash >= 0) setRole(hash, text.size() - hash, Role::Comment);
      return;
    }
    pos = restartAt;
  }
}

}  // namespace gl::ui
