// Records only where someone reads them: Run All runs every variant without loop or value
// records, then the variant the step-through shows runs again with records on (a recording
// run); switching variants records the new one once, and the cache keeps it under a budget.
// Driven through the real window, offscreen.
#include <QComboBox>
#include <QSignalSpy>
#include <QTextCursor>
#include <cmath>
#include "test_main.h"

#include "support/isolated_settings.h"
#include "ui/about.h"
#include "ui/editor/script_editor.h"
#include "ui/inspect/inspector_panel.h"
#include "ui/inspect/tensor_text.h"
#include "ui/panels/params_panel.h"
#include "ui/plots/plots_panel.h"
#include "ui/plots/timing_bars_plot.h"
#include "ui/run/lesson_controller.h"
#include "ui/run/record_cache.h"
#include "ui/run/run_options.h"
#include "ui/step/step_controls.h"
#include "ui/window/main_window.h"

using namespace gl;
using namespace gl::ui;

namespace {

bool traced(MainWindow& w) { return w.controller()->program() && !w.controller()->tracePending(); }

// The ODE lesson at its classroom preset (batch 4, dim 50, steps 200, dt 0.1), `variant` shown.
void openOde(MainWindow& w, const QString& variant) {
  QVERIFY(w.openFile(":/lessons/ode_while_loop.gls"));
  QTRY_VERIFY_WITH_TIMEOUT(traced(w), 20000);
  w.variantBox()->setCurrentIndex(w.variantBox()->findData(variant));
  QCOMPARE(w.runOptions()->variant(), variant);
}

double param(MainWindow& w, const std::string& name) {
  for (const lang::Param& p : w.controller()->program()->params)
    if (p.name == name) return p.value;
  return std::nan("");
}

const lab::VariantRun* recordFree(MainWindow& w, const std::string& variant) {
  for (const lab::VariantRun& v : w.controller()->outcome().run->variants)
    if (v.name == variant) return &v;
  return nullptr;
}

}  // namespace

