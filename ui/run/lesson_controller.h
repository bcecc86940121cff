#pragma once
// The window's model of the open lesson: its text is traced (debounced, off the GUI thread)
// whenever it or a param changes, and runs go to the RunWorker. Panels read the results
// through the signals; nothing here draws.
#include <QMap>
#include <QObject>
#include <QTimer>
#include <map>
#include <memory>

#include "ui/run/run_limits.h"
#include "ui/run/run_worker.h"

namespace gl::ui {

struct TimingKey {
  QString variant, executor;
  bool operator<(const TimingKey& o) const {
    return variant != o.variant ? variant < o.variant : executor < o.executor;
  }
};

class LessonController : public QObject {
  Q_OBJECT
 public:
  explicit LessonController(QObject* parent = nullptr);

  // New text (and its file name for messages); traced after a short pause.
  void setSource(const QString& text, const QString& fileName);
  // The params the user set (the trace's overrides); the others take the preset's value.
  void setParamValues(const QMap<QString, double>& values);
  // Which declared values params start from; re-traces when it changes.
  void setPreset(lang::ParamPreset preset);
  lang::ParamPreset preset() const { return preset_; }
  // A new lesson is about to be set: forget the previous one's param values and use `preset`.
  void startOver(lang::ParamPreset preset);
  // A trace was asked for and its result is not in yet: a run now would use the old program.
  bool tracePending() const { return traceTimer_.isActive() || awaitingTrace_; }
  void setTraceDelay(int ms) { traceTimer_.setInterval(ms); }
  // The limits of every later trace, run and sweep; re-traces when they change.
  void setLimits(const RunLimits& limits);
  const RunLimits& limits() const { return limits_; }
  void traceNow();

  // Runs the current program (the last successful trace). Returns false when there is none
  // or a run is going on.
  bool run(const QString& variant, lab::ExecutorKind executor, int threads = 0);
  // Times every variant at each value of a param (for the scaling plot).
  bool sweep(const QString& param, const QVector<double>& values, lab::ExecutorKind executor,
             int threads = 0);
  void cancel();
  bool running() const { return worker_.busy(); }
  bool waitForRun(int msecs) { return worker_.wait(msecs); }

  std::shared_ptr<const lang::TracedProgram> program() const { return program_; }
  const RunOutcome& outcome() const { return outcome_; }
  // Latest seconds per (variant, executor) over the runs of the current program.
  const std::map<TimingKey, double>& timings() const { return timings_; }
  QString fileName() const { return fileName_; }
  QString source() const { return source_; }

 signals:
  void traced(std::shared_ptr<const gl::lang::TracedProgram> program);
  void traceFailed(const QString& message, int line, int col);
  void runStarted();
  void variantStarted(int index, const QString& name);
  void progress(const QString& variant, int loopNode, qint64 done, qint64 total);
  void printed(const QString& line);
  void runFinished(const gl::ui::RunOutcome& outcome);
  void sweepPoint(const QString& variant, double value, double seconds);
  void sweepFinished(const QString& param, const QString& error);

 private:
  lang::TraceOptions traceOptions() const;
  void onTraced(std::shared_ptr<const lang::TracedProgram> program, const QString& error, int line,
                int col);

  RunWorker worker_;
  QTimer traceTimer_;
  QString source_, fileName_;
  QMap<QString, double> params_;
  lang::ParamPreset preset_ = lang::ParamPreset::Classroom;
  RunLimits limits_;
  bool awaitingTrace_ = false;
  int lesson_ = 0;     // counts startOver() calls
  int runLesson_ = 0;  // lesson_ when the current run or sweep started
  std::shared_ptr<const lang::TracedProgram> program_;
  RunOutcome outcome_;
  std::map<TimingKey, double> timings_;
};

}  // namespace gl::ui
