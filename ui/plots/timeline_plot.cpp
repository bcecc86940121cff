#include "ui/plots/timeline_plot.h"

#include <QContextMenuEvent>
#include <QFile>
#include <QMenu>
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "engine/lab/trace_json.h"

namespace gl::ui {

// Draws the events of one op at one nesting depth as rectangles. One plottable for thousands of
// events: a QCPItemRect per event would make every replot walk thousands of items. Layers are
// created outermost first, so a loop's bar is drawn before the ops of its body on top of it.
class TimelineLayer : public QCPAbstractPlottable {
 public:
  TimelineLayer(QCPAxis* time, QCPAxis* thread, const QString& op, const TimelinePlot* plot)
      : QCPAbstractPlottable(time, thread), op(op), plot_(plot) {
    setName(op);
    setSelectable(QCP::stWhole);
  }
  const QString op;     // the colour key; name() is the legend's text
  QVector<int> events;  // indices into the plot's TimelineData

  // Pixel rectangle, at least one pixel wide so that sub-pixel ops still show.
  QRectF pixelRect(int e) const {
    const QRectF r = plot_->eventRect(e);
    const double x1 = keyAxis()->coordToPixel(r.left()), x2 = keyAxis()->coordToPixel(r.right());
    const double y1 = valueAxis()->coordToPixel(r.top()),
                 y2 = valueAxis()->coordToPixel(r.bottom());
    QRectF px(QPointF(std::min(x1, x2), std::min(y1, y2)),
              QPointF(std::max(x1, x2), std::max(y1, y2)));
    if (px.width() < 1) px.setWidth(1);
    return px;
  }

  double selectTest(const QPointF& pos, bool onlySelectable, QVariant*) const override {
    if (onlySelectable && !selectable()) return -1;
    for (int e : events)
      if (pixelRect(e).contains(pos)) return parentPlot()->selectionTolerance() * 0.99;
    return -1;
  }

  QCPRange getKeyRange(bool& found, QCP::SignDomain) const override {
    return rangeOf(found, [&](int e, QCPRange& r) {
      r.expand(plot_->eventRect(e).left());
      r.expand(plot_->eventRect(e).right());
    });
  }

  QCPRange getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const override {
    return rangeOf(found, [&](int e, QCPRange& r) {
      r.expand(plot_->eventRect(e).top());
      r.expand(plot_->eventRect(e).bottom());
    });
  }

 protected:
  void draw(QCPPainter* painter) override {
    const QRectF clip = clipRect();
    painter->setPen(selected() ? QPen(mPen.color().darker(170), 2) : mPen);
    painter->setBrush(mBrush);
    QVector<QRectF> highlighted;
    for (int e : events) {
      const QRectF px = pixelRect(e);
      if (!px.intersects(clip)) continue;
      painter->drawRect(px);
      if (plot_->isHighlighted(e)) highlighted.push_back(px);
    }
    // The current step's events get the cursor colour around them, on top of their fill.
    painter->setPen(QPen(plot_->plotPalette().cursor, 2));
    painter->setBrush(Qt::NoBrush);
    for (const QRectF& px : highlighted) painter->drawRect(px);
  }

  void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override {
    painter->setPen(mPen);
    painter->setBrush(mBrush);
    painter->drawRect(rect.adjusted(1, rect.height() * 0.2, -1, -rect.height() * 0.2));
  }

 private:
  template <class Grow>
  QCPRange rangeOf(bool& found, Grow grow) const {
    found = !events.isEmpty();
    if (!found) return {};
    const QRectF first = plot_->eventRect(events[0]);
    QCPRange r(first.left(), first.left());
    for (int e : events) grow(e, r);
    return r;
  }

