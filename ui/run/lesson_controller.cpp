#include "ui/run/lesson_controller.h"
#include "ui/run/release_off_thread.h"

#include <set>

#include "engine/lang/parser.h"

namespace gl::ui {

LessonController::LessonController(QObject* parent) : QObject(parent) {
  traceTimer_.setSingleShot(true);
  traceTimer_.setInterval(300);
  connect(&traceTimer_, &QTimer::timeout, this, &LessonController::traceNow);
  connect(&worker_, &RunWorker::traced, this, &LessonController::onTraced);
  connect(&worker_, &RunWorker::started, this, &LessonController::runStarted);
  connect(&worker_, &RunWorker::variantStarted, this, &LessonController::variantStarted);
  connect(&worker_, &RunWorker::progress, this, &LessonController::progress);
  connect(&worker_, &RunWorker::printed, this, &LessonController::printed);
  connect(&worker_, &RunWorker::sweepPoint, this, &LessonController::sweepPoint);
  connect(&worker_, &RunWorker::sweepFinished, this, &LessonController::sweepFinished);
  connect(&worker_, &RunWorker::recordingProgress, this, &LessonController::recordingProgress);
  connect(&worker_, &RunWorker::recorded, this, &LessonController::onRecorded);
  connect(&worker_, &RunWorker::finished, this, [this](RunOutcome out) {
    out.superseded = runLesson_ != lesson_;
    if (out.superseded) {
      emit runFinished(out);  // the run controls go back to idle; the results are dropped
      return;
    }
    releaseOffThread(outcome_.run);
    // The records of the run before. Dropped now rather than when the run started: freeing
    // them (on a pool thread) beside the run would slow the run down on a busy machine.
    forgetRecords();
    outcome_ = out;
    if (out.run && out.program == program_)
      for (const lab::VariantRun& v : out.run->variants)
        if (v.ok()) timings_[{QString::fromStdString(v.name), v.executor}] = v.run.seconds;
    emit runFinished(out);
  });
}

void LessonController::setSource(const QString& text, const QString& fileName) {
  const bool newFile = fileName != fileName_;
  if (!newFile && text == source_) return;  // e.g. the editor's debounce after loading
  source_ = text;
  fileName_ = fileName;
  if (newFile)
    traceNow();
  else
    traceTimer_.start();
}

void LessonController::setParamValues(const QMap<QString, double>& values) {
  if (values == params_) return;
  params_ = values;
  traceTimer_.start();
}

void LessonController::setPreset(lang::ParamPreset preset) {
  if (preset == preset_) return;
  preset_ = preset;
  params_.clear();  // the user's values belonged to the other preset
  traceTimer_.start();
}

void LessonController::setLimits(const RunLimits& limits) {
  if (limits == limits_) return;
  limits_ = limits;
  if (!source_.isEmpty()) traceTimer_.start();  // a script refused before may fit now
}

void LessonController::startOver(lang::ParamPreset preset) {
  traceTimer_.stop();
  preset_ = preset;
  params_.clear();
  fileName_.clear();
  ++lesson_;
  worker_.cancel();  // a run of the previous lesson stops; its outcome is marked superseded
  stopRecording();
  forgetRecords();
  program_.reset();
  releaseOffThread(outcome_.run);
  outcome_ = {};  // the next setSource traces at once, even for the same file again
}

void LessonController::traceNow() {
  traceTimer_.stop();
  awaitingTrace_ = true;
  worker_.trace(source_, fileName_, traceOptions());
}

bool LessonController::sweep(const QString& param, const QVector<double>& values,
                             ExecutorKind executor, int threads) {
  if (worker_.busy() || values.isEmpty()) return false;
  stopRecording();
  runLesson_ = lesson_;
  lab::RunRequest s;
  s.options.executor = executor;
  s.options.threads = threads;
  limits_.applyTo(s.options);
  return worker_.startSweep(source_, fileName_, traceOptions(), param, values, s);
}

lang::TraceOptions LessonController::traceOptions() const {
  lang::TraceOptions opt;
  opt.preset = preset_;
  limits_.applyTo(opt);
  // Only params the script still declares: a knob left over from a deleted line must not
  // turn into an "unknown param" error.
  std::set<std::string> declared;
  try {
    const lang::Module m = lang::parse(source_.toStdString(), fileName_.toStdString());
    for (const auto* p : lang::paramDecls(m)) declared.insert(p->name);
  } catch (const std::exception&) {
    // the trace reports the error
  }
  for (auto it = params_.begin(); it != params_.end(); ++it)
    if (declared.count(it.key().toStdString())) opt.overrides[it.key().toStdString()] = it.value();
  return opt;
}

void LessonController::onTraced(std::shared_ptr<const lang::TracedProgram> program,
                                const QString& error, int line, int col) {
  awaitingTrace_ = false;
  if (program) {
    if (!program_ || program_->graph != program->graph) {
      timings_.clear();
      // Records of the old program's run: a recording of it would show another graph's values.
      stopRecording();
      forgetRecords();
    }
    program_ = std::move(program);
    emit traced(program_);
  } else {
    emit traceFailed(error, line, col);
  }
}

bool LessonController::run(const QString& variant, ExecutorKind executor, int threads) {
  if (!program_ || worker_.busy()) return false;
  runLesson_ = lesson_;
  lab::RunRequest s;
  s.variant = variant.toStdString();
  s.options.executor = executor;
  s.options.threads = threads;
  // What `gradlab run` measures: the timeline stays (about 2% of the ODE and per-step lessons
  // in perf profiles, and read by the timeline plot), loop and value records come from a
  // recording run of the shown variant.
  s.options.records = s.options.valueRecords = false;
  limits_.applyTo(s.options);
  stopRecording();
  return worker_.start(program_, s);
}

void LessonController::cancel() {
  worker_.cancel();
  stopRecording();
}

std::shared_ptr<const lab::VariantRun> LessonController::recordFreeRun(
    const QString& variant) const {
  if (!outcome_.run || outcome_.run->variants.empty()) return nullptr;
  const std::string name = variant.toStdString();
  for (const lab::VariantRun& v : outcome_.run->variants)
    if (v.name == name) return {outcome_.run, &v};
  // A variant the run left out (Run of another one) has nothing to show; a program of one
  // variant has just that one.
  const bool single = !outcome_.program || outcome_.program->variants.size() <= 1;
  if (!single && !variant.isEmpty()) return nullptr;
  return {outcome_.run, &outcome_.run->variants.front()};
}

std::shared_ptr<const lab::VariantRun> LessonController::variantRun(const QString& variant) const {
  auto base = recordFreeRun(variant);
  if (!base) return nullptr;
  auto recorded = records_.peek(QString::fromStdString(base->name));
  return recorded ? recorded : base;
}

bool LessonController::hasRecords(const QString& variant) const {
  auto base = recordFreeRun(variant);
  return base && records_.contains(QString::fromStdString(base->name));
}

std::shared_ptr<const lab::ProgramRun> LessonController::runWithRecords() const {
  if (!outcome_.run || records_.size() == 0) return outcome_.run;
  auto run = std::make_shared<lab::ProgramRun>(*outcome_.run);
  for (lab::VariantRun& v : run->variants)
    if (auto recorded = records_.peek(QString::fromStdString(v.name))) v = *recorded;
  return run;
}

std::shared_ptr<const lab::VariantRun> LessonController::showVariant(const QString& variant) {
  auto base = recordFreeRun(variant);
  if (!base) return nullptr;
  const QString name = QString::fromStdString(base->name);
  if (auto recorded = records_.find(name)) {
    stopRecording();  // the user moved on from the variant being recorded
    return recorded;
  }
  if (recording() && recordingVariant_ == name) return base;
  stopRecording();
  if (!base->ok() || outcome_.program != program_ || worker_.busy()) return base;
  const int generation = worker_.startRecording(outcome_.program, base, outcome_.request);
  if (generation != 0) {
    recordingGeneration_ = generation;
    recordingVariant_ = name;
    emit recordingStarted(name);
  }
  return base;
}

void LessonController::stopRecording() {
  if (!recording()) return;
  worker_.cancelRecording();
  const QString variant = recordingVariant_;
  recordingGeneration_ = 0;
  recordingVariant_.clear();
  emit recordingStopped(variant, QString());
}

void LessonController::forgetRecords() { records_.clear(); }

void LessonController::onRecorded(const RecordingOutcome& out) {
  if (out.generation != recordingGeneration_) return;  // stopped already (and said so)
  const QString variant = recordingVariant_;
  recordingGeneration_ = 0;
  recordingVariant_.clear();
  if (out.run && out.program == outcome_.program) {
    records_.insert(variant, out.run, out.recordBytes);
    emit recordsReady(variant);
  } else {
    emit recordingStopped(variant, out.cancelled ? QString() : out.error);
  }
}

}  // namespace gl::ui
