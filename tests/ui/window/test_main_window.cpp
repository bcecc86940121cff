// The window driven as a user would, under QT_QPA_PLATFORM=offscreen: open each built-in
// lesson, run it, step through, and check every panel shows the engine's numbers.
#include <QComboBox>
#include <QDialog>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QWindow>
#include <cmath>
#include "test_main.h"

#include <QProgressBar>
#include "engine/tensor/tensor.h"
#include "support/isolated_settings.h"
#include "ui/about.h"
#include "ui/document/script_document.h"
#include "ui/document/script_file.h"
#include "ui/editor/script_editor.h"
#include "ui/export/lesson_export.h"
#include "ui/graph/frame_item.h"
#include "ui/graph/gradient_scale.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/node_item.h"
#include "ui/inspect/inspector_panel.h"
#include "ui/inspect/tensor_text.h"
#include "ui/panels/lesson_browser.h"
#include "ui/panels/params_panel.h"
#include "ui/panels/run_log.h"
#include "ui/plots/gradient_lines_plot.h"
#include "ui/plots/heat_map_plot.h"
#include "ui/plots/plots_panel.h"
#include "ui/plots/scaling_plot.h"
#include "ui/plots/timing_bars_plot.h"
#include "ui/present/result_views.h"
#include "ui/run/run_progress.h"
#include "ui/step/step_controls.h"
#include "ui/window/main_window.h"
#include "ui/window/settings_dialog.h"
#include "ui/window/theme.h"
#include "ui/window/translations.h"

using namespace gl;
using namespace gl::ui;

namespace {

// Opens a lesson with small params and waits for its trace.
// True once the window's program is traced with every one of these param values.
bool tracedWith(MainWindow& w, const QMap<QString, double>& params) {
  auto program = w.controller()->program();
  if (!program || w.controller()->tracePending()) return false;
  for (const lang::Param& p : program->params) {
    const auto it = params.constFind(QString::fromStdString(p.name));
    if (it != params.cend() && p.value != it.value()) return false;
  }
  return true;
}

// Opens a lesson, then sets params as the command line's --set does (an open starts afresh),
// and waits for the trace that has them.
void openSmall(MainWindow& w, const QString& lesson, const QMap<QString, double>& params) {
  QVERIFY(w.openFile(":/lessons/" + lesson));
  if (!params.isEmpty()) {
    w.params()->setUserValues(params);
    w.controller()->setParamValues(params);
    w.controller()->traceNow();
  }
  QTRY_VERIFY_WITH_TIMEOUT(tracedWith(w, params), 20000);
}

// The window lays its graph out on a worker: the items appear when it answers.
void waitForGraph(MainWindow& w) {
  QTRY_VERIFY_WITH_TIMEOUT(!w.graphView()->graphScene()->layoutPending(), 20000);
}

// Runs every variant, then waits for the shown variant's recording run (its records for the
// step-through and inspector).
void runAll(MainWindow& w) {
  QSignalSpy finished(w.controller(), &LessonController::runFinished);
  w.runCurrent(true);
  QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
  QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->recording(), 60000);
}

// Answers every modal dialog the window opens (exec() would block the test) by calling
// `answer`, which closes it; anything `answer` leaves open is rejected. A test thus sees
// what was asked and never hangs on a dialog.
class ModalAnswers : public QObject {
 public:
  explicit ModalAnswers(std::function<void(QDialog*)> answer) : answer_(std::move(answer)) {
    connect(&poll_, &QTimer::timeout, this, [this] {
      auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
      if (!dialog) return;
      ++count_;
      answer_(dialog);
      if (dialog->isVisible()) dialog->reject();
    });
    poll_.start(10);
  }
  int count() const { return count_; }

 private:
  std::function<void(QDialog*)> answer_;
  QTimer poll_;
  int count_ = 0;
};

// Answers message boxes with `button` and keeps their texts.
class MessageBoxAnswers {
 public:
  explicit MessageBoxAnswers(QMessageBox::StandardButton button)
      : modal_([this, button](QDialog* d) {
          auto* box = qobject_cast<QMessageBox*>(d);
          if (!box) return;
          texts_ << box->text();
          previews_ << box->informativeText();
          if (QAbstractButton* b = box->button(button)) b->click();
        }) {}
  const QStringList& texts() const { return texts_; }
  const QStringList& previews() const { return previews_; }  // the recovery's diff

 private:
  QStringList texts_, previews_;
  ModalAnswers modal_;
};

// The title as the window system shows it ("[*]" replaced by "*" or nothing).
QString shownTitle(QWidget& w) {
  return w.windowHandle() ? w.windowHandle()->title() : QStringLiteral("<not shown>");
}

QString contents(const QString& path) {
  const LoadResult r = loadScript(path);
  return r.ok() ? r.text : QStringLiteral("<unreadable: %1>").arg(r.error);
}

