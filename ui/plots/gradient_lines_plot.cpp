#include "ui/plots/gradient_lines_plot.h"

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
  replot(QCustomPlot::rpQueuedReplot);
}

void GradientLinesPlot::setSeries(const QVector<SeriesData>& series) {
  series_ = series;
  clearGraphs();
  for (const auto& s : series_) {
    QCPGraph* g = addGraph();
    g->setName(s.name);
  }
  reloadForScale();
  applyPalette();
  fitView();
  replot(QCustomPlot::rpQueuedReplot);
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
