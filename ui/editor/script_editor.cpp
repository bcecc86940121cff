#include "ui/editor/script_editor.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

#include <algorithm>

#include "ui/editor/indentation.h"
#include "ui/editor/templates.h"

namespace gl::ui {

namespace {

// The gutter: draws through the editor, which knows the block geometry.
class LineNumberArea : public QWidget {
 public:
  explicit LineNumberArea(ScriptEditor* editor) : QWidget(editor), editor_(editor) {
    setMouseTracking(true);
  }
  QSize sizeHint() const override { return {editor_->lineNumberAreaWidth(), 0}; }

 protected:
  void paintEvent(QPaintEvent* event) override { editor_->paintLineNumberArea(event); }
  bool event(QEvent* event) override {
    if (event->type() == QEvent::ToolTip) {
      auto* help = static_cast<QHelpEvent*>(event);
      const QString text = editor_->errorMessagesOnLine(editor_->lineAt(help->pos().y()));
      if (text.isEmpty()) {
        QToolTip::hideText();
      } else {
        QToolTip::showText(help->globalPos(), text, this);
      }
      return true;
    }
    return QWidget::event(event);
  }

 private:
  ScriptEditor* editor_;
};

// The UTF-16 index of a 1-based code-point column (the engine counts code points).
int indexOfColumn(const QString& text, int col) {
  int index = 0;
  for (int c = 1; c < col && index < text.size(); ++c)
    index += text[index].isHighSurrogate() && index + 1 < text.size() ? 2 : 1;
  return index;
}

bool isWordChar(QChar c) { return c.isLetterOrNumber() || c == u'_'; }

}  // namespace

ScriptEditor::ScriptEditor(QWidget* parent)
    : QPlainTextEdit(parent),
      lineNumberArea_(new LineNumberArea(this)),
      highlighter_(new ScriptHighlighter(document())) {
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  font.setStyleHint(QFont::Monospace);
  setFont(font);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * indentation::kWidth);
  setMouseTracking(true);

  debounce_.setSingleShot(true);
  debounce_.setInterval(400);
  connect(&debounce_, &QTimer::timeout, this, &ScriptEditor::textEditedDebounced);
  // Only real edits restart the timer. The highlighter's format changes also arrive as contents
  // changes (and even bump the revision), so compare the text itself; scripts are small.
  connect(document(), &QTextDocument::contentsChange, this, [this] {
    QString text = toPlainText();
    if (text == lastText_) return;
    lastText_ = std::move(text);
    debounce_.start();
  });

  connect(this, &QPlainTextEdit::blockCountChanged, this, &ScriptEditor::updateLineNumberAreaWidth);
  connect(this, &QPlainTextEdit::updateRequest, this, &ScriptEditor::updateLineNumberArea);
  connect(this, &QPlainTextEdit::cursorPositionChanged, this,
          &ScriptEditor::onCursorPositionChanged);
  updateLineNumberAreaWidth();
  refreshExtraSelections();
}

// ---- Errors ---------------------------------------------------------------------------------

void ScriptEditor::setErrors(const QList<ScriptError>& errors) {
  errors_ = errors;
  refreshExtraSelections();
  lineNumberArea_->update();
}

void ScriptEditor::clearErrors() { setErrors({}); }

QTextCursor ScriptEditor::errorRange(const ScriptError& error) const {
  QTextBlock block = document()->findBlockByNumber(std::max(error.line, 1) - 1);
  if (!block.isValid()) block = document()->lastBlock();
  const QString text = block.text();
  int start = indexOfColumn(text, error.col);
  int end = start;
  if (start >= text.size()) {
    // Errors such as "expected ':'" point just past the line's end: mark its last character.
    start = std::max(0, static_cast<int>(text.size()) - 1);
    end = text.size();
  } else if (error.length > 0) {
    end = indexOfColumn(text, error.col + error.length);
  } else if (isWordChar(text[start])) {
    while (end < text.size() && isWordChar(text[end])) ++end;
  } else {
    end = start + 1;
  }
  QTextCursor range(block);
  range.setPosition(block.position() + start);
  range.setPosition(block.position() + end, QTextCursor::KeepAnchor);
  return range;
}

QString ScriptEditor::errorMessageAt(const QPoint& viewportPos) const {
  for (const ScriptError& error : errors_) {
    const QTextCursor range = errorRange(error);
    QTextCursor from(range), to(range);
    from.setPosition(range.selectionStart());
    to.setPosition(range.selectionEnd());
    const QRect a = cursorRect(from), b = cursorRect(to);
    const QRect area(QPoint(a.left(), a.top()),
                     QPoint(std::max(b.left(), a.left() + 4), a.bottom()));
    if (area.contains(viewportPos)) return error.message;
  }
  return {};
}

QString ScriptEditor::errorMessagesOnLine(int line) const {
  QStringList messages;
  for (const ScriptError& error : errors_)
    if (error.line == line) messages << error.message;
  return messages.join(u'\n');
}

