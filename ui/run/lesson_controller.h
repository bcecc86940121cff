#pragma once
// The window's model of the open lesson: its text is traced (debounced, off the GUI thread)
// whenever it or a param changes, and runs go to the RunWorker. Panels read the results
// through the signals; nothing here draws. Runs take no loop or value records (their times
// are the command line's); the variant the window shows is run again with records on in the
// background (a recording run, see record_cache.h) for the step-through and the inspector.
#include <QMap>
#include <QObject>
#include <QTimer>
#include <map>
#include <memory>

#include "ui/run/record_cache.h"
#include "ui/run/run_limits.h"
#include "ui/run/run_worker.h"

namespace gl::ui {

struct TimingKey {
  QString variant;
  ExecutorKind executor = ExecutorKind::Serial;
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

  // Runs the current program (the last successful trace), without loop or value records.
  // Returns false when there is none or a run is going on. A recording run stops.
  bool run(const QString& variant, ExecutorKind executor, int threads = 0);

  // The latest run's result for `variant`: with loop and value records when they were
  // recorded, else the record-free run's; null before a run and for a variant it did not run.
  // Does not start anything.
  std::shared_ptr<const lab::VariantRun> variantRun(const QString& variant) const;
  // The window now shows `variant`: variantRun(variant), and when its records are not cached,
  // a recording run starts for it (if the latest run belongs to the current program, the
  // variant ran fine and no run is going on); recordsReady or recordingStopped follows. A
  // recording run of another variant stops.
  std::shared_ptr<const lab::VariantRun> showVariant(const QString& variant);
  bool hasRecords(const QString& variant) const;
  // The latest run with the records of every variant recorded so far (for exports: their
  // per-step plots need them); the run itself when none is. A copy when some are.
  std::shared_ptr<const lab::ProgramRun> runWithRecords() const;
  bool recording() const { return recordingGeneration_ != 0; }
  QString recordingVariant() const { return recordingVariant_; }
  const RecordCache& recordCache() const { return records_; }
  // Times every variant at each value of a param (for the scaling plot).
  bool sweep(const QString& param, const QVector<double>& values, ExecutorKind executor,
             int threads = 0);
  // Stops the run or sweep, and the recording run.
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
  void recordingStarted(const QString& variant);
  void recordingProgress(const QString& variant, qint64 done, qint64 total);
  // variantRun(variant) now has its records.
  void recordsReady(const QString& variant);
  // The recording run ended without records: cancelled or superseded (`error` empty), or it
  // failed.
  void recordingStopped(const QString& variant, const QString& error);

 private:
  lang::TraceOptions traceOptions() const;
  void onTraced(std::shared_ptr<const lang::TracedProgram> program, const QString& error, int line,
                int col);
  void onRecorded(const RecordingOutcome& out);
  // The record-free run's VariantRun for `variant` (or the first), sharing outcome_.run.
  std::shared_ptr<const lab::VariantRun> recordFreeRun(const QString& variant) const;
  // Cancels the recording run, if any, and says so (recordingStopped).
  void stopRecording();
  // Drops every cached record (a new run, program or lesson).
  void forgetRecords();

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
  RecordCache records_;  // of outcome_'s variants
  QString recordingVariant_;
  int recordingGeneration_ = 0;  // the worker's number for the recording run; 0: none
};

}  // namespace gl::ui
