// Step controls offscreen: play speed, and play running the way each pass does (forward from
// the first step to the last, backward from the last to the first).
#include <QComboBox>
#include <QToolButton>
#include "test_main.h"

#include "ui/step/execution_view.h"
#include "ui/step/step_controls.h"

using gl::ui::LoopChoice;
using gl::ui::StepControls;

namespace {

// The mean lightness of an icon's opaque pixels (the drawn shape).
int iconLightness(const QIcon& icon) {
  const QImage img = icon.pixmap(16, 16).toImage().convertToFormat(QImage::Format_ARGB32);
  long sum = 0, n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x)
      if (const QColor c = img.pixelColor(x, y); c.alpha() > 200) {
        sum += c.lightness();
        ++n;
      }
  return n ? int(sum / n) : -1;
}

// The steps announced while playing until play stops by itself.
QList<qint64> playedSteps(StepControls& c) {
  QSignalSpy spy(&c, &StepControls::stepChanged);
  c.setPlaying(true);
  [&] { QTRY_VERIFY_WITH_TIMEOUT(!c.playing(), 10000); }();
  QList<qint64> steps;
  for (const QList<QVariant>& args : spy) steps << args.at(1).toLongLong();
  return steps;
}

}  // namespace

class TestStepControls : public QObject {
  Q_OBJECT
 private slots:
  // Fusion's media icons are dark grey: on the dark palette the step buttons must be redrawn
  // light, also after the palette changes under a built widget, and dark again after.
  void iconsFollowThePalette() {
    const QPalette light = QApplication::palette();
    StepControls c;
    const QList<QToolButton*> buttons = c.findChildren<QToolButton*>();
    QCOMPARE(buttons.size(), 5);
    for (QToolButton* b : buttons) QVERIFY(iconLightness(b->icon()) < 128);
    QPalette dark = light;
    dark.setColor(QPalette::Window, QColor(45, 47, 52));
    dark.setColor(QPalette::ButtonText, QColor(220, 222, 226));
    QApplication::setPalette(dark);
    QCoreApplication::processEvents();
    for (QToolButton* b : buttons)
      QVERIFY2(iconLightness(b->icon()) > 180, qPrintable(b->toolTip()));
    c.setPlaying(true);  // the pause icon too
    QVERIFY(iconLightness(buttons.at(2)->icon()) > 180);
    c.setPlaying(false);
    QApplication::setPalette(light);
    QCoreApplication::processEvents();
    for (QToolButton* b : buttons) QVERIFY(iconLightness(b->icon()) < 128);
  }

  void speedSetsTheTickAndTheStride() {
    StepControls c;
    c.setSpeed(10);
    QCOMPARE(c.tickIntervalMs(), 100);
    QCOMPARE(c.stepsPerTick(), 1);
    c.setSpeed(1000);  // faster than the timer can tick: several steps a tick
    QCOMPARE(c.tickIntervalMs(), StepControls::kMinTickMs);
    QCOMPARE(c.stepsPerTick(), 16);
  }

  void forwardPlaysUpAndBackwardPlaysDown() {
    StepControls c;
    c.setLoops({LoopChoice{7, "while at line 3", 12, true}});
    c.setSpeed(300);  // 16 ms ticks of 5 steps
    const QList<qint64> up = playedSteps(c);
    QVERIFY(!up.isEmpty());
    QCOMPARE(up.back(), qint64(12));
    QVERIFY(std::is_sorted(up.begin(), up.end()));
    QCOMPARE(c.step(), qint64(12));
    // Backward from where the forward pass ended: down to the first step.
    c.setBackward(true);
    const QList<qint64> down = playedSteps(c);
    QVERIFY(!down.isEmpty());
    QCOMPARE(down.back(), qint64(0));
    QVERIFY(std::is_sorted(down.rbegin(), down.rend()));
    // Played again from the first step, the backward pass starts over at the last.
    c.setSpeed(30);
    const QList<qint64> again = playedSteps(c);
    QCOMPARE(again.front(), qint64(12));
    QCOMPARE(again.back(), qint64(0));
    // Each step announced once: 12, 11, ..., 0.
    QCOMPARE(again.size(), 13);
    QSignalSpy one(&c, &StepControls::stepChanged);
    c.setStep(5);
    QCOMPARE(one.count(), 1);
  }

  // A loop that ran 5 times with 2 recorded (the record budget): the labels count all 5, and
  // the execution box's tooltip says why only 2 are offered.
  void executionsPastTheBudgetAreNamed() {
    gl::RunResult run;
    gl::LoopRecord first;
    first.loopNode = 7;
    first.iterations = 3;
    run.loops[7] = first;
    gl::LoopExecutions more;
    more.later.push_back(first);
    more.ran = 5;
    run.loopExecutions[7] = more;
    const QStringList labels = gl::ui::executionLabels(run, 7);
    QCOMPARE(labels, QStringList({"execution 1 of 5", "execution 2 of 5"}));
    const QString note = gl::ui::executionsNote(run, 7);
    QVERIFY2(note.contains("2 of this loop's 5"), qPrintable(note));

    StepControls c;
    LoopChoice choice{7, "while at line 3", 3, false};
    choice.executions = labels;
    choice.executionIterations = {3, 3};
    choice.executionsNote = note;
    c.setLoops({choice});
    QCOMPARE(c.executionBox()->count(), 2);
    QVERIFY(c.executionBox()->toolTip().endsWith(note));

    run.loopExecutions[7].ran = 0;  // all recorded: no note, the count is the records'
    QCOMPARE(gl::ui::executionLabels(run, 7).back(), QString("execution 2 of 2"));
    QVERIFY(gl::ui::executionsNote(run, 7).isEmpty());
  }

  // Choosing execution 2 gives a view whose loop record is that execution's, with the run's
  // other results, but not the other executions' records or the timeline (copying those froze
  // the window for 440 ms at seed-a's size).
  void anotherExecutionIsALightView() {
    auto run = std::make_shared<gl::RunResult>();
    gl::LoopRecord first;
    first.loopNode = 7;
    first.iterations = 3;
    first.at = {0};
    gl::LoopRecord second = first;
    second.iterations = 5;
    second.at = {1};
    run->loops[7] = first;
    run->loopExecutions[7].later.push_back(second);
    run->timeline.resize(1000);
    run->numerics.node = 4;
    run->seconds = 1.5;
    const std::shared_ptr<const gl::RunResult> same = gl::ui::withExecution(run, 7, 0);
    QCOMPARE(same.get(), run.get());
    const std::shared_ptr<const gl::RunResult> view = gl::ui::withExecution(run, 7, 1);
    QCOMPARE(view->loops.at(7).iterations, int64_t(5));
    QCOMPARE(view->loops.at(7).at, std::vector<int64_t>{1});
    QVERIFY(view->loopExecutions.empty());
    QVERIFY(view->timeline.empty());
    QCOMPARE(view->numerics.node, 4);
    QCOMPARE(view->seconds, 1.5);
    QCOMPARE(run->loops.at(7).iterations, int64_t(3));  // the run itself is left as it was
  }
};

GRADLAB_TEST_MAIN(TestStepControls)
#include "test_step_controls.moc"