bool ScriptEditor::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QString message = errorMessageAt(help->pos());
    if (message.isEmpty()) {
      QToolTip::hideText();
    } else {
      QToolTip::showText(help->globalPos(), message, viewport());
    }
    return true;
  }
  return QPlainTextEdit::viewportEvent(event);
}

void ScriptEditor::refreshExtraSelections() {
  QList<QTextEdit::ExtraSelection> selections;
  QTextEdit::ExtraSelection current;
  current.format.setBackground(dark_ ? QColor(0x2c, 0x31, 0x3a) : QColor(0xfc, 0xf6, 0xdc));
  current.format.setProperty(QTextFormat::FullWidthSelection, true);
  current.cursor = textCursor();
  current.cursor.clearSelection();
  selections << current;
  for (const ScriptError& error : errors_) {
    QTextEdit::ExtraSelection mark;
    mark.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    mark.format.setUnderlineColor(dark_ ? QColor(0xff, 0x6b, 0x6b) : QColor(0xd0, 0x10, 0x10));
    // The wavy line alone is thin; a tint keeps the mark visible on a classroom projector.
    mark.format.setBackground(dark_ ? QColor(0xff, 0x50, 0x50, 0x40)
                                    : QColor(0xff, 0x00, 0x00, 0x22));
    mark.cursor = errorRange(error);
    selections << mark;
  }
  setExtraSelections(selections);
}

// ---- Navigation -----------------------------------------------------------------------------

void ScriptEditor::onCursorPositionChanged() {
  refreshExtraSelections();
  const int line = currentLine();
  if (line == lastCursorLine_) return;
  lastCursorLine_ = line;
  lineNumberArea_->update();
  if (!movingProgrammatically_) emit cursorLineChanged(line);
}

void ScriptEditor::selectLine(int line) {
  const QTextBlock block = document()->findBlockByNumber(line - 1);
  if (!block.isValid()) return;
  goToLocation(line, indentation::leadingSpaces(block.text()) + 1);
}

void ScriptEditor::goToLocation(int line, int col) {
  const QTextBlock block = document()->findBlockByNumber(line - 1);
  if (!block.isValid()) return;
  QTextCursor cursor(block);
  cursor.setPosition(block.position() +
                     std::min(indexOfColumn(block.text(), std::max(col, 1)), block.length() - 1));
  // Scroll only when the line is off screen: clicking through graph nodes of visible lines
  // should not make the text jump.
  const bool visible = viewport()->rect().contains(cursorRect(cursor));
  movingProgrammatically_ = true;
  setTextCursor(cursor);
  movingProgrammatically_ = false;
  // Refresh here too, in case a caller blocked our signals around the move.
  lastCursorLine_ = currentLine();
  refreshExtraSelections();
  lineNumberArea_->update();
  if (!visible) centerCursor();
}

// ---- Templates ------------------------------------------------------------------------------

void ScriptEditor::insertTemplate(const QString& templateText) {
  QTextCursor cursor = textCursor();
  cursor.beginEditBlock();
  cursor.removeSelectedText();
  const QString line = cursor.block().text();
  const QString beforeCursor = line.left(cursor.positionInBlock());
  const bool atIndentation = beforeCursor.trimmed().isEmpty();
  // Continuation lines line up with the first one: at the cursor when it sits in the
  // indentation, else with the statement the cursor is in.
  const QString prefix(atIndentation ? beforeCursor.size() : indentation::leadingSpaces(line),
                       u' ');
  const bool restOfLineEmpty = line.mid(cursor.positionInBlock()).trimmed().isEmpty();

  QString indented;
  for (int i = 0; i < templateText.size(); ++i) {
    indented += templateText[i];
    if (templateText[i] != u'\n') continue;
    const bool lastChar = i + 1 == templateText.size();
    const bool blankLine = !lastChar && templateText[i + 1] == u'\n';
    if (!blankLine && !(lastChar && restOfLineEmpty)) indented += prefix;
  }
  QVector<Placeholder> placeholders;
  const QString text = expandPlaceholders(indented, &placeholders);
  const int base = cursor.position();
  cursor.insertText(text);
  cursor.endEditBlock();
  setTextCursor(cursor);

  pendingPlaceholders_.clear();
  for (const Placeholder& p : placeholders) {
    QTextCursor range(document());
    range.setPosition(base + p.start);
    range.setPosition(base + p.start + p.length, QTextCursor::KeepAnchor);
    pendingPlaceholders_ << range;
  }
  selectNextPlaceholder();
  setFocus(Qt::OtherFocusReason);
}

bool ScriptEditor::selectNextPlaceholder() {
  while (!pendingPlaceholders_.isEmpty()) {
    const QTextCursor next = pendingPlaceholders_.takeFirst();
    if (!next.hasSelection()) continue;  // the user deleted it
    setTextCursor(next);
    return true;
  }
  return false;
}

// ---- Keys -----------------------------------------------------------------------------------

void ScriptEditor::keyPressEvent(QKeyEvent* event) {
  if (handleIndentKeys(event)) {
    event->accept();
    return;
  }
  if (event->key() == Qt::Key_Escape) pendingPlaceholders_.clear();
  QPlainTextEdit::keyPressEvent(event);
}

