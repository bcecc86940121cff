#include "ui/run/run_worker.h"

#include <QElapsedTimer>
#include <QMetaObject>

#include "ui/i18n/diagnostic_text.h"
#include "ui/run/record_cache.h"

namespace gl::ui {

// Relays engine callbacks (on the worker thread) as queued signals, throttled so a loop of
// 20000 steps does not flood the GUI's event queue. A recording run (recordGeneration >= 0)
// reports its own progress, prints nothing (the run before it printed the same lines) and
// stops once a newer request bumps the generation.
class RunWorker::Monitor : public RunMonitor {
 public:
  Monitor(RunWorker* w, QString variant, int recordGeneration = -1)
      : w_(w), variant_(std::move(variant)), recordGeneration_(recordGeneration) {
    clock_.start();
  }
  void onProgress(int loopNode, int64_t done, int64_t total) override {
    if (done != total && clock_.elapsed() < 50) return;
    clock_.restart();
    if (recording())
      emit w_->recordingProgress(variant_, done, total);
    else
      emit w_->progress(variant_, loopNode, done, total);
  }
  bool cancelled() const override {
    return recording() ? recordGeneration_ != w_->recordGeneration_.load() : w_->cancel_.load();
  }
  void onPrint(const std::string& line) override {
    if (!recording()) emit w_->printed(QString::fromStdString(line));
  }

 private:
  bool recording() const { return recordGeneration_ >= 0; }
  RunWorker* w_;
  QString variant_;
  int recordGeneration_;
  QElapsedTimer clock_;
};

RunWorker::RunWorker(QObject* parent) : QObject(parent) {
  qRegisterMetaType<gl::ui::RunOutcome>();
  qRegisterMetaType<gl::ui::RecordingOutcome>();
  qRegisterMetaType<std::shared_ptr<const gl::lang::TracedProgram>>();
  threadContext_ = new QObject;
  threadContext_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, threadContext_, &QObject::deleteLater);
  thread_.setObjectName(QStringLiteral("gradlab-run"));
  thread_.start();
  traceContext_ = new QObject;
  traceContext_->moveToThread(&traceThread_);
  connect(&traceThread_, &QThread::finished, traceContext_, &QObject::deleteLater);
  traceThread_.setObjectName(QStringLiteral("gradlab-trace"));
  traceThread_.start();
}

RunWorker::~RunWorker() {
  cancel();
  ++traceGeneration_;
  thread_.quit();
  traceThread_.quit();
  thread_.wait();
  traceThread_.wait();
}

bool RunWorker::start(std::shared_ptr<const lang::TracedProgram> program, lab::RunRequest request) {
  if (busy_.exchange(true)) return false;
  cancel_ = false;
  cancelRecording();  // its records would belong to the run before this one
  emit started(QString::fromStdString(request.variant));
  QMetaObject::invokeMethod(threadContext_,
                            [this, program, request] { runOnThread(program, request); });
  return true;
}

void RunWorker::trace(const QString& source, const QString& fileName, lang::TraceOptions options) {
  const int generation = ++traceGeneration_;
  const std::string src = source.toStdString();
  const std::string file = fileName.toStdString();
  QMetaObject::invokeMethod(traceContext_, [this, generation, src, file, options]() mutable {
    if (generation != traceGeneration_) return;  // superseded while queued
    // A newer request (an edit) or closing the window stops values computed while tracing.
    options.cancelled = [this, generation] { return generation != traceGeneration_; };
    try {
      auto program =
          std::make_shared<const lang::TracedProgram>(lang::traceProgram(src, file, options));
      if (generation != traceGeneration_) return;  // a newer request came in while tracing
      emit traced(program, QString(), 0, 0);
    } catch (const EngineError& e) {
      if (generation != traceGeneration_) return;
      emit traced(nullptr, errorText(e), e.loc().line, e.loc().col);
    } catch (const std::exception& e) {
      emit traced(nullptr, QString::fromStdString(e.what()), 0, 0);
    }
  });
}

