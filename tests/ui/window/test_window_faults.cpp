// Faults the window survives, driven as a user would under QT_QPA_PLATFORM=offscreen: the
// process killed mid-edit (a real SIGKILL of a child window), files that are not scripts, a
// file deleted while open, saving where nothing can be written, rapid run/cancel cycles,
// scripts over the limits, and the first NaN of a run shown where it happened.
#include <sys/stat.h>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <csignal>
#include "test_main.h"

#include "support/isolated_settings.h"
#include "ui/about.h"
#include "ui/document/script_document.h"
#include "ui/document/script_file.h"
#include "ui/editor/script_editor.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/node_item.h"
#include "ui/panels/run_log.h"
#include "ui/step/step_controls.h"
#include "ui/window/main_window.h"
#include "ui/window/settings_dialog.h"

using namespace gl;
using namespace gl::ui;

namespace {

// Answers every modal dialog with `answer` (which closes it; whatever it leaves open is
// rejected), so a test sees what was asked and never hangs on exec().
class ModalAnswers : public QObject {
 public:
  explicit ModalAnswers(std::function<void(QDialog*)> answer) : answer_(std::move(answer)) {
    connect(&poll_, &QTimer::timeout, this, [this] {
      auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
      if (!dialog) return;
      if (auto* box = qobject_cast<QMessageBox*>(dialog)) texts_ << box->text();
      answer_(dialog);
      if (dialog->isVisible()) dialog->reject();
    });
    poll_.start(10);
  }
  const QStringList& texts() const { return texts_; }

 private:
  std::function<void(QDialog*)> answer_;
  QTimer poll_;
  QStringList texts_;
};

std::function<void(QDialog*)> clickButton(QMessageBox::StandardButton which) {
  return [which](QDialog* d) {
    if (auto* box = qobject_cast<QMessageBox*>(d))
      if (QAbstractButton* b = box->button(which)) b->click();
  };
}

QString contents(const QString& path) {
  const LoadResult r = loadScript(path);
  return r.ok() ? r.text : QStringLiteral("<unreadable: %1>").arg(r.error);
}

QString write(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) return QString();
  return path;
}

bool runFinished(QSignalSpy& finished, int count, int ms = 60000) {
  return QTest::qWaitFor([&] { return finished.count() >= count; }, ms);
}

// Opens a script and waits until it is traced (or its trace failed).
bool openAndTrace(MainWindow& w, const QString& path) {
  return w.openFile(path) &&
         QTest::qWaitFor([&] { return !w.controller()->tracePending(); }, 20000);
}

// Replaces the editor's text as typing does and waits for its trace.
bool retraced(MainWindow& w, const QString& text) {
  QSignalSpy traced(w.controller(), &LessonController::traced);
  w.editor()->setPlainText(text);
  return QTest::qWaitFor([&] { return traced.count() > 0 && !w.controller()->tracePending(); },
                         20000);
}

// Threads that could be left behind by a run: every thread of the process except Qt's pool
// workers ("Thread (pooled)"), which come and go with the pool's expiry timeout (records are
// freed on the global pool, layouts run on their own) and so say nothing about a leak.
int threadCount() {
  int count = 0;
  const QDir tasks(QStringLiteral("/proc/self/task"));
  for (const QString& tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    QFile comm(tasks.filePath(tid + "/comm"));
    if (!comm.open(QIODevice::ReadOnly)) continue;  // the thread ended while we looked
    if (comm.readAll().trimmed() != "Thread (pooled)") ++count;
  }
  return count;
}

