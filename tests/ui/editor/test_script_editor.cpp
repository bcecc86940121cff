// The script editor driven with real key events offscreen: indentation, error marks and their
// tooltips, navigation signals, template insertion, the debounced edit signal, and the colours
// the highlighter gives to keywords, comments and the rest.
#include "test_main.h"

#include <QHelpEvent>
#include <QTextBlock>
#include <QTextLayout>
#include <QToolTip>

#include "ui/editor/script_editor.h"
#include "ui/editor/script_highlighter.h"

using gl::ui::ScriptEditor;
using gl::ui::ScriptError;
using Role = gl::ui::ScriptHighlighter::Role;

namespace {

void putCursorAtEnd(ScriptEditor& editor) { editor.moveCursor(QTextCursor::End); }

// The wavy underlines among the editor's extra selections.
QList<QTextEdit::ExtraSelection> errorMarks(const ScriptEditor& editor) {
  QList<QTextEdit::ExtraSelection> marks;
  for (const auto& s : editor.extraSelections())
    if (s.format.underlineStyle() == QTextCharFormat::WaveUnderline) marks << s;
  return marks;
}

// The highlighter's format at a position of a line (0-based block and index).
QTextCharFormat formatAt(const ScriptEditor& editor, int blockNumber, int index) {
  const QTextBlock block = editor.document()->findBlockByNumber(blockNumber);
  for (const QTextLayout::FormatRange& r : block.layout()->formats())
    if (index >= r.start && index < r.start + r.length) return r.format;
  return {};
}

bool hasRole(const ScriptEditor& editor, int blockNumber, int index, Role role) {
  const QTextCharFormat expected = editor.highlighter()->format(role);
  const QTextCharFormat actual = formatAt(editor, blockNumber, index);
  return actual.foreground() == expected.foreground() &&
         actual.fontWeight() == expected.fontWeight() &&
         actual.fontItalic() == expected.fontItalic();
}

// The centre of the character at a document position, in viewport coordinates.
QPoint centreOf(const ScriptEditor& editor, int position) {
  QTextCursor c(editor.document());
  c.setPosition(position);
  const QRect left = editor.cursorRect(c);
  c.setPosition(position + 1);
  const QRect right = editor.cursorRect(c);
  return {(left.left() + right.left()) / 2, left.center().y()};
}

}  // namespace

class TestScriptEditor : public QObject {
  Q_OBJECT

 private slots:
  // ---- Indentation ----
  void enterAfterColonIndents() {
    ScriptEditor editor;
    editor.setPlainText("while i < n:");
    putCursorAtEnd(editor);
    QTest::keyClick(&editor, Qt::Key_Return);
    QCOMPARE(editor.toPlainText(), QString("while i < n:\n    "));
    QCOMPARE(editor.textCursor().positionInBlock(), 4);
    QTest::keyClicks(&editor, "if x:");
    QTest::keyClick(&editor, Qt::Key_Enter);
    QCOMPARE(editor.textCursor().block().text(), QString("        "));
  }

  void enterKeepsIndentation() {
    ScriptEditor editor;
    editor.setPlainText("def f(x):\n    y = x * 2");
    putCursorAtEnd(editor);
    QTest::keyClick(&editor, Qt::Key_Return);
    QCOMPARE(editor.textCursor().block().text(), QString("    "));
  }

  void enterIgnoresColonInComment() {
    ScriptEditor editor;
    editor.setPlainText("x = 1  # note: not a block");
    putCursorAtEnd(editor);
    QTest::keyClick(&editor, Qt::Key_Return);
    QCOMPARE(editor.textCursor().block().text(), QString());
  }

  void enterAfterReturnLeavesTheBlock() {
    ScriptEditor editor;
    editor.setPlainText("def f(x):\n    return x");
    putCursorAtEnd(editor);
    QTest::keyClick(&editor, Qt::Key_Return);
    QCOMPARE(editor.textCursor().block().text(), QString());
  }

