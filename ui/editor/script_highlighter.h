#pragma once
// Syntax colours for GradLab script (.gls). Each line is run through the engine's own lexer
// (gl::lang::tokenize), so the editor and the parser agree on what is a keyword, a number or a
// string. Comments and triple-quoted strings that span lines are the only things scanned here,
// because the lexer skips the former and sees one line at a time.
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <array>

namespace gl::ui {

class ScriptHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

 public:
  enum class Scheme { Light, Dark };

  // What a piece of text is, as far as colour goes.
  enum class Role {
    Keyword,   // if, while, def, with, ...
    Constant,  // True, False, None
    Builtin,   // range, len, print, zip, ...
    TfName,    // tf.while_loop, keras.layers.Dense: the whole dotted chain
    Number,
    String,
    Comment,
    Param,       // the soft keyword `param` starting a knob declaration
    Variant,     // `variant` in `with variant("serial"):`
    Definition,  // the name after `def`
    Count
  };

  explicit ScriptHighlighter(QTextDocument* document, Scheme scheme = Scheme::Light);

  void setScheme(Scheme scheme);
  Scheme scheme() const { return scheme_; }
  QTextCharFormat format(Role role) const { return formats_[static_cast<int>(role)]; }

 protected:
  void highlightBlock(const QString& text) override;

 private:
  // Block states: a triple-quoted string left open at the end of a line continues on the next.
  enum BlockState { kNormal = 0, kInTripleSingle = 1, kInTripleDouble = 2 };

  void applyLexerFormats(const QString& text, int from);
  // Formats a string literal starting at `start` (prefix letters allowed); returns its end.
  int formatStringAt(const QString& text, int start);
  void setRole(int start, int length, Role role) {
    setFormat(start, length, formats_[static_cast<int>(role)]);
  }

  Scheme scheme_;
  std::array<QTextCharFormat, static_cast<int>(Role::Count)> formats_;
};

}  // namespace gl::ui
