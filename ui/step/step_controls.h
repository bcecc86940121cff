#pragma once
// Step-through controls: choose a loop, then first / previous / play / next / last and a
// slider over its iterations, with a forward/backward phase switch. Emits stepChanged; the
// window forwards it to the graph view, the inspector and every plot's cursor.
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
};

class StepControls : public QWidget {
  Q_OBJECT
 public:
  explicit StepControls(QWidget* parent = nullptr);

  void setLoops(const QVector<LoopChoice>& loops);  // keeps the selection when still there
  int currentLoop() const;                          // node id, -1 when none
  qint64 step() const;
  bool backward() const;
  bool playing() const;

 public slots:
  void selectLoop(int node);
  void setStep(qint64 t);
  void first();
  void previous();
  void next();
  void last();
  void setPlaying(bool on);
  void setBackward(bool on);

 signals:
  void stepChanged(int loopNode, qint64 step, bool backward);

 private:
  void refreshRange();
  void announce();

  QComboBox* loops_;
  QComboBox* phase_;
  QSlider* slider_;
  QSpinBox* spin_;
  QToolButton *first_, *prev_, *play_, *next_, *last_;
  QLabel* total_;
  QTimer* timer_;
  QVector<LoopChoice> choices_;
  bool updating_ = false;
};

}  // namespace gl::ui
