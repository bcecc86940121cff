#pragma once
// One colour scale for gradient norms, shared by every variant's graph so that the same colour
// means the same magnitude everywhere. Log scale between the smallest and the largest positive
// norm seen; zero and missing gradients are drawn apart (grey), never on the scale.
#include <QColor>
#include <QRectF>
#include <QString>

#include <map>

#include "engine/graph/graph.h"

class QPainter;

namespace gl::ui {

class GradientScale {
 public:
  // Widens the range to include a norm (non-positive and non-finite norms are ignored).
  void include(double norm);
  void include(const std::map<Value, double>& norms);
  void reset();

  bool empty() const { return !(min_ > 0); }
  double min() const { return min_; }
  double max() const { return max_; }
  // 0 at min, 1 at max, on log10; clamped. An empty or one-point scale maps to 1.
  double position(double norm) const;
  QColor color(double norm) const;
  double penWidth(double norm) const;  // 1.2 .. 7 px

  static constexpr double kMinWidth = 1.2;
  static constexpr double kMaxWidth = 7.0;
  static QColor colorAt(double t);  // the colour map itself, t in [0, 1]
  static QColor noGradientColor() { return QColor(170, 170, 170); }

  // A horizontal or vertical bar with the min and max labels, for legends and the scene.
  void paintBar(QPainter* p, const QRectF& bar, Qt::Orientation o) const;
  static QString formatNorm(double v);

 private:
  double min_ = 0, max_ = 0;
};

}  // namespace gl::ui
