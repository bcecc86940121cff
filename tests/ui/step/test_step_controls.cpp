// Step controls offscreen: play speed, and play running the way each pass does (forward from
// the first step to the last, backward from the last to the first).
#include <QtTest>

#include "ui/step/step_controls.h"

using gl::ui::LoopChoice;
using gl::ui::StepControls;

namespace {

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
};

QTEST_MAIN(TestStepControls)
#include "test_step_controls.moc"