  const TimelinePlot* plot_;
};

TimelinePlot::TimelinePlot(QWidget* parent) : PlotWidget(parent) {
  setPlotTitle(tr("Timeline per thread"));
  setAxisLabels(tr("time (ms)"), tr("thread"));
  yAxis->setRangeReversed(true);  // thread 0 on top, like a Gantt chart
  yAxis->grid()->setVisible(false);
  // Zooming and panning time matters; threads stay put.
  axisRect()->setRangeDrag(Qt::Horizontal);
  axisRect()->setRangeZoom(Qt::Horizontal);
  // The legend goes under the plot, in rows: over the bars it would hide events.
  axisRect()->insetLayout()->take(legend);
  plotLayout()->addElement(plotLayout()->rowCount(), 0, legend);
  plotLayout()->setRowStretchFactor(plotLayout()->rowCount() - 1, 0.001);
  legend->setFillOrder(QCPLegend::foColumnsFirst);
  legend->setWrap(5);
  legend->setBorderPen(Qt::NoPen);
  legend->setVisible(true);
}

double TimelinePlot::halfHeightAt(int depth) {
  return std::max(0.12, kRowHalfHeight - kNestInset * depth);
}

// Events on one thread nest (a while contains its body's ops): a stack of open intervals, walked
// in start order, gives each event the number of events around it, and each op its self time
// (its events' time less that of the events directly inside them).
void TimelinePlot::computeDepths() {
  depth_.fill(0, data().events.size());
  selfMs_.clear();
  for (const auto& e : data().events) selfMs_[e.op] += e.durationMs();
  std::map<int, QVector<int>> byThread;
  for (int i = 0; i < data().events.size(); ++i) byThread[data().events[i].thread].push_back(i);
  for (auto& [thread, idx] : byThread) {
    std::sort(idx.begin(), idx.end(), [&](int a, int b) {
      const auto &ea = data().events[a], &eb = data().events[b];
      return ea.startMs != eb.startMs ? ea.startMs < eb.startMs : ea.endMs > eb.endMs;
    });
    QVector<int> open;  // enclosing events, innermost last
    for (int i : idx) {
      const TimelineItem& e = data().events[i];
      while (!open.isEmpty() && data().events[open.last()].endMs <= e.startMs) open.removeLast();
      depth_[i] = int(open.size());
      if (!open.isEmpty()) selfMs_[data().events[open.last()].op] -= e.durationMs();
      open.push_back(i);
    }
  }
}

// A timeline the engine cut short says how much of the run it shows (issue #30: the plot of a
// 3.43 s run showed its first 75 ms without a word).
QString TimelinePlot::timelineTitle(const TimelineData& data) {
  if (!data.truncated || data.events.isEmpty()) return tr("Timeline per thread");
  double first = data.events[0].startMs, last = data.events[0].endMs;
  for (const TimelineItem& e : data.events) {
    first = std::min(first, e.startMs);
    last = std::max(last, e.endMs);
  }
  // Cut at a limit of thousands of events: never one.
  return tr("Timeline per thread: the first %1 events only, %2 ms of a %3 ms run")
      .arg(data.events.size())
      .arg(QString::number(last - first, 'f', 1))
      .arg(QString::number(data.runSeconds * 1e3, 'f', 1));
}

void TimelinePlot::setTimeline(TimelineSource source) {
  if (!hiddenInShownWindow()) return setTimeline(source.expand());
  pendingSource_ = std::move(source);
  contentChanged();
}

const TimelineData& TimelinePlot::data() const {
  if (pendingSource_) {
    auto* self = const_cast<TimelinePlot*>(this);  // data_ is a cache of the source
    self->data_ = pendingSource_->expand();
    self->pendingSource_.reset();
  }
  return data_;
}

void TimelinePlot::setTimeline(const TimelineData& data) {
  data_ = data;
  pendingSource_.reset();
  contentChanged();
}

void TimelinePlot::buildContent() {
  computeDepths();
  for (TimelineLayer* layer : layers_) removePlottable(layer);
  layers_.clear();
  ops_.clear();
  ops_ = selfMs_.keys();
  // The largest self time first (ties by name, so equal runs colour alike): the colours go
  // where the time went.
  std::sort(ops_.begin(), ops_.end(), [&](const QString& a, const QString& b) {
    const double ta = selfMs_.value(a), tb = selfMs_.value(b);
    return ta != tb ? ta > tb : a < b;
  });
  double total = 0;
  for (double t : selfMs_) total += std::max(0.0, t);
  // "<1%" rather than a "0%" that reads as "never ran".
  auto share = [&](double ms) {
    if (!(total > 0)) return QString();
    const long percent = std::lround(100 * std::max(0.0, ms) / total);
    return percent < 1 ? QStringLiteral(" <1%") : QStringLiteral(" %1%").arg(percent);
  };
  double otherMs = 0;
  for (int i = kColouredOps; i < ops_.size(); ++i) otherMs += selfMs_.value(ops_[i]);

  // One layer per (depth, op), created outermost first: creation order is drawing order.
  std::map<std::pair<int, QString>, QVector<int>> groups;
  for (int i = 0; i < data().events.size(); ++i)
    groups[{depth_[i], data().events[i].op}].push_back(i);
  legend->clearItems();
  QSet<QString> inLegend;
  for (auto& [key, events] : groups) {
    auto* layer = new TimelineLayer(xAxis, yAxis, key.second, this);
    layer->events = std::move(events);
    layer->removeFromLegend();
    layers_.push_back(layer);
  }
  // The legend: one entry per coloured op with its share of the time, then one for the rest.
  const QString otherName =
      tr("%n other op(s)", nullptr, int(ops_.size()) - kColouredOps) + share(otherMs);
  for (TimelineLayer* layer : layers_)
    layer->setName(isColoured(layer->op) ? layer->op + share(selfMs_.value(layer->op)) : otherName);
  for (int i = 0; i < std::min<int>(int(ops_.size()), kColouredOps + 1); ++i)
    for (TimelineLayer* layer : layers_)
      if (i < kColouredOps ? layer->op == ops_[i] : !isColoured(layer->op)) {
        layer->addToLegend();
        break;
      }

  setPlotTitle(timelineTitle(data()));
  const int rows = std::max(1, data().threadCount());
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (int t = 0; t < rows; ++t) ticker->addTick(t, tr("thread %1").arg(t));
  yAxis->setTicker(ticker);
  fitView();
  applyPalette();
  replotWhenShown();
}

void TimelinePlot::fitView() {
  yAxis->setRange(-0.6, std::max(1, data().threadCount()) - 0.4);
  double first = 0, last = 1;
  if (!data().events.isEmpty()) {
    first = data().events[0].startMs;
    last = data().events[0].endMs;
    for (const auto& e : data().events) {
      first = std::min(first, e.startMs);
      last = std::max(last, e.endMs);
    }
  }
  const double pad = std::max(1e-6, (last - first) * 0.02);
  xAxis->setRange(first - pad, last + pad);
}

void TimelinePlot::stepChanged(double t) { highlighted_ = qint64(std::llround(t)); }

bool TimelinePlot::isHighlighted(int event) const {
  return highlighted_ >= 0 && data().events[event].iteration == highlighted_;
}

int TimelinePlot::highlightedEventCount() const {
  int n = 0;
  for (int i = 0; i < data().events.size(); ++i) n += isHighlighted(i) ? 1 : 0;
  return n;
}

int TimelinePlot::rectCount() const {
  int n = 0;
  for (const TimelineLayer* layer : built().layers_) n += int(layer->events.size());
  return n;
}

QRectF TimelinePlot::eventRect(int i) const {
  const TimelineItem& it = data().events.at(i);
  const double half = halfHeightAt(built().depth_.value(i));
  return QRectF(QPointF(it.startMs, it.thread - half), QPointF(it.endMs, it.thread + half));
}

bool TimelinePlot::isColoured(const QString& op) const {
  const qsizetype i = built().ops_.indexOf(op);
  return i >= 0 && i < kColouredOps;
}

QColor TimelinePlot::otherColor() const {
  return darkMode() ? QColor(105, 108, 115) : QColor(190, 190, 190);
}

QColor TimelinePlot::colorOfOp(const QString& op) const {
  const qsizetype i = built().ops_.indexOf(op);
  if (i < 0) return {};
  return i < kColouredOps ? plotPalette().seriesColor(int(i)) : otherColor();
}

void TimelinePlot::applyPalette() {
  for (TimelineLayer* layer : layers_) {
    const QColor c = colorOfOp(layer->op);
    layer->setPen(QPen(c.darker(140), 0.5));
    layer->setBrush(c);
  }
  legend->setBorderPen(Qt::NoPen);  // it sits under the plot, not over the data
}

// The innermost event under the mouse: the op, not the loop around it.
int TimelinePlot::eventAt(const QPointF& pixel) const {
  int best = -1;
  for (const TimelineLayer* layer : built().layers_)
    for (int e : layer->events)
      if (layer->pixelRect(e).contains(pixel) && (best < 0 || depth_[e] > depth_[best])) best = e;
  return best;
}

QString TimelinePlot::hoverText(const QPointF& pixel) const {
  const int e = eventAt(pixel);
  if (e < 0) return {};
  const TimelineItem& it = data().events[e];
  QString text = it.label;
  if (it.iteration >= 0) text += tr("\niteration %1").arg(it.iteration);
  text += tr("\n%1 ms on thread %2").arg(QString::number(it.durationMs(), 'g', 4)).arg(it.thread);
  return text;
}

QString TimelinePlot::toCsv() const {
  QString csv = QStringLiteral("thread,op,node,label,iteration,start_ms,end_ms,duration_ms\n");
  for (const auto& e : data().events)
    csv += QString::number(e.thread) + QLatin1Char(',') + csvField(e.op) + QLatin1Char(',') +
           QString::number(e.node) + QLatin1Char(',') + csvField(e.label) + QLatin1Char(',') +
           QString::number(e.iteration) + QLatin1Char(',') + csvNumber(e.startMs) +
           QLatin1Char(',') + csvNumber(e.endMs) + QLatin1Char(',') + csvNumber(e.durationMs()) +
           QLatin1Char('\n');
  return csv;
}

}  // namespace gl::ui

