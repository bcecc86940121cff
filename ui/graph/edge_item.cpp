#include "ui/graph/edge_item.h"

#include <QObject>
#include <QPainter>
#include <QPainterPathStroker>
#include <QtMath>

#include <cmath>

#include "ui/graph/gradient_scale.h"
#include "ui/graph/graph_style.h"

namespace gl::ui {

namespace {
const QColor kPlainColor(95, 95, 95);
}

EdgeItem::EdgeItem(const VisEdge& edge, const EdgeGeometry& geometry)
    : edge_(edge), geo_(geometry), color_(kPlainColor) {
  setZValue(1);
  setAcceptedMouseButtons(Qt::NoButton);  // clicks go to the nodes and frames below
}

void EdgeItem::setGradientNorm(double norm, const GradientScale& scale) {
  if (!(norm > 0) || !std::isfinite(norm)) return clearGradient();
  prepareGeometryChange();
  norm_ = norm;
  width_ = scale.penWidth(norm);
  color_ = scale.color(norm);
  setToolTip(QObject::tr("|gradient| = %1").arg(GradientScale::formatNorm(norm)));
  update();
}

void EdgeItem::clearGradient() {
  prepareGeometryChange();
  norm_ = 0;
  width_ = GradientScale::kMinWidth;
  color_ = kPlainColor;
  setToolTip({});
  update();
}

QPolygonF EdgeItem::arrowHead() const {
  QPointF tip = geo_.arrowTip, base = geo_.arrowBase;
  if (QLineF(base, tip).length() < 0.5) {
    // No arrow end from dot: aim along the last piece of the path.
    tip = geo_.path.pointAtPercent(1.0);
    base = geo_.path.pointAtPercent(0.95);
  }
  QLineF axis(tip, base);
  if (axis.length() < 0.01) return {};
  // Thick gradient edges get proportionally bigger heads, so the direction stays visible.
  const double length = std::max(7.0, width_ * 2.2), half = std::max(3.5, width_ * 1.4);
  axis.setLength(length);
  const QPointF back = axis.p2();
  const QPointF normal = QPointF(-(back - tip).y(), (back - tip).x()) / length * half;
  return QPolygonF({tip, back + normal, back - normal});
}

QRectF EdgeItem::boundingRect() const {
  const double m = width_ * 2 + 6;
  return geo_.path.boundingRect().united(arrowHead().boundingRect()).adjusted(-m, -m, m, m);
}

QPainterPath EdgeItem::shape() const {
  QPainterPathStroker stroker;
  stroker.setWidth(std::max(6.0, width_ + 4));
  QPainterPath s = stroker.createStroke(geo_.path);
  s.addPolygon(arrowHead());
  return s;
}

void EdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  p->setRenderHint(QPainter::Antialiasing);
  // Plain edges follow the palette at paint time; gradient colours come from the scale.
  const QColor color = norm_ > 0 ? color_ : style::plainEdgeColor();
  QPen pen(color, width_, edge_.structural ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap);
  if (edge_.structural) pen.setDashPattern({4, 3});
  p->setPen(pen);
  p->setBrush(Qt::NoBrush);
  p->drawPath(geo_.path);
  p->setPen(Qt::NoPen);
  p->setBrush(color);
  p->drawPolygon(arrowHead());
}

}  // namespace gl::ui
