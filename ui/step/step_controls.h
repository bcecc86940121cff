#pragma once
// Step-through controls: choose a loop, then first / previous / play / next / last and a
// slider over its iterations, with a forward/backward phase switch and a play speed. Play runs
// the way the pass does: forward from the first step to the last, backward from the last to the
// first (the backward pass visits the iterations in reverse). Emits stepChanged; the window
// forwards it to the graph view, the inspector and every plot's cursor. A loop that ran more
// than once (inside a map_fn, a jacobian's rows, another loop) offers its executions in a
// second box; the step then belongs to the chosen execution.
#include <QVector>
#include <QWidget>

class QComboBox;
class QSlider;
class QSpinBox;
class QToolButton;
class QTimer;
class QLabel;

namespace gl::ui {

struct LoopChoice {
  int node = -1;
  QString label;  // e.g. "while at line 31"
  qint64 iterations = 0;
  bool hasAdjoints = false;
  // More than one when the loop ran several times: per execution, its label ("jacobian row 17",
  // "execution 3 of 10 (at 2)") and its iteration count.
  QStringList executions;
  QVector<qint64> executionIterations;
  QString executionsNote;  // why fewer executions are offered than ran, if they are
};

class StepControls : public QWidget {
  Q_OBJECT
 public:
  explicit StepControls(QWidget* parent = nullptr);

  void setLoops(const QVector<LoopChoice>& loops);  // keeps the selection when still there
  // Shown in place of the step count while there is no loop to step through, e.g. while a
  // recording run takes the shown variant's records; empty: "no loop".
  void setNote(const QString& note);
  QString note() const { return note_; }
  QString totalText() const;
  int currentLoop() const;  // node id, -1 when none
  qint64 step() const;
  bool backward() const;
  bool playing() const;
  int execution() const;  // 0-based; 0 when the loop ran once
  int executionCount() const;
  QComboBox* executionBox() const { return executions_; }

  // Play speed in steps per second. The timer never ticks faster than kMinTickMs: faster
  // speeds advance several steps per tick.
  static constexpr int kMinTickMs = 16;
  void setSpeed(double stepsPerSecond);
  double speed() const { return speed_; }
  int tickIntervalMs() const;
  int stepsPerTick() const;

 public slots:
  void selectLoop(int node);
  void selectExecution(int k);
  void setStep(qint64 t);
  void first();
  void previous();
  void next();
  void last();
  void setPlaying(bool on);
  void setBackward(bool on);

 signals:
  void stepChanged(int loopNode, qint64 step, bool backward);
  // Another execution of the loop was chosen; stepChanged follows with its step.
  void executionChanged(int loopNode, int execution);

 protected:
  void changeEvent(QEvent* e) override;

 private:
  void refreshIcons();
  void refreshExecutions();
  static QString executionsToolTip() { return tr("Which execution of the loop to step through"); }
  void refreshRange();
  void announce();
  void tick();

  QComboBox* loops_;
  QComboBox* executions_;
  QComboBox* phase_;
  QComboBox* speedBox_;
  double speed_ = 10;
  QSlider* slider_;
  QSpinBox* spin_;
  QToolButton *first_ = nullptr, *prev_ = nullptr, *play_ = nullptr, *next_ = nullptr,
              *last_ = nullptr;
  QLabel* total_;
  QTimer* timer_;
  QVector<LoopChoice> choices_;
  QString note_;
  bool updating_ = false;
};

}  // namespace gl::ui
