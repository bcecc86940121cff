#pragma once
// The plots dock: one tab per plot, and a small toolbar (fit view, log y, export as
// PNG/SVG/PDF/CSV). It only shows what it is given; the window feeds it engine results.
#include <QList>
#include <QWidget>
#include <functional>

#include "ui/plots/plot_data.h"
#include "ui/plots/plot_export.h"

class QAction;
class QTabWidget;
class QToolBar;
class QToolButton;

namespace gl::ui {

class PlotWidget;
class GradientLinesPlot;
class HeatMapPlot;
class TimingBarsPlot;
class ScalingPlot;
class TimelinePlot;

class PlotsPanel : public QWidget {
  Q_OBJECT
 public:
  // Asked for a path when the user exports; an empty answer cancels. The default opens a
  // QFileDialog; tests install one that returns a path.
  using PathChooser = std::function<QString(ExportFormat format, const QString& suggestedPath)>;

  explicit PlotsPanel(QWidget* parent = nullptr);

  GradientLinesPlot* gradientLines() const { return gradientLines_; }
  HeatMapPlot* heatMap() const { return heatMap_; }
  TimingBarsPlot* timingBars() const { return timingBars_; }
  ScalingPlot* scaling() const { return scaling_; }
  TimelinePlot* timeline() const { return timeline_; }
  QList<PlotWidget*> plots() const;
  PlotWidget* currentPlot() const;
  void showPlot(PlotWidget* plot);
  QTabWidget* tabs() const { return tabs_; }

  // Feeding: each fills one plot from engine results through the plot_data adapters.
  void showLoopGradients(const LoopRecord& loop, const Graph* graph);
  // A rank-2 gradient, titled with its script name and shape.
  void showJacobian(const Tensor& matrix, const QString& name = {});
  // Values the script recorded once per loop step (a training loop's loss and gradient norm,
  // stacked from TensorArrays), on the per-step tab when no loop has gradients to show.
  void showPerStepValues(const QVector<SeriesData>& series);
  void showTimings(const QVector<TimingData>& timings, const QStringList& scriptOrder = {});
  void showScaling(const ScalingData& scaling);
  void showTimeline(const RunResult& run, const Graph* graph, const QString& variant = {});
  // Another lesson: every plot empty until its runs come in.
  void clearResults();

  // Exports the current plot without any dialog (the menu's path, the command line's, tests').
  bool exportCurrent(ExportFormat format, const QString& path);
  // The Timeline tab's events as Chrome trace JSON (Perfetto, chrome://tracing).
  bool exportTrace(const QString& path);
  QAction* traceAction() const { return traceAction_; }
  void setExportOptions(const ExportOptions& options) { exportOptions_ = options; }
  ExportOptions exportOptions() const { return exportOptions_; }
  // Where export dialogs start until the user picks a folder (the open lesson's).
  void setExportFolder(const QString& dir) { exportFolder_ = dir; }
  void setPathChooser(PathChooser chooser) { chooser_ = std::move(chooser); }
  using TracePathChooser = std::function<QString(const QString& suggestedPath)>;
  void setTracePathChooser(TracePathChooser chooser) { traceChooser_ = std::move(chooser); }

  QAction* logYAction() const { return logYAction_; }
  QAction* fitAction() const { return fitAction_; }
  QAction* exportAction(ExportFormat format) const;
  QToolButton* exportButton() const { return exportButton_; }

 public slots:
  void setStepCursor(double t);  // on every plot with a step axis
  void setDarkMode(bool dark);
  void setLogY(bool on);  // on the current plot, if it has a log option

 signals:
  void exported(const QString& path);
  void exportFailed(const QString& message);
  void sweepRequested();  // the empty Scaling tab's button

 private:
  void addPlot(PlotWidget* plot, const QString& tabName);
  void buildToolBar(QToolBar* bar);
  void syncActionsToCurrentPlot();
  void exportWithChooser(ExportFormat format);
  void exportTraceWithChooser();
  QString defaultPath(ExportFormat format) const;

  QTabWidget* tabs_ = nullptr;
  GradientLinesPlot* gradientLines_ = nullptr;
  HeatMapPlot* heatMap_ = nullptr;
  TimingBarsPlot* timingBars_ = nullptr;
  ScalingPlot* scaling_ = nullptr;
  TimelinePlot* timeline_ = nullptr;
  QAction* logYAction_ = nullptr;
  QAction* fitAction_ = nullptr;
  QList<QAction*> exportActions_;  // in ExportFormat order
  QToolButton* exportButton_ = nullptr;
  QAction* traceAction_ = nullptr;
  ExportOptions exportOptions_;
  PathChooser chooser_;
  TracePathChooser traceChooser_;
  QString lastDir_;
  QString exportFolder_;
};

}  // namespace gl::ui
