#include "ui/step/step_controls.h"

#include "ui/style/tinted_icon.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <cmath>

namespace gl::ui {

StepControls::StepControls(QWidget* parent) : QWidget(parent) {
  loops_ = new QComboBox(this);
  loops_->setMinimumContentsLength(16);
  loops_->setToolTip(tr("Loop to step through"));
  executions_ = new QComboBox(this);
  executions_->setToolTip(executionsToolTip());
  executions_->setVisible(false);
  phase_ = new QComboBox(this);
  phase_->addItems({tr("Forward"), tr("Backward")});
  phase_->setToolTip(tr("Forward pass: loop-carried values; backward pass: their adjoints"));
  auto button = [this](QStyle::StandardPixmap icon, const QString& tip) {
    auto* b = new QToolButton(this);
    b->setIcon(paletteIcon(style(), icon, palette()));
    b->setProperty("standardIcon", int(icon));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
  };
  first_ = button(QStyle::SP_MediaSkipBackward, tr("First iteration"));
  prev_ = button(QStyle::SP_MediaSeekBackward, tr("Previous iteration"));
  play_ = button(QStyle::SP_MediaPlay, tr("Play"));
  play_->setCheckable(true);
  next_ = button(QStyle::SP_MediaSeekForward, tr("Next iteration"));
  last_ = button(QStyle::SP_MediaSkipForward, tr("Last iteration"));
  speedBox_ = new QComboBox(this);
  speedBox_->setToolTip(tr("Play speed"));
  for (double rate : {1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0})
    speedBox_->addItem(tr("%1 steps/s").arg(rate), rate);
  speedBox_->setCurrentIndex(speedBox_->findData(speed_));
  slider_ = new QSlider(Qt::Horizontal, this);
  spin_ = new QSpinBox(this);
  total_ = new QLabel(this);
  timer_ = new QTimer(this);
  timer_->setInterval(tickIntervalMs());

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 2, 4, 2);
  for (QWidget* w :
       std::initializer_list<QWidget*>{loops_, executions_, phase_, first_, prev_, play_, next_,
                                       last_, speedBox_, slider_, spin_, total_})
    layout->addWidget(w);
  layout->setStretch(9, 1);

  connect(first_, &QToolButton::clicked, this, &StepControls::first);
  connect(prev_, &QToolButton::clicked, this, &StepControls::previous);
  connect(next_, &QToolButton::clicked, this, &StepControls::next);
  connect(last_, &QToolButton::clicked, this, &StepControls::last);
  connect(play_, &QToolButton::toggled, this, &StepControls::setPlaying);
  connect(timer_, &QTimer::timeout, this, &StepControls::tick);
  connect(speedBox_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this] { setSpeed(speedBox_->currentData().toDouble()); });
  // setStep moves both widgets itself: their echoes must not announce the step a second time.
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    if (!updating_) setStep(v);
  });
  connect(spin_, qOverload<int>(&QSpinBox::valueChanged), this, [this](int v) {
    if (!updating_) setStep(v);
  });
  connect(loops_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
    if (updating_) return;
    refreshExecutions();
    refreshRange();
    announce();
  });
  connect(executions_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
    if (updating_ || currentLoop() < 0) return;
    refreshRange();
    emit executionChanged(currentLoop(), execution());
    announce();
  });
  connect(phase_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { announce(); });
  refreshRange();
}

void StepControls::setLoops(const QVector<LoopChoice>& loops) {
  const int keep = currentLoop();
  updating_ = true;
  choices_ = loops;
  loops_->clear();
  for (const LoopChoice& c : loops)
    loops_->addItem(tr("%1 (%2 iterations)").arg(c.label).arg(c.iterations), c.node);
  const int idx = loops_->findData(keep);
  loops_->setCurrentIndex(idx >= 0 ? idx : (loops.isEmpty() ? -1 : 0));
  updating_ = false;
  refreshExecutions();
  refreshRange();
  if (!loops.isEmpty()) announce();
}

// The chosen loop's executions; the first is chosen again (a new run, another loop).
void StepControls::refreshExecutions() {
  const int idx = loops_->currentIndex();
  const QStringList labels =
      idx >= 0 && idx < choices_.size() ? choices_[idx].executions : QStringList();
  updating_ = true;
  executions_->clear();
  executions_->addItems(labels);
  executions_->setCurrentIndex(labels.isEmpty() ? -1 : 0);
  executions_->setVisible(labels.size() > 1);
  const QString note = idx >= 0 && idx < choices_.size() ? choices_[idx].executionsNote : QString();
  executions_->setToolTip(note.isEmpty() ? executionsToolTip() : executionsToolTip() + "\n" + note);
  updating_ = false;
}