class TestRecordCache : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("GradLabTest");
    QCoreApplication::setApplicationName("GradLabTest");
    initResources();
    QVERIFY(!gl::test::isolatedHome().isEmpty());
  }

  void runAllRecordsTheShownVariantThenOnSwitch() {
    MainWindow w;
    w.show();
    openOde(w, "vectorized");
    LessonController* c = w.controller();
    QSignalSpy finished(c, &LessonController::runFinished);
    QSignalSpy started(c, &LessonController::recordingStarted);
    QSignalSpy ready(c, &LessonController::recordsReady);
    w.runCurrent(true);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);

    // The run itself took no records: every variant timed as the command line runs it, and
    // the timing plot has a bar for each.
    const auto& variants = c->outcome().run->variants;
    QCOMPARE(int(variants.size()), 3);
    for (const lab::VariantRun& v : variants) {
      QVERIFY2(v.ok(), v.error.c_str());
      QVERIFY(v.run.loops.empty() && v.run.loopExecutions.empty() && v.run.valueRecords.empty());
      QVERIFY(!v.run.timeline.empty());  // the timeline plot's data stays in the run
      QCOMPARE(c->timings().at({QString::fromStdString(v.name), ExecutorKind::Serial}),
               v.run.seconds);
    }
    QCOMPARE(w.plots()->timingBars()->variants().size(), 3);

    // The shown variant's recording run started with the run's end; until it is in, the step
    // controls and the inspector say so and show nothing of another variant.
    QCOMPARE(started.count(), 1);
    QCOMPARE(started.at(0).at(0).toString(), QString("vectorized"));
    StepControls* steps = w.stepControls();
    if (ready.isEmpty()) {
      QCOMPARE(steps->currentLoop(), -1);
      QCOMPARE(steps->totalText(), QString("recording…"));
      w.stepControls()->next();  // stepping meanwhile does nothing (and does not crash)
      w.stepControls()->last();
    }
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 1, 60000);
    QVERIFY(!c->recording());

    // Its records: the loop of `steps` iterations, stepped through with the closed form of
    // Euler's steps for x' = -x + 1: x_k = 1 + (x_0 - 1)(1 - dt)^k, elementwise, so the mean
    // follows it too.
    const lab::VariantRun* shown = w.shownRun();
    QVERIFY(shown && shown->name == "vectorized");
    QCOMPARE(shown->run.seconds, recordFree(w, "vectorized")->run.seconds);  // the honest time
    const int steps200 = int(param(w, "steps"));
    QCOMPARE(steps200, 200);
    QVERIFY(steps->currentLoop() >= 0);
    QCOMPARE(steps->totalText(), QString("/ %1").arg(steps200));
    const LoopRecord& rec = shown->run.loops.at(steps->currentLoop());
    QCOMPARE(rec.iterations, qint64(steps200));
    const double dt = param(w, "dt");
    const TensorRecord& x0 = rec.carried.at(0).at(1);
    QVERIFY(x0.shape == Shape({4, 50}));
    for (int k : {1, 7, 150}) {
      steps->setStep(k);
      const TensorRecord& xk = rec.carried.at(size_t(k)).at(1);
      const double factor = std::pow(1 - dt, k);
      QVERIFY(std::abs(xk.head.at(0) - (1 + (x0.head.at(0) - 1) * factor)) < 1e-4);
      QVERIFY(std::abs(xk.mean - (1 + (x0.mean - 1) * factor)) < 1e-4);
      const QString text = w.inspector()->text();
      QVERIFY2(text.contains(recordSummary(xk)), qPrintable(text));
    }
    QVERIFY(!shown->run.valueRecords.empty());  // the inspector's node values came with them

    // Another variant: recorded on the switch, "recording…" meanwhile.
    w.variantBox()->setCurrentIndex(w.variantBox()->findData("serial"));
    QCOMPARE(started.count(), 2);
    QCOMPARE(started.at(1).at(0).toString(), QString("serial"));
    if (ready.count() == 1) {
      QCOMPARE(steps->currentLoop(), -1);
      QVERIFY(!w.inspector()->text().contains("at step"));
      steps->setStep(3);
    }
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 2, 60000);
    QCOMPARE(ready.at(1).at(0).toString(), QString("serial"));
    QCOMPARE(w.shownRun()->name, std::string("serial"));
    QVERIFY(steps->currentLoop() >= 0);
    QVERIFY(!w.shownRun()->run.loops.empty());
    QCOMPARE(c->recordCache().size(), 2);

    // Exports get the recorded variants' records (their per-step plots), the rest as run.
    auto exported = c->runWithRecords();
    for (const lab::VariantRun& v : exported->variants)
      QCOMPARE(v.run.loops.empty(), v.name == "parallel");
    QVERIFY(c->outcome().run->variants.at(0).run.loops.empty());

    // Back to the first: from the cache, no run.
    w.variantBox()->setCurrentIndex(w.variantBox()->findData("vectorized"));
    QCOMPARE(started.count(), 2);
    QVERIFY(!c->recording());
    QCOMPARE(w.shownRun()->name, std::string("vectorized"));
    QCOMPARE(steps->totalText(), QString("/ %1").arg(steps200));

    // An edit makes a new program: its records are gone.
    QTextCursor end(w.editor()->document());
    end.movePosition(QTextCursor::End);
    end.insertText("\n# an edit\n");
    c->setSource(w.editor()->toPlainText(), c->fileName());
    c->traceNow();
    QTRY_VERIFY_WITH_TIMEOUT(traced(w) && c->program() != c->outcome().program, 20000);
    QCOMPARE(c->recordCache().size(), 0);
    QVERIFY(!c->hasRecords("vectorized") && !c->hasRecords("serial"));
    w.variantBox()->setCurrentIndex(w.variantBox()->findData("serial"));
    QCOMPARE(started.count(), 2);  // the old program's run is not recorded again
  }

  void cancelStopsARecordingRun() {
    MainWindow w;
    w.show();
    openOde(w, "vectorized");
    LessonController* c = w.controller();
    // Long enough a recording to cancel in the middle of it (about a second in Release), short
    // enough for CI: under ASan + UBSan with the fuzzer's coverage instrumentation each run takes
    // about 15 s (dim 2000 took a minute per run, over Qt Test's 300 s for the whole function).
    constexpr int kRunTimeout = 240000;
    const QMap<QString, double> big{{"batch", 8}, {"dim", 500}, {"steps", 20000}};
    w.params()->setUserValues(big);
    c->setParamValues(big);
    c->traceNow();
    QTRY_VERIFY_WITH_TIMEOUT(traced(w) && param(w, "steps") == 20000, 20000);
    QSignalSpy finished(c, &LessonController::runFinished);
    QSignalSpy started(c, &LessonController::recordingStarted);
    QSignalSpy ready(c, &LessonController::recordsReady);
    QSignalSpy stopped(c, &LessonController::recordingStopped);
    w.runCurrent(false);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kRunTimeout);
    QCOMPARE(started.count(), 1);
    QAction* cancel = w.findChild<QAction*>("cancelRun");
    QVERIFY(cancel && cancel->isEnabled());  // Cancel reaches the recording run
    cancel->trigger();
    QCOMPARE(stopped.count(), 1);
    QVERIFY(!c->recording());
    QVERIFY(!cancel->isEnabled());
    QCOMPARE(w.stepControls()->totalText(), QString("not recorded"));
    QCOMPARE(w.stepControls()->currentLoop(), -1);
    // The worker is free again soon: a new run starts and ends (the cancelled recording never
    // delivers its records).
    QElapsedTimer t;
    t.start();
    QVERIFY(c->run("vectorized", ExecutorKind::Serial));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, kRunTimeout);
    QVERIFY(ready.isEmpty());
    // A run supersedes a recording run under way, which then says it stopped.
    QCOMPARE(started.count(), 2);
    QVERIFY(c->recording());
    QVERIFY(c->run("vectorized", ExecutorKind::Serial));
    QCOMPARE(stopped.count(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 3, kRunTimeout);
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 1, kRunTimeout);
    QCOMPARE(started.count(), 3);
    QCOMPARE(w.shownRun()->run.loops.begin()->second.iterations, qint64(20000));
    // A variant the run left out: nothing of the one that ran, and no recording.
    w.variantBox()->setCurrentIndex(w.variantBox()->findData("serial"));
    QVERIFY(!w.shownRun());
    QCOMPARE(started.count(), 3);
    QCOMPARE(w.stepControls()->currentLoop(), -1);
    QCOMPARE(w.stepControls()->totalText(), QString("not run"));
  }

  // The cache's budget: the least recently shown go first, the one just recorded never.
  void cacheEvictsTheLeastRecentlyShown() {
    RecordCache cache(100);
    auto run = [](const char* name) {
      auto v = std::make_shared<lab::VariantRun>();
      v->name = name;
      return std::shared_ptr<const lab::VariantRun>(v);
    };
    cache.insert("a", run("a"), 40);
    cache.insert("b", run("b"), 40);
    QVERIFY(cache.find("a"));  // a is now more recent than b
    cache.insert("c", run("c"), 40);
    QCOMPARE(cache.size(), 2);
    QVERIFY(cache.contains("a") && cache.contains("c") && !cache.contains("b"));
    QCOMPARE(cache.bytes(), size_t(80));
    cache.insert("huge", run("huge"), 500);  // over the budget alone: kept, the others go
    QCOMPARE(cache.size(), 1);
    QVERIFY(cache.contains("huge"));
    cache.clear();
    QCOMPARE(cache.bytes(), size_t(0));
  }

  // recordBytes counts what the recorder counts: each TensorRecord and its full tensor.
  void recordBytesCountsLoopAndValueRecords() {
    RunResult r;
    LoopRecord loop;
    TensorRecord small;
    small.full = Tensor::zeros(DType::F32, {4});
    loop.carried = {{small, TensorRecord{}}, {small, TensorRecord{}}};
    loop.adjoints = {{TensorRecord{}}};
    r.loops[3] = loop;
    r.loopExecutions[3].later.push_back(loop);
    r.valueRecords[{1, 0}] = small;
    const size_t rec = sizeof(TensorRecord);
    const size_t oneLoop = sizeof(LoopRecord) + 5 * rec + 2 * 16;
    QCOMPARE(recordBytes(r), 2 * oneLoop + rec + 16);
  }
};

GRADLAB_TEST_MAIN(TestRecordCache)
#include "test_record_cache.moc"
