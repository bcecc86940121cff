#pragma once
// Plain data the plots draw, and the adapters that read it out of engine results. The plots never
// compute engine numbers: they only show what these structs hold, so tests can compare them
// directly with the RunResult they came from.
#include <QString>
#include <QVector>

#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/exec/run.h"
#include "engine/graph/graph.h"

namespace gl::ui {

// One line: y over x (e.g. the gradient norm of one loop variable per step).
struct SeriesData {
  QString name;
  QVector<double> x, y;
};

// A row-major matrix shown as a heat map. The labels say what is plotted: the gradient's
// name in the script and its shape (heatMapFromTensor), never one lesson's wording.
struct HeatMapData {
  int rows = 0, cols = 0;
  QVector<double> values;  // rows * cols, row-major
  QString title = QStringLiteral("Gradient matrix");
  QString rowLabel = QStringLiteral("row");
  QString colLabel = QStringLiteral("column");
  QString valueLabel = QStringLiteral("value");
  double at(int row, int col) const { return values.at(row * cols + col); }
};

// One bar: how long one variant took on one executor (the one its run recorded).
struct TimingData {
  QString variant;
  ExecutorKind executor = ExecutorKind::Serial;
  double seconds = 0;
};

// Time against a swept script param, one curve per variant.
struct ScalingSeries {
  QString variant;
  QVector<double> x, seconds;
};
struct ScalingData {
  QString param;  // the swept param, e.g. "N" or "steps"
  QVector<ScalingSeries> series;
  // Appends one measurement, creating the variant's curve on first use.
  void add(const QString& variant, double x, double seconds);
};

// One op execution on one thread, with what the hover text says about it.
struct TimelineItem {
  int node = -1;
  QString op;     // colour key: events of the same op share a colour
  QString label;  // "mul#12 'y'"
  int thread = 0;
  qint64 iteration = -1;
  double startMs = 0, endMs = 0;
  double durationMs() const { return endMs - startMs; }
};
struct TimelineData {
  QString process;  // what ran: the variant's name
  QVector<TimelineItem> events;
  // The engine kept only the first RunOptions::timelineLimit events: the plot shows the start of
  // a run that took runSeconds, and must say so.
  bool truncated = false;
  double runSeconds = 0;
  int threadCount() const;  // highest thread index + 1
};

// A user-facing name for loop variable i of a while node: the name of its initial value if it
// has one, else "var i".
QString loopVariableName(const Graph* graph, int loopNode, int i);

// The L2 norm of the adjoint of loop variable i at every recorded step t (x = t). Steps the
// reverse pass did not record are left out. Empty when no gradient ran.
SeriesData gradientNormSeries(const LoopRecord& loop, int variable, const QString& name);
// One series per floating loop variable that has adjoints (counters have none).
QVector<SeriesData> gradientNormSeries(const LoopRecord& loop, const Graph* graph = nullptr);
// The L2 norm of the value of loop variable i at the start of each step.
SeriesData valueNormSeries(const LoopRecord& loop, int variable, const QString& name);

// A rank-2 tensor [rows, cols] (e.g. the jacobian d x_t / d w_k, [T, T]) as heat map data.
// Other ranks are flattened to one row. `name` is the script's name of the value ("dx_dw"):
// the title reads "dx_dw  [6, 6]", the colour scale "dx_dw".
HeatMapData heatMapFromTensor(const Tensor& matrix, const QString& name = {});

// A run's timeline events as the engine recorded them, with the names of their nodes: taken in
// a few ms (one copy of the events), expanded into TimelineData only when a plot needs it.
struct TimelineSource {
  QString process;
  bool truncated = false;
  double runSeconds = 0;
  std::vector<TimelineEvent> events;
  std::unordered_map<int, std::pair<QString, QString>> names;  // node -> op, label
  TimelineData expand() const;
};
TimelineSource timelineSource(const RunResult& run, const Graph* graph = nullptr,
                              const QString& process = {});

// The timeline events of a run, in milliseconds, labelled with the graph's node labels.
TimelineData timelineData(const RunResult& run, const Graph* graph = nullptr,
                          const QString& process = {});

TimingData timingOf(const QString& variant, ExecutorKind executor, const RunResult& run);

}  // namespace gl::ui