int StepControls::execution() const { return std::max(0, executions_->currentIndex()); }
int StepControls::executionCount() const { return std::max(1, executions_->count()); }

void StepControls::selectExecution(int k) {
  if (k >= 0 && k < executions_->count()) executions_->setCurrentIndex(k);
}

int StepControls::currentLoop() const {
  return loops_->currentIndex() >= 0 ? loops_->currentData().toInt() : -1;
}
qint64 StepControls::step() const { return slider_->value(); }
bool StepControls::backward() const { return phase_->currentIndex() == 1; }
bool StepControls::playing() const { return timer_->isActive(); }

void StepControls::selectLoop(int node) {
  const int idx = loops_->findData(node);
  if (idx >= 0) loops_->setCurrentIndex(idx);
}

void StepControls::setStep(qint64 t) {
  t = std::clamp<qint64>(t, slider_->minimum(), slider_->maximum());
  if (t == slider_->value() && t == spin_->value()) return;
  updating_ = true;
  slider_->setValue(int(t));
  spin_->setValue(int(t));
  updating_ = false;
  announce();
}

void StepControls::first() { setStep(0); }
void StepControls::previous() { setStep(step() - 1); }
void StepControls::next() { setStep(step() + 1); }
void StepControls::last() { setStep(slider_->maximum()); }

void StepControls::setSpeed(double stepsPerSecond) {
  speed_ = std::max(0.1, stepsPerSecond);
  timer_->setInterval(tickIntervalMs());
  const int idx = speedBox_->findData(speed_);
  if (idx >= 0 && idx != speedBox_->currentIndex()) speedBox_->setCurrentIndex(idx);
}

int StepControls::tickIntervalMs() const {
  return std::max(kMinTickMs, int(std::lround(1000.0 / speed_)));
}

int StepControls::stepsPerTick() const {
  return std::max(1, int(std::lround(speed_ * tickIntervalMs() / 1000.0)));
}

// Forward plays towards the last step, backward towards the first, and stops there.
void StepControls::tick() {
  const qint64 end = backward() ? slider_->minimum() : slider_->maximum();
  if (step() == end) return setPlaying(false);
  const qint64 k = stepsPerTick();
  setStep(backward() ? std::max(end, step() - k) : std::min(end, step() + k));
}

void StepControls::setPlaying(bool on) {
  // Playing from where the pass ends starts it over: the backward pass from the last step.
  if (on && !backward() && step() >= slider_->maximum()) setStep(slider_->minimum());
  if (on && backward() && step() <= slider_->minimum()) setStep(slider_->maximum());
  on ? timer_->start() : timer_->stop();
  play_->blockSignals(true);
  play_->setChecked(on);
  play_->setProperty("standardIcon", int(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  refreshIcons();
  play_->blockSignals(false);
}

// The icons follow the palette (View > Dark Palette changes the application's palette).
void StepControls::changeEvent(QEvent* e) {
  if (e->type() == QEvent::PaletteChange || e->type() == QEvent::StyleChange) refreshIcons();
  QWidget::changeEvent(e);
}

void StepControls::refreshIcons() {
  if (!last_) return;  // a palette change while the constructor builds the buttons
  for (QToolButton* b : {first_, prev_, play_, next_, last_})
    b->setIcon(paletteIcon(style(), QStyle::StandardPixmap(b->property("standardIcon").toInt()),
                           palette()));
}

void StepControls::setBackward(bool on) { phase_->setCurrentIndex(on ? 1 : 0); }

void StepControls::refreshRange() {
  const int idx = loops_->currentIndex();
  // Records hold iterations + 1 rows: the value before each iteration and the final one.
  qint64 n = idx >= 0 && idx < choices_.size() ? choices_[idx].iterations : 0;
  if (idx >= 0 && idx < choices_.size() && execution() < choices_[idx].executionIterations.size())
    n = choices_[idx].executionIterations[execution()];
  const bool on = idx >= 0;
  for (QWidget* w :
       std::initializer_list<QWidget*>{phase_, first_, prev_, play_, next_, last_, slider_, spin_})
    w->setEnabled(on);
  speedBox_->setEnabled(on);
  updating_ = true;
  slider_->setRange(0, int(std::max<qint64>(0, n)));
  spin_->setRange(0, int(std::max<qint64>(0, n)));
  updating_ = false;
  total_->setText(on ? tr("/ %1").arg(n) : note_.isEmpty() ? tr("no loop") : note_);
}

void StepControls::setNote(const QString& note) {
  note_ = note;
  refreshRange();
}

QString StepControls::totalText() const { return total_->text(); }

void StepControls::announce() {
  if (updating_ || currentLoop() < 0) return;
  emit stepChanged(currentLoop(), step(), backward());
}

}  // namespace gl::ui
