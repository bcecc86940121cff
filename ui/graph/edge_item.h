#pragma once
// One edge (possibly several values between the same two nodes) along dot's spline, with an
// arrowhead. Its width and colour show the gradient norm when the overlay is on.
#include <QGraphicsItem>
#include <QPainterPath>

#include "ui/graph/graph_layout.h"

namespace gl::ui {

class GradientScale;

class EdgeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 2 };

  EdgeItem(const VisEdge& edge, const EdgeGeometry& geometry);

  int type() const override { return Type; }
  const VisEdge& info() const { return edge_; }

  // norm <= 0 (or NaN): no gradient known; drawn thin and grey.
  void setGradientNorm(double norm, const GradientScale& scale);
  void clearGradient();
  bool hasGradient() const { return norm_ > 0; }
  double gradientNorm() const { return norm_; }
  double penWidth() const { return width_; }
  QColor color() const { return color_; }

  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  QPolygonF arrowHead() const;

  VisEdge edge_;
  EdgeGeometry geo_;
  double norm_ = 0;
  double width_ = 1.2;
  QColor color_;
};

}  // namespace gl::ui
