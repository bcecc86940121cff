#pragma once
// The script editor: a plain-text editor for GradLab script with line numbers, the current line
// highlighted, Python-style indentation (four spaces), error marks with their messages, and
// template insertion. It knows nothing about running scripts: the window listens to
// textEditedDebounced() to re-parse and calls setErrors() with what the parser or tracer said.
#include <QList>
#include <QPlainTextEdit>
#include <QTextCursor>
#include <QTimer>

#include "ui/editor/script_highlighter.h"

namespace gl::ui {

// One error mark. Lines and columns are 1-based, columns count code points (as the engine's).
struct ScriptError {
  int line = 1;
  int col = 1;
  QString message;
  int length = 0;  // characters to underline; 0 = the word (or character) at col
};

class ScriptEditor : public QPlainTextEdit {
  Q_OBJECT

 public:
  explicit ScriptEditor(QWidget* parent = nullptr);

  // Error marks: a wavy red underline, the message as tooltip and a mark in the gutter. They
  // stay until replaced or cleared (the window clears them when the script parses again).
  void setErrors(const QList<ScriptError>& errors);
  void clearErrors();
  const QList<ScriptError>& errors() const { return errors_; }
  // The message of the error under a point in viewport coordinates ("" if none); used for the
  // tooltip.
  QString errorMessageAt(const QPoint& viewportPos) const;
  // The messages of the errors on a line, one per row.
  QString errorMessagesOnLine(int line) const;

  // Puts the cursor at the start of a 1-based line's code and scrolls it into view. Like
  // goToLocation, it does not emit cursorLineChanged: the caller (the graph view, the run log)
  // already knows the line, and echoing it back would loop selections between the panels.
  void selectLine(int line);
  // Puts the cursor on line:col (1-based, col in code points), e.g. from a run-log link. Neither
  // call takes the keyboard focus (the graph view keeps it); the window may setFocus().
  void goToLocation(int line, int col);
  int currentLine() const { return textCursor().blockNumber() + 1; }

  // Inserts a template (see templates.h) at the cursor: lines after the first are indented to
  // the cursor's column, placeholders become their names, and the first one is selected. Tab
  // then moves to the next placeholder until the last one is reached.
  void insertTemplate(const QString& templateText);

  void setDarkScheme(bool dark);
  ScriptHighlighter* highlighter() const { return highlighter_; }

  // Milliseconds of quiet typing before textEditedDebounced() fires.
  void setDebounceInterval(int ms) { debounce_.setInterval(ms); }

  int lineNumberAreaWidth() const;
  // Called by the gutter widget.
  void paintLineNumberArea(QPaintEvent* event);
  int lineAt(int gutterY) const;

 signals:
  // The user moved the cursor to another line (1-based).
  void cursorLineChanged(int line);
  // The text changed and then stayed unchanged for the debounce interval.
  void textEditedDebounced();

 protected:
  void keyPressEvent(QKeyEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;
  bool viewportEvent(QEvent* event) override;

 private:
  // The text range an error underlines, as a cursor selection.
  QTextCursor errorRange(const ScriptError& error) const;
  void refreshExtraSelections();
  void updateLineNumberAreaWidth();
  void updateLineNumberArea(const QRect& rect, int dy);
  void onCursorPositionChanged();

  bool handleIndentKeys(QKeyEvent* event);
  bool selectNextPlaceholder();

  QWidget* lineNumberArea_;
  ScriptHighlighter* highlighter_;
  QList<ScriptError> errors_;
  QList<QTextCursor> pendingPlaceholders_;  // track edits, so positions stay right
  QTimer debounce_;
  int lastCursorLine_ = 0;
  QString lastText_;                     // the text when the debounce timer last started
  bool movingProgrammatically_ = false;  // selectLine/goToLocation do not echo cursorLineChanged
  bool dark_ = false;
};

}  // namespace gl::ui
