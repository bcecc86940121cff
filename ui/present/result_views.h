#pragma once
// Hands the parts of a traced program and of a run to the views that show them. Free
// functions, so the window and the headless exporter feed the views the same way.
#include <map>
#include <memory>

#include "engine/autodiff/tape.h"
#include "engine/lab/session.h"
#include "ui/plots/plot_data.h"
#include "ui/run/lesson_controller.h"
#include "ui/step/step_controls.h"

namespace gl::ui {

class GraphView;
class GraphScene;
class PlotsPanel;
class RunLog;

// Graphs larger than this are shown folded; over kMaxDrawnNodes visible nodes the view shows
// a notice instead of waiting for a layout nobody can read.
constexpr int kMaxDrawnNodes = 3000;

// Sets the graph (only the nodes of `variant` when it names one), folds loops of big graphs,
// and marks every None gradient as a break with the engine's explanation.
void showProgramGraph(GraphView& view, std::shared_ptr<const lang::TracedProgram> program,
                      const std::string& variant = {});
void showProgramGraph(GraphScene& scene, std::shared_ptr<const lang::TracedProgram> program,
                      const std::string& variant = {});
std::vector<GradDiagnostic> noneGradients(const lang::TracedProgram& program);

// Iteration badges and the gradient-flow overlay at loop step `step`.
// `widen`: let these norms widen the colour scale (false when the scale already holds every
// variant's run, so all variants share one colour bar).
void showRunOnGraph(GraphView& view, const Graph& graph, const RunResult& run, int64_t step,
                    bool widen = true);
void showRunOnGraph(GraphScene& scene, const Graph& graph, const RunResult& run, int64_t step,
                    bool widen = true);
// Resets the scene's colour scale to cover every step of every successful variant.
void scaleOverAllVariants(GraphScene& scene, const Graph& graph, const lab::ProgramRun& run);
// Widens it by every step of one run (a variant whose records just came in).
void widenScaleByRun(GraphScene& scene, const Graph& graph, const RunResult& run);

QVector<LoopChoice> loopChoices(const Graph& graph, const RunResult& run);

// Per-step gradients (first loop with adjoints), the jacobian heat map (first rank-2
// gradient output, else the first rank-2 output computed from gradients; emptied when there
// is none), and the timeline of the run. Without per-step data the gradient plot is emptied
// (nothing of another variant stays) and, unless `recordsPending` (a recording run is taking
// them), the timing bars come to the front.
void showRunOnPlots(PlotsPanel& plots, const lang::TracedProgram& program,
                    const lab::VariantRun& run, bool recordsPending = false);
QVector<TimingData> timingData(const std::map<TimingKey, double>& timings);
// One bar per variant that ran fine, on the executor it recorded (Export Lesson, the handout).
QVector<TimingData> timingData(const lab::ProgramRun& run);

void logRun(RunLog& log, const RunOutcome& outcome);

}  // namespace gl::ui
