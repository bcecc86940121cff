// Exports label the timing bars with the executor each run recorded (lab::VariantRun::executor):
// Export Lesson after a fused run labelled them "serial" (the window passed "parallel" or
// "serial" from two bools), and the handout labelled every run "serial".
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include "test_main.h"

#include "engine/lab/session.h"
#include "engine/lang/program.h"
#include "support/isolated_settings.h"
#include "ui/about.h"
#include "ui/export/handout.h"
#include "ui/export/lesson_export.h"
#include "ui/i18n/diagnostic_text.h"
#include "ui/plots/timing_bars_plot.h"
#include "ui/present/result_views.h"

using namespace gl;
using namespace gl::ui;

namespace {

// Two variants whose names are not executors' names, so any "serial" in a file is a label.
const char* kScript = R"(x = tf.constant([1.0, 2.0, 3.0])
with variant("twice"):
    y = x * 2.0 + 1.0
with variant("thrice"):
    y = x * 3.0 + 1.0
)";

QString readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

lab::ProgramRun runOn(const lang::TracedProgram& p, ExecutorKind executor) {
  lab::RunRequest request;
  request.options.executor = executor;
  request.options.threads = 2;
  return lab::runProgram(p, request);
}

}  // namespace

class TestExportExecutor : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("GradLabTest");
    QCoreApplication::setApplicationName("GradLabTest");
    initResources();
    QVERIFY(!gl::test::isolatedHome().isEmpty());
  }

  void exportAfterAFusedRunLabelsTheBarsFused() {
    const lang::TracedProgram p = lang::traceProgram(kScript, "two.gls", {});
    const lab::ProgramRun run = runOn(p, ExecutorKind::Fused);
    QVERIFY(run.ok());
    QTemporaryDir dir;
    LessonExportOptions opt;
    opt.formats = {QStringLiteral("csv")};
    const LessonExportReport report = exportLesson(p, run, dir.path(), opt);
    QVERIFY2(report.ok(), qPrintable(report.errors.join('\n')));
    const QString csv = readAll(dir.filePath(QStringLiteral("timings.csv")));
    QVERIFY2(csv.startsWith(QStringLiteral("variant,executor,seconds\ntwice,fused,")),
             qPrintable(csv));
    QVERIFY2(csv.contains(QStringLiteral("\nthrice,fused,")), qPrintable(csv));
    QVERIFY2(!csv.contains(QStringLiteral("serial")), qPrintable(csv));
    const QString text = readAll(dir.filePath(QStringLiteral("report.txt")));
    QVERIFY2(text.contains(QStringLiteral("variant 'twice'  [fused executor]")), qPrintable(text));
  }

  // The bars of a run (the export's and the handout's) name the executor it ran on, in the
  // legend by its translated label.
  void barsOfARunNameItsExecutor_data() {
    QTest::addColumn<ExecutorKind>("executor");
    for (ExecutorKind k : kExecutorKinds) QTest::newRow(executorName(k)) << k;
  }
  void barsOfARunNameItsExecutor() {
    QFETCH(ExecutorKind, executor);
    const lang::TracedProgram p = lang::traceProgram(kScript, "two.gls", {});
    const QVector<TimingData> timings = timingData(runOn(p, executor));
    QCOMPARE(timings.size(), 2);
    for (const TimingData& t : timings) QVERIFY(t.executor == executor);
    TimingBarsPlot plot;
    plot.setTimings(timings);
    QVERIFY(plot.executors() == QList<ExecutorKind>{executor});
    QCOMPARE(plot.barsFor(executor)->name(), executorLabel(executor));
  }

  void handoutAfterAFusedRunLabelsTheBarsFused() {
    const lang::TracedProgram p = lang::traceProgram(kScript, "two.gls", {});
    const lab::ProgramRun run = runOn(p, ExecutorKind::Fused);
    QTemporaryDir dir;
    const QString pdf = dir.filePath(QStringLiteral("handout.pdf"));
    const HandoutResult r = exportHandout(p, run, QStringLiteral("Two"), kScript, pdf);
    QVERIFY2(r.ok, qPrintable(r.error));
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
      QSKIP("pdftotext is not installed: the handout's legend is not checked");
    QProcess text;
    text.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    QVERIFY(text.waitForFinished(60000));
    const QString out = QString::fromUtf8(text.readAllStandardOutput());
    QVERIFY2(out.contains(QStringLiteral("fused")), qPrintable(out));
    QVERIFY2(!out.contains(QStringLiteral("serial")), qPrintable(out));
  }
};

GRADLAB_TEST_MAIN(TestExportExecutor)
#include "test_export_executor.moc"