// ---- The child window that is killed --------------------------------------------------------
// Run as `gradlab_tests_ui test_window_faults` with GRADLAB_KILL_CHILD=<scenario>,
// GRADLAB_KILL_FOLDER (autosave folder) and GRADLAB_KILL_FILE (the script, empty for an untitled
// one). It edits, waits until the autosave copy holds what the scenario leaves behind, prints
// "ready" and waits to be killed.
int childEditsUntilKilled() {
  const QString scenario = qEnvironmentVariable("GRADLAB_KILL_CHILD");
  const QString folder = qEnvironmentVariable("GRADLAB_KILL_FOLDER");
  const QString file = qEnvironmentVariable("GRADLAB_KILL_FILE");
  MainWindow w;
  w.document()->setAutosaveFolder(folder);
  w.document()->setAutosaveDelay(20);
  w.show();
  if (!file.isEmpty() && !w.openFile(file)) return 3;
  auto typed = [&](const QString& text) {
    QTextCursor end = w.editor()->textCursor();
    end.movePosition(QTextCursor::End);
    end.insertText(text);
  };
  auto copyHolds = [&](const QString& text) {
    for (int i = 0; i < 500; ++i) {
      if (QFile::exists(w.document()->autosavePath()) &&
          contents(w.document()->autosavePath()) == text)
        return true;
      QTest::qWait(10);
    }
    return false;
  };
  const QString start = w.document()->text();
  typed(QStringLiteral("# one"));
  if (!copyHolds(start + "# one")) return 4;
  // Typing after the first autosave is saved too (it used to be lost).
  typed(QStringLiteral("\n# two"));
  if (!copyHolds(start + "# one\n# two")) return 5;
  if (scenario == QLatin1String("undo")) {
    // Back to the saved text: the copy must go, or a stale one is offered after the kill.
    while (w.document()->isDirty() && w.editor()->document()->isUndoAvailable()) w.editor()->undo();
    for (int i = 0; i < 500 && QFile::exists(w.document()->autosavePath()); ++i) QTest::qWait(10);
    if (QFile::exists(w.document()->autosavePath())) return 6;
  }
  std::printf("ready\n");
  std::fflush(stdout);
  for (;;) QTest::qWait(100);
}

}  // namespace

