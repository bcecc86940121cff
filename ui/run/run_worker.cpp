#include "ui/run/run_worker.h"

#include <QElapsedTimer>
#include <QMetaObject>

#include "ui/i18n/diagnostic_text.h"

namespace gl::ui {

// Relays engine callbacks (on the worker thread) as queued signals, throttled so a loop of
// 20000 steps does not flood the GUI's event queue.
class RunWorker::Monitor : public RunMonitor {
 public:
  Monitor(RunWorker* w, QString variant) : w_(w), variant_(std::move(variant)) { clock_.start(); }
  void onProgress(int loopNode, int64_t done, int64_t total) override {
    if (done != total && clock_.elapsed() < 50) return;
    clock_.restart();
    emit w_->progress(variant_, loopNode, done, total);
  }
  bool cancelled() const override { return w_->cancel_.load(); }
  void onPrint(const std::string& line) override { emit w_->printed(QString::fromStdString(line)); }

 private:
  RunWorker* w_;
  QString variant_;
  QElapsedTimer clock_;
};

RunWorker::RunWorker(QObject* parent) : QObject(parent) {
  qRegisterMetaType<gl::ui::RunOutcome>();
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

bool RunWorker::start(std::shared_ptr<const lang::TracedProgram> program,
                      lab::RunSettings settings) {
  if (busy_.exchange(true)) return false;
  cancel_ = false;
  emit started(QString::fromStdString(settings.variant));
  QMetaObject::invokeMethod(threadContext_,
                            [this, program, settings] { runOnThread(program, settings); });
  return true;
}

void RunWorker::trace(const QString& source, const QString& fileName, lang::TraceOptions options) {
  const int generation = ++traceGeneration_;
  const std::string src = source.toStdString();
  const std::string file = fileName.toStdString();
  QMetaObject::invokeMethod(traceContext_, [this, generation, src, file, options] {
    if (generation != traceGeneration_) return;  // superseded while queued
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
                           const QVector<double>& values, lab::RunSettings settings) {
  if (busy_.exchange(true)) return false;
  cancel_ = false;
  emit started(QString());
  const std::string src = source.toStdString(), file = fileName.toStdString();
  QMetaObject::invokeMethod(threadContext_, [=, this] {
    QString error;
    try {
      for (double value : values) {
        if (cancel_) break;
        lang::TraceOptions opt = options;
        opt.overrides[param.toStdString()] = value;
        const lang::TracedProgram program = lang::traceProgram(src, file, opt);
        for (const lang::Variant& v : program.variants) {
          if (cancel_) break;
          const QString name = QString::fromStdString(v.name);
          const QString label = tr("%1 at %2 = %3").arg(name, param).arg(value);
          emit variantStarted(0, label);
          Monitor monitor(this, label);
          lab::RunSettings one = settings;
          one.variant = v.name;
          one.monitor = &monitor;
          one.records = false;  // a sweep plots times only
          one.valueRecords = false;
          one.timeline = false;
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

void RunWorker::cancel() { cancel_ = true; }

bool RunWorker::wait(int msecs) {
  QElapsedTimer t;
  t.start();
  while (busy_ && t.elapsed() < msecs) QThread::msleep(5);
  return !busy_;
}

void RunWorker::runOnThread(std::shared_ptr<const lang::TracedProgram> program,
                            lab::RunSettings s) {
  RunOutcome out;
  out.program = program;
  out.settings = s;
  auto run = std::make_shared<lab::ProgramRun>();
  try {
    // Variants one by one, so progress names the variant and cancel stops between them too.
    int index = 0;
    for (const lang::Variant& v : program->variants) {
      if (!s.variant.empty() && v.name != s.variant) continue;
      const QString name = QString::fromStdString(v.name);
      emit variantStarted(index++, name);
      Monitor monitor(this, name);
      lab::RunSettings one = s;
      one.variant = v.name;
      one.monitor = &monitor;
      lab::ProgramRun r = lab::runProgram(*program, one);
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

}  // namespace gl::ui