bool ScriptEditor::handleIndentKeys(QKeyEvent* event) {
  const Qt::KeyboardModifiers mods = event->modifiers() & ~(Qt::KeypadModifier | Qt::ShiftModifier);
  if (mods != Qt::NoModifier || isReadOnly()) return false;
  switch (event->key()) {
    case Qt::Key_Tab:
      if (!selectNextPlaceholder()) setTextCursor(indentation::tab(textCursor()));
      return true;
    case Qt::Key_Backtab:
      setTextCursor(indentation::dedent(textCursor()));
      return true;
    case Qt::Key_Return:
    case Qt::Key_Enter:
      pendingPlaceholders_.clear();
      setTextCursor(indentation::newline(textCursor()));
      ensureCursorVisible();
      return true;
    case Qt::Key_Backspace: {
      QTextCursor cursor = textCursor();
      if (!indentation::backspace(cursor)) return false;
      setTextCursor(cursor);
      return true;
    }
    default:
      return false;
  }
}

// ---- Gutter ---------------------------------------------------------------------------------

void ScriptEditor::setDarkScheme(bool dark) {
  dark_ = dark;
  highlighter_->setScheme(dark ? ScriptHighlighter::Scheme::Dark
                               : ScriptHighlighter::Scheme::Light);
  refreshExtraSelections();
  lineNumberArea_->update();
}

int ScriptEditor::lineNumberAreaWidth() const {
  const int digits = std::max(3, static_cast<int>(QString::number(blockCount()).size()));
  const int markerWidth = fontMetrics().height() / 2 + 4;  // room for the error dot
  return 4 + markerWidth + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits + 8;
}

void ScriptEditor::updateLineNumberAreaWidth() {
  setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
}

void ScriptEditor::updateLineNumberArea(const QRect& rect, int dy) {
  if (dy != 0) {
    lineNumberArea_->scroll(0, dy);
  } else {
    lineNumberArea_->update(0, rect.y(), lineNumberArea_->width(), rect.height());
  }
  if (rect.contains(viewport()->rect())) updateLineNumberAreaWidth();
}

void ScriptEditor::changeEvent(QEvent* event) {
  QPlainTextEdit::changeEvent(event);
  // Zooming (a bigger font for a projector) must keep four-space tab stops and a gutter wide
  // enough for the numbers.
  if (event->type() == QEvent::FontChange) {
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * indentation::kWidth);
    updateLineNumberAreaWidth();
    const QRect area = contentsRect();
    lineNumberArea_->setGeometry(
        QRect(area.left(), area.top(), lineNumberAreaWidth(), area.height()));
  }
}

void ScriptEditor::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  const QRect area = contentsRect();
  lineNumberArea_->setGeometry(
      QRect(area.left(), area.top(), lineNumberAreaWidth(), area.height()));
}

int ScriptEditor::lineAt(int gutterY) const {
  for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
    const QRectF box = blockBoundingGeometry(block).translated(contentOffset());
    if (box.top() > gutterY) break;
    if (block.isVisible() && gutterY < box.bottom()) return block.blockNumber() + 1;
  }
  return 0;
}

void ScriptEditor::paintLineNumberArea(QPaintEvent* event) {
  QPainter painter(lineNumberArea_);
  const QColor background = dark_ ? QColor(0x21, 0x25, 0x2b) : QColor(0xf3, 0xf3, 0xf3);
  const QColor number = dark_ ? QColor(0x63, 0x6d, 0x83) : QColor(0x99, 0x99, 0x99);
  const QColor currentNumber = dark_ ? QColor(0xd7, 0xda, 0xe0) : QColor(0x33, 0x33, 0x33);
  const QColor errorColour = dark_ ? QColor(0xff, 0x6b, 0x6b) : QColor(0xd0, 0x10, 0x10);
  painter.fillRect(event->rect(), background);

  QList<int> errorLines;
  for (const ScriptError& e : errors_) errorLines << e.line;
  const int lineHeight = fontMetrics().height();
  const int right = lineNumberArea_->width() - 6;
  for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
    const QRectF box = blockBoundingGeometry(block).translated(contentOffset());
    if (box.top() > event->rect().bottom()) break;
    if (!block.isVisible() || box.bottom() < event->rect().top()) continue;
    const int line = block.blockNumber() + 1;
    const int top = static_cast<int>(box.top());
    const bool hasError = errorLines.contains(line);
    if (hasError) {
      const int d = lineHeight / 2;
      painter.setRenderHint(QPainter::Antialiasing);
      painter.setPen(Qt::NoPen);
      painter.setBrush(errorColour);
      painter.drawEllipse(QRect(4, top + (lineHeight - d) / 2, d, d));
    }
    QFont f = font();
    f.setBold(hasError || line == currentLine());
    painter.setFont(f);
    painter.setPen(hasError ? errorColour : line == currentLine() ? currentNumber : number);
    painter.drawText(0, top, right, lineHeight, Qt::AlignRight | Qt::AlignVCenter,
                     QString::number(line));
  }
}

}  // namespace gl::ui
