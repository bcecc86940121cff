#include "ui/plots/heat_map_plot.h"

#include <algorithm>
#include <cmath>

namespace gl::ui {

namespace {

// A perceptually ordered dark-blue -> teal -> yellow ramp (viridis-like), so equal steps in value
// look like equal steps in colour and zero cells read as "dark", not as a hue.
QCPColorGradient sequentialGradient() {
  QCPColorGradient g;
  g.clearColorStops();
  g.setColorStopAt(0.00, QColor(68, 1, 84));
  g.setColorStopAt(0.25, QColor(59, 82, 139));
  g.setColorStopAt(0.50, QColor(33, 145, 140));
  g.setColorStopAt(0.75, QColor(94, 201, 98));
  g.setColorStopAt(1.00, QColor(253, 231, 37));
  g.setColorInterpolation(QCPColorGradient::ciRGB);
  g.setLevelCount(256);
  return g;
}

}  // namespace

HeatMapPlot::HeatMapPlot(QWidget* parent) : PlotWidget(parent) {
  setPlotTitle(tr("Gradient matrix"));
  setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);  // a colour map has nothing to select
  map_ = new QCPColorMap(xAxis, yAxis);
  scale_ = new QCPColorScale(this);
  // The colour scale sits right of the axis rect, in the same layout row.
  plotLayout()->addElement(plotLayout()->rowCount() - 1, 1, scale_);
  scale_->setType(QCPAxis::atRight);
  map_->setColorScale(scale_);
  map_->setGradient(sequentialGradient());
  map_->setInterpolate(false);  // one flat colour per cell: cells are matrix entries
  // Keep the colour scale as tall as the plot area.
  auto* margins = new QCPMarginGroup(this);
  axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  scale_->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  yAxis->setRangeReversed(true);  // row 0 on top, as the matrix is written
  styleAxis(scale_->axis());
  setData(HeatMapData{});
}

void HeatMapPlot::setData(const HeatMapData& data) {
  data_ = data;
  contentChanged();
}

void HeatMapPlot::buildContent() {
  const int cols = std::max(1, data_.cols), rows = std::max(1, data_.rows);
  // Cell centres at integer coordinates: cell (t, k) is drawn around x = k, y = t.
  map_->data()->setSize(cols, rows);
  map_->data()->setRange(QCPRange(0, cols - 1), QCPRange(0, rows - 1));
  map_->data()->fill(0);
  for (int r = 0; r < data_.rows; ++r)
    for (int c = 0; c < data_.cols; ++c) map_->data()->setCell(c, r, data_.at(r, c));
  map_->setName(data_.valueLabel);
  setPlotTitle(data_.title);
  setAxisLabels(data_.colLabel, data_.rowLabel);
  scale_->axis()->setLabel(data_.valueLabel);
  map_->rescaleDataRange(true);
  fitView();
  // Integer ticks: steps and weight indices are whole numbers.
  for (QCPAxis* axis : {xAxis, yAxis}) {
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    axis->setTicker(ticker);
  }
  applyPalette();
  replotWhenShown();
}

void HeatMapPlot::fitView() {
  xAxis->setRange(-0.5, std::max(1, data_.cols) - 0.5);
  yAxis->setRange(-0.5, std::max(1, data_.rows) - 0.5);
}

double HeatMapPlot::cellValue(int row, int col) const {
  return filled().map_->data()->cell(col, row);
}

void HeatMapPlot::applyPalette() {
  QCPAxis* axis = scale_->axis();
  const PlotPalette& p = plotPalette();
  axis->setBasePen(QPen(p.foreground));
  axis->setTickPen(QPen(p.foreground));
  axis->setSubTickPen(QPen(p.foreground));
  axis->setTickLabelColor(p.foreground);
  axis->setLabelColor(p.foreground);
  // Grid lines would cut through cells; the matrix needs none.
  xAxis->grid()->setVisible(false);
  yAxis->grid()->setVisible(false);
}

QString HeatMapPlot::hoverText(const QPointF& pixel) const {
  const int col = int(std::lround(xAxis->pixelToCoord(pixel.x())));
  const int row = int(std::lround(yAxis->pixelToCoord(pixel.y())));
  if (row < 0 || col < 0 || row >= data_.rows || col >= data_.cols) return {};
  return QStringLiteral("%1 = %2\n%3: %4\n%5: %6")
      .arg(data_.valueLabel, QString::number(data_.at(row, col), 'g', 6), data_.rowLabel)
      .arg(row)
      .arg(data_.colLabel)
      .arg(col);
}

QString HeatMapPlot::toCsv() const {
  QString csv = QStringLiteral("row,col,value\n");
  for (int r = 0; r < data_.rows; ++r)
    for (int c = 0; c < data_.cols; ++c)
      csv += QString::number(r) + QLatin1Char(',') + QString::number(c) + QLatin1Char(',') +
             csvNumber(data_.at(r, c)) + QLatin1Char('\n');
  return csv;
}

}  // namespace gl::ui
