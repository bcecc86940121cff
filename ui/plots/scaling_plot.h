#pragma once
// Time against a swept script param (e.g. seed-c's N layers), one curve per variant; log axes
// make power laws straight lines.
#include "ui/plots/plot_data.h"
#include "ui/plots/plot_widget.h"

namespace gl::ui {

class ScalingPlot : public PlotWidget {
  Q_OBJECT
 public:
  explicit ScalingPlot(QWidget* parent = nullptr);

  void setScaling(const ScalingData& data);
  const ScalingData& scaling() const { return data_; }
  void setLogX(bool on);
  bool logX() const { return logX_; }

  QString toCsv() const override;  // variant,<param>,seconds
  bool supportsLogY() const override { return true; }
  QString hoverText(const QPointF& pixel) const override;

 protected:
  void applyPalette() override;
  void reloadForScale() override;

 private:
  ScalingData data_;
  bool logX_ = false;
};

}  // namespace gl::ui
