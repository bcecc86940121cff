#pragma once
// Python-style indentation edits on a text cursor, for the script editor's keys: four spaces per
// level, never tab characters. Each function edits the cursor's document and returns the
// cursor the editor should show afterwards.
#include <QString>
#include <QTextCursor>

namespace gl::ui::indentation {

constexpr int kWidth = 4;

int leadingSpaces(const QString& line);
// The code of a line without its comment (a '#' inside quotes is not a comment).
QString withoutComment(const QString& line);

// Tab: spaces up to the next stop, or, with a selection over several lines, one more level for
// each selected line (blank lines stay blank).
QTextCursor tab(QTextCursor cursor);
// Shift+Tab: one level less for the cursor's line or each selected line.
QTextCursor dedent(QTextCursor cursor);
// Enter: a new line with the current indentation, one level more after a ':' and one level
// less after return/pass/break/continue.
QTextCursor newline(QTextCursor cursor);
// Backspace inside the indentation removes back to the previous stop; false (nothing done)
// elsewhere.
bool backspace(QTextCursor& cursor);

}  // namespace gl::ui::indentation
