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

  // Takes the matrix; on a tab not in front, its million cells go into the colour map when the
  // plot is shown or asked about (per_step's 1000x1000 dx_dw cost each variant switch 0.15 s).
  void setData(const HeatMapData& data);
  const HeatMapData& data() const { return data_; }
  // The drawn cell (row, col), read back from the colour map (tests compare it to the matrix).
  double cellValue(int row, int col) const;
  QCPColorMap* colorMap() const { return filled().map_; }
  QCPColorScale* colorScale() const { return filled().scale_; }
  bool waitingToBeShown() const { return contentOwed(); }

  QString toCsv() const override;  // row,col,value
  bool hasStepAxis() const override { return true; }
  void fitView() override;  // the whole matrix, cell edges at the axis ends
  QString hoverText(const QPointF& pixel) const override;

 protected:
  Qt::Orientation stepAxisOrientation() const override { return Qt::Horizontal; }
  void applyPalette() override;
  void buildContent() override;  // data_ into the colour map

 private:
  const HeatMapPlot& filled() const { return static_cast<const HeatMapPlot&>(withContent()); }

  HeatMapData data_;
  QCPColorMap* map_ = nullptr;
  QCPColorScale* scale_ = nullptr;
};

}  // namespace gl::ui