  void tabInsertsFourSpaces() {
    ScriptEditor editor;
    QTest::keyClick(&editor, Qt::Key_Tab);
    QCOMPARE(editor.toPlainText(), QString("    "));
    // Off a tab stop, Tab goes to the next one.
    editor.setPlainText("ab");
    putCursorAtEnd(editor);
    QTest::keyClick(&editor, Qt::Key_Tab);
    QCOMPARE(editor.toPlainText(), QString("ab  "));
    QVERIFY(!editor.toPlainText().contains('\t'));
  }

  void tabIsUndoable() {
    ScriptEditor editor;
    editor.setPlainText("x");
    QTest::keyClick(&editor, Qt::Key_Tab);
    QCOMPARE(editor.toPlainText(), QString("    x"));
    editor.undo();
    QCOMPARE(editor.toPlainText(), QString("x"));
    editor.redo();
    QCOMPARE(editor.toPlainText(), QString("    x"));
  }

  void shiftTabDedents() {
    ScriptEditor editor;
    editor.setPlainText("        y = 1");
    putCursorAtEnd(editor);
    QTest::keyClick(&editor, Qt::Key_Backtab, Qt::ShiftModifier);
    QCOMPARE(editor.toPlainText(), QString("    y = 1"));
    QTest::keyClick(&editor, Qt::Key_Backtab, Qt::ShiftModifier);
    QTest::keyClick(&editor, Qt::Key_Backtab, Qt::ShiftModifier);
    QCOMPARE(editor.toPlainText(), QString("y = 1"));
  }

  void tabAndShiftTabShiftSelectedLines() {
    ScriptEditor editor;
    editor.setPlainText("a = 1\n\nb = 2\nc = 3");
    QTextCursor c(editor.document());
    c.setPosition(0);
    c.setPosition(editor.document()->findBlockByNumber(2).position() + 2, QTextCursor::KeepAnchor);
    editor.setTextCursor(c);
    QTest::keyClick(&editor, Qt::Key_Tab);
    QCOMPARE(editor.toPlainText(), QString("    a = 1\n\n    b = 2\nc = 3"));  // blank stays blank
    QTest::keyClick(&editor, Qt::Key_Backtab, Qt::ShiftModifier);
    QCOMPARE(editor.toPlainText(), QString("a = 1\n\nb = 2\nc = 3"));
  }

  void backspaceInIndentationRemovesOneLevel() {
    ScriptEditor editor;
    editor.setPlainText("        ");
    putCursorAtEnd(editor);
    QTest::keyClick(&editor, Qt::Key_Backspace);
    QCOMPARE(editor.toPlainText(), QString("    "));
    editor.setPlainText("    x = 1");
    putCursorAtEnd(editor);
    QTest::keyClick(&editor, Qt::Key_Backspace);  // outside the indentation: one character
    QCOMPARE(editor.toPlainText(), QString("    x = "));
  }

  // ---- Error marks ----
  void setErrorsUnderlinesTheRange() {
    ScriptEditor editor;
    editor.setPlainText("x = foo(1)\nwhile y\n");
    editor.setErrors({{1, 5, "unknown name 'foo'"}, {2, 8, "expected ':' after the condition"}});
    const auto marks = errorMarks(editor);
    QCOMPARE(marks.size(), 2);
    QCOMPARE(marks[0].cursor.selectionStart(), 4);  // "foo": the word at the column
    QCOMPARE(marks[0].cursor.selectionEnd(), 7);
    QCOMPARE(marks[0].format.underlineColor().red() > 150, true);
    // Past the end of line 2: its last character is marked.
    const int line2 = editor.document()->findBlockByNumber(1).position();
    QCOMPARE(marks[1].cursor.selectionStart(), line2 + 6);
    QCOMPARE(marks[1].cursor.selectionEnd(), line2 + 7);
    QCOMPARE(editor.errorMessagesOnLine(2), QString("expected ':' after the condition"));
  }

