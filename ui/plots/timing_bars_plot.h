#pragma once
// Wall time per variant, one bar per executor, grouped by variant (QCPBars in a QCPBarsGroup).
// The legend sits under the axis rect, so it never covers a bar.
#include "ui/plots/plot_data.h"
#include "ui/plots/plot_widget.h"

namespace gl::ui {

class TimingBarsPlot : public PlotWidget {
  Q_OBJECT
 public:
  explicit TimingBarsPlot(QWidget* parent = nullptr);

  // Variants appear in `scriptOrder` (the order the script declares them), then any others in
  // first-seen order: an alphabetical x axis would reorder the lesson's story.
  void setTimings(const QVector<TimingData>& timings, const QStringList& scriptOrder = {});
  const QVector<TimingData>& timings() const { return timings_; }
  // Variants in script order (the x axis) and executors (one QCPBars each).
  QStringList variants() const { return variants_; }
  QList<ExecutorKind> executors() const { return executors_; }
  QCPBars* barsFor(ExecutorKind executor) const;
  QCPBarsGroup* group() const { return group_; }

  QString toCsv() const override;  // variant,executor,seconds
  void fitView() override;         // every category, bars from zero, room for the labels
  QString hoverText(const QPointF& pixel) const override;

 protected:
  void applyPalette() override;

 private:
  void labelBars();

  QVector<TimingData> timings_;
  QStringList variants_;
  QList<ExecutorKind> executors_;
  QVector<QCPBars*> bars_;
  QCPBarsGroup* group_ = nullptr;
  QVector<QCPItemText*> valueLabels_;
};

}  // namespace gl::ui
