#include "ui/editor/indentation.h"

#include <QStringList>
#include <QTextBlock>
#include <QTextDocument>

#include <algorithm>

namespace gl::ui::indentation {

namespace {

// The lines a cursor's selection touches. A selection ending at the start of a line does not
// include that line (that is how a selection of whole lines ends).
std::pair<QTextBlock, QTextBlock> selectedLines(const QTextCursor& cursor) {
  const QTextDocument* doc = cursor.document();
  QTextBlock first = doc->findBlock(cursor.selectionStart());
  QTextBlock last = doc->findBlock(cursor.selectionEnd());
  if (last != first && cursor.selectionEnd() == last.position()) last = last.previous();
  return {first, last};
}

}  // namespace

int leadingSpaces(const QString& line) {
  int n = 0;
  while (n < line.size() && line[n] == u' ') ++n;
  return n;
}

QString withoutComment(const QString& line) {
  QChar quote;
  for (int i = 0; i < line.size(); ++i) {
    const QChar c = line[i];
    if (!quote.isNull()) {
      if (c == u'\\')
        ++i;
      else if (c == quote)
        quote = QChar();
    } else if (c == u'\'' || c == u'"') {
      quote = c;
    } else if (c == u'#') {
      return line.left(i);
    }
  }
  return line;
}

QTextCursor tab(QTextCursor cursor) {
  const auto [first, last] = selectedLines(cursor);
  if (!cursor.hasSelection() || first == last) {
    const int column = cursor.selectionStart() - cursor.block().position();
    cursor.insertText(QString(kWidth - column % kWidth, u' '));
    return cursor;
  }
  cursor.beginEditBlock();
  for (QTextBlock b = first; b.isValid(); b = b.next()) {
    if (!b.text().trimmed().isEmpty()) QTextCursor(b).insertText(QString(kWidth, u' '));
    if (b == last) break;
  }
  cursor.endEditBlock();
  // Keep whole lines selected, so Tab can be pressed again.
  QTextCursor selection(cursor.document());
  selection.setPosition(first.position());
  selection.setPosition(last.position() + last.length() - 1, QTextCursor::KeepAnchor);
  return selection;
}

QTextCursor dedent(QTextCursor cursor) {
  const auto [first, last] = selectedLines(cursor);
  cursor.beginEditBlock();
  for (QTextBlock b = first; b.isValid(); b = b.next()) {
    const int remove = std::min(kWidth, leadingSpaces(b.text()));
    if (remove > 0) {
      QTextCursor at(b);
      at.setPosition(b.position() + remove, QTextCursor::KeepAnchor);
      at.removeSelectedText();
    }
    if (b == last) break;
  }
  cursor.endEditBlock();
  return cursor;
}

QTextCursor newline(QTextCursor cursor) {
  const QString line = cursor.block().text();
  const QString before = line.left(cursor.selectionStart() - cursor.block().position());
  int indent = std::min(leadingSpaces(line), static_cast<int>(before.size()));
  const QString code = withoutComment(before).trimmed();
  if (code.endsWith(u':')) {
    indent += kWidth;
  } else {
    // After a statement that ends its block, the next line usually leaves the block.
    static const QStringList kBlockEnders = {"return", "pass", "break", "continue"};
    if (kBlockEnders.contains(code.section(u' ', 0, 0))) indent = std::max(0, indent - kWidth);
  }
  cursor.insertText(u'\n' + QString(indent, u' '));
  return cursor;
}

bool backspace(QTextCursor& cursor) {
  if (cursor.hasSelection()) return false;
  const int column = cursor.positionInBlock();
  const QString before = cursor.block().text().left(column);
  if (column == 0 || leadingSpaces(before) != column) return false;  // not in the indentation
  const int remove = column % kWidth == 0 ? kWidth : column % kWidth;
  cursor.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, remove);
  cursor.removeSelectedText();
  return true;
}

}  // namespace gl::ui::indentation
