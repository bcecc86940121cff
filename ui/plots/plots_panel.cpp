#include "ui/plots/plots_panel.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/plots/gradient_lines_plot.h"
#include "ui/plots/heat_map_plot.h"
#include "ui/plots/scaling_plot.h"
#include "ui/plots/timeline_plot.h"
#include "ui/plots/timing_bars_plot.h"

namespace gl::ui {

namespace {

constexpr ExportFormat kFormats[] = {ExportFormat::Png, ExportFormat::Svg, ExportFormat::Pdf,
                                     ExportFormat::Csv};

// "Gradient norm per step" -> "gradient-norm-per-step": a file name that needs no quoting.
QString slug(const QString& title) {
  QString s;
  for (QChar c : title.toLower()) s += c.isLetterOrNumber() ? c : QLatin1Char('-');
  while (s.contains(QStringLiteral("--"))) s.replace(QStringLiteral("--"), QStringLiteral("-"));
  return s.isEmpty() ? QStringLiteral("plot") : s;
}

}  // namespace

PlotsPanel::PlotsPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  auto* bar = new QToolBar(this);
  bar->setIconSize(QSize(16, 16));
  layout->addWidget(bar);
  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  layout->addWidget(tabs_, 1);

  addPlot(gradientLines_ = new GradientLinesPlot(this), tr("Gradients"));
  addPlot(heatMap_ = new HeatMapPlot(this), tr("Jacobian"));
  addPlot(timingBars_ = new TimingBarsPlot(this), tr("Timings"));
  addPlot(scaling_ = new ScalingPlot(this), tr("Scaling"));
  addPlot(timeline_ = new TimelinePlot(this), tr("Timeline"));

  connect(scaling_, &ScalingPlot::sweepRequested, this, &PlotsPanel::sweepRequested);
  buildToolBar(bar);
  connect(tabs_, &QTabWidget::currentChanged, this, [this] { syncActionsToCurrentPlot(); });
  syncActionsToCurrentPlot();
  chooser_ = [this](ExportFormat format, const QString& suggested) {
    return QFileDialog::getSaveFileName(this, tr("Export plot as %1").arg(formatName(format)),
                                        suggested, formatFilter(format));
  };
  traceChooser_ = [this](const QString& suggested) {
    return QFileDialog::getSaveFileName(this, tr("Export Timeline as Chrome Trace"), suggested,
                                        tr("Chrome trace (*.json)"));
  };
}

void PlotsPanel::addPlot(PlotWidget* plot, const QString& tabName) {
  tabs_->addTab(plot, tabName);
  connect(plot, &PlotWidget::logYChanged, this, [this, plot] {
    if (plot == currentPlot()) syncActionsToCurrentPlot();
  });
}

void PlotsPanel::buildToolBar(QToolBar* bar) {
  fitAction_ = bar->addAction(tr("Fit"));
  fitAction_->setToolTip(tr("Fit the axes to the data (undo zoom and pan)"));
  connect(fitAction_, &QAction::triggered, this, [this] {
    if (PlotWidget* p = currentPlot()) {
      p->fitView();
      p->replot();
    }
  });

  logYAction_ = bar->addAction(tr("Log y"));
  logYAction_->setCheckable(true);
  logYAction_->setToolTip(tr("Logarithmic y axis (gradients that vanish or explode)"));
  connect(logYAction_, &QAction::toggled, this, &PlotsPanel::setLogY);

  auto* menu = new QMenu(this);
  for (ExportFormat f : kFormats) {
    QAction* a = menu->addAction(tr("%1…").arg(formatFilter(f)));
    connect(a, &QAction::triggered, this, [this, f] { exportWithChooser(f); });
    exportActions_.push_back(a);
  }
  menu->addSeparator();
  traceAction_ = menu->addAction(tr("Timeline as Chrome Trace (*.json)…"));
  traceAction_->setToolTip(tr("The Timeline tab's events for Perfetto or chrome://tracing"));
  connect(traceAction_, &QAction::triggered, this, &PlotsPanel::exportTraceWithChooser);
  connect(timeline_, &TimelinePlot::traceExportRequested, this,
          &PlotsPanel::exportTraceWithChooser);
  exportButton_ = new QToolButton(bar);
  exportButton_->setText(tr("Export"));
  exportButton_->setToolTip(tr("Export the current plot as PNG, SVG, PDF or its data as CSV"));
  exportButton_->setMenu(menu);
  exportButton_->setPopupMode(QToolButton::InstantPopup);
  bar->addWidget(exportButton_);
}

QList<PlotWidget*> PlotsPanel::plots() const {
  return {gradientLines_, heatMap_, timingBars_, scaling_, timeline_};
}

