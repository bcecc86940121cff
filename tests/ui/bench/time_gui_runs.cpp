// A timing driver, not a test (no CTest registration: timings on a shared machine are noise):
// for each built-in lesson at seed size, the time from Run All to "Run finished" in the window
// (offscreen, as a user runs it: no loop or value records, the timeline on) against the same
// program run as `gradlab run` runs it (no timeline, loop or value records). The recording run
// that follows (the shown variant run again with records, for the step-through) is timed apart
// and waited for before the command-line run. Medians of three; run it alone:
//   QT_QPA_PLATFORM=offscreen build/tests/ui/ui_time_gui_runs [lessons:parallel_layers.gls]
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>
#include <algorithm>

#include "engine/lab/session.h"
#include "support/isolated_settings.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/run/lesson_controller.h"
#include "ui/window/main_window.h"

using namespace gl;
using namespace gl::ui;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

class TimeGuiRuns : public QObject {
  Q_OBJECT
 private slots:
  void lessons_data() {
    QTest::addColumn<QString>("lesson");
    for (const char* l : {"ode_while_loop.gls", "per_step_gradients.gls", "parallel_layers.gls",
                          "gradient_none.gls"})
      QTest::newRow(l) << QString(l);
  }

  void lessons() {
    QFETCH(QString, lesson);
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy traced(w.controller(), &LessonController::traced);
    QVERIFY(w.openFile(":/lessons/" + lesson));
    QTRY_VERIFY_WITH_TIMEOUT(traced.count() >= 1, 120000);
    w.controller()->setPreset(lang::ParamPreset::Seed);  // the window opens at classroom size
    w.controller()->traceNow();
    QTRY_VERIFY_WITH_TIMEOUT(traced.count() >= 2, 120000);
    QTRY_VERIFY_WITH_TIMEOUT(!w.graphView()->graphScene()->layoutPending(), 120000);
    auto program = w.controller()->program();
    QVERIFY(program);

    std::vector<double> gui, cli, recording, guiEngine, cliEngine;
    auto engineSeconds = [](const lab::ProgramRun& r) {
      double sum = 0;
      for (const lab::VariantRun& v : r.variants) sum += v.run.seconds;
      return sum;
    };
    for (int i = 0; i < 3; ++i) {
      QSignalSpy finished(w.controller(), &LessonController::runFinished);
      QElapsedTimer t;
      t.start();
      w.runCurrent(true);
      QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 600000);
      gui.push_back(double(t.elapsed()) / 1000);
      guiEngine.push_back(engineSeconds(*w.controller()->outcome().run));
      t.restart();
      QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->recording(), 600000);
      recording.push_back(double(t.elapsed()) / 1000);
      QTRY_VERIFY_WITH_TIMEOUT(!w.graphView()->graphScene()->layoutPending(), 120000);

      lab::RunSettings s;
      s.timeline = s.records = s.valueRecords = false;
      t.restart();
      const lab::ProgramRun r = lab::runProgram(*program, s);
      cli.push_back(double(t.elapsed()) / 1000);
      cliEngine.push_back(engineSeconds(r));
      QVERIFY(r.ok());
    }
    qInfo(
        "%s: GUI Run All %.2f s, as `gradlab run` %.2f s (medians of 3), ratio %.2f; then "
        "the recording run of the shown variant %.2f s. In the executor (sum over variants): "
        "GUI %.2f s, CLI %.2f s",
        qPrintable(lesson), median(gui), median(cli), median(gui) / median(cli), median(recording),
        median(guiEngine), median(cliEngine));
  }
};

QTEST_MAIN(TimeGuiRuns)
#include "time_gui_runs.moc"