namespace gl::ui {

QByteArray TimelinePlot::toChromeTrace() const {
  std::vector<TimelineEvent> events;
  events.reserve(size_t(data().events.size()));
  std::map<int, lab::TraceNodeNames> names;
  for (const TimelineItem& e : data().events) {
    events.push_back({e.node, e.iteration, e.thread, e.startMs * 1e-3, e.endMs * 1e-3});
    names.emplace(e.node, lab::TraceNodeNames{e.op.toStdString(), e.label.toStdString()});
  }
  const std::string process = data().process.isEmpty() ? "gradlab" : data().process.toStdString();
  return QByteArray::fromStdString(
      lab::chromeTraceJson({{process, &events}}, [&](int node) { return names.at(node); }));
}

bool TimelinePlot::exportChromeTrace(const QString& path, QString* error) const {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(toChromeTrace()) < 0) {
    if (error) *error = file.errorString();
    return false;
  }
  return true;
}

void TimelinePlot::contextMenuEvent(QContextMenuEvent* event) {
  QMenu menu(this);
  QAction* trace = menu.addAction(tr("Export as Chrome Trace (Perfetto)…"));
  trace->setEnabled(!data().events.isEmpty());
  if (menu.exec(event->globalPos()) == trace) emit traceExportRequested();
}

}  // namespace gl::ui
