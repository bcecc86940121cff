#include "ui/plots/plot_widget.h"

#include <QToolTip>
#include <cmath>
#include <limits>

namespace gl::ui {

PlotPalette PlotPalette::light() {
  PlotPalette p;
  p.background = QColor(255, 255, 255);
  p.foreground = QColor(34, 34, 34);
  p.grid = QColor(215, 215, 215);
  p.subGrid = QColor(238, 238, 238);
  p.legendBackground = QColor(255, 255, 255, 220);
  p.cursor = QColor(214, 39, 40);
  // Tableau-style categorical colours: distinct in hue and lightness, fine on white.
  p.series = {QColor(78, 121, 167),  QColor(242, 142, 43),  QColor(225, 87, 89),
              QColor(118, 183, 178), QColor(89, 161, 79),   QColor(237, 201, 72),
              QColor(176, 122, 161), QColor(255, 157, 167), QColor(156, 117, 95),
              QColor(186, 176, 172)};
  return p;
}

PlotPalette PlotPalette::dark() {
  PlotPalette p = light();
  p.background = QColor(30, 31, 34);
  p.foreground = QColor(220, 220, 220);
  p.grid = QColor(70, 72, 78);
  p.subGrid = QColor(48, 50, 54);
  p.legendBackground = QColor(30, 31, 34, 220);
  p.cursor = QColor(255, 99, 71);
  // The same hues, lifted so that thin lines stay visible on a dark background.
  for (QColor& c : p.series) c = c.lighter(125);
  return p;
}

PlotWidget::PlotWidget(QWidget* parent) : QCustomPlot(parent) {
  setInteractions(QCP::iRangeDrag | QCP::iRangeZoom | QCP::iSelectPlottables);
  setAntialiasedElements(QCP::aeAll);
  setMouseTracking(true);  // hover tooltips without a pressed button
  setMinimumSize(320, 220);
  legend->setVisible(false);
  axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
  for (QCPAxis* axis : {xAxis, yAxis, xAxis2, yAxis2}) styleAxis(axis);
  applyBasePalette();
  connect(this, &QCustomPlot::beforeReplot, this, &PlotWidget::fitYLabel);
}

// A y label longer than the axis is tall is cut off at both ends: a short plot, or projector
// mode's bigger fonts ("||gradient||2 (L2 norm)" at 16 pt on a 200 px plot). It then goes on
// two lines, broken at the space nearest its middle. The axis rect's height is the last
// layout's; replot() lays out again after this, with the new label.
void PlotWidget::fitYLabel() {
  const QString current = yAxis->label();
  QString full = current;
  full.replace(QLatin1Char('\n'), QLatin1Char(' '));
  const int room = axisRect()->height();
  QString wanted = full;
  if (room > 0 && QFontMetrics(yAxis->labelFont()).horizontalAdvance(full) > room) {
    const qsizetype middle = full.size() / 2;
    const qsizetype before = full.lastIndexOf(QLatin1Char(' '), middle);
    const qsizetype after = full.indexOf(QLatin1Char(' '), middle);
    const qsizetype at = before < 0                          ? after
                         : after < 0                         ? before
                         : middle - before <= after - middle ? before
                                                             : after;
    if (at > 0) wanted[at] = QLatin1Char('\n');
  }
  if (wanted != current) yAxis->setLabel(wanted);
}

void PlotWidget::setPlotTitle(const QString& title) {
  if (!title_) {
    plotLayout()->insertRow(0);
    title_ = new QCPTextElement(this, title, QFont(font().family(), 11, QFont::Bold));
    plotLayout()->addElement(0, 0, title_);
  }
  title_->setText(title);
  title_->setTextColor(palette_.foreground);
}

QString PlotWidget::plotTitle() const { return title_ ? title_->text() : QString(); }

// A step moves the cursor of every plot (10 steps a second under Play). A plot on a tab not
// shown replots when it is shown (the timeline at seed size took 0.3 s per step hidden); a
// shown plot whose only change is the cursor repaints the cursor's layer, not its data.
void PlotWidget::setStepCursor(double t) {
  cursorStep_ = t;
  stepChanged(t);
  if (!hasStepAxis()) {
    replotWhenShown();
    return;
  }
  const bool created = !cursorLine_;
  if (created) {
    cursorLine_ = new QCPItemStraightLine(this);
    cursorLine_->setSelectable(false);
    cursorLine_->setLayer(QStringLiteral("overlay"));
    applyBasePalette();
  }
  const bool wasVisible = cursorLine_->visible();
  cursorLine_->setVisible(true);
  placeStepCursor();
  if (created || !wasVisible || stepRedrawsData() || !isVisible())
    replotWhenShown();
  else
    cursorLine_->layer()->replot();
}

bool PlotWidget::hiddenInShownWindow() const {
  return !isVisible() && window() != this && window()->isVisible();
}

void PlotWidget::replotWhenShown() {
  if (hiddenInShownWindow()) {
    replotPending_ = true;
    return;
  }
  replot(QCustomPlot::rpQueuedReplot);
}

void PlotWidget::contentChanged() {
  contentOwed_ = true;
  if (hiddenInShownWindow()) return replotWhenShown();
  contentOwed_ = false;
  buildContent();
}

const PlotWidget& PlotWidget::withContent() const {
  if (contentOwed_) {
    auto* self = const_cast<PlotWidget*>(this);  // the content is a cache of the data
    self->contentOwed_ = false;
    self->buildContent();
  }
  return *this;
}

void PlotWidget::showEvent(QShowEvent* event) {
  if (contentOwed_) {
    contentOwed_ = false;
    buildContent();
  }
  QCustomPlot::showEvent(event);
  if (replotPending_) {
    replotPending_ = false;
    replot(QCustomPlot::rpQueuedReplot);
  }
}

void PlotWidget::clearStepCursor() {
  if (cursorLine_) cursorLine_->setVisible(false);
  replot(QCustomPlot::rpQueuedReplot);
}

bool PlotWidget::stepCursorVisible() const { return cursorLine_ && cursorLine_->visible(); }

void PlotWidget::placeStepCursor() {
  // A straight line through two points in plot coordinates: it spans the axis rect at any zoom.
  if (stepAxisOrientation() == Qt::Vertical) {
    cursorLine_->point1->setCoords(cursorStep_, 0);
    cursorLine_->point2->setCoords(cursorStep_, 1);
  } else {
    cursorLine_->point1->setCoords(0, cursorStep_);
    cursorLine_->point2->setCoords(1, cursorStep_);
  }
}

void PlotWidget::setLogY(bool on) {
  if (!supportsLogY()) return;
  const bool changed = on != logY_;
  logY_ = on;
  setAxisLogScale(yAxis, on);
  reloadForScale();
  fitView();
  replot(QCustomPlot::rpQueuedReplot);
  if (changed) emit logYChanged(on);
}

void PlotWidget::setUserLogY(bool on) {
  userLogY_ = on;
  setLogY(on);
}

void PlotWidget::setAxisLogScale(QCPAxis* axis, bool on) {
  axis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  if (on) {
    axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    // "eb" with no decimals: every decade reads 10^n (10⁻⁶ ... 10⁰ ... 10²). "gb" mixed
    // 0.0001 and 10⁻⁶ on one axis.
    axis->setNumberFormat(QStringLiteral("eb"));
    axis->setNumberPrecision(0);
  } else {
    axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    axis->setNumberFormat(QStringLiteral("g"));
    axis->setNumberPrecision(6);
  }
}

void PlotWidget::fitView() {
  rescaleAxes();
  for (QCPAxis* axis : {xAxis, yAxis}) {
    QCPRange r = axis->range();
    if (axis->scaleType() == QCPAxis::stLogarithmic && r.lower > 0) {
      const double factor = std::pow(r.upper / r.lower, 0.04);
      r = QCPRange(r.lower / factor, r.upper * factor);
    } else {
      const double pad = r.size() > 0 ? r.size() * 0.04 : 0.5;
      r = QCPRange(r.lower - pad, r.upper + pad);
    }
    axis->setRange(r);
  }
}

void PlotWidget::setDarkMode(bool dark) {
  dark_ = dark;
  palette_ = dark ? PlotPalette::dark() : PlotPalette::light();
  applyBasePalette();
  applyPalette();
  replot(QCustomPlot::rpQueuedReplot);
}

void PlotWidget::applyBasePalette() {
  const PlotPalette& p = palette_;
  setBackground(p.background);
  axisRect()->setBackground(p.background);
  for (QCPAxis* axis : axisRect()->axes()) {
    axis->setBasePen(QPen(p.foreground, 1));
    axis->setTickPen(QPen(p.foreground, 1));
    axis->setSubTickPen(QPen(p.foreground, 1));
    axis->setTickLabelColor(p.foreground);
    axis->setLabelColor(p.foreground);
    axis->grid()->setPen(QPen(p.grid, 1, Qt::DotLine));
    axis->grid()->setSubGridPen(QPen(p.subGrid, 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(QPen(p.grid, 1));
  }
  legend->setBrush(p.legendBackground);
  legend->setBorderPen(QPen(p.grid));
  legend->setTextColor(p.foreground);
  if (title_) title_->setTextColor(p.foreground);
  if (cursorLine_) cursorLine_->setPen(QPen(p.cursor, 1.5, Qt::DashLine));
}

void PlotWidget::styleAxis(QCPAxis* axis) {
  QFont labelFont = font();
  labelFont.setPointSize(10);
  axis->setLabelFont(labelFont);
  QFont tickFont = font();
  tickFont.setPointSize(9);
  axis->setTickLabelFont(tickFont);
  axis->setLabelPadding(6);
}

void PlotWidget::setAxisLabels(const QString& x, const QString& y) {
  xAxis->setLabel(x);
  yAxis->setLabel(y);
}

QString PlotWidget::hoverText(const QPointF&) const { return {}; }

void PlotWidget::mouseMoveEvent(QMouseEvent* event) {
  QCustomPlot::mouseMoveEvent(event);  // keeps drag-to-pan working
  if (event->buttons() != Qt::NoButton) return;
  const QString text = hoverText(event->position());
  if (text.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

QString PlotWidget::nearestGraphPointText(const QPointF& pixel, const QString& xName,
                                          const QString& yName, double maxPixels) const {
  double best = maxPixels * maxPixels;
  QString text;
  for (int g = 0; g < graphCount(); ++g) {
    const QCPGraph* graph = this->graph(g);
    if (!graph->visible()) continue;
    const QCPAxis* kx = graph->keyAxis();
    const QCPAxis* vy = graph->valueAxis();
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
      if (std::isnan(it->value)) continue;
      const double dx = kx->coordToPixel(it->key) - pixel.x();
      const double dy = vy->coordToPixel(it->value) - pixel.y();
      const double d2 = dx * dx + dy * dy;
      if (d2 < best) {
        best = d2;
        text = QStringLiteral("%1\n%2: %3\n%4: %5")
                   .arg(graph->name(), xName, QString::number(it->key, 'g', 6), yName,
                        QString::number(it->value, 'g', 6));
      }
    }
  }
  return text;
}

QVector<double> PlotWidget::positiveOrNaN(const QVector<double>& v) {
  QVector<double> out(v.size());
  for (int i = 0; i < v.size(); ++i)
    out[i] = v[i] > 0 ? v[i] : std::numeric_limits<double>::quiet_NaN();
  return out;
}

QString PlotWidget::csvField(const QString& s) {
  if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) &&
      !s.contains(QLatin1Char('\n')))
    return s;
  QString quoted = s;
  quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

// Shortest text that reads back as the same double.
QString PlotWidget::csvNumber(double v) {
  return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

}  // namespace gl::ui