// Unsaved work left behind by a session that crashed: an autosave copy in `folder`.
bool leaveUnsavedWork(const QString& folder, const QString& path, const QString& text) {
  QTextDocument doc;
  ScriptDocument lost(&doc, folder);
  if (path.isEmpty())
    lost.reset(QString());
  else if (!lost.open(path))
    return false;
  QTextCursor c(&doc);
  c.select(QTextCursor::Document);
  c.insertText(text);
  return lost.autosave();
}

// Moves a file's modification time a minute into the past; false if that failed.
bool ageByAMinute(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadWrite) && f.setFileTime(QDateTime::currentDateTime().addSecs(-60),
                                                       QFileDevice::FileModificationTime);
}

// Which of the controls that depend on run state are enabled, e.g. "run runAll sweep executor
// threads" (a string, so a mismatch shows all of them).
QString runControls(MainWindow& w) {
  QStringList on;
  for (const char* name : {"run", "runAll", "cancelRun", "sweep"}) {
    auto* a = w.findChild<QAction*>(name);
    if (!a) return QStringLiteral("no action '%1'").arg(name);
    if (a->isEnabled()) on << name;
  }
  for (const char* name : {"executor", "threads"}) {
    auto* widget = w.findChild<QWidget*>(name);
    if (!widget) return QStringLiteral("no widget '%1'").arg(name);
    if (widget->isEnabled()) on << name;
  }
  if (w.runProgress()->isVisibleTo(&w)) on << "progress";
  return on.join(' ');
}
const QString kIdle = "run runAll sweep executor threads";
const QString kRunning = "cancelRun progress";

int countItems(GraphScene* s, int type) {
  int n = 0;
  for (QGraphicsItem* item : s->items()) n += item->type() == type;
  return n;
}

// The window's status bar message.
QString statusText(MainWindow& w) {
  for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
    if (!l->text().isEmpty()) return l->text();
  return {};
}

// The value a traced param got, or NaN when the program has no such param.
double tracedValue(MainWindow& w, const std::string& name) {
  if (auto program = w.controller()->program())
    for (const lang::Param& p : program->params)
      if (p.name == name) return p.value;
  return std::nan("");
}

bool tracedAt(MainWindow& w, const std::string& name, double value) {
  return !w.controller()->tracePending() && tracedValue(w, name) == value;
}

}  // namespace