class TestWindowFaults : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  // Runs the child window in `scenario`, kills it with SIGKILL once it is ready.
  bool killChild(const QString& scenario, const QString& folder, const QString& file) {
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("GRADLAB_KILL_CHILD", scenario);
    env.insert("GRADLAB_KILL_FOLDER", folder);
    env.insert("GRADLAB_KILL_FILE", file);
    env.insert("QT_QPA_PLATFORM", "offscreen");
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), gl::testing::runnerArguments());
    if (!child.waitForStarted(10000)) return false;
    QByteArray out;
    QElapsedTimer t;
    t.start();
    while (!out.contains("ready") && child.state() == QProcess::Running && t.elapsed() < 60000)
      if (child.waitForReadyRead(200)) out += child.readAllStandardOutput();
    if (!out.contains("ready")) {
      qWarning("child %s: exit %d, %s", qPrintable(scenario), child.exitCode(),
               child.readAllStandardError().constData());
      child.kill();
      child.waitForFinished();
      return false;
    }
    ::kill(pid_t(child.processId()), SIGKILL);
    child.waitForFinished(10000);
    return child.exitStatus() == QProcess::CrashExit;
  }

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("GradLabTest");
    QCoreApplication::setApplicationName("GradLabTest");
    initResources();
    QVERIFY(dir_.isValid());
    QVERIFY(QSettings().fileName().startsWith(gl::test::isolatedHome() + "/"));
  }

  // ---- Killed mid-edit ----------------------------------------------------------------------
  // A window is killed (SIGKILL) after two edits: the next window offers both edits back.
  void killedMidEditRecoversTheLastEdit() {
    const QString folder = dir_.filePath("kill-edit");
    const QString path = write(dir_.filePath("killed.gls"), "a = tf.constant(1.0)\n");
    QVERIFY(killChild("edit", folder, path));
    MainWindow w;
    w.document()->setAutosaveFolder(folder);
    w.show();
    ModalAnswers yes(clickButton(QMessageBox::Yes));
    QVERIFY(w.openFile(path));
    QCOMPARE(yes.texts().size(), 1);
    QVERIFY2(yes.texts()[0].contains("killed.gls"), qPrintable(yes.texts()[0]));
    QCOMPARE(w.document()->text(), QString("a = tf.constant(1.0)\n# one\n# two"));
    QVERIFY(w.document()->isDirty());
    QCOMPARE(contents(path), QString("a = tf.constant(1.0)\n"));  // the file waits for a save
  }

  // Killed after undoing back to the saved text: nothing stale is offered.
  void killedAfterUndoToSavedOffersNothing() {
    const QString folder = dir_.filePath("kill-undo");
    const QString path = write(dir_.filePath("undone.gls"), "b = tf.constant(2.0)\n");
    QVERIFY(killChild("undo", folder, path));
    MainWindow w;
    w.document()->setAutosaveFolder(folder);
    w.show();
    ModalAnswers yes(clickButton(QMessageBox::Yes));
    QVERIFY(w.openFile(path));
    QCOMPARE(yes.texts(), QStringList());
    QCOMPARE(w.document()->text(), QString("b = tf.constant(2.0)\n"));
    QVERIFY(!w.document()->isDirty());
  }

  // An untitled script's work is offered on the next start's first open.
  void killedUntitledWorkIsOffered() {
    const QString folder = dir_.filePath("kill-untitled");
    QVERIFY(killChild("untitled", folder, QString()));
    const QString other = write(dir_.filePath("other.gls"), "c = 1\n");
    MainWindow w;
    w.document()->setAutosaveFolder(folder);
    w.show();
    ModalAnswers yes(clickButton(QMessageBox::Yes));
    QVERIFY(w.openFile(other));
    QCOMPARE(yes.texts().size(), 1);
    QVERIFY2(yes.texts()[0].contains("untitled"), qPrintable(yes.texts()[0]));
    QVERIFY2(w.document()->text().endsWith("# one\n# two"), qPrintable(w.document()->text()));
  }

  // ---- Files that are not scripts -----------------------------------------------------------
  // Each is refused with its reason in the log and a message box; the open script stays. Tests
  // run as root, which reads any file whatever its mode, so the unreadable file is a folder
  // named x.gls and a FIFO (which used to block the open, freezing the window).
  void filesThatAreNotScriptsAreRefused() {
    QVERIFY(QDir(dir_.path()).mkpath("folder.gls"));
    const QString fifo = dir_.filePath("fifo.gls");
    QVERIFY(mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    const struct {
      QString path;
      QString reason;
    } cases[] = {
        {write(dir_.filePath("binary.gls"), QByteArray("\x7f"
                                                       "ELF\0\0\x01",
                                                       7)),
         "NUL bytes"},
        {write(dir_.filePath("huge.gls"), QByteArray(50 << 20, 'x')), "larger than 4 MiB"},
        {dir_.filePath("folder.gls"), "is not a regular file"},
        {fifo, "is not a regular file"},
        {dir_.filePath("missing.gls"), "does not exist"},
    };
    const QString kept = write(dir_.filePath("kept.gls"), "k = tf.constant(3.0)\n");
    MainWindow w;
    w.document()->setAutosaveFolder(dir_.filePath("files-autosave"));
    w.show();
    QVERIFY(w.openFile(kept));
    ModalAnswers ok(clickButton(QMessageBox::Ok));
    for (const auto& c : cases) {
      QVERIFY(!c.path.isEmpty());
      QElapsedTimer t;
      t.start();
      QVERIFY2(!w.openFile(c.path), qPrintable(c.path));
      QVERIFY(t.elapsed() < 5000);
      QVERIFY2(w.runLog()->toPlainText().contains(c.reason), qPrintable(c.reason));
      QVERIFY2(ok.texts().last().contains(c.reason), qPrintable(ok.texts().last()));
      QCOMPARE(w.currentFile(), kept);
      QCOMPARE(w.document()->text(), QString("k = tf.constant(3.0)\n"));
    }
    QCOMPARE(ok.texts().size(), int(std::size(cases)));
  }

  // A file deleted while open: the edit is kept, and saving writes it again.
  void fileDeletedWhileOpenIsRecreatedBySave() {
    const QString path = write(dir_.filePath("deleted.gls"), "d = tf.constant(4.0)\n");
    MainWindow w;
    w.document()->setAutosaveFolder(dir_.filePath("deleted-autosave"));
    w.show();
    QVERIFY(w.openFile(path));
    QVERIFY(QFile::remove(path));
    w.editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(w.editor(), "# still here");
    QVERIFY(w.saveTo(path));
    QCOMPARE(contents(path), QString("d = tf.constant(4.0)\n# still here"));
    QVERIFY(!w.document()->isDirty());
  }

  // Saving where nothing can be written (as root a read-only mode does not stop writes, so the
  // folder is a regular file): a clear error, the edit kept and still unsaved.
  void saveIntoAnUnwritableFolderKeepsTheEdit() {
    const QString path = write(dir_.filePath("keep.gls"), "e = tf.constant(5.0)\n");
    const QString notAFolder = write(dir_.filePath("plain.gls"), "not a folder\n");
    MainWindow w;
    w.document()->setAutosaveFolder(dir_.filePath("save-autosave"));
    w.show();
    QVERIFY(w.openFile(path));
    w.editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(w.editor(), "# edit");
    ModalAnswers ok(clickButton(QMessageBox::Ok));
    for (const QString& target : {notAFolder + "/x.gls", QStringLiteral("/proc/x.gls")}) {
      QVERIFY2(!w.saveTo(target), qPrintable(target));
      QVERIFY2(w.runLog()->toPlainText().contains("cannot write " + target) ||
                   ok.texts().join('\n').contains("cannot write " + target),
               qPrintable(w.runLog()->toPlainText() + ok.texts().join('\n')));
      QCOMPARE(w.document()->text(), QString("e = tf.constant(5.0)\n# edit"));
      QVERIFY(w.document()->isDirty());
      QCOMPARE(w.currentFile(), path);
    }
    QCOMPARE(contents(notAFolder), QString("not a folder\n"));
  }

  // ---- Runs ---------------------------------------------------------------------------------
  // 20 run/cancel cycles of a long loop: each ends (cancelled or finished), no thread is left
  // behind, and the window runs the next script to the right answer.
  void rapidRunCancelCycles() {
    const QString path = write(dir_.filePath("spin.gls"),
                               "n = tf.while_loop(lambda i: i < 20000000, lambda i: i + 1, "
                               "[tf.constant(0)])\n");
    MainWindow w;
    w.document()->setAutosaveFolder(dir_.filePath("cycles-autosave"));
    w.show();
    QVERIFY(openAndTrace(w, path));
    QVERIFY(w.controller()->program());
    QSignalSpy finished(w.controller(), &LessonController::runFinished);
    int threadsAfterFirst = -1;
    for (int cycle = 0; cycle < 20; ++cycle) {
      w.runCurrent(false);
      QVERIFY(w.controller()->running());
      if (cycle % 2) QTest::qWait(5);  // sometimes at once, sometimes under way
      w.controller()->cancel();
      QVERIFY(runFinished(finished, cycle + 1, 10000));
      QVERIFY(!w.controller()->running());
      const auto& run = w.controller()->outcome().run;
      QVERIFY(run && run->variants.size() == 1);
      QVERIFY(run->variants[0].cancelled || run->variants[0].ok());
      if (cycle == 0) threadsAfterFirst = threadCount();
    }
    // No thread leaks across the cycles. Fewer is fine: under load a thread the first cycle
    // counted (a worker winding down) may have ended by now (seen: 5 after the first, 4 here).
    QVERIFY2(threadCount() <= threadsAfterFirst,
             qPrintable(QString("%1 threads, %2 after the first cycle")
                            .arg(threadCount())
                            .arg(threadsAfterFirst)));
    QCOMPARE(finished.count(), 20);
    // Still usable: a short script runs to its value.
    QFile::remove(path);
    const QString small = write(dir_.filePath("small.gls"),
                                "n = tf.while_loop(lambda i: i < 7, lambda i: i + 1, "
                                "[tf.constant(0)])\n");
    QVERIFY(openAndTrace(w, small));
    w.runCurrent(false);
    QVERIFY(runFinished(finished, 21));
    const auto& v = w.controller()->outcome().run->variants.at(0);
    QVERIFY2(v.ok(), v.error.c_str());
    QCOMPARE(v.outputs.at(0).entries.at(0).value.t.item(), 7.0);
  }

  // Over the memory budget in the window: a clear error at the line, and the window still runs
  // the next script. The budget comes from Settings > Limits (QSettings), as the user sets it.
  void overTheBudgetInTheWindow() {
    QSettings().setValue("limits/memory-budget", qint64(64) << 20);
    const QString path = write(dir_.filePath("big.gls"),
                               "a = tf.random.normal([3000, 3000])\n"
                               "b = tf.random.normal([3000, 3000])\n"
                               "c = a + b\n");
    MainWindow w;
    QSettings().remove("limits");
    QCOMPARE(w.controller()->limits().memoryBudget, qint64(64) << 20);
    w.document()->setAutosaveFolder(dir_.filePath("budget-autosave"));
    w.show();
    QVERIFY(openAndTrace(w, path));
    QVERIFY(w.controller()->program());  // each draw (34 MiB) fits on its own
    QSignalSpy finished(w.controller(), &LessonController::runFinished);
    w.runCurrent(false);
    QVERIFY(runFinished(finished, 1));
    const auto& v = w.controller()->outcome().run->variants.at(0);
    const QString name = QFileInfo(path).fileName();
    QCOMPARE(QString::fromStdString(v.error),
             name +
                 ":2:5: random_normal: the tensors alive at once at this point of the run "
                 "need 68.7 MiB, over the memory budget of 64.0 MiB (set a larger one "
                 "with --memory-budget or in Settings)");
    QVERIFY2(w.runLog()->toPlainText().contains("over the memory budget of 64.0 MiB"),
             qPrintable(w.runLog()->toPlainText()));
    // A trace-time refusal names the line too.
    w.editor()->setPlainText("z = tf.zeros([10000, 10000])\n");
    QTRY_VERIFY_WITH_TIMEOUT(w.runLog()->toPlainText().contains("1:5: fill: this needs 381.5 MiB"),
                             20000);
    // The window is still usable.
    QVERIFY(retraced(w, "a = tf.random.normal([30, 30])\nc = tf.reduce_sum(a * 0.0 + 2.0)\n"));
    w.runCurrent(false);
    QVERIFY(runFinished(finished, 2));
    const auto& ok = w.controller()->outcome().run->variants.at(0);
    QVERIFY2(ok.ok(), ok.error.c_str());
    QCOMPARE(ok.outputs.back().entries.at(0).value.t.item(), 1800.0);
  }

  // Settings > Limits: shown with the current values, saved in QSettings on OK, applied to the
  // next trace (a list over maxItems fails at its line, naming the setting), and restored.
  void limitsAreSetInTheSettingsDialog() {
    const QString path = write(dir_.filePath("items.gls"),
                               "xs = []\nfor i in range(30):\n    xs.append(i)\n"
                               "n = tf.constant(float(len(xs)))\n");
    MainWindow w;
    w.document()->setAutosaveFolder(dir_.filePath("limits-autosave"));
    w.show();
    QVERIFY(openAndTrace(w, path));
    QVERIFY(w.controller()->program());
    QSignalSpy failed(w.controller(), &LessonController::traceFailed);
    RunLimits shown;
    auto answers = std::make_unique<ModalAnswers>([&](QDialog* d) {
      auto* dialog = qobject_cast<SettingsDialog*>(d);
      if (!dialog) return;
      shown = dialog->limits();
      dialog->maxItemsBox()->setValue(20);
      dialog->maxOpsBox()->setValue(5000);
      dialog->accept();
    });
    w.findChild<QAction*>("settings")->trigger();
    answers.reset();
    QCOMPARE(shown, RunLimits{});
    QCOMPARE(QSettings().value("limits/max-items").toLongLong(), qlonglong(20));
    QCOMPARE(QSettings().value("limits/max-ops").toLongLong(), qlonglong(5000));
    QCOMPARE(w.controller()->limits().maxItems, qint64(20));
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() == 1, 20000);
    QCOMPARE(failed[0][0].toString(),
             QFileInfo(path).fileName() +
                 ":3:5: this list grew past 20 items (the maxItems limit, --max-items or in "
                 "Settings)");
    // The ops limit applies to runs.
    QVERIFY(retraced(
        w, "n = tf.while_loop(lambda i: i < 100000, lambda i: i + 1, [tf.constant(0)])\n"));
    QSignalSpy finished(w.controller(), &LessonController::runFinished);
    w.runCurrent(false);
    QVERIFY(runFinished(finished, 1));
    QVERIFY2(
        w.controller()->outcome().run->variants.at(0).error.find(
            "while: the run executed more than 5000 ops (the maxOps limit") != std::string::npos,
        w.controller()->outcome().run->variants.at(0).error.c_str());
    // Restore Defaults in the dialog puts them back.
    ModalAnswers defaults([&](QDialog* d) {
      auto* dialog = qobject_cast<SettingsDialog*>(d);
      if (!dialog) return;
      auto* box = dialog->findChild<QDialogButtonBox*>();
      box->button(QDialogButtonBox::RestoreDefaults)->click();
      dialog->accept();
    });
    w.findChild<QAction*>("settings")->trigger();
    QCOMPARE(w.controller()->limits(), RunLimits{});
    QCOMPARE(RunLimits::load(QSettings()), RunLimits{});
  }

  // ---- Numerics -----------------------------------------------------------------------------
  // log of a negative value in iteration 2 of a while_loop: the node is outlined in the graph,
  // the step-through is at iteration 2, and the run log says where (a link to the line).
  void firstNanIsShownWhereItAppeared() {
    const QString path = write(dir_.filePath("nan.gls"),
                               "def body(i, v):\n"
                               "    x = tf.cast(2 - i, tf.float32) - 0.5\n"
                               "    return i + 1, v + tf.math.log(x)\n"
                               "n, v = tf.while_loop(lambda i, v: i < 5, body, "
                               "[tf.constant(0), tf.constant(0.0)])\n");
    MainWindow w;
    w.document()->setAutosaveFolder(dir_.filePath("nan-autosave"));
    w.show();
    QVERIFY(openAndTrace(w, path));
    QVERIFY(w.controller()->program());
    QSignalSpy finished(w.controller(), &LessonController::runFinished);
    w.runCurrent(false);
    QVERIFY(runFinished(finished, 1));
    const lab::VariantRun* v = w.shownRun();
    QVERIFY(v && v->ok());
    const NumericsFault& fault = v->run.numerics;
    QVERIFY(fault.found());  // on by default in the window
    QCOMPARE(fault.op, std::string("log"));
    QCOMPARE(fault.loc.line, 3);
    QCOMPARE(fault.iteration, int64_t(2));
    QTRY_VERIFY_WITH_TIMEOUT(!w.graphView()->graphScene()->layoutPending(), 20000);
    // Outlined: the log node itself, or the folded loop holding it.
    QList<NodeItem*> outlined;
    for (NodeItem* item : w.graphView()->graphScene()->nodeItems())
      if (item->isNumericsFault()) outlined << item;
    QCOMPARE(outlined.size(), 1);
    const Graph& g = *w.controller()->program()->graph;
    const int loop = g.region(g.node(fault.node).region).owner;
    QVERIFY(outlined[0]->nodeId() == fault.node || outlined[0]->nodeId() == loop);
    QVERIFY2(outlined[0]->toolTip().contains("log made the first 1 NaN of the run here (loop "
                                             "iteration 2)"),
             qPrintable(outlined[0]->toolTip()));
    // The step-through is at the first bad iteration of that loop, once the recording run
    // has brought the variant's loop records.
    QTRY_COMPARE_WITH_TIMEOUT(w.stepControls()->currentLoop(), loop, 20000);
    QCOMPARE(w.stepControls()->step(), qint64(2));
    // The run log says where, with the location as a link.
    const QString log = w.runLog()->toPlainText();
    const QString name = QFileInfo(path).fileName();
    QVERIFY2(log.contains(name + ":3:23: numerics: log made the first 1 NaN at " + name +
                          ":3:23 (loop iteration 2)"),
             qPrintable(log));
    // A clean run clears the outline.
    QVERIFY(retraced(w, "n = tf.constant(1.0) + 1.0\n"));
    w.runCurrent(false);
    QVERIFY(runFinished(finished, 2));
    QTRY_VERIFY_WITH_TIMEOUT(!w.graphView()->graphScene()->layoutPending(), 20000);
    for (NodeItem* item : w.graphView()->graphScene()->nodeItems())
      QVERIFY(!item->isNumericsFault());
  }
};

namespace {
int windowFaultsMain(int argc, char** argv) {
  QApplication app(argc, argv);
  if (qEnvironmentVariableIsSet("GRADLAB_KILL_CHILD")) {
    QCoreApplication::setOrganizationName("GradLabTest");
    QCoreApplication::setApplicationName("GradLabTest");
    initResources();
    return childEditsUntilKilled();
  }
  TestWindowFaults test;
  QTEST_SET_MAIN_SOURCE_PATH
  return QTest::qExec(&test, argc, argv);
}
}  // namespace

GRADLAB_TEST_CUSTOM_MAIN(windowFaultsMain)

#include "test_window_faults.moc"
