// Insert-menu templates: every one, filled, parses on its own and inside an indented block; the
// "New lesson" script is complete (title comment, a param, two variants); placeholders expand
// to their names at the right places.
#include <QtTest>

#include "engine/lang/parser.h"
#include "ui/editor/script_editor.h"
#include "ui/editor/templates.h"

using gl::ui::Placeholder;
using gl::ui::ScriptTemplate;

namespace {

// "" if the text parses, else the parser's message with its line:col.
QString parseProblem(const QString& text) {
  try {
    gl::lang::parse(text.toStdString(), "template.gls");
    return {};
  } catch (const gl::EngineError& e) {
    return QString("%1:%2: %3\n%4")
        .arg(e.loc().line)
        .arg(e.loc().col)
        .arg(QString::fromStdString(e.message()), text);
  }
}

}  // namespace

class TestTemplates : public QObject {
  Q_OBJECT

 private slots:
  void expandReplacesPlaceholdersByTheirNames() {
    QVector<Placeholder> spots;
    const QString out = gl::ui::expandPlaceholders("a = ${x} + ${long name}\n${x}", &spots);
    QCOMPARE(out, QString("a = x + long name\nx"));
    QCOMPARE(spots.size(), 3);
    QCOMPARE(spots[0].start, 4);
    QCOMPARE(spots[0].length, 1);
    QCOMPARE(spots[1].name, QString("long name"));
    QCOMPARE(out.mid(spots[1].start, spots[1].length), QString("long name"));
    QCOMPARE(out.mid(spots[2].start, spots[2].length), QString("x"));
  }

  void expandLeavesTextWithoutPlaceholdersAlone() {
    QCOMPARE(gl::ui::expandPlaceholders("x = {1}  # $ {y}\n"), QString("x = {1}  # $ {y}\n"));
  }

  void menuHasEveryRequiredTemplate() {
    QStringList ids;
    for (const ScriptTemplate& t : gl::ui::scriptTemplates()) {
      ids << t.id;
      QVERIFY2(!t.title.isEmpty(), qPrintable(t.id));
      QVERIFY2(t.text.endsWith('\n'), qPrintable(t.id));
      QVERIFY2(t.text.contains("${"), qPrintable(t.id + " has no placeholder"));
    }
    for (const char* id : {"while_loop", "cond", "map_fn", "vectorized_map", "gradient_tape",
                           "tensor_array_loop", "variant", "param"})
      QVERIFY2(ids.contains(id), id);
  }

  void everyTemplateParses_data() {
    QTest::addColumn<QString>("text");
    for (const ScriptTemplate& t : gl::ui::scriptTemplates())
      QTest::newRow(qPrintable(t.id)) << t.text;
    QTest::newRow("new_lesson") << gl::ui::newLessonTemplate().text;
  }
  void everyTemplateParses() {
    QFETCH(QString, text);
    const QString problem = parseProblem(gl::ui::expandPlaceholders(text));
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  // Inserted by the editor inside a variant block (indented to the cursor), the script still
  // parses: continuation lines got the block's indentation. `param` lines must stay at the top
  // level, so that template is inserted at column 0 after the block.
  void everyTemplateParsesWhereTheEditorInsertsIt_data() { everyTemplateParses_data(); }
  void everyTemplateParsesWhereTheEditorInsertsIt() {
    QFETCH(QString, text);
    const bool topLevelOnly = text.startsWith("param") || text.startsWith("#");
    gl::ui::ScriptEditor editor;
    editor.setPlainText(topLevelOnly ? "with variant(\"a\"):\n    y = 1\n"
                                     : "with variant(\"a\"):\n    y = 1\n    ");
    editor.moveCursor(QTextCursor::End);
    editor.insertTemplate(text);
    const QString problem = parseProblem(editor.toPlainText());
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(editor.textCursor().hasSelection());  // the first placeholder
  }

  void newLessonIsACompleteScript() {
    const ScriptTemplate lesson = gl::ui::newLessonTemplate();
    QVector<Placeholder> spots;
    const QString text = gl::ui::expandPlaceholders(lesson.text, &spots);
    QVERIFY(text.startsWith("# "));
    QCOMPARE(spots.size(), 1);  // the title, on the first line
    QCOMPARE(spots[0].start, 2);

    const gl::lang::Module module = gl::lang::parse(text.toStdString(), "lesson.gls");
    QCOMPARE(gl::lang::paramDecls(module).size(), std::size_t(1));
    int variants = 0;
    for (const auto& stmt : module.body)
      if (stmt->is<gl::lang::Stmt::With>() && gl::lang::unparse(*stmt).starts_with("with variant("))
        ++variants;
    QCOMPARE(variants, 2);
  }
};

QTEST_MAIN(TestTemplates)
#include "test_templates.moc"
