#pragma once
// The common base of GradLab's plots: a QCustomPlot with zoom/pan/select, a title, a legend,
// axis labels, a hover tooltip, a step cursor that follows the step controls, a log-y switch,
// light/dark colours, and its data as CSV.
#include <QColor>
#include <QString>
#include <QVector>
#include <optional>

#include <qcustomplot.h>

namespace gl::ui {

struct PlotPalette {
  QColor background, foreground, grid, subGrid, legendBackground, cursor;
  QVector<QColor> series;  // categorical colours, readable on the background
  QColor seriesColor(int i) const { return series.at(i % series.size()); }
  static PlotPalette light();
  static PlotPalette dark();
};

class PlotWidget : public QCustomPlot {
  Q_OBJECT
 public:
  explicit PlotWidget(QWidget* parent = nullptr);

  // The plotted data: a header row, then one row per point / bar / event.
  virtual QString toCsv() const = 0;

  void setPlotTitle(const QString& title);
  QString plotTitle() const;

  // The step cursor marks iteration t with a line on plots with a step axis; the others may
  // react in their own way (the timeline outlines that iteration's events).
  // (Not named setCursor: that would hide QWidget::setCursor and capture Qt::CursorShape.)
  virtual bool hasStepAxis() const { return false; }
  void setStepCursor(double t);
  void clearStepCursor();
  bool stepCursorVisible() const;
  double stepCursor() const { return cursorStep_; }
  const QCPItemStraightLine* stepCursorLine() const { return cursorLine_; }
  // A replot deferred because the plot was on a tab not shown (setStepCursor).
  bool replotPending() const { return replotPending_; }

  // Undoes zoom and pan: the axes span the data again, with a little air around it.
  virtual void fitView();

  virtual bool supportsLogY() const { return false; }
  void setLogY(bool on);
  bool logY() const { return logY_; }
  // The user's own choice (the Log y toggle): kept over the plot's automatic one from then on.
  void setUserLogY(bool on);
  std::optional<bool> userLogY() const { return userLogY_; }

  void setDarkMode(bool dark);
  bool darkMode() const { return dark_; }
  const PlotPalette& plotPalette() const { return palette_; }

  // What the hover tooltip says with the mouse at `pixel` (widget coordinates); empty for
  // nothing under the mouse. Public so tests can ask without moving a mouse.
  virtual QString hoverText(const QPointF& pixel) const;

 signals:
  // The y axis turned log or linear (the user's toggle or the plot's own choice).
  void logYChanged(bool on);

 protected:
  void mouseMoveEvent(QMouseEvent* event) override;
  // Subclasses recolour their own plottables here; the base has done axes, grid, legend, title.
  virtual void applyPalette() {}
  // Subclasses reload their data so that non-positive values do not reach a log axis.
  virtual void reloadForScale() {}
  // Horizontal: the cursor marks a step on the y axis (a row), else on the x axis.
  virtual Qt::Orientation stepAxisOrientation() const { return Qt::Vertical; }
  virtual void stepChanged(double t) { Q_UNUSED(t); }
  // A queued replot, or one when the plot is shown if it is on a tab not in front: new data
  // for a hidden tab (a variant switch sets every plot's) costs nothing until it is looked at.
  void replotWhenShown();
  // True when stepChanged changes what the plot draws beyond the cursor line.
  virtual bool stepRedrawsData() const { return false; }
  void showEvent(QShowEvent* event) override;
  // Not shown while its window is (another tab is in front): a replot can wait.
  bool hiddenInShownWindow() const;
  // What a subclass derives from its data to draw it (a colour map's million cells, a
  // timeline's layers) is not worth building for a tab not in front. contentChanged() builds
  // it now (buildContent), or when the plot is shown; withContent() builds it if it is still
  // owed, for an accessor asked about it before then.
  void contentChanged();
  const PlotWidget& withContent() const;
  bool contentOwed() const { return contentOwed_; }
  virtual void buildContent() {}
  // The nearest point of any visible QCPGraph within `maxPixels`, as "name\nx: ..\ny: ..".
  QString nearestGraphPointText(const QPointF& pixel, const QString& xName, const QString& yName,
                                double maxPixels = 12) const;
  void setAxisLabels(const QString& x, const QString& y);
  // Log scale with readable labels, or back to a plain linear axis.
  static void setAxisLogScale(QCPAxis* axis, bool on);
  void styleAxis(QCPAxis* axis);
  // Log axes cannot show zero or negative values: they become gaps.
  static QVector<double> positiveOrNaN(const QVector<double>& v);
  // Keeps text cells safe for CSV readers.
  static QString csvField(const QString& s);
  static QString csvNumber(double v);

 private:
  void applyBasePalette();
  void placeStepCursor();
  void fitYLabel();

  PlotPalette palette_ = PlotPalette::light();
  bool dark_ = false;
  bool logY_ = false;
  std::optional<bool> userLogY_;
  QCPTextElement* title_ = nullptr;
  QCPItemStraightLine* cursorLine_ = nullptr;
  double cursorStep_ = 0;
  bool replotPending_ = false;
  bool contentOwed_ = false;
};

}  // namespace gl::ui
