#include "ui/panels/run_log.h"

#include <QFontDatabase>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>

namespace gl::ui {

RunLog::RunLog(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setUndoRedoEnabled(false);
  setMaximumBlockCount(kDefaultMaxLines);
  setLineWrapMode(QPlainTextEdit::WidgetWidth);
  // tf.print output is often a table of numbers: keep its columns aligned.
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  viewport()->setMouseTracking(true);
  setPlaceholderText(tr("Run output appears here."));
}

void RunLog::appendInfo(const QString& text) { appendLine(Kind::Info, text, {}); }

void RunLog::appendPrint(const QString& text) { appendLine(Kind::Print, text, {}); }

void RunLog::appendError(const QString& text, const QString& location) {
  if (!location.isEmpty()) return appendLine(Kind::Error, text, location);
  // Engine errors arrive as "file:line:col: message": link the location they start with.
  static const QRegularExpression kLeadingLocation(
      QStringLiteral(R"(^(\S[^\n]*?:\d+:\d+|\d+:\d+): )"));
  const QRegularExpressionMatch m = kLeadingLocation.match(text);
  if (m.hasMatch() && parseLocation(m.captured(1)))
    return appendLine(Kind::Error, text.mid(m.capturedEnd()), m.captured(1));
  appendLine(Kind::Error, text, {});
}

void RunLog::appendError(const QString& text, const QString& file, int line, int col) {
  appendLine(Kind::Error, text, formatLocation(file, line, col));
}

void RunLog::appendWarning(const QString& text, const QString& file, int line, int col) {
  appendLine(Kind::Warning, text, line > 0 ? formatLocation(file, line, col) : QString());
}

QString RunLog::formatLocation(const QString& file, int line, int col) {
  const QString lineCol = QStringLiteral("%1:%2").arg(line).arg(col);
  return file.isEmpty() ? lineCol : file + u':' + lineCol;
}

std::optional<LogLocation> RunLog::parseLocation(const QString& text) {
  // The file part is greedy, so names with colons ("C:/x.gls:3:4") keep them.
  static const QRegularExpression kLocation(QStringLiteral(R"(^(?:(.*):)?(\d+):(\d+)$)"));
  const QRegularExpressionMatch m = kLocation.match(text.trimmed());
  if (!m.hasMatch()) return std::nullopt;
  LogLocation loc{m.captured(1), m.captured(2).toInt(), m.captured(3).toInt()};
  if (loc.line <= 0) return std::nullopt;
  return loc;
}

void RunLog::appendLine(Kind kind, const QString& text, const QString& location) {
  const bool darkBase = palette().color(QPalette::Base).lightness() < 128;
  QTextCharFormat body;
  switch (kind) {
    case Kind::Info:
      body.setForeground(palette().color(QPalette::PlaceholderText));
      break;
    case Kind::Print:
      body.setForeground(palette().color(QPalette::Text));
      break;
    case Kind::Warning:
      body.setForeground(darkBase ? QColor(0xff, 0xb3, 0x47) : QColor(0xa8, 0x5a, 0x00));
      break;
    case Kind::Error:
      body.setForeground(darkBase ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28));
      break;
  }

  QScrollBar* bar = verticalScrollBar();
  const bool followTail = bar->value() == bar->maximum();
  QTextCursor cursor(document());
  cursor.movePosition(QTextCursor::End);
  cursor.beginEditBlock();
  if (!document()->isEmpty()) cursor.insertBlock();
  if (!location.isEmpty()) {
    QTextCharFormat link;
    link.setForeground(palette().color(QPalette::Link));
    link.setFontUnderline(true);
    link.setAnchor(true);
    link.setAnchorHref(location);
    link.setToolTip(tr("Go to %1 in the editor").arg(location));
    cursor.insertText(location, link);
    cursor.insertText(QStringLiteral(": "), body);
  }
  cursor.insertText(text, body);
  cursor.endEditBlock();
  if (followTail) bar->setValue(bar->maximum());
}

bool RunLog::activateLinkAt(const QPoint& viewportPos) {
  const std::optional<LogLocation> loc = parseLocation(anchorAt(viewportPos));
  if (!loc) return false;
  emit locationActivated(loc->line, loc->col);
  emit fileLocationActivated(loc->file, loc->line, loc->col);
  return true;
}

void RunLog::mouseReleaseEvent(QMouseEvent* event) {
  // A drag that selected text is a selection, not a click on the link.
  if (event->button() == Qt::LeftButton && !textCursor().hasSelection() &&
      activateLinkAt(event->position().toPoint())) {
    event->accept();
    return;
  }
  QPlainTextEdit::mouseReleaseEvent(event);
}

void RunLog::mouseMoveEvent(QMouseEvent* event) {
  const bool overLink = !anchorAt(event->position().toPoint()).isEmpty();
  viewport()->setCursor(overLink ? Qt::PointingHandCursor : Qt::IBeamCursor);
  QPlainTextEdit::mouseMoveEvent(event);
}

}  // namespace gl::ui
