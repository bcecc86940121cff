#include "ui/plots/timing_bars_plot.h"

#include <algorithm>

#include "ui/i18n/diagnostic_text.h"

namespace gl::ui {

namespace {
constexpr double kGroupWidth = 0.8;  // of one category slot
constexpr double kBarSpacing = 0.02;
}  // namespace

TimingBarsPlot::TimingBarsPlot(QWidget* parent) : PlotWidget(parent) {
  setPlotTitle(tr("Time per variant"));
  setAxisLabels(tr("variant"), tr("seconds"));
  // The legend goes in its own row under the plot: inside the axis rect it covered the
  // tallest bar.
  axisRect()->insetLayout()->take(legend);
  plotLayout()->addElement(plotLayout()->rowCount(), 0, legend);
  plotLayout()->setRowStretchFactor(plotLayout()->rowCount() - 1, 0.001);
  legend->setFillOrder(QCPLegend::foColumnsFirst);
  legend->setWrap(4);
  legend->setVisible(true);
  group_ = new QCPBarsGroup(this);
  // Spacing in plot coordinates, so a bar's centre (where its label goes) is known without a
  // layout.
  group_->setSpacingType(QCPBarsGroup::stPlotCoords);
  group_->setSpacing(kBarSpacing);
  xAxis->grid()->setVisible(false);  // categories, not a continuous axis
}

void TimingBarsPlot::setTimings(const QVector<TimingData>& timings,
                                const QStringList& scriptOrder) {
  timings_ = timings;
  variants_.clear();
  executors_.clear();
  for (const QString& v : scriptOrder)
    if (!variants_.contains(v) && std::any_of(timings_.begin(), timings_.end(),
                                              [&](const auto& t) { return t.variant == v; }))
      variants_.push_back(v);
  for (const auto& t : timings_) {
    if (!variants_.contains(t.variant)) variants_.push_back(t.variant);
    if (!executors_.contains(t.executor)) executors_.push_back(t.executor);
  }
  for (QCPBars* b : bars_) removePlottable(b);
  bars_.clear();
  group_->clear();

  const double n = double(std::max<qsizetype>(1, executors_.size()));
  const double barWidth = (kGroupWidth - (n - 1) * kBarSpacing) / n;
  for (ExecutorKind executor : executors_) {
    auto* bars = new QCPBars(xAxis, yAxis);
    bars->setName(executorLabel(executor));
    bars->setWidth(barWidth);
    bars->setBarsGroup(group_);
    QVector<double> keys, values;
    for (const auto& t : timings_)
      if (t.executor == executor) {
        keys.push_back(variants_.indexOf(t.variant));
        values.push_back(t.seconds);
      }
    bars->setData(keys, values);
    bars_.push_back(bars);
  }

  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (int i = 0; i < variants_.size(); ++i) ticker->addTick(i, variants_[i]);
  xAxis->setTicker(ticker);
  fitView();
  labelBars();
  applyPalette();
  replotWhenShown();
}

// Each bar carries its time as text: the point of the plot is reading the ratio off it.
void TimingBarsPlot::labelBars() {
  for (QCPItemText* label : valueLabels_) removeItem(label);
  valueLabels_.clear();
  const double n = double(bars_.size());
  for (int b = 0; b < bars_.size(); ++b) {
    const QCPBars* bars = bars_[b];
    // Bars of a group sit side by side, centred on the category.
    const double offset = (b - (n - 1) / 2) * (bars->width() + kBarSpacing);
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
      auto* label = new QCPItemText(this);
      label->setClipToAxisRect(true);
      label->setSelectable(false);
      label->position->setCoords(it->key + offset, it->value);
      label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
      label->setText(QString::number(it->value, 'g', 3));
      valueLabels_.push_back(label);
    }
  }
}

void TimingBarsPlot::fitView() {
  xAxis->setRange(-0.6, double(std::max<qsizetype>(1, variants_.size())) - 0.4);
  double highest = 0;
  for (const auto& t : timings_) highest = std::max(highest, t.seconds);
  yAxis->setRange(0, highest > 0 ? highest * 1.15 : 1.0);  // headroom for the value labels
}

QCPBars* TimingBarsPlot::barsFor(ExecutorKind executor) const {
  const qsizetype i = executors_.indexOf(executor);
  return i >= 0 ? bars_[i] : nullptr;
}

void TimingBarsPlot::applyPalette() {
  for (int i = 0; i < bars_.size(); ++i) {
    const QColor c = plotPalette().seriesColor(i);
    bars_[i]->setPen(QPen(c.darker(130)));
    bars_[i]->setBrush(c);
  }
  for (QCPItemText* label : valueLabels_) label->setColor(plotPalette().foreground);
  legend->setBorderPen(Qt::NoPen);  // it sits under the plot, not over the data
}

QString TimingBarsPlot::hoverText(const QPointF& pixel) const {
  for (const QCPBars* bars : bars_) {
    // QCPBars hit-tests its own drawn rectangles (group offset included); -1 means a miss.
    QVariant details;
    if (bars->selectTest(pixel, false, &details) < 0) continue;
    const QCPDataSelection sel = details.value<QCPDataSelection>();
    if (sel.isEmpty()) continue;
    const auto hit = bars->data()->at(sel.dataRange().begin());
    return QStringLiteral("%1, %2\n%3 s")
        .arg(variants_.value(int(hit->key)), bars->name(), QString::number(hit->value, 'g', 6));
  }
  return {};
}

QString TimingBarsPlot::toCsv() const {
  QString csv = QStringLiteral("variant,executor,seconds\n");
  for (const auto& t : timings_)
    csv += csvField(t.variant) + QLatin1Char(',') + QLatin1String(executorName(t.executor)) +
           QLatin1Char(',') + csvNumber(t.seconds) + QLatin1Char('\n');
  return csv;
}

}  // namespace gl::ui
