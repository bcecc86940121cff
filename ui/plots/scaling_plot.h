#pragma once
// Time against a swept script param (e.g. seed-c's N layers), one curve per variant; log axes
// make power laws straight lines.
#include "ui/plots/plot_data.h"
#include "ui/plots/plot_widget.h"

class QPushButton;

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

  // Before any sweep the plot is empty: a button in its middle says how to fill it.
  QPushButton* sweepButton() const { return sweepButton_; }

 signals:
  void sweepRequested();  // the empty plot's "Sweep a param…" button

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void applyPalette() override;
  void reloadForScale() override;

 private:
  void placeSweepButton();

  ScalingData data_;
  bool logX_ = false;
  QPushButton* sweepButton_ = nullptr;
};

}  // namespace gl::ui
