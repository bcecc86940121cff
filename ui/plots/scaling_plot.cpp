#include "ui/plots/scaling_plot.h"

#include <QPushButton>
#include <cmath>

namespace gl::ui {

namespace {

const QCPScatterStyle::ScatterShape kShapes[] = {
    QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
    QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross};

}  // namespace

ScalingPlot::ScalingPlot(QWidget* parent) : PlotWidget(parent) {
  setPlotTitle(tr("Scaling"));
  setAxisLabels(tr("param"), tr("seconds"));
  legend->setVisible(true);
  axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
  sweepButton_ = new QPushButton(tr("Sweep a param…"), this);
  sweepButton_->setToolTip(
      tr("Run the lesson at several values of one param and plot the time against it (Run > "
         "Sweep)"));
  connect(sweepButton_, &QPushButton::clicked, this, &ScalingPlot::sweepRequested);
  placeSweepButton();
}

void ScalingPlot::resizeEvent(QResizeEvent* event) {
  PlotWidget::resizeEvent(event);
  placeSweepButton();
}

// Shown until a sweep starts (a started sweep names its param before its first point comes).
void ScalingPlot::placeSweepButton() {
  sweepButton_->setVisible(data_.series.isEmpty() && data_.param.isEmpty());
  sweepButton_->adjustSize();
  const QSize s = sweepButton_->size();
  sweepButton_->move((width() - s.width()) / 2, (height() - s.height()) / 2);
}

void ScalingPlot::setScaling(const ScalingData& data) {
  data_ = data;
  placeSweepButton();
  clearGraphs();
  for (const auto& s : data_.series) addGraph()->setName(s.variant);
  xAxis->setLabel(data_.param.isEmpty() ? tr("param") : data_.param);
  reloadForScale();
  applyPalette();
  fitView();
  replotWhenShown();
}

void ScalingPlot::setLogX(bool on) {
  logX_ = on;
  setAxisLogScale(xAxis, on);
  reloadForScale();
  fitView();
  replotWhenShown();
}

void ScalingPlot::reloadForScale() {
  for (int i = 0; i < graphCount() && i < data_.series.size(); ++i) {
    const ScalingSeries& s = data_.series[i];
    // A log x axis cannot place x <= 0: such points become gaps, like y <= 0 on a log y axis.
    QVector<double> y = logY() ? positiveOrNaN(s.seconds) : s.seconds;
    if (logX_)
      for (int j = 0; j < s.x.size(); ++j)
        if (s.x[j] <= 0) y[j] = std::nan("");
    graph(i)->setData(s.x, y);  // sorts by x: sweeps may arrive out of order
  }
}

void ScalingPlot::applyPalette() {
  for (int i = 0; i < graphCount(); ++i) {
    const QColor c = plotPalette().seriesColor(i);
    graph(i)->setPen(QPen(c, 2));
    graph(i)->setScatterStyle(
        QCPScatterStyle(kShapes[i % std::size(kShapes)], c, plotPalette().background, 7));
  }
}

QString ScalingPlot::hoverText(const QPointF& pixel) const {
  return nearestGraphPointText(pixel, xAxis->label(), tr("seconds"));
}

QString ScalingPlot::toCsv() const {
  QString csv = QStringLiteral("variant,%1,seconds\n")
                    .arg(csvField(data_.param.isEmpty() ? QStringLiteral("param") : data_.param));
  for (const auto& s : data_.series)
    for (int i = 0; i < s.x.size(); ++i)
      csv += csvField(s.variant) + QLatin1Char(',') + csvNumber(s.x[i]) + QLatin1Char(',') +
             csvNumber(s.seconds[i]) + QLatin1Char('\n');
  return csv;
}

}  // namespace gl::ui