class TestMainWindow : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("GradLabTest");
    QCoreApplication::setApplicationName("GradLabTest");
    initResources();
  }

  // Settings (window state, recent files, the language) go to this process's temporary folder.
  void settingsStayInATemporaryFolder() {
    QVERIFY(!gl::test::isolatedHome().isEmpty());
    QVERIFY2(QSettings().fileName().startsWith(gl::test::isolatedHome() + "/"),
             qPrintable(QSettings().fileName()));
  }

  // ---- The document: title, autosave, save, recovery ----
  void editsAreAutosavedThenSaved() {
    QTemporaryDir dir;
    const QString path = dir.filePath("mine.gls");
    QCOMPARE(saveScript(path, "x = tf.constant(1.0)\n"), QString());
    MainWindow w;
    QVERIFY2(w.document()->autosaveFolder().startsWith(gl::test::isolatedHome() + "/"),
             qPrintable(w.document()->autosaveFolder()));
    w.document()->setAutosaveFolder(dir.filePath("autosave"));
    w.document()->setAutosaveDelay(20);
    w.show();
    QVERIFY(w.openFile(path));
    QCOMPARE(w.currentFile(), path);
    QCOMPARE(shownTitle(w), QString("mine.gls — GradLab"));
    w.editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(w.editor(), "# more");
    QVERIFY(w.document()->isDirty());
    QCOMPARE(shownTitle(w), QString("mine.gls* — GradLab"));
    QVERIFY(w.isWindowModified());
    const QString copy = w.document()->autosavePath();
    QTRY_COMPARE(contents(copy), QString("x = tf.constant(1.0)\n# more"));
    QCOMPARE(contents(path), QString("x = tf.constant(1.0)\n"));  // the file waits for a save
    QVERIFY(w.saveTo(path));
    QCOMPARE(contents(path), QString("x = tf.constant(1.0)\n# more"));
    QVERIFY(!QFile::exists(copy));
    QVERIFY(!w.document()->isDirty());
    QCOMPARE(shownTitle(w), QString("mine.gls — GradLab"));
  }

  void openingOffersTheFilesAutosavedCopy_data() {
    QTest::addColumn<int>("answer");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("dirty");
    QTest::newRow("recover") << int(QMessageBox::Yes) << "a = 2\n" << true;
    QTest::newRow("keep the file") << int(QMessageBox::No) << "a = 1\n" << false;
  }
  void openingOffersTheFilesAutosavedCopy() {
    QFETCH(int, answer);
    QFETCH(QString, text);
    QFETCH(bool, dirty);
    QTemporaryDir dir;
    const QString path = dir.filePath("doc.gls"), folder = dir.filePath("autosave");
    QCOMPARE(saveScript(path, "a = 1\n"), QString());
    QVERIFY(leaveUnsavedWork(folder, path, "a = 2\n"));
    QVERIFY(ageByAMinute(path));
    MainWindow w;
    w.document()->setAutosaveFolder(folder);
    w.show();
    MessageBoxAnswers answers{QMessageBox::StandardButton(answer)};
    QVERIFY(w.openFile(path));
    QCOMPARE(answers.texts().size(), 1);  // the file's own copy; nothing else to offer
    QVERIFY2(answers.texts().at(0).contains("doc.gls"), qPrintable(answers.texts().at(0)));
    // Before anything is replaced, the dialog shows what recovering would change.
    const QString preview = answers.previews().at(0);
    QVERIFY2(preview.contains("- a = 1\n+ a = 2"), qPrintable(preview));
    QVERIFY(preview.contains("2 line(s)"));
    QCOMPARE(w.editor()->toPlainText(), text);
    QCOMPARE(w.document()->isDirty(), dirty);
    QCOMPARE(w.isWindowModified(), dirty);
    QCOMPARE(shownTitle(w), dirty ? QString("doc.gls* — GradLab") : QString("doc.gls — GradLab"));
    QCOMPARE(w.controller()->source(), text);
  }

  void firstOpenOffersUnsavedWorkOfACrash() {
    QTemporaryDir dir;
    const QString folder = dir.filePath("autosave");
    QVERIFY(leaveUnsavedWork(folder, QString(), "x = tf.constant(2.0)\n"));
    // The window autosaves where the settings say.
    QSettings().setValue("autosave/folder", folder);
    MainWindow w;
    QSettings().remove("autosave/folder");
    QCOMPARE(w.document()->autosaveFolder(), folder);
    w.show();
    MessageBoxAnswers answers(QMessageBox::Yes);
    QVERIFY(w.openFile(builtinLessons().value(0)));
    QCOMPARE(answers.texts().size(), 1);
    QVERIFY2(answers.texts().at(0).contains("untitled"), qPrintable(answers.texts().at(0)));
    QVERIFY2(answers.previews().at(0).contains("+ x = tf.constant(2.0)"),
             qPrintable(answers.previews().at(0)));
    QVERIFY(w.document()->isUntitled());
    QVERIFY(w.document()->isDirty());
    QCOMPARE(w.editor()->toPlainText(), QString("x = tf.constant(2.0)\n"));
    QCOMPARE(w.controller()->source(), QString("x = tf.constant(2.0)\n"));
    QCOMPARE(shownTitle(w), QString("untitled.gls* — GradLab"));
    // Only the first open asks.
    QVERIFY(w.openFile(builtinLessons().value(1)));
    QCOMPARE(answers.texts().size(), 1);
  }

  void declinedUnsavedWorkIsKeptOrDiscarded_data() {
    QTest::addColumn<int>("answer");
    QTest::addColumn<int>("copiesLeft");
    QTest::newRow("later") << int(QMessageBox::No) << 1;
    QTest::newRow("discard") << int(QMessageBox::Discard) << 0;
  }
  void declinedUnsavedWorkIsKeptOrDiscarded() {
    QFETCH(int, answer);
    QFETCH(int, copiesLeft);
    QTemporaryDir dir;
    const QString folder = dir.filePath("autosave");
    QVERIFY(leaveUnsavedWork(folder, QString(), "x = tf.constant(2.0)\n"));
    MainWindow w;
    w.document()->setAutosaveFolder(folder);
    w.show();
    MessageBoxAnswers answers{QMessageBox::StandardButton(answer)};
    const QString lesson = builtinLessons().value(0);
    QVERIFY(w.openFile(lesson));
    QCOMPARE(answers.texts().size(), 1);
    QCOMPARE(w.currentFile(), lesson);  // the lesson asked for, untouched
    QVERIFY(!w.document()->isDirty());
    QCOMPARE(QDir(folder).entryList({"*.gls"}, QDir::Files).size(), copiesLeft);
  }

  void settingsDialogAppliesWhatIsChosen() {
    MainWindow w;
    w.show();
    QAction* settings = w.findChild<QAction*>("settings");
    QVERIFY(settings);
    QString shownLanguage;
    ModalAnswers answers([&](QDialog* d) {
      auto* dialog = qobject_cast<SettingsDialog*>(d);
      if (!dialog) return;
      shownLanguage = dialog->language();
      dialog->setLanguage("en");
      dialog->setDarkPalette(!isDarkTheme());
      dialog->accept();
    });
    const bool wasDark = isDarkTheme();
    QCOMPARE(languageSetting(), QString());  // fresh settings: follow the system
    settings->trigger();
    QCOMPARE(answers.count(), 1);
    QCOMPARE(shownLanguage, QString());
    QCOMPARE(languageSetting(), QString("en"));
    QCOMPARE(isDarkTheme(), !wasDark);
    // The Run triangle is drawn in the palette's text colour: light on the dark palette.
    QAction* run = w.findChild<QAction*>("run");
    QVERIFY(run);
    if (isDarkTheme()) {
      const QImage icon = run->icon().pixmap(16, 16).toImage();
      double lightest = 0;
      for (int y = 0; y < icon.height(); ++y)
        for (int x = 0; x < icon.width(); ++x)
          if (icon.pixelColor(x, y).alpha() > 200)
            lightest = std::max(lightest, double(icon.pixelColor(x, y).lightnessF()));
      QVERIFY2(lightest > 0.7, qPrintable(QString::number(lightest)));
    }
    settings->trigger();  // and back
    QCOMPARE(answers.count(), 2);
    QCOMPARE(shownLanguage, QString("en"));
    QCOMPARE(isDarkTheme(), wasDark);
  }

  // A loop inside a map_fn of 5 elements ran 5 times: the step controls offer the executions
  // and choosing one shows its values in the inspector and its adjoints on the gradient plot.
  void choosingALoopExecutionShowsItsValues() {
    QTemporaryDir dir;
    const QString path = dir.filePath("loop_in_map.gls");
    QCOMPARE(saveScript(path, R"(xs = tf.constant([1.0, 1.1, 1.2, 1.3, 1.4], dtype=tf.float64)

def squarings(x):
    def cond(i, v):
        return tf.less(i, 3)
    def body(i, v):
        return i + 1, v * v
    _, last = tf.while_loop(cond, body, loop_vars=[tf.constant(0), x])
    return last

with tf.GradientTape() as tape:
    tape.watch(xs)
    total = tf.reduce_sum(tf.map_fn(squarings, xs))
d_xs = tape.gradient(total, xs)
)"),
             QString());
    MainWindow w;
    w.show();
    QSignalSpy traced(w.controller(), &LessonController::traced);
    QVERIFY(w.openFile(path));
    QTRY_VERIFY_WITH_TIMEOUT(traced.count() >= 1, 20000);
    runAll(w);
    const lab::VariantRun* v = w.shownRun();
    QVERIFY(v && v->ok());
    StepControls* steps = w.stepControls();
    QVERIFY(steps->currentLoop() >= 0);
    QCOMPARE(steps->executionCount(), 5);
    QVERIFY(steps->executionBox()->isVisibleTo(steps));
    QCOMPARE(steps->executionBox()->itemText(3), QString("execution 4 of 5 (at 3)"));
    const int loop = steps->currentLoop();
    const LoopRecord third =
        loopExecution(v->run.loops.at(loop), &v->run.loopExecutions.at(loop), 3);
    QCOMPARE(third.carried.at(2).at(1).full.at(0), std::pow(1.3, 4));
    steps->selectExecution(3);
    QCOMPARE(steps->execution(), 3);
    steps->setStep(2);
    const QString text = w.inspector()->text();
    const QString mine = recordSummary(third.carried.at(2).at(1));
    const QString first = recordSummary(v->run.loops.at(loop).carried.at(2).at(1));
    QVERIFY(mine != first);
    QVERIFY2(text.contains(mine), qPrintable(text));
    QVERIFY2(!text.contains(first), qPrintable(text));
    // The gradient plot shows execution 4's adjoints: d v_3 / d v_0 = 8 * 1.3^7.
    GradientLinesPlot* lines = w.plots()->gradientLines();
    QVERIFY(lines->graphCount() >= 1);
    bool found = false;
    const double norm0 = third.adjoints.at(0).at(1).l2;
    QVERIFY(std::abs(norm0 - 8 * std::pow(1.3, 7)) < 1e-9);
    for (int g = 0; g < lines->graphCount(); ++g)
      for (auto it = lines->graph(g)->data()->begin(); it != lines->graph(g)->data()->end(); ++it)
        if (it->key == 0 && std::abs(it->value - norm0) <= 1e-6 * norm0) found = true;
    QVERIFY(found);
  }

  void odeLessonRunsAndStepsThrough() {
    MainWindow w;
    w.show();
    openSmall(w, "ode_while_loop.gls", {{"batch", 2}, {"dim", 3}, {"steps", 5}, {"dt", 0.1}});
    QCOMPARE(w.variantBox()->count(), 3);
    GraphScene* scene = w.graphView()->graphScene();
    QTRY_VERIFY(!scene->nodeItems().empty());
    QVERIFY(countItems(scene, FrameItem::Type) >= 2);  // the while loops are frames
    w.variantBox()->setCurrentIndex(w.variantBox()->findData("vectorized"));
    runAll(w);
    const lab::VariantRun* v = w.shownRun();
    QVERIFY(v && v->ok());
    QCOMPARE(QString::fromStdString(v->name), QString("vectorized"));
    // Step through: the inspector shows the engine's record for iteration 3.
    StepControls* steps = w.stepControls();
    QVERIFY(steps->currentLoop() >= 0);
    const LoopRecord& rec = v->run.loops.at(steps->currentLoop());
    steps->setStep(3);
    QCOMPARE(steps->step(), qint64(3));
    const QString text = w.inspector()->text();
    QVERIFY2(text.contains(recordSummary(rec.carried.at(3).back())), qPrintable(text));
    // The gradient plot holds the engine's adjoint norms, and its cursor follows the step.
    GradientLinesPlot* lines = w.plots()->gradientLines();
    QVERIFY(lines->graphCount() >= 1);
    const double norm0 = rec.adjoints.at(0).back().l2;
    bool found = false;
    for (auto it = lines->graph(0)->data()->begin(); it != lines->graph(0)->data()->end(); ++it)
      if (it->key == 0) found = std::abs(it->value - norm0) <= 1e-6 * std::max(1.0, norm0);
    QVERIFY(found);
    QVERIFY(lines->stepCursorVisible());
    // One progress bar per variant, each run to its loop's end.
    QCOMPARE(w.runProgress()->barCount(), 3);
    QCOMPARE(w.runProgress()->bar("vectorized")->value(),
             w.runProgress()->bar("vectorized")->maximum());
    // Timings: one bar per variant for the serial executor.
    QCOMPARE(w.plots()->timingBars()->variants().size(), 3);
    // One colour scale for the variants recorded since the run: a newly recorded one only
    // widens it, and switching back to a recorded one keeps it.
    auto scale = w.graphView()->graphScene()->gradientScale();
    QVERIFY(scale && scale->max() > 0);
    const double lo = scale->min(), hi = scale->max();
    w.variantBox()->setCurrentIndex(w.variantBox()->findData("serial"));
    QTRY_VERIFY_WITH_TIMEOUT(w.controller()->hasRecords("serial"), 20000);
    QVERIFY(scale->min() <= lo && scale->max() >= hi);
    const double lo2 = scale->min(), hi2 = scale->max();
    w.variantBox()->setCurrentIndex(w.variantBox()->findData("vectorized"));
    QCOMPARE(scale->min(), lo2);
    QCOMPARE(scale->max(), hi2);
  }

  void perStepLessonShowsJacobianAndExplainsNone() {
    MainWindow w;
    w.show();
    openSmall(w, "per_step_gradients.gls", {{"steps", 4}, {"x0", 2.0}, {"w", 1.5}});
    runAll(w);
    w.variantBox()->setCurrentIndex(w.variantBox()->findData("jacobian"));
    HeatMapPlot* heat = w.plots()->heatMap();
    // d x_t / d w_k = x_t / w_k for k <= t: x_2 = 2 * 1.5^3 (t = 2, 0-based), w = 1.5.
    QVERIFY(std::abs(heat->cellValue(2, 1) - 2 * std::pow(1.5, 3) / 1.5) < 1e-4);
    QVERIFY(std::abs(heat->cellValue(1, 3)) < 1e-9);
    // The Variable created in the loop body: a red break with the engine's text, drawn in
    // that variant's graph.
    w.variantBox()->setCurrentIndex(w.variantBox()->findData("variable_in_loop"));
    waitForGraph(w);
    bool broken = false;
    for (NodeItem* n : w.graphView()->graphScene()->nodeItems())
      if (n->isBreak() && n->breakText().contains("inside the body")) broken = true;
    QVERIFY(broken);
  }

  void gradientNoneLessonMarksTheBreak() {
    MainWindow w;
    w.show();
    openSmall(w, "gradient_none.gls", {{"batch", 2}, {"size", 8}, {"classes", 4}});
    waitForGraph(w);
    bool broken = false;
    for (NodeItem* n : w.graphView()->graphScene()->nodeItems())
      if (n->isBreak() && n->breakText().contains("after the tape stopped recording"))
        broken = true;
    QVERIFY(broken);
    // Find the break by name, then follow it to its script line.
    QVERIFY(w.graphView()->search("gather"));
    QVERIFY(!w.graphView()->graphScene()->selectedItems().isEmpty());
    const std::vector<GradDiagnostic> breaks = noneGradients(*w.controller()->program());
    QVERIFY(!breaks.empty());
    emit w.graphView()->graphScene()->breakActivated(
        breaks[0].node, QString::fromStdString(breaks[0].text), breaks[0].loc);
    QCOMPARE(w.editor()->currentLine(), breaks[0].loc.line);
    QCOMPARE(w.inspector()->currentNode(), breaks[0].node);
  }

  void parallelLayersRunsAllVariants() {
    MainWindow w;
    w.show();
    openSmall(w, "parallel_layers.gls",
              {{"batch", 2}, {"time", 3}, {"n_in", 4}, {"n_out", 2}, {"layers", 3}});
    runAll(w);
    const RunOutcome& out = w.controller()->outcome();
    QCOMPARE(int(out.run->variants.size()), 3);
    for (const lab::Agreement& a : out.run->agreement) QVERIFY(a.agree());
  }

  void errorsUnderlineTheLine() {
    MainWindow w;
    w.show();
    QSignalSpy failed(w.controller(), &LessonController::traceFailed);
    w.editor()->setPlainText("x = tf.constant([1.0])\ny = x + tape2\n");
    w.controller()->setSource(w.editor()->toPlainText(), "bad.gls");
    w.controller()->traceNow();
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() >= 1, 10000);
    QCOMPARE(failed.last().at(1).toInt(), 2);
    QVERIFY(!w.editor()->errorMessagesOnLine(2).isEmpty());
    QVERIFY(w.editor()->errorMessagesOnLine(1).isEmpty());
  }

  void cancelStopsALongRun() {
    MainWindow w;
    w.show();
    openSmall(w, "ode_while_loop.gls", {{"batch", 10}, {"dim", 5000}, {"steps", 100000}});
    QSignalSpy finished(w.controller(), &LessonController::runFinished);
    QElapsedTimer t;
    w.variantBox()->setCurrentIndex(w.variantBox()->findData("serial"));
    QCOMPARE(runControls(w), kIdle);
    w.runCurrent(false);
    QCOMPARE(runControls(w), kRunning);
    // Cancel once the variant is under way: still running 300 ms in, as a long run is.
    QTRY_VERIFY(w.runProgress()->bar("serial"));
    QVERIFY(!finished.wait(300));
    QVERIFY(w.controller()->running());
    t.start();
    QAction* cancel = w.findChild<QAction*>("cancelRun");
    QVERIFY(cancel);
    cancel->trigger();  // as the user does (Esc): it only works while enabled
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 5000);
    qInfo("cancel took %lld ms", t.elapsed());
    QVERIFY(t.elapsed() < 2000);
    QVERIFY(w.controller()->outcome().run->variants.at(0).cancelled);
    QCOMPARE(runControls(w), kIdle);
  }

  // ---- One lesson at a time; presets; the controls mean what they say ----
  void lessonsOpenAtTheClassroomPresetWithASwitch() {
    MainWindow w;
    w.show();
    QVERIFY(w.openFile(":/lessons/per_step_gradients.gls"));
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "steps", 20), 20000);  // `class 20`
    QAbstractButton* classroom = w.params()->presetButton(lang::ParamPreset::Classroom);
    QAbstractButton* seed = w.params()->presetButton(lang::ParamPreset::Seed);
    QVERIFY(classroom->isVisible() && seed->isVisible());
    QVERIFY(classroom->isChecked() && !seed->isChecked());
    QCOMPARE(w.params()->values()["steps"], 20.0);
    seed->click();
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "steps", 1000), 20000);  // the seed's own size
    QVERIFY(seed->isChecked() && !classroom->isChecked());
    QCOMPARE(w.params()->values()["steps"], 1000.0);
    classroom->click();
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "steps", 20), 20000);
    // A lesson opened after the switch starts at the classroom preset again.
    seed->click();
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "steps", 1000), 20000);
    QVERIFY(w.openFile(":/lessons/ode_while_loop.gls"));
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "steps", 200), 20000);
    QVERIFY(classroom->isChecked());
  }

  // The Lessons dock shows every built-in lesson and the "Recent files" header without
  // scrolling, and the Params dock every param of the ODE lesson.
  void docksShowTheirWholeContentAtFirstStart() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(":/lessons/ode_while_loop.gls"));
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "steps", 200), 20000);
    auto* lessons = w.findChild<LessonBrowser*>();
    QVERIFY(lessons);
    const QRect shown = lessons->viewport()->rect();
    QVERIFY2(shown.contains(lessons->visualItemRect(lessons->recentItem())),
             qPrintable(QString("viewport height %1").arg(shown.height())));
    QWidget* dt = w.params()->spinBoxFor("dt");
    QVERIFY(dt);
    QTRY_VERIFY(dt->isVisible());
    auto* scroll = w.params()->findChild<QScrollArea*>();
    QVERIFY(scroll);
    const QPoint bottom = dt->mapTo(scroll->viewport(), QPoint(0, dt->height()));
    QVERIFY2(bottom.y() <= scroll->viewport()->height(),
             qPrintable(QString("%1 > %2").arg(bottom.y()).arg(scroll->viewport()->height())));
  }

  void paramsOfTheNextLessonAreItsScriptValues() {
    MainWindow w;
    w.show();
    w.params()->setDebounceInterval(10);
    QVERIFY(w.openFile(":/lessons/parallel_layers.gls"));
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "batch", 4), 20000);
    qobject_cast<QSpinBox*>(w.params()->spinBoxFor("batch"))->setValue(7);
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "batch", 7), 20000);
    w.inspector()->showNode(3);
    QVERIFY(w.openFile(":/lessons/ode_while_loop.gls"));
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "dim", 50), 20000);
    QCOMPARE(tracedValue(w, "batch"), 4.0);  // the ODE lesson's `class 4`, not 7
    QCOMPARE(w.params()->values()["batch"], 4.0);
    QVERIFY(w.params()->userChangedNames().isEmpty());
    QCOMPARE(w.inspector()->currentNode(), -1);  // nothing of the last lesson's graph
    QVERIFY(!w.shownRun());
  }

  void resetToScriptValuesRetraces() {
    MainWindow w;
    w.show();
    w.params()->setDebounceInterval(10);
    QVERIFY(w.openFile(":/lessons/ode_while_loop.gls"));
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "steps", 200), 20000);
    qobject_cast<QSpinBox*>(w.params()->spinBoxFor("steps"))->setValue(50);
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "steps", 50), 20000);
    QPushButton* reset = nullptr;
    for (QPushButton* b : w.params()->findChildren<QPushButton*>())
      if (b->text() == "Reset to script values") reset = b;
    QVERIFY(reset);
    reset->click();
    QCOMPARE(w.params()->values()["steps"], 200.0);
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "steps", 200), 20000);
  }

  // An edit still waiting for its debounce is what the dock shows: Run All uses it.
  void aRunUsesTheValuesTheDockShows() {
    MainWindow w;
    w.show();
    QVERIFY(w.openFile(":/lessons/ode_while_loop.gls"));
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "steps", 200), 20000);
    w.params()->setDebounceInterval(60000);
    qobject_cast<QSpinBox*>(w.params()->spinBoxFor("steps"))->setValue(30);
    QSignalSpy finished(w.controller(), &LessonController::runFinished);
    w.runCurrent(true);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 30000);
    const RunOutcome& out = w.controller()->outcome();
    QVERIFY(out.program && out.run);
    for (const lang::Param& p : out.program->params)
      if (p.name == "steps") QCOMPARE(p.value, 30.0);
    QCOMPARE(int(out.run->variants.size()), 3);
  }

  // Ctrl+Shift+R is the window's, even while a Params spin box has the focus.
  void runAllShortcutWorksFromASpinBox() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(":/lessons/ode_while_loop.gls"));
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "steps", 200), 20000);
    QWidget* spin = w.params()->spinBoxFor("steps");
    w.activateWindow();
    spin->setFocus();
    QTRY_VERIFY(spin->hasFocus());
    QSignalSpy finished(w.controller(), &LessonController::runFinished);
    QTest::keyClick(spin, Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 30000);
    QCOMPARE(int(w.controller()->outcome().run->variants.size()), 3);
  }

  // Cancel is not a failure: neutral words in the log and the status bar, and Run All stops
  // in the variant it is in (the later ones never start).
  void cancelDuringRunAllReadsAsCancelled() {
    MainWindow w;
    w.show();
    openSmall(w, "ode_while_loop.gls", {{"batch", 10}, {"dim", 5000}, {"steps", 100000}});
    QSignalSpy finished(w.controller(), &LessonController::runFinished);
    w.runCurrent(true);
    QTRY_VERIFY(w.runProgress()->bar("serial"));
    QVERIFY(!finished.wait(300));
    QElapsedTimer t;
    t.start();
    w.findChild<QAction*>("cancelRun")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 5000);
    qInfo("cancel took %lld ms", t.elapsed());
    QVERIFY(t.elapsed() < 1000);
    const auto& variants = w.controller()->outcome().run->variants;
    QCOMPARE(int(variants.size()), 1);
    QVERIFY(variants[0].cancelled);
    QCOMPARE(statusText(w), QString("Run cancelled"));
    const QString log = w.runLog()->toPlainText();
    QVERIFY2(!log.contains("error"), qPrintable(log));
    QTextBlock last = w.runLog()->document()->lastBlock();
    while (last.isValid() && !last.text().contains("cancelled")) last = last.previous();
    QVERIFY2(last.isValid(), qPrintable(log));
    const QColor colour = last.begin().fragment().charFormat().foreground().color();
    QCOMPARE(colour, w.runLog()->palette().color(QPalette::PlaceholderText));  // as info lines
  }

  // A variant that needs memory new to the process is timed again, warm: the bar shows the
  // second run, the log says what the first took. A variant that needs none is timed once.
  void aVariantOnFreshMemoryIsTimedAgainWarm() {
    const int64_t floats = int64_t(gl::memoryHighWater() + (size_t(64) << 20)) / 4;
    QTemporaryDir dir;
    const QString path = dir.filePath("fresh.gls");
    QCOMPARE(saveScript(path, QString("with variant(\"fresh\"):\n"
                                      "    y = tf.reduce_sum(tf.ones([%1]) * 2.0)\n"
                                      "with variant(\"small\"):\n"
                                      "    y = tf.reduce_sum(tf.ones([4]) * 2.0)\n")
                                  .arg(floats)),
             QString());
    MainWindow w;
    w.show();
    QVERIFY(w.openFile(path));
    QTRY_VERIFY_WITH_TIMEOUT(w.controller()->program() != nullptr, 20000);
    runAll(w);
    const auto& variants = w.controller()->outcome().run->variants;
    QCOMPARE(int(variants.size()), 2);
    if (variants[0].coldSeconds == 0 && variants[0].run.seconds > gl::lab::kWarmAgainSeconds)
      QSKIP("the fresh variant took longer than a repeat is worth (a sanitizer build)");
    QVERIFY2(variants[0].coldSeconds > 0, qPrintable(w.runLog()->toPlainText()));
    QVERIFY(variants[0].coldFreshBytes >= size_t(64) << 20);
    QCOMPARE(variants[1].coldSeconds, 0.0);
    QVERIFY2(w.runLog()->toPlainText().contains("timed again, warm: its first run took "),
             qPrintable(w.runLog()->toPlainText()));
  }

  // Insert menu in the window: the template lands with fresh names, its first placeholder
  // selected, and the script still traces.
  void insertMenuTemplatesTraceWithFreshNames() {
    MainWindow w;
    w.show();
    QVERIFY(w.openFile(":/lessons/ode_while_loop.gls"));
    QTRY_VERIFY_WITH_TIMEOUT(tracedAt(w, "steps", 200), 20000);
    w.editor()->moveCursor(QTextCursor::End);
    w.editor()->insertPlainText("\n");
    QAction* gradientTape = nullptr;
    for (QAction* a : w.menuBar()->findChildren<QAction*>())
      if (a->text() == "GradientTape block") gradientTape = a;
    QVERIFY(gradientTape);
    gradientTape->trigger();
    QCOMPARE(w.editor()->textCursor().selectedText(), QString("tf.constant([1.0, 2.0, 3.0])"));
    const QString text = w.editor()->toPlainText();
    QVERIFY2(text.contains("x_2 = tf.constant") && text.contains("tape_2.gradient(loss, x_2)"),
             qPrintable(text));
    QSignalSpy traced(w.controller(), &LessonController::traced);
    w.controller()->setSource(text, w.document()->fileName());
    w.controller()->traceNow();
    QTRY_VERIFY_WITH_TIMEOUT(traced.count() >= 1, 20000);
  }

  void editingAParamReruns() {
    MainWindow w;
    w.show();
    openSmall(w, "ode_while_loop.gls", {{"batch", 2}, {"dim", 3}, {"steps", 5}});
    runAll(w);
    QSignalSpy finished(w.controller(), &LessonController::runFinished);
    w.params()->setDebounceInterval(10);
    // Change a param the way the user does: through its spin box.
    auto* steps = qobject_cast<QSpinBox*>(w.params()->spinBoxFor("steps"));
    QVERIFY(steps);
    steps->setValue(6);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 1, 20000);
    QCOMPARE(w.controller()->program()->params.size(), size_t(4));
    for (const lang::Param& p : w.controller()->program()->params)
      if (p.name == "steps") QCOMPARE(p.value, 6.0);
  }

  void sweepFillsTheScalingPlot() {
    MainWindow w;
    w.show();
    openSmall(w, "ode_while_loop.gls", {{"batch", 2}, {"dim", 3}, {"steps", 5}});
    QSignalSpy points(w.controller(), &LessonController::sweepPoint);
    QSignalSpy done(w.controller(), &LessonController::sweepFinished);
    QVERIFY(w.startSweep("steps", {2, 4, 8}));
    QCOMPARE(runControls(w), kRunning);
    QTRY_VERIFY_WITH_TIMEOUT(done.count() == 1, 60000);
    QCOMPARE(runControls(w), kIdle);
    QCOMPARE(done.at(0).at(1).toString(), QString());
    QCOMPARE(points.count(), 3 * 3);  // three variants at three values
    const ScalingData& data = w.plots()->scaling()->scaling();
    QCOMPARE(data.param, QString("steps"));
    QCOMPARE(data.series.size(), 3);
    for (const ScalingSeries& s : data.series) {
      QCOMPARE(s.x, (QVector<double>{2, 4, 8}));
      for (double sec : s.seconds) QVERIFY(sec > 0);
    }
    // The plot holds exactly the timings the engine reported.
    const QList<QVariant> first = points.at(0);
    bool found = false;
    for (const ScalingSeries& s : data.series)
      if (s.variant == first.at(0).toString()) found = s.seconds.at(0) == first.at(2).toDouble();
    QVERIFY(found);
  }

  void exportLessonWritesValidFiles() {
    MainWindow w;
    w.show();
    openSmall(w, "per_step_gradients.gls", {{"steps", 4}});
    runAll(w);
    QTemporaryDir dir;
    LessonExportOptions opt;
    opt.plotSize = QSize(640, 400);
    const RunOutcome& out = w.controller()->outcome();
    LessonExportReport report = exportLesson(*out.program, *out.run, dir.path(), opt);
    QVERIFY2(report.ok(), qPrintable(report.errors.join("\n")));
    QImage png(dir.filePath("jacobian_graph.png"));
    QVERIFY(!png.isNull());
    QImage jac(dir.filePath("jacobian_jacobian.png"));
    QCOMPARE(jac.size(), QSize(640, 400));
    QFile pdf(dir.filePath("timings.pdf"));
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    QVERIFY(pdf.read(4) == "%PDF");
    QFile csv(dir.filePath("jacobian_jacobian.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readAll().count('\n'), 1 + 16);  // header + T*T cells
    // The window's own graph export: the whole graph, format by suffix.
    QVERIFY(w.exportGraphTo(dir.filePath("window_graph.svg")));
    QFile svg(dir.filePath("window_graph.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
    QVERIFY(w.exportGraphTo(dir.filePath("window_graph.dot")));
    QVERIFY(!w.exportGraphTo(dir.filePath("window_graph.gif")));
    QFile dot(dir.filePath("variable_in_loop_graph.dot"));
    QVERIFY(dot.open(QIODevice::ReadOnly));
    QVERIFY(dot.readAll().startsWith("digraph"));
  }
};

GRADLAB_TEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
