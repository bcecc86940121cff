#pragma once
// Per-step gradient norms: one line per loop variable (or per series given), step t on x.
#include "ui/plots/plot_data.h"
#include "ui/plots/plot_widget.h"

namespace gl::ui {

class GradientLinesPlot : public PlotWidget {
  Q_OBJECT
 public:
  explicit GradientLinesPlot(QWidget* parent = nullptr);

  void setSeries(const QVector<SeriesData>& series);
  const QVector<SeriesData>& series() const { return series_; }
  // The y axis name with its unit, e.g. "‖dL/dx_t‖₂".
  void setValueLabel(const QString& label);

  QString toCsv() const override;  // series,step,value
  bool hasStepAxis() const override { return true; }
  bool supportsLogY() const override { return true; }
  QString hoverText(const QPointF& pixel) const override;

 protected:
  void applyPalette() override;
  void reloadForScale() override;

 private:
  QVector<SeriesData> series_;
};

}  // namespace gl::ui
