// Insert-menu templates: every one, filled, parses on its own and inside an indented block; the
// "New lesson" script is complete (title comment, a param, two variants); placeholders expand
// to their names at the right places.
#include "test_main.h"

#include <QDir>
#include <QFile>

#include "engine/lang/parser.h"
#include "engine/lang/program.h"
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

// "" if the text traces (at the classroom preset, as the window opens lessons), else the error.
QString traceProblem(const QString& text) {
  try {
    gl::lang::TraceOptions opt;
    opt.preset = gl::lang::ParamPreset::Classroom;
    gl::lang::traceProgram(text.toStdString(), "host.gls", opt);
    return {};
  } catch (const gl::EngineError& e) {
    return QString::fromStdString(e.what()) + "\n" + text;
  }
}

QString readText(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll());
}

// The scripts a template is inserted into: the "New lesson" starter and every built-in lesson.
QMap<QString, QString> hostScripts() {
  QMap<QString, QString> hosts;
  hosts["starter"] = gl::ui::expandPlaceholders(gl::ui::newLessonTemplate().text);
  const QDir lessons(QStringLiteral(GRADLAB_SOURCE_DIR "/resources/lessons"));
  for (const QString& name : lessons.entryList({"*.gls"}, QDir::Files))
    hosts[name] = readText(lessons.filePath(name));
  return hosts;
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

  // The Insert menu as a student meets it: any template, inserted at the end of the starter or
  // of a built-in lesson, still traces; names the script already has get a fresh suffix and
  // the first placeholder is selected.
  void everyTemplateTracesInEveryHost_data() {
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("id");
    const QMap<QString, QString> hosts = hostScripts();
    QCOMPARE(hosts.size(), 9);  // the starter and the eight lessons
    for (auto h = hosts.cbegin(); h != hosts.cend(); ++h)
      for (const ScriptTemplate& t : gl::ui::scriptTemplates())
        QTest::newRow(qPrintable(h.key() + "/" + t.id)) << h.value() << t.id;
  }
  void everyTemplateTracesInEveryHost() {
    QFETCH(QString, host);
    QFETCH(QString, id);
    ScriptTemplate chosen;
    for (const ScriptTemplate& t : gl::ui::scriptTemplates())
      if (t.id == id) chosen = t;
    QVERIFY(traceProblem(host).isEmpty());
    gl::ui::ScriptEditor editor;
    editor.setPlainText(host.endsWith('\n') ? host + "\n" : host + "\n\n");
    editor.moveCursor(QTextCursor::End);
    editor.insertTemplate(gl::ui::templateTextFor(chosen, editor.toPlainText()));
    QVERIFY(editor.textCursor().hasSelection());
    const QString problem = traceProblem(editor.toPlainText());
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  void takenNamesGetAFreshSuffix() {
    QCOMPARE(gl::ui::freshName("loop_cond", "x = 1\n"), QString("loop_cond"));
    QCOMPARE(gl::ui::freshName("loop_cond", "def loop_cond(i):\n"), QString("loop_cond_2"));
    QCOMPARE(gl::ui::freshName("x", "x_final = 1\nx_2 = 2\nx = 3\n"), QString("x_3"));
    QCOMPARE(gl::ui::freshName("x", "max_x = 1\n"), QString("x"));  // a word, not a substring

    const QString starter = gl::ui::expandPlaceholders(gl::ui::newLessonTemplate().text);
    ScriptTemplate loop;
    for (const ScriptTemplate& t : gl::ui::scriptTemplates())
      if (t.id == "while_loop") loop = t;
    const QString text = gl::ui::templateTextFor(loop, starter);
    QVERIFY(text.contains("def loop_cond_2(i, x):"));
    QVERIFY(text.contains("def loop_body_2(i, x):"));
    QVERIFY(text.contains("tf.while_loop(loop_cond_2, loop_body_2,"));
    QVERIFY(text.contains("${x_final}"));  // not in the starter: kept
    QVERIFY(!text.contains("loop_cond("));
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

GRADLAB_TEST_MAIN(TestTemplates)
#include "test_templates.moc"