bool RunWorker::startSweep(const QString& source, const QString& fileName,
                           lang::TraceOptions options, const QString& param,
                           const QVector<double>& values, lab::RunRequest request) {
  if (busy_.exchange(true)) return false;
  cancel_ = false;
  cancelRecording();
  emit started(QString());
  const std::string src = source.toStdString(), file = fileName.toStdString();
  QMetaObject::invokeMethod(threadContext_, [=, this] {
    QString error;
    try {
      for (double value : values) {
        if (cancel_) break;
        lang::TraceOptions opt = options;
        opt.overrides[param.toStdString()] = value;
        opt.cancelled = [this] { return bool(cancel_); };
        const lang::TracedProgram program = lang::traceProgram(src, file, opt);
        for (const lang::Variant& v : program.variants) {
          if (cancel_) break;
          const QString name = QString::fromStdString(v.name);
          const QString label = tr("%1 at %2 = %3").arg(name, param).arg(value);
          emit variantStarted(0, label);
          Monitor monitor(this, label);
          lab::RunRequest one = request;
          one.variant = v.name;
          one.options.monitor = &monitor;
          one.options.records = false;  // a sweep plots times only
          one.options.valueRecords = false;
          one.options.timeline = false;
          lab::ProgramRun r = lab::runProgram(program, one);
          for (const lab::VariantRun& vr : r.variants)
            if (vr.ok())
              emit sweepPoint(name, value, vr.run.seconds);
            else if (error.isEmpty())
              error = variantErrorText(vr);
        }
      }
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    busy_ = false;
    emit sweepFinished(param, cancel_ ? tr("the sweep was cancelled") : error);
  });
  return true;
}

int RunWorker::startRecording(std::shared_ptr<const lang::TracedProgram> program,
                              std::shared_ptr<const lab::VariantRun> base,
                              lab::RunRequest request) {
  if (busy_ || !program || !base) return 0;
  const int generation = ++recordGeneration_;  // the one going on (if any) stops
  QMetaObject::invokeMethod(threadContext_, [this, program, base, request, generation] {
    recordOnThread(program, base, request, generation);
  });
  return generation;
}

void RunWorker::cancel() {
  cancel_ = true;
  cancelRecording();
}

bool RunWorker::wait(int msecs) {
  QElapsedTimer t;
  t.start();
  while (busy_ && t.elapsed() < msecs) QThread::msleep(5);
  return !busy_;
}

void RunWorker::runOnThread(std::shared_ptr<const lang::TracedProgram> program, lab::RunRequest s) {
  RunOutcome out;
  out.program = program;
  out.request = s;
  auto run = std::make_shared<lab::ProgramRun>();
  try {
    // Variants one by one, so progress names the variant and cancel stops between them too.
    int index = 0;
    for (const lang::Variant& v : program->variants) {
      if (!s.variant.empty() && v.name != s.variant) continue;
      const QString name = QString::fromStdString(v.name);
      emit variantStarted(index++, name);
      Monitor monitor(this, name);
      lab::RunRequest one = s;
      one.variant = v.name;
      one.options.monitor = &monitor;
      lab::ProgramRun r = lab::runProgram(*program, one);
      // A run that mostly paid for memory new to the process runs again, warm: the bars
      // compare the variants' work, not which one first touched the most memory. The first
      // result goes before the second run, so its memory is the second run's.
      if (!cancel_ && r.variants.size() == 1 && lab::worthTimingAgainWarm(r.variants[0])) {
        const double coldSeconds = r.variants[0].run.seconds;
        const size_t coldFresh = r.variants[0].freshBytes;
        r = lab::ProgramRun{};
        r = lab::runProgram(*program, one);
        for (lab::VariantRun& vr : r.variants) {
          vr.coldSeconds = coldSeconds;
          vr.coldFreshBytes = coldFresh;
        }
      }
      for (auto& vr : r.variants) run->variants.push_back(std::move(vr));
      if (cancel_) break;
    }
    if (index == 0 && !s.variant.empty())
      out.error = tr("no variant named '%1'").arg(QString::fromStdString(s.variant));
    run->agreement = lab::compareVariants(run->variants);
  } catch (const std::exception& e) {
    out.error = QString::fromStdString(e.what());
  }
  out.run = run;
  busy_ = false;
  emit finished(out);
}

void RunWorker::recordOnThread(std::shared_ptr<const lang::TracedProgram> program,
                               std::shared_ptr<const lab::VariantRun> base, lab::RunRequest s,
                               int generation) {
  RecordingOutcome out;
  out.program = program;
  out.variant = QString::fromStdString(base->name);
  out.generation = generation;
  if (generation != recordGeneration_) {  // superseded while queued
    out.cancelled = true;
    emit recorded(out);
    return;
  }
  try {
    Monitor monitor(this, out.variant, generation);
    s.variant = base->name;
    s.options.monitor = &monitor;
    s.options.records = s.options.valueRecords = true;
    s.options.timeline =
        false;  // the timeline shown is the record-free run's: records would inflate it
    lab::ProgramRun r = lab::runProgram(*program, s);
    if (r.variants.size() != 1 || r.variants[0].cancelled) {
      out.cancelled = true;
    } else if (!r.variants[0].ok()) {
      out.error = variantErrorText(r.variants[0]);
    } else {
      // The record-free run's outputs, timeline and seconds; this run's records. Copied and
      // measured here, off the GUI thread.
      auto merged = std::make_shared<lab::VariantRun>(*base);
      RunResult& records = r.variants[0].run;
      merged->run.loops = std::move(records.loops);
      merged->run.loopExecutions = std::move(records.loopExecutions);
      merged->run.valueRecords = std::move(records.valueRecords);
      out.recordBytes = recordBytes(merged->run);
      out.run = std::move(merged);
    }
  } catch (const std::exception& e) {
    out.error = QString::fromStdString(e.what());
  }
  if (generation != recordGeneration_) {
    out.run.reset();
    out.cancelled = true;
  }
  emit recorded(out);
}

}  // namespace gl::ui
