#include "ui/present/result_views.h"

#include <set>

#include <QGraphicsTextItem>

#include "engine/control/kind.h"
#include "engine/lab/gradient_view.h"
#include "engine/lab/report.h"
#include "ui/graph/gradient_flow.h"
#include "ui/graph/gradient_scale.h"
#include "ui/graph/graph_model.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/i18n/diagnostic_text.h"
#include "ui/panels/run_log.h"
#include "ui/plots/gradient_lines_plot.h"
#include "ui/plots/heat_map_plot.h"
#include "ui/plots/plots_panel.h"
#include "ui/plots/timing_bars_plot.h"
#include "ui/step/execution_view.h"

namespace gl::ui {

std::vector<GradDiagnostic> noneGradients(const lang::TracedProgram& program) {
  std::vector<GradDiagnostic> out;
  std::set<std::pair<int, std::string>> seen;
  for (const lang::Variant& v : program.variants)
    for (const lang::Output& o : v.outputs)
      for (const lang::OutputEntry& e : o.entries)
        if (!e.value.valid() && e.whyNode >= 0 && seen.insert({e.whyNode, e.whyNone}).second)
          out.push_back({e.whyNone, e.whyNode, e.whyLoc});
  return out;
}

void showProgramGraph(GraphScene& scene, std::shared_ptr<const lang::TracedProgram> program,
                      const std::string& variant) {
  const Graph& g = *program->graph;
  // Decide what to draw before any layout runs: dot on tens of thousands of nodes would block
  // the window for minutes and nobody could read the result.
  GraphFilter filter;
  filter.only = lab::variantNodes(*program, variant);
  for (const lang::Variant& v : program->variants)
    if (v.name == variant) filter.firstOwnNode = v.eagerNodes.first;
  filter.folded = defaultFolding(g);
  filter.repeats = std::make_shared<RepeatGroups>(findRepeatGroups(g, filter.only.get()));
  bool backward = true;
  size_t visible = buildVisibleGraph(g, filter).nodes.size();
  if (visible > size_t(kMaxDrawnNodes)) {
    filter.showBackward = backward = false;
    visible = buildVisibleGraph(g, filter).nodes.size();
  }
  scene.setGraph(nullptr);
  scene.setNodeSubset(filter.only, filter.firstOwnNode);
  scene.setShowBackward(backward);
  if (visible > size_t(kMaxDrawnNodes)) {
    auto* notice = scene.addText(
        QObject::tr("This graph has %1 nodes (%2 even with loops folded and the backward pass "
                    "hidden): too many to draw. Lower the lesson's params to see it.")
            .arg(g.numNodes())
            .arg(visible));
    notice->setTextWidth(520);
    return;
  }
  scene.setGraph(program->graph, filter.repeats);
  scene.setBreaks(noneGradients(*program));
}

void showProgramGraph(GraphView& view, std::shared_ptr<const lang::TracedProgram> program,
                      const std::string& variant) {
  showProgramGraph(*view.graphScene(), std::move(program), variant);
  view.fitGraph();
}

void showRunOnGraph(GraphScene& scene, const Graph& graph, const RunResult& run, int64_t step,
                    bool widen) {
  scene.setIterations(loopIterations(run));
  scene.setValueNorms(lab::adjointNorms(graph, run, step), widen);
}

void showRunOnGraph(GraphView& view, const Graph& graph, const RunResult& run, int64_t step,
                    bool widen) {
  showRunOnGraph(*view.graphScene(), graph, run, step, widen);
}

namespace {

// Every step's loop adjoints and the top-level adjoints.
void includeInScale(GradientScale& scale, const Graph& graph, const RunResult& run) {
  includeRunInScale(scale, run);
  for (const auto& [value, norm] : lab::adjointNorms(graph, run, 0)) scale.include(norm);
}

}  // namespace

void scaleOverAllVariants(GraphScene& scene, const Graph& graph, const lab::ProgramRun& run) {
  auto scale = scene.gradientScale();
  if (!scale) return;
  scale->reset();
  for (const lab::VariantRun& v : run.variants)
    if (v.ok()) includeInScale(*scale, graph, v.run);
  scene.refreshGradientStyle();
}

void widenScaleByRun(GraphScene& scene, const Graph& graph, const RunResult& run) {
  auto scale = scene.gradientScale();
  if (!scale) return;
  includeInScale(*scale, graph, run);
  scene.refreshGradientStyle();
}

QVector<LoopChoice> loopChoices(const Graph& graph, const RunResult& run) {
  QVector<LoopChoice> out;
  for (const auto& [node, rec] : run.loops) {
    if (node < 0 || node >= graph.numNodes()) continue;
    const Node& n = graph.node(node);
    if (n.phase == Phase::Backward) continue;  // its adjoints show on the forward loop
    LoopChoice c;
    c.node = node;
    c.iterations = rec.iterations;
    c.hasAdjoints = !rec.adjoints.empty();
    c.executions = executionLabels(run, node);
    c.executionIterations = executionIterations(run, node);
    c.executionsNote = executionsNote(run, node);
    QString what = QString::fromStdString(std::string(displayName(n)));
    if (!n.name.empty()) what += QStringLiteral(" '%1'").arg(QString::fromStdString(n.name));
    c.label = n.loc.known() ? QObject::tr("%1 at line %2").arg(what).arg(n.loc.line)
                            : QObject::tr("%1 #%2").arg(what).arg(node);
    out.push_back(c);
  }
  return out;
}

namespace {

// The script's 1-D float outputs with one value per iteration of a forward loop (a training
// loop's losses, stacked from a TensorArray): one series each, step t on x.
QVector<SeriesData> perStepOutputs(const Graph& graph, const lab::VariantRun& run) {
  std::set<int64_t> lengths;
  for (const auto& [node, rec] : run.run.loops)
    if (graph.node(node).phase == Phase::Forward && rec.iterations > 1)
      lengths.insert(rec.iterations);
  QVector<SeriesData> out;
  for (const lab::OutputResult& o : run.outputs) {
    if (o.isList || o.entries.size() != 1 || o.entries[0].none()) continue;
    const Datum& d = o.entries[0].value;
    if (d.isList() || d.t.rank() != 1 || !isFloat(d.t.dtype()) || !lengths.count(d.t.numel()))
      continue;
    SeriesData s{QString::fromStdString(o.name), {}, {}};
    const std::vector<double> v = d.t.toVector();
    for (size_t t = 0; t < v.size(); ++t) s.x.push_back(double(t)), s.y.push_back(v[t]);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

void showRunOnPlots(PlotsPanel& plots, const lang::TracedProgram& program,
                    const lab::VariantRun& run, bool recordsPending) {
  const Graph& graph = *program.graph;
  bool gradients = false;
  for (const auto& [node, rec] : run.run.loops)
    if (!rec.adjoints.empty() && graph.node(node).phase == Phase::Forward) {
      plots.showLoopGradients(rec, &graph);
      gradients = true;
      break;
    }
  if (!gradients) {
    const QVector<SeriesData> perStep = perStepOutputs(graph, run);
    if (!perStep.isEmpty()) {
      plots.showPerStepValues(perStep);
      gradients = true;
    }
  }
  if (!gradients) plots.gradientLines()->setSeries({});
  // Nothing per step to show: the timings say more than an empty plot.
  if (!gradients && !recordsPending && plots.currentPlot() == plots.gradientLines())
    plots.showPlot(plots.timingBars());
  // A variant without one clears the tab: it showed the last lesson's matrix and scale.
  if (const lab::OutputResult* o = lab::gradientMatrixOutput(program, run))
    plots.showJacobian(o->entries[0].value.t, QString::fromStdString(o->name));
  else
    plots.heatMap()->setData({});
  plots.showTimeline(run.run, &graph, QString::fromStdString(run.name));
}

QVector<TimingData> timingData(const std::map<TimingKey, double>& timings) {
  QVector<TimingData> out;
  for (const auto& [key, seconds] : timings) out.push_back({key.variant, key.executor, seconds});
  return out;
}

QVector<TimingData> timingData(const lab::ProgramRun& run) {
  QVector<TimingData> out;
  for (const lab::VariantRun& v : run.variants)
    if (v.ok()) out << timingOf(QString::fromStdString(v.name), v.executor, v.run);
  return out;
}

void logRun(RunLog& log, const RunOutcome& outcome) {
  for (const lab::ReportEntry& e :
       lab::buildReport(*outcome.program, *outcome.run, outcome.request)) {
    const QString text = QString(e.indent, QLatin1Char(' ')) + reportEntryText(e);
    if (e.kind == lab::ReportKind::RunPrint) continue;  // already streamed while running
    if (e.kind == lab::ReportKind::Numerics) {
      log.appendWarning(QString::fromStdString(e.text), QString::fromStdString(e.loc.file),
                        e.loc.line, e.loc.col);
    } else if (e.severity != lab::Severity::Error) {
      log.appendInfo(text);
    } else if (e.kind == lab::ReportKind::RunError) {
      log.appendError(reportEntryText(e));  // links its leading location
    } else {
      log.appendError(text);
    }
  }
}

}  // namespace gl::ui
