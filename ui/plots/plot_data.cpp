#include "ui/plots/plot_data.h"

#include <QCoreApplication>
#include <algorithm>

namespace gl::ui {

void ScalingData::add(const QString& variant, double x, double secs) {
  auto it = std::find_if(series.begin(), series.end(),
                         [&](const ScalingSeries& s) { return s.variant == variant; });
  if (it == series.end()) {
    series.push_back({variant, {}, {}});
    it = series.end() - 1;
  }
  it->x.push_back(x);
  it->seconds.push_back(secs);
}

int TimelineData::threadCount() const {
  int highest = -1;
  for (const auto& e : events) highest = std::max(highest, e.thread);
  return highest + 1;
}

QString loopVariableName(const Graph* graph, int loopNode, int i) {
  if (graph && loopNode >= 0 && loopNode < graph->numNodes()) {
    const Node& loop = graph->node(loopNode);
    if (i >= 0 && size_t(i) < loop.inputs.size()) {
      const Node& init = graph->node(loop.inputs[size_t(i)]);
      if (!init.name.empty()) return QString::fromStdString(init.name);
    }
  }
  return QStringLiteral("var %1").arg(i);
}

SeriesData gradientNormSeries(const LoopRecord& loop, int variable, const QString& name) {
  SeriesData s{name, {}, {}};
  for (size_t t = 0; t < loop.adjoints.size(); ++t) {
    const auto& row = loop.adjoints[t];
    // A row the reverse pass never reached stays empty.
    if (variable < 0 || size_t(variable) >= row.size()) continue;
    s.x.push_back(double(t));
    s.y.push_back(row[size_t(variable)].l2);
  }
  return s;
}

QVector<SeriesData> gradientNormSeries(const LoopRecord& loop, const Graph* graph) {
  QVector<SeriesData> out;
  if (loop.adjoints.empty() || loop.carried.empty()) return out;
  const auto& first = loop.carried.front();
  for (size_t i = 0; i < first.size(); ++i) {
    // Integer loop variables (counters) carry no gradient; their adjoint slots stay blank.
    if (!isFloat(first[i].dtype)) continue;
    SeriesData s = gradientNormSeries(loop, int(i), loopVariableName(graph, loop.loopNode, int(i)));
    if (!s.x.isEmpty()) out.push_back(std::move(s));
  }
  return out;
}

SeriesData valueNormSeries(const LoopRecord& loop, int variable, const QString& name) {
  SeriesData s{name, {}, {}};
  for (size_t t = 0; t < loop.carried.size(); ++t) {
    const auto& row = loop.carried[t];
    if (variable < 0 || size_t(variable) >= row.size()) continue;
    s.x.push_back(double(t));
    s.y.push_back(row[size_t(variable)].l2);
  }
  return s;
}

HeatMapData heatMapFromTensor(const Tensor& matrix, const QString& name) {
  HeatMapData h;
  if (!matrix.defined()) return h;
  const bool isMatrix = matrix.rank() == 2;
  h.rows = isMatrix ? int(matrix.shape()[0]) : 1;
  h.cols = isMatrix ? int(matrix.shape()[1]) : int(matrix.numel());
  QStringList dims;
  for (int64_t d : matrix.shape()) dims << QString::number(d);
  const QString shape = QStringLiteral("[%1]").arg(dims.join(QStringLiteral(", ")));
  if (!name.isEmpty()) h.valueLabel = name;
  h.title = (name.isEmpty() ? QCoreApplication::translate("gl::ui::HeatMapPlot", "Gradient matrix")
                            : name) +
            QStringLiteral("  ") + shape;
  h.rowLabel = QCoreApplication::translate("gl::ui::HeatMapPlot", "row (axis 0 of %1)").arg(h.rows);
  h.colLabel =
      isMatrix
          ? QCoreApplication::translate("gl::ui::HeatMapPlot", "column (axis 1 of %1)").arg(h.cols)
          : QCoreApplication::translate("gl::ui::HeatMapPlot", "element (flattened)");
  const std::vector<double> v = matrix.toVector();
  h.values = QVector<double>(v.begin(), v.end());
  return h;
}

TimelineSource timelineSource(const RunResult& run, const Graph* graph, const QString& process) {
  TimelineSource source;
  source.process = process;
  source.truncated = run.timelineTruncated;
  source.runSeconds = run.seconds;
  source.events = run.timeline;
  // 200,000 events come from a few hundred nodes: each node's names are made once and shared
  // (QString is implicitly shared) by all its events.
  for (const TimelineEvent& e : run.timeline) {
    if (source.names.count(e.node)) continue;
    if (graph && e.node >= 0 && e.node < graph->numNodes()) {
      const Node& n = graph->node(e.node);
      source.names[e.node] = {QString::fromStdString(std::string(n.opName())),
                              QString::fromStdString(n.label())};
    } else {
      source.names[e.node] = {QStringLiteral("node"), QStringLiteral("node#%1").arg(e.node)};
    }
  }
  return source;
}

TimelineData TimelineSource::expand() const {
  TimelineData d;
  d.process = process;
  d.truncated = truncated;
  d.runSeconds = runSeconds;
  d.events.reserve(qsizetype(events.size()));
  for (const TimelineEvent& e : events) {
    TimelineItem item;
    item.node = e.node;
    item.thread = e.thread;
    item.iteration = e.iteration;
    item.startMs = e.start * 1e3;
    item.endMs = e.end * 1e3;
    const auto& [op, label] = names.at(e.node);
    item.op = op;
    item.label = label;
    d.events.push_back(std::move(item));
  }
  return d;
}

TimelineData timelineData(const RunResult& run, const Graph* graph, const QString& process) {
  return timelineSource(run, graph, process).expand();
}

TimingData timingOf(const QString& variant, ExecutorKind executor, const RunResult& run) {
  return {variant, executor, run.seconds};
}

}  // namespace gl::ui
