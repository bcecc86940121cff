// The window never freezes: each built-in lesson is opened at its seed size (the graphs that
// used to stall the event loop for tens of seconds), re-traced at small params and run, its
// variants switched and its loops stepped, while a 10 ms probe measures the longest time the
// GUI thread's event loop did not answer. Offscreen; the probe's numbers are printed.
#include <QComboBox>
#include <QElapsedTimer>
#include "test_main.h"

#include "support/isolated_settings.h"
#include "support/latency_probe.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/step/step_controls.h"
#include "ui/window/main_window.h"

using namespace gl;
using namespace gl::ui;

namespace {

constexpr double kMaxStallMs = 250;

void waitForGraph(MainWindow& w) {
  GraphScene* scene = w.graphView()->graphScene();
  QTRY_VERIFY_WITH_TIMEOUT(!scene->layoutPending(), 120000);
}

}  // namespace

class TestGuiLatency : public QObject {
  Q_OBJECT
 private slots:
  void lessonNeverStallsTheEventLoop_data() {
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QMap<QString, double>>("small");
    QTest::newRow("ode") << "ode_while_loop.gls"
                         << QMap<QString, double>{{"batch", 4}, {"dim", 8}, {"steps", 200}};
    QTest::newRow("per_step") << "per_step_gradients.gls" << QMap<QString, double>{{"steps", 40}};
    QTest::newRow("parallel_layers")
        << "parallel_layers.gls"
        << QMap<QString, double>{
               {"batch", 2}, {"time", 4}, {"n_in", 8}, {"n_out", 4}, {"layers", 16}};
    QTest::newRow("gradient_none")
        << "gradient_none.gls" << QMap<QString, double>{{"batch", 2}, {"size", 16}};
  }

  void lessonNeverStallsTheEventLoop() {
    QFETCH(QString, lesson);
    QFETCH(SmallParams, small);
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    gl::test::LatencyProbe probe;
    probe.start();

    probe.mark("open at seed size");
    QSignalSpy traced(w.controller(), &LessonController::traced);
    QElapsedTimer opening;
    opening.start();
    QVERIFY(w.openFile(":/lessons/" + lesson));
    QTRY_VERIFY_WITH_TIMEOUT(traced.count() >= 1, 120000);
    waitForGraph(w);
    QVERIFY(!w.graphView()->graphScene()->nodeItems().empty());
    qInfo(
        "%s: open at seed size to a drawn graph %lld ms (trace on its thread, layout on the "
        "layout worker), %zu nodes drawn",
        qPrintable(lesson), opening.elapsed(), w.graphView()->graphScene()->nodeItems().size());

    probe.mark("re-trace at small params");
    w.controller()->setParamValues(small);
    w.controller()->traceNow();
    QTRY_VERIFY_WITH_TIMEOUT(traced.count() >= 2, 120000);
    waitForGraph(w);

    probe.mark("run all");
    QSignalSpy finished(w.controller(), &LessonController::runFinished);
    w.runCurrent(true);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 120000);

    probe.mark("switch variants");
    for (int i = 0; i < w.variantBox()->count(); ++i) {
      w.variantBox()->setCurrentIndex(i);
      waitForGraph(w);
      QTest::qWait(20);
    }
    probe.mark("step");
    StepControls* steps = w.stepControls();
    for (int i = 0; i < 5; ++i) {
      steps->next();
      QTest::qWait(10);
    }
    steps->last();
    steps->setBackward(true);
    steps->previous();
    QTest::qWait(50);
    probe.stop();
    qInfo("%s: longest stall %.0f ms (%s), %d ticks", qPrintable(lesson), probe.longestStallMs(),
          qPrintable(probe.longestStallDuring()), probe.ticks());
    QVERIFY2(probe.longestStallMs() < kMaxStallMs,
             qPrintable(QString("%1 ms during %2")
                            .arg(probe.longestStallMs(), 0, 'f', 0)
                            .arg(probe.longestStallDuring())));
  }

 private:
  using SmallParams = QMap<QString, double>;
};

GRADLAB_TEST_MAIN(TestGuiLatency)
#include "test_gui_latency.moc"
