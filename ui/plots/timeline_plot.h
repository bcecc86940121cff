#pragma once
// A per-thread Gantt chart of op executions: thread on y, time on x (ms), one rectangle per
// timeline event; the ops that took the most time get colours, the rest one grey, so the legend
// stays a line or two; hovering shows op, iteration and duration.
#include <QHash>
#include <QRectF>

#include <optional>

#include "ui/plots/plot_data.h"
#include "ui/plots/plot_widget.h"

namespace gl::ui {

class TimelineLayer;  // the events of one op at one nesting depth: a colour, a legend entry

class TimelinePlot : public PlotWidget {
  Q_OBJECT
 public:
  explicit TimelinePlot(QWidget* parent = nullptr);

  // Takes the events at once; the drawn layers (nesting, self times, colours, legend) are built
  // when the plot is first shown or asked about: on a tab not in front, 200,000 events cost a
  // variant switch half a second for a picture nobody was looking at.
  void setTimeline(const TimelineData& data);
  // The same, expanded into TimelineData only when first shown or asked about.
  void setTimeline(TimelineSource source);
  const TimelineData& timeline() const { return data(); }
  // Events taken but not yet expanded or drawn (the plot is on a tab not in front).
  bool waitingToBeShown() const { return contentOwed() || pendingSource_.has_value(); }

  int rowCount() const { return data().threadCount(); }  // one row per thread
  int rectCount() const;                                 // drawn rectangles, one per event
  QStringList ops() const { return built().ops_; }       // by self time, the largest first
  // Ops beyond the first kColouredOps share the grey "other ops" colour and legend entry.
  static constexpr int kColouredOps = 8;
  bool isColoured(const QString& op) const;
  // Time spent in an op's events minus the time of the events nested inside them (ms).
  double selfMs(const QString& op) const { return built().selfMs_.value(op); }
  // The rectangle of event i in plot coordinates: x from start to end (ms), y around its thread,
  // a little lower for each enclosing event (a loop's body ops sit inside the loop's bar).
  QRectF eventRect(int i) const;
  // How many events on the same thread enclose event i (0 for top-level ops).
  int nestingDepth(int i) const { return built().depth_.value(i); }
  QColor colorOfOp(const QString& op) const;
  QColor otherColor() const;
  // The loop iteration the step controls point at: its events are outlined. -1 for none.
  qint64 highlightedIteration() const { return highlighted_; }
  int highlightedEventCount() const;
  bool isHighlighted(int event) const;
  // The event under `pixel` (widget coordinates), or -1.
  int eventAt(const QPointF& pixel) const;

  QString toCsv() const override;  // thread,op,node,label,iteration,start_ms,end_ms,duration_ms
  // The events as Chrome trace-event JSON (engine/lab/trace_json), for Perfetto.
  QByteArray toChromeTrace() const;
  bool exportChromeTrace(const QString& path, QString* error = nullptr) const;
  QString hoverText(const QPointF& pixel) const override;
  void fitView() override;  // all threads, the whole run

  static constexpr double kRowHalfHeight = 0.38;  // rows never touch: threads stay apart
  static constexpr double kNestInset = 0.07;      // per enclosing event
  static double halfHeightAt(int depth);
  static QString timelineTitle(const TimelineData& data);

 signals:
  void traceExportRequested();  // its context menu's "Export as Chrome Trace"

 protected:
  void applyPalette() override;
  void stepChanged(double t) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void buildContent() override;  // the layers: nesting, self times, colours, legend

 private:
  void computeDepths();
  const TimelinePlot& built() const { return static_cast<const TimelinePlot&>(withContent()); }
  const TimelineData& data() const;  // data_, expanded from pendingSource_ if that is newer

  TimelineData data_;
  QVector<int> depth_;  // per event
  QHash<QString, double> selfMs_;
  qint64 highlighted_ = -1;
  QStringList ops_;
  QVector<TimelineLayer*> layers_;
  std::optional<TimelineSource> pendingSource_;
};

}  // namespace gl::ui