  void explicitLengthAndPunctuation() {
    ScriptEditor editor;
    editor.setPlainText("y = (a + b))");
    editor.setErrors({{1, 12, "unexpected ')'"}, {1, 6, "span", 5}});
    const auto marks = errorMarks(editor);
    QCOMPARE(marks[0].cursor.selectedText(), QString(")"));
    QCOMPARE(marks[1].cursor.selectedText(), QString("a + b"));
  }

  void tooltipShowsTheMessage() {
    ScriptEditor editor;
    editor.resize(500, 300);
    editor.setPlainText("x = 1\ny = foo(x)\n");
    editor.setErrors({{2, 5, "unknown name 'foo'"}});
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));

    const int foo = editor.document()->findBlockByNumber(1).position() + 5;  // the first 'o'
    const QPoint over = centreOf(editor, foo);
    QCOMPARE(editor.errorMessageAt(over), QString("unknown name 'foo'"));
    QCOMPARE(editor.errorMessageAt(centreOf(editor, 0)), QString());  // line 1 is fine

    QHelpEvent help(QEvent::ToolTip, over, editor.viewport()->mapToGlobal(over));
    QApplication::sendEvent(editor.viewport(), &help);
    QTRY_COMPARE(QToolTip::text(), QString("unknown name 'foo'"));
    QToolTip::hideText();
  }

  void clearErrorsRemovesMarks() {
    ScriptEditor editor;
    editor.setPlainText("x = foo");
    editor.setErrors({{1, 5, "unknown name 'foo'"}});
    QCOMPARE(errorMarks(editor).size(), 1);
    editor.clearErrors();
    QCOMPARE(errorMarks(editor).size(), 0);
    QVERIFY(editor.errors().isEmpty());
    QCOMPARE(editor.errorMessagesOnLine(1), QString());
  }

  // ---- Navigation ----
  void selectLineMovesTheCursor() {
    ScriptEditor editor;
    editor.setPlainText("a = 1\nb = 2\n    c = 3\nd = 4\n");
    QSignalSpy lineChanged(&editor, &ScriptEditor::cursorLineChanged);
    editor.selectLine(3);
    QCOMPARE(editor.currentLine(), 3);
    QCOMPARE(editor.textCursor().positionInBlock(), 4);  // at the code, past the indentation
    QCOMPARE(lineChanged.count(), 0);  // programmatic: no echo back to the graph view
    editor.goToLocation(4, 3);
    QCOMPARE(editor.currentLine(), 4);
    QCOMPARE(editor.textCursor().positionInBlock(), 2);
    editor.selectLine(99);  // out of range: ignored
    QCOMPARE(editor.currentLine(), 4);
  }

  void cursorLineChangedFiresWhenTheUserChangesLine() {
    ScriptEditor editor;
    editor.setPlainText("a = 1\nb = 2\nc = 3");
    editor.moveCursor(QTextCursor::Start);
    QSignalSpy lineChanged(&editor, &ScriptEditor::cursorLineChanged);
    QTest::keyClick(&editor, Qt::Key_Down);
    QCOMPARE(lineChanged.count(), 1);
    QCOMPARE(lineChanged.at(0).at(0).toInt(), 2);
    QTest::keyClick(&editor, Qt::Key_Right);  // same line: nothing
    QCOMPARE(lineChanged.count(), 1);
    QTest::keyClick(&editor, Qt::Key_Down);
    QCOMPARE(lineChanged.count(), 2);
    QCOMPARE(lineChanged.at(1).at(0).toInt(), 3);
  }

  // ---- Templates ----
  void templateGoesAtTheCursorWithFirstPlaceholderSelected() {
    ScriptEditor editor;
    editor.setPlainText("with variant(\"a\"):\n    ");
    putCursorAtEnd(editor);
    editor.insertTemplate(
        "with tf.GradientTape() as tape:\n    tape.watch(${x})\n"
        "    loss = ${tf.reduce_sum(x * x)}\n${grad} = tape.gradient(loss, x)\n");
    QCOMPARE(editor.toPlainText(), QString("with variant(\"a\"):\n"
                                           "    with tf.GradientTape() as tape:\n"
                                           "        tape.watch(x)\n"
                                           "        loss = tf.reduce_sum(x * x)\n"
                                           "    grad = tape.gradient(loss, x)\n"));
    QCOMPARE(editor.textCursor().selectedText(), QString("x"));
    QCOMPARE(editor.currentLine(), 3);
    // Typing replaces the placeholder; Tab goes to the next one.
    QTest::keyClicks(&editor, "w");
    QTest::keyClick(&editor, Qt::Key_Tab);
    QCOMPARE(editor.textCursor().selectedText(), QString("tf.reduce_sum(x * x)"));
    QTest::keyClick(&editor, Qt::Key_Tab);
    QCOMPARE(editor.textCursor().selectedText(), QString("grad"));
    QTest::keyClick(&editor, Qt::Key_Right);
    QTest::keyClick(&editor, Qt::Key_Tab);  // no placeholder left: an ordinary Tab
    QVERIFY(editor.toPlainText().contains("    grad     = tape"));
    QVERIFY(editor.toPlainText().contains("tape.watch(w)"));
  }

  void templateInsertionIsOneUndoStep() {
    ScriptEditor editor;
    editor.setPlainText("x = 1\n");
    putCursorAtEnd(editor);
    editor.insertTemplate("param ${n} = 3 in 1..10\n");
    QCOMPARE(editor.toPlainText(), QString("x = 1\nparam n = 3 in 1..10\n"));
    editor.undo();
    QCOMPARE(editor.toPlainText(), QString("x = 1\n"));
  }

  void templateBeforeCodeKeepsThatCodeIndented() {
    ScriptEditor editor;
    editor.setPlainText("def f():\n    y = 1\n");
    QTextCursor c(editor.document()->findBlockByNumber(1));
    c.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, 4);
    editor.setTextCursor(c);
    editor.insertTemplate("a = ${b}\nc = 2\n");
    QCOMPARE(editor.toPlainText(), QString("def f():\n    a = b\n    c = 2\n    y = 1\n"));
    QCOMPARE(editor.textCursor().selectedText(), QString("b"));
  }

  // ---- Gutter and font ----
  void gutterKnowsLinesAndGrowsWithTheFont() {
    ScriptEditor editor;
    editor.resize(400, 300);
    editor.setPlainText("a = 1\nb = 2\nc = 3\n");
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    QTextCursor second(editor.document()->findBlockByNumber(1));
    const int y = editor.cursorRect(second).center().y();  // the gutter is level with the text
    QCOMPARE(editor.lineAt(y), 2);
    const int gutter = editor.lineNumberAreaWidth();
    const qreal tabStop = editor.tabStopDistance();
    editor.zoomIn(6);
    QVERIFY(editor.lineNumberAreaWidth() > gutter);
    QVERIFY(editor.tabStopDistance() > tabStop);
    QCOMPARE(editor.tabStopDistance(),
             editor.fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 4.0);
  }

  // ---- Debounced edits ----
  void textEditedDebouncedFiresOnceAfterTyping() {
    ScriptEditor editor;
    editor.setDebounceInterval(60);
    QSignalSpy edited(&editor, &ScriptEditor::textEditedDebounced);
    QTest::keyClicks(&editor, "x = 1");
    QCOMPARE(edited.count(), 0);
    QTRY_COMPARE(edited.count(), 1);
    QVERIFY(!edited.wait(150));  // once: nothing more after the debounce
    QCOMPARE(edited.count(), 1);
    // Marks and colours are not edits.
    editor.setErrors({{1, 1, "boom"}});
    editor.setDarkScheme(true);
    editor.highlighter()->rehighlight();
    QVERIFY(!edited.wait(150));
    QCOMPARE(edited.count(), 1);
    editor.undo();
    QTRY_COMPARE(edited.count(), 2);
  }

  // ---- Highlighting ----
  void highlighterColoursKeywordsAndComments() {
    ScriptEditor editor;
    editor.setPlainText("while x:  # x\n    pass\n# x\n");
    QVERIFY(hasRole(editor, 0, 0, Role::Keyword));
    QVERIFY(hasRole(editor, 0, 4, Role::Keyword));
    QVERIFY(!hasRole(editor, 0, 6, Role::Keyword));  // the name x
    QVERIFY(hasRole(editor, 0, 10, Role::Comment));
    QVERIFY(hasRole(editor, 0, 12, Role::Comment));
    QVERIFY(hasRole(editor, 1, 4, Role::Keyword));
    QVERIFY(hasRole(editor, 2, 0, Role::Comment));
    QVERIFY(hasRole(editor, 2, 2, Role::Comment));
  }

  void highlighterKnowsGradLabNames() {
    ScriptEditor editor;
    editor.setPlainText(
        "param steps = 20 in 1..100\n"                               // 0
        "with variant(\"serial\"):\n"                                // 1
        "    y = tf.while_loop(c, b, [x], parallel_iterations=1)\n"  // 2
        "s = \"a # b\" + 'c'\n"                                      // 3
        "def f(n): return range(n), None\n"                          // 4
        "param = 3\n");                                              // 5
    QVERIFY(hasRole(editor, 0, 0, Role::Param));
    QVERIFY(hasRole(editor, 0, 14, Role::Number));
    QVERIFY(hasRole(editor, 0, 20, Role::Number));
    QVERIFY(hasRole(editor, 0, 23, Role::Number));
    QVERIFY(hasRole(editor, 1, 0, Role::Keyword));
    QVERIFY(hasRole(editor, 1, 5, Role::Variant));
    QVERIFY(hasRole(editor, 1, 14, Role::String));
    QVERIFY(hasRole(editor, 2, 8, Role::TfName));   // tf
    QVERIFY(hasRole(editor, 2, 10, Role::TfName));  // the dot
    QVERIFY(hasRole(editor, 2, 20, Role::TfName));  // ..._loop
    QVERIFY(hasRole(editor, 3, 7, Role::String));   // the '#' inside the string
    QVERIFY(!hasRole(editor, 3, 7, Role::Comment));
    QVERIFY(hasRole(editor, 3, 14, Role::String));
    QVERIFY(hasRole(editor, 4, 4, Role::Definition));
    QVERIFY(hasRole(editor, 4, 17, Role::Builtin));
    QVERIFY(hasRole(editor, 4, 27, Role::Constant));
    QVERIFY(!hasRole(editor, 5, 0, Role::Param));  // `param` as a variable
  }

  void highlighterHandlesMultiLineStringsAndLexErrors() {
    ScriptEditor editor;
    editor.setPlainText("s = \"\"\"one\ntwo # not a comment\nthree\"\"\" + 1\nx = $ + 2  # c\n");
    QVERIFY(hasRole(editor, 0, 4, Role::String));
    QVERIFY(hasRole(editor, 1, 0, Role::String));
    QVERIFY(hasRole(editor, 1, 5, Role::String));
    QVERIFY(hasRole(editor, 2, 6, Role::String));
    QVERIFY(hasRole(editor, 2, 11, Role::Number));
    // A character the lexer rejects does not leave the rest of the line uncoloured.
    QVERIFY(hasRole(editor, 3, 8, Role::Number));
    QVERIFY(hasRole(editor, 3, 11, Role::Comment));
  }

  void darkSchemeChangesColours() {
    ScriptEditor editor;
    editor.setPlainText("while x:\n");
    const QColor light = formatAt(editor, 0, 0).foreground().color();
    editor.setDarkScheme(true);
    QVERIFY(formatAt(editor, 0, 0).foreground().color() != light);
    QVERIFY(hasRole(editor, 0, 0, Role::Keyword));
  }
};

GRADLAB_TEST_MAIN(TestScriptEditor)
#include "test_script_editor.moc"
