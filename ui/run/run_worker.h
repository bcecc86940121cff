#pragma once
// Runs a traced program off the GUI thread. The engine reports progress and asks about
// cancellation through gl::RunMonitor; this class turns those calls into queued Qt signals.
#include <QObject>
#include <QThread>
#include <atomic>
#include <memory>

#include "engine/lab/session.h"

namespace gl::ui {

// The result handed back to the GUI thread: the program (it owns the Graph the run refers
// to) and what the run produced.
struct RunOutcome {
  std::shared_ptr<const lang::TracedProgram> program;
  std::shared_ptr<const lab::ProgramRun> run;
  lab::RunRequest request;
  QString error;  // set when the run could not start (e.g. an unknown variant)
  // Another lesson was opened while it ran: nothing of it belongs on screen.
  bool superseded = false;
};

// A recording run's result: one variant run again with loop and value records on, for the
// step-through and the inspector. `run` is the record-free run's VariantRun (its outputs,
// timeline and seconds: what the timings show) with the recording's records put in.
struct RecordingOutcome {
  std::shared_ptr<const lang::TracedProgram> program;
  QString variant;
  std::shared_ptr<const lab::VariantRun> run;  // null when cancelled or failed
  size_t recordBytes = 0;                      // recordBytes(run->run)
  int generation = 0;                          // startRecording's number for it
  bool cancelled = false;
  QString error;
};

class RunWorker : public QObject {
  Q_OBJECT
 public:
  explicit RunWorker(QObject* parent = nullptr);
  ~RunWorker() override;

  bool busy() const { return busy_; }

 public slots:
  // Starts a run on the worker thread; ignored (returns false) while one is running.
  bool start(std::shared_ptr<const lang::TracedProgram> program, lab::RunRequest request);
  // Traces a script on the worker thread (big lessons take a moment); emits traced().
  // A newer request supersedes older ones still queued.
  void trace(const QString& source, const QString& fileName, lang::TraceOptions options);
  // Scaling sweep: traces and runs the script once per value of `param` (other params from
  // `overrides`), all variants each time. Emits sweepPoint per variant and value, then
  // sweepFinished. Shares the run slot: returns false while a run is going on.
  bool startSweep(const QString& source, const QString& fileName, lang::TraceOptions options,
                  const QString& param, const QVector<double>& values, lab::RunRequest request);
  // Runs `base.name` again with loop and value records on (no timeline: the shown one is the
  // record-free run's) and emits recorded(). Queued behind the current job; a later
  // startRecording, start or cancelRecording supersedes it. Returns its number (the outcome's
  // `generation`), 0 while a run or sweep is busy.
  int startRecording(std::shared_ptr<const lang::TracedProgram> program,
                     std::shared_ptr<const lab::VariantRun> base, lab::RunRequest request);
  void cancelRecording() { ++recordGeneration_; }
  // Asks the engine to stop (the run or sweep, and any recording run); it checks between nodes
  // and loop iterations.
  void cancel();
  // Blocks until the current run ends (for tests and shutdown).
  bool wait(int msecs);

 signals:
  void started(const QString& variant);
  void variantStarted(int index, const QString& name);
  void progress(const QString& variant, int loopNode, qint64 done, qint64 total);
  void printed(const QString& line);
  void finished(const gl::ui::RunOutcome& outcome);
  void recordingProgress(const QString& variant, qint64 done, qint64 total);
  void recorded(const gl::ui::RecordingOutcome& outcome);
  void sweepPoint(const QString& variant, double value, double seconds);
  void sweepFinished(const QString& param, const QString& error);
  // program is null when the script has an error: message "file:line:col: ...", line, col.
  void traced(std::shared_ptr<const gl::lang::TracedProgram> program, const QString& error,
              int line, int col);

 private:
  class Monitor;
  void runOnThread(std::shared_ptr<const lang::TracedProgram> program, lab::RunRequest s);
  void recordOnThread(std::shared_ptr<const lang::TracedProgram> program,
                      std::shared_ptr<const lab::VariantRun> base, lab::RunRequest s,
                      int generation);

  QThread thread_;
  QObject* threadContext_ = nullptr;  // lives on thread_, runs the runs
  QThread traceThread_;               // traces never wait behind a long run
  QObject* traceContext_ = nullptr;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> busy_{false};
  std::atomic<int> traceGeneration_{0};
  // Bumped to cancel the recording run going on and those queued (each checks its own number).
  std::atomic<int> recordGeneration_{0};
};

}  // namespace gl::ui

Q_DECLARE_METATYPE(gl::ui::RunOutcome)
Q_DECLARE_METATYPE(gl::ui::RecordingOutcome)
Q_DECLARE_METATYPE(std::shared_ptr<const gl::lang::TracedProgram>)
