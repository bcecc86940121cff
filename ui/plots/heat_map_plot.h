#pragma once
// A matrix as a heat map with a colour scale, e.g. d x_t / d w_k for seed-b: rows are output
// steps t (top to bottom, like the matrix), columns are weights k.
#include "ui/plots/plot_data.h"
#include "ui/plots/plot_widget.h"

namespace gl::ui {

class HeatMapPlot : public PlotWidget {
  Q_OBJECT
 public:
  explicit HeatMapPlot(QWidget* parent = nullptr);

  void setData(const HeatMapData& data);
  const HeatMapData& data() const { return data_; }
  // The drawn cell (row, col), read back from the colour map (tests compare it to the matrix).
  double cellValue(int row, int col) const;
  QCPColorMap* colorMap() const { return map_; }
  QCPColorScale* colorScale() const { return scale_; }

  QString toCsv() const override;  // row,col,value
  bool hasStepAxis() const override { return true; }
  void fitView() override;  // the whole matrix, cell edges at the axis ends
  QString hoverText(const QPointF& pixel) const override;

 protected:
  Qt::Orientation stepAxisOrientation() const override { return Qt::Horizontal; }
  void applyPalette() override;

 private:
  HeatMapData data_;
  QCPColorMap* map_ = nullptr;
  QCPColorScale* scale_ = nullptr;
};

}  // namespace gl::ui
