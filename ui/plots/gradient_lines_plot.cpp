#include "ui/plots/gradient_lines_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gl::ui {

GradientLinesPlot::GradientLinesPlot(QWidget* parent) : PlotWidget(parent) {
  setPlotTitle(tr("Gradient norm per step"));
  setAxisLabels(tr("step t (iteration)"), tr("‖gradient‖₂ (L2 norm)"));
  legend->setVisible(true);
  // Adjoints of a stable loop are largest at the last step (right): keep the legend left.
  axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
  // Steps are whole numbers: no tick at step 2.5.
  auto steps = QSharedPointer<QCPAxisTickerFixed>::create();
  steps->setTickStep(1.0);
  steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  xAxis->setTicker(steps);
}

void GradientLinesPlot::setValueLabel(const QString& label) {
  yAxis->setLabel(label);
  replotWhenShown();
}

namespace {

// More than `decades` powers of ten between the smallest positive value and the largest: a
// linear axis shows a flat line and then a spike (the ODE adjoint spans 1e-10..7).
bool spansDecades(const QVector<SeriesData>& series, double decades) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (const auto& s : series)
    for (double y : s.y)
      if (y > 0 && std::isfinite(y)) {
        lo = std::min(lo, y);
        hi = std::max(hi, y);
      }
  return hi > 0 && hi / lo > std::pow(10.0, decades);
}

}  // namespace

void GradientLinesPlot::setSeries(const QVector<SeriesData>& series) {
  series_ = series;
  clearGraphs();
  for (const auto& s : series_) {
    QCPGraph* g = addGraph();
    g->setName(s.name);
  }
  // Log y when the values span more than three decades, unless the user chose.
  const bool wide = spansDecades(series_, 3);
  if (!userLogY() && wide != logY()) setLogY(wide);
  reloadForScale();
  applyPalette();
  fitView();
  replotWhenShown();
}

void GradientLinesPlot::reloadForScale() {
  for (int i = 0; i < graphCount() && i < series_.size(); ++i)
    graph(i)->setData(series_[i].x, logY() ? positiveOrNaN(series_[i].y) : series_[i].y, true);
}

void GradientLinesPlot::applyPalette() {
  for (int i = 0; i < graphCount(); ++i) {
    const QColor c = plotPalette().seriesColor(i);
    graph(i)->setPen(QPen(c, 2));
    // Markers only while the points are few enough to tell apart.
    const bool fewPoints = i < series_.size() && series_[i].x.size() <= 60;
    graph(i)->setScatterStyle(fewPoints ? QCPScatterStyle(QCPScatterStyle::ssCircle, c, c, 5)
                                        : QCPScatterStyle());
  }
}

QString GradientLinesPlot::hoverText(const QPointF& pixel) const {
  return nearestGraphPointText(pixel, tr("step"), tr("norm"));
}

QString GradientLinesPlot::toCsv() const {
  QString csv = QStringLiteral("series,step,value\n");
  for (const auto& s : series_)
    for (int i = 0; i < s.x.size(); ++i)
      csv += csvField(s.name) + QLatin1Char(',') + csvNumber(s.x[i]) + QLatin1Char(',') +
             csvNumber(s.y[i]) + QLatin1Char('\n');
  return csv;
}

}  // namespace gl::ui