PlotWidget* PlotsPanel::currentPlot() const {
  return qobject_cast<PlotWidget*>(tabs_->currentWidget());
}

void PlotsPanel::showPlot(PlotWidget* plot) { tabs_->setCurrentWidget(plot); }

QAction* PlotsPanel::exportAction(ExportFormat format) const {
  return exportActions_.value(int(format));
}

void PlotsPanel::syncActionsToCurrentPlot() {
  PlotWidget* p = currentPlot();
  const bool canLog = p && p->supportsLogY();
  const QSignalBlocker block(logYAction_);  // reflecting state is not a user toggle
  logYAction_->setEnabled(canLog);
  logYAction_->setChecked(canLog && p->logY());
}

void PlotsPanel::showLoopGradients(const LoopRecord& loop, const Graph* graph) {
  gradientLines_->setPlotTitle(tr("Gradient norm per step"));
  gradientLines_->setValueLabel(tr("‖gradient‖₂ (L2 norm)"));
  gradientLines_->setSeries(gradientNormSeries(loop, graph));
}

void PlotsPanel::showPerStepValues(const QVector<SeriesData>& series) {
  gradientLines_->setPlotTitle(tr("Values per step"));
  gradientLines_->setValueLabel(tr("value per step (script outputs)"));
  gradientLines_->setSeries(series);
}

void PlotsPanel::showJacobian(const Tensor& matrix, const QString& name) {
  heatMap_->setData(heatMapFromTensor(matrix, name));
}

void PlotsPanel::showTimings(const QVector<TimingData>& timings, const QStringList& scriptOrder) {
  timingBars_->setTimings(timings, scriptOrder);
}

void PlotsPanel::showScaling(const ScalingData& scaling) { scaling_->setScaling(scaling); }

void PlotsPanel::showTimeline(const RunResult& run, const Graph* graph, const QString& variant) {
  timeline_->setTimeline(timelineSource(run, graph, variant));
}

void PlotsPanel::clearResults() {
  gradientLines_->setSeries({});
  heatMap_->setData({});
  timingBars_->setTimings({});
  scaling_->setScaling({});
  timeline_->setTimeline(TimelineData{});
  for (PlotWidget* p : plots()) p->clearStepCursor();
}

void PlotsPanel::setStepCursor(double t) {
  for (PlotWidget* p : plots()) p->setStepCursor(t);  // no-op on plots without a step axis
}

void PlotsPanel::setDarkMode(bool dark) {
  for (PlotWidget* p : plots()) p->setDarkMode(dark);
}

void PlotsPanel::setLogY(bool on) {
  if (PlotWidget* p = currentPlot()) p->setUserLogY(on);
  syncActionsToCurrentPlot();
}

QString PlotsPanel::defaultPath(ExportFormat format) const {
  const QString dir = !lastDir_.isEmpty()        ? lastDir_
                      : !exportFolder_.isEmpty() ? exportFolder_
                                                 : QDir::homePath();
  const QString title = currentPlot() ? currentPlot()->plotTitle() : QString();
  return QDir(dir).filePath(QStringLiteral("gradlab-%1.%2").arg(slug(title), formatSuffix(format)));
}

void PlotsPanel::exportWithChooser(ExportFormat format) {
  QString path = chooser_ ? chooser_(format, defaultPath(format)) : QString();
  if (path.isEmpty()) return;  // cancelled
  if (QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + formatSuffix(format);
  exportCurrent(format, path);
}

void PlotsPanel::exportTraceWithChooser() {
  const QString dir = !lastDir_.isEmpty()        ? lastDir_
                      : !exportFolder_.isEmpty() ? exportFolder_
                                                 : QDir::homePath();
  const QString suggested = QDir(dir).filePath(QStringLiteral("trace.json"));
  QString path = traceChooser_ ? traceChooser_(suggested) : QString();
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".json");
  exportTrace(path);
}

bool PlotsPanel::exportTrace(const QString& path) {
  QString error;
  if (timeline_->timeline().events.isEmpty()) {
    emit exportFailed(
        tr("Could not export %1: the timeline is empty (run the lesson first)").arg(path));
    return false;
  }
  if (!timeline_->exportChromeTrace(path, &error)) {
    emit exportFailed(tr("Could not export %1: %2").arg(path, error));
    return false;
  }
  lastDir_ = QFileInfo(path).absolutePath();
  emit exported(path);
  return true;
}

bool PlotsPanel::exportCurrent(ExportFormat format, const QString& path) {
  QString error;
  if (!exportPlot(currentPlot(), format, path, exportOptions_, &error)) {
    emit exportFailed(tr("Could not export %1: %2").arg(path, error));
    return false;
  }
  lastDir_ = QFileInfo(path).absolutePath();
  emit exported(path);
  return true;
}

}  // namespace gl::ui
