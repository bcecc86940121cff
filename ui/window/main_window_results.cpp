// MainWindow: runs and sweeps, and what happens when a trace or a run comes back — each panel
// is handed the part of the result it shows.
#include <QLabel>
#include <QStatusBar>

#include "ui/document/script_document.h"
#include "ui/editor/script_editor.h"
#include "ui/graph/gradient_flow.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/i18n/diagnostic_text.h"
#include "ui/inspect/inspector_panel.h"
#include "ui/panels/lesson_browser.h"
#include "ui/panels/params_panel.h"
#include "ui/panels/run_log.h"
#include "ui/plots/gradient_lines_plot.h"
#include "ui/plots/plot_data.h"
#include "ui/plots/plots_panel.h"
#include "ui/plots/scaling_plot.h"
#include "ui/present/numerics_fault.h"
#include "ui/present/result_views.h"
#include "ui/run/release_off_thread.h"
#include "ui/run/run_options.h"
#include "ui/run/run_progress.h"
#include "ui/step/execution_view.h"
#include "ui/step/step_controls.h"
#include "ui/window/main_window.h"
#include "ui/window/sweep_dialog.h"

namespace gl::ui {

void MainWindow::connectPanels() {
  connect(controller_, &LessonController::traced, this, &MainWindow::onTraced);
  connect(controller_, &LessonController::traceFailed, this, &MainWindow::onTraceFailed);
  connect(controller_, &LessonController::runFinished, this, &MainWindow::onRunFinished);
  connect(controller_, &LessonController::sweepFinished, this, &MainWindow::onSweepFinished);
  connect(controller_, &LessonController::sweepPoint, this,
          [this](const QString& variant, double value, double seconds) {
            if (!sweep_) return;
            sweep_->add(variant, value, seconds);
            plots_->showScaling(*sweep_);
          });
  connect(controller_, &LessonController::printed, log_, &RunLog::appendPrint);
  connect(plots_, &PlotsPanel::sweepRequested, this, &MainWindow::sweepDialog);
  connect(controller_, &LessonController::runStarted, this, [this] { setRunning(true); });
  connect(controller_, &LessonController::variantStarted, this, [this](int, const QString& name) {
    status_->setText(tr("Running variant '%1'…").arg(name));
    progress_->beginVariant(name);
  });
  connect(controller_, &LessonController::progress, this,
          [this](const QString& variant, int, qint64 done, qint64 total) {
            progress_->setProgress(variant, done, total);
          });
  // Recording runs: the shown variant run again with records on, after a run or a switch.
  connect(controller_, &LessonController::recordingStarted, this, [this](const QString& variant) {
    const QString text =
        tr("Recording variant '%1' for the step-through and inspector…").arg(variant);
    log_->appendInfo(text);
    status_->setText(text);
    cancelAct_->setEnabled(true);
  });
  connect(controller_, &LessonController::recordingProgress, this,
          [this](const QString& variant, qint64 done, qint64 total) {
            // A while loop's trip count is unknown until it ends (total < 0).
            status_->setText(total >= 0
                                 ? tr("Recording variant '%1' for the step-through and inspector… "
                                      "step %2 of %3")
                                       .arg(variant)
                                       .arg(done)
                                       .arg(total)
                                 : tr("Recording variant '%1' for the step-through and inspector… "
                                      "step %2")
                                       .arg(variant)
                                       .arg(done));
          });
  connect(controller_, &LessonController::recordsReady, this, &MainWindow::onRecordsReady);
  connect(controller_, &LessonController::recordingStopped, this, &MainWindow::onRecordingStopped);

  connect(editor_, &ScriptEditor::textEditedDebounced, this,
          [this] { controller_->setSource(document_->text(), document_->fileName()); });
  connect(document_, &ScriptDocument::dirtyChanged, this, &MainWindow::updateTitle);
  connect(document_, &ScriptDocument::autosaveFailed, log_,
          [this](const QString& why) { log_->appendError(tr("Autosave failed: %1").arg(why)); });
  connect(editor_, &ScriptEditor::cursorLineChanged, this,
          [this](int line) { graphView_->graphScene()->selectNodesAtLine(line); });
  connect(params_, &ParamsPanel::paramsChanged, this, [this] {
    controller_->setParamValues(params_->userValues());
    pendingRunAfterTrace_ = true;  // a param change re-runs once the new trace is in
  });
  // Not re-run on its own: the seed sizes can take half a minute.
  connect(params_, &ParamsPanel::presetChanged, this, [this](lang::ParamPreset preset) {
    controller_->setPreset(preset);
    status_->setText(preset == lang::ParamPreset::Seed
                         ? tr("Seed sizes: the question's own params (runs take longer)")
                         : tr("Classroom sizes: small params for a first look"));
  });
  connect(log_, &RunLog::locationActivated, editor_, &ScriptEditor::goToLocation);
  connect(lessons_, &LessonBrowser::lessonActivated, this, [this](const QString& path) {
    if (maybeSave()) openFile(path);
  });
  connect(plots_, &PlotsPanel::exportFailed, log_,
          [this](const QString& m) { log_->appendError(m); });
  connect(plots_, &PlotsPanel::exported, log_,
          [this](const QString& p) { log_->appendInfo(tr("Exported %1").arg(p)); });
  connect(inspector_, &InspectorPanel::locationActivated, editor_, &ScriptEditor::goToLocation);
  connect(graphView_->graphScene(), &GraphScene::nodeSelected, this, [this](int id) {
    inspector_->showNode(id);
    const Graph* g = graphView_->graphScene()->graph();
    if (g && id >= 0 && id < g->numNodes() && g->node(id).loc.known()) {
      editor_->selectLine(g->node(id).loc.line);
    }
  });
  connect(graphView_->graphScene(), &GraphScene::sourceRequested, this,
          [this](const SourceLoc& loc) { editor_->goToLocation(loc.line, loc.col); });
  // A red break: the engine's explanation in the log and the script line it points at.
  connect(graphView_->graphScene(), &GraphScene::breakActivated, this,
          [this](int node, const QString& why, const SourceLoc& loc) {
            inspector_->showNode(node);
            if (loc.line > 0) {
              editor_->goToLocation(loc.line, loc.col);
              log_->appendError(why, QString::fromStdString(loc.file), loc.line, loc.col);
            } else {
              log_->appendError(why);
            }
          });
  // What the graph view could not lay out or unfold, said where the user looks.
  for (auto signal : {&GraphScene::foldingRefused, &GraphScene::layoutFailed})
    connect(graphView_->graphScene(), signal, this, [this](const QString& why) {
      log_->appendInfo(why);
      statusBar()->showMessage(why, 15000);
    });
  // The first NaN/Inf stays outlined through relayouts (folding, a variant switch).
  connect(graphView_->graphScene(), &GraphScene::layoutChanged, this, [this] {
    const lab::VariantRun* v = shownRun();
    const bool shown = v && graphView_->graphScene()->graph() == lastRun_.program->graph.get();
    markNumericsFault(*graphView_->graphScene(), shown ? v->run.numerics : NumericsFault{});
  });
  connect(steps_, &StepControls::stepChanged, this, &MainWindow::onStep);
  connect(steps_, &StepControls::executionChanged, this, &MainWindow::onExecutionChanged);
  connect(runOptions_, &RunOptions::variantChanged, this, [this] {
    if (auto program = controller_->program())
      showProgramGraph(*graphView_, program, runOptions_->variant().toStdString());
    showVariantResults();
  });
}

void MainWindow::onTraced(std::shared_ptr<const lang::TracedProgram> program) {
  editor_->clearErrors();
  // Params and variants as the script now declares them.
  params_->setParams(QVector<lang::Param>(program->params.begin(), program->params.end()));
  runOptions_->setVariants(program->variants);
  for (const std::string& line : program->traceLog)
    log_->appendInfo(tr("print: %1").arg(QString::fromStdString(line)));
  showProgramGraph(*graphView_, program, runOptions_->variant().toStdString());
  status_->setText(tr("Traced: %1 nodes, %2 variants")
                       .arg(program->graph->numNodes())
                       .arg(program->variants.size()));
  inspector_->setContext(program->graph, nullptr);
  inspector_->setBreaks(noneGradients(*program));
  if (pendingRunAfterTrace_ || runOnNextTrace_) {
    const bool all = runOnNextTrace_;
    pendingRunAfterTrace_ = runOnNextTrace_ = false;
    if (!controller_->running()) runCurrent(all);
  }
}

void MainWindow::onTraceFailed(const QString& message, int line, int col) {
  pendingRunAfterTrace_ = runOnNextTrace_ = false;
  QList<ScriptError> errors;
  if (line > 0) errors.append({line, std::max(1, col), message, 0});
  editor_->setErrors(errors);
  log_->appendError(message);
  status_->setText(message);
}

void MainWindow::runCurrent(bool allVariants) {
  // A run uses the values the dock shows: an edit still in its debounce goes to the trace
  // first, and the run waits for that trace.
  params_->commitPendingEdit();
  if (!controller_->program() || controller_->tracePending()) {
    if (allVariants)
      runOnNextTrace_ = true;
    else
      pendingRunAfterTrace_ = true;
    controller_->traceNow();
    return;
  }
  const QString executor = runOptions_->executorLabel();
  if (controller_->program()->variants.size() == 1 && !allVariants)
    log_->appendInfo(tr("Running on the %1 executor…").arg(executor));
  else
    log_->appendInfo(allVariants ? tr("Running all variants on the %1 executor…").arg(executor)
                                 : tr("Running variant '%1' on the %2 executor…")
                                       .arg(runOptions_->variantLabel(), executor));
  controller_->run(allVariants ? QString() : runOptions_->variant(), runOptions_->executor(),
                   runOptions_->threads());
}

void MainWindow::onRunFinished(const RunOutcome& outcome) {
  setRunning(false);
  if (outcome.superseded) return;  // a run of the lesson that was open before
  if (!outcome.error.isEmpty()) {
    log_->appendError(outcome.error);
    status_->setText(outcome.error);
    return;
  }
  logRun(*log_, outcome);
  releaseOffThread(lastRun_.run);
  lastRun_ = outcome;
  // One colour scale for every variant's gradients, so switching variants compares them.
  scaleOverAllVariants(*graphView_->graphScene(), *outcome.program->graph, *outcome.run);
  int failed = 0;
  bool cancelled = false;
  for (const lab::VariantRun& v : outcome.run->variants) {
    cancelled = cancelled || v.cancelled;
    if (v.ok() || v.cancelled) continue;
    ++failed;
    if (v.errorLoc.line > 0)
      editor_->setErrors({{v.errorLoc.line, std::max(1, v.errorLoc.col), variantErrorText(v), 0}});
  }
  if (cancelled)
    status_->setText(tr("Run cancelled"));
  else
    status_->setText(failed ? tr("%1 variant(s) failed; see the run log").arg(failed)
                            : tr("Run finished"));
  // Where the shown variant first went NaN/Inf: the step-through goes to that iteration once
  // its records are in.
  const lab::VariantRun* v = shownRun();
  stepToNumericsFault_ = v && v->ok() && v->run.numerics.found();
  if (stepToNumericsFault_)
    status_->setText(
        tr("Run finished; the first NaN/Inf appeared at line %1").arg(v->run.numerics.loc.line));
  QStringList scriptOrder;
  for (const lang::Variant& v : outcome.program->variants)
    scriptOrder << QString::fromStdString(v.name);
  plots_->showTimings(timingData(controller_->timings()), scriptOrder);
  showVariantResults();  // starts the shown variant's recording run
}

void MainWindow::sweepDialog() {
  auto program = controller_->program();
  if (!program || program->params.empty()) {
    log_->appendError(tr("This script declares no param to sweep."));
    return;
  }
  SweepDialog dialog(program->params, this);
  if (dialog.exec() == QDialog::Accepted) startSweep(dialog.param(), dialog.values());
}

bool MainWindow::startSweep(const QString& param, const QVector<double>& values) {
  sweep_ = std::make_unique<ScalingData>();
  sweep_->param = param;
  plots_->showScaling(*sweep_);
  plots_->showPlot(plots_->scaling());
  log_->appendInfo(tr("Sweeping %1 over %2 values…").arg(param).arg(values.size()));
  return controller_->sweep(param, values, runOptions_->executor(), runOptions_->threads());
}

void MainWindow::onSweepFinished(const QString& param, const QString& error) {
  setRunning(false);
  if (!error.isEmpty())
    log_->appendError(error);
  else
    log_->appendInfo(tr("Sweep of %1 finished").arg(param));
  status_->setText(error.isEmpty() ? tr("Sweep finished") : error);
}

const lab::VariantRun* MainWindow::shownRun() const {
  // The controller's cache or its latest run holds it.
  return controller_->variantRun(runOptions_->variant()).get();
}

void MainWindow::showVariantResults() {
  auto shown = controller_->showVariant(runOptions_->variant());
  if (!lastRun_.program) return;
  auto graph = lastRun_.program->graph;
  // Nothing of the variant shown before stays: a variant the run left out or that failed
  // shows no values, one being recorded says so until its records are in.
  if (!shown || !shown->ok()) {
    releaseOffThread(shownRecords_);
    inspector_->setNote(shown ? QString() : tr("not run: run this variant to see its values"));
    inspector_->setContext(graph, nullptr);
    steps_->setNote(shown ? QString() : tr("not run"));
    steps_->setLoops({});
    graphView_->graphScene()->setIterations({});
    graphView_->graphScene()->setValueNorms({}, false);
    plots_->gradientLines()->setSeries({});
    return;
  }
  const bool pending = controller_->recording() &&
                       controller_->recordingVariant() == QString::fromStdString(shown->name);
  // The inspector and overlay keep the record alive through shared ownership.
  auto run = std::shared_ptr<const RunResult>(shown, &shown->run);
  releaseOffThread(shownRecords_);
  shownRecords_ = run;
  inspector_->setNote(pending ? tr("recording… (this variant runs again with records on for "
                                   "the step-through and inspector)")
                              : QString());
  inspector_->setContext(graph, run);
  steps_->setNote(pending ? tr("recording…") : QString());
  showRunOnGraph(*graphView_, *graph, *run, steps_->step(), false);
  markNumericsFault(*graphView_->graphScene(), shown->run.numerics);
  steps_->setLoops(loopChoices(*graph, *run));
  showRunOnPlots(*plots_, *lastRun_.program, *shown, pending);
}

void MainWindow::onRecordsReady(const QString& variant) {
  cancelAct_->setEnabled(controller_->running() || controller_->recording());
  auto shown = controller_->variantRun(runOptions_->variant());
  if (!shown || !lastRun_.program || QString::fromStdString(shown->name) != variant) return;
  status_->setText(variant.isEmpty() ? tr("Run recorded: step through it")
                                     : tr("Variant '%1' recorded: step through it").arg(variant));
  // Colours shared by every variant recorded since the run.
  widenScaleByRun(*graphView_->graphScene(), *lastRun_.program->graph, shown->run);
  showVariantResults();
  if (stepToNumericsFault_ && shown->run.numerics.found()) {
    stepToNumericsFault_ = false;
    status_->setText(tr("Run finished; the first NaN/Inf appeared at line %1")
                         .arg(shown->run.numerics.loc.line));
    if (auto at = numericsStep(*lastRun_.program->graph, shown->run)) {
      steps_->selectLoop(at->loopNode);
      steps_->setStep(at->step);
    }
  }
}

// Called from inside showVariantResults too (a switch stops the recording before the next
// one starts): it only updates what says "recording".
void MainWindow::onRecordingStopped(const QString& variant, const QString& error) {
  cancelAct_->setEnabled(controller_->running() || controller_->recording());
  if (!error.isEmpty()) {
    log_->appendError(tr("Recording variant '%1' failed: %2").arg(variant, error));
  } else if (!controller_->running()) {
    status_->setText(tr("Recording variant '%1' stopped").arg(variant));
  }
  // (Not after the lesson was closed: nothing of it is shown any more.)
  if (lastRun_.run && !controller_->hasRecords(runOptions_->variant())) {
    steps_->setNote(tr("not recorded"));
    inspector_->setNote(tr("not recorded: switch variants or run again to record them"));
  }
}

void MainWindow::onStep(int loopNode, qint64 step, bool backward) {
  if (!shownRecords_ || !lastRun_.program) return;
  inspector_->showLoopStep(loopNode, step, backward);
  plots_->setStepCursor(double(step));
  showRunOnGraph(*graphView_, *lastRun_.program->graph, *shownRecords_, step, false);
}

// Another execution of a loop: the inspector, the gradient plot and (at the next step) the
// graph read that execution's records.
void MainWindow::onExecutionChanged(int loopNode, int execution) {
  auto shown = controller_->variantRun(runOptions_->variant());
  if (!shown || !lastRun_.program) return;
  auto graph = lastRun_.program->graph;
  releaseOffThread(shownRecords_);
  shownRecords_ =
      withExecution(std::shared_ptr<const RunResult>(shown, &shown->run), loopNode, execution);
  inspector_->setContext(graph, shownRecords_);
  if (auto it = shownRecords_->loops.find(loopNode);
      it != shownRecords_->loops.end() && !it->second.adjoints.empty())
    plots_->showLoopGradients(it->second, graph.get());
}

}  // namespace gl::ui
