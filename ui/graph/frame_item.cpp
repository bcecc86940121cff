#include "ui/graph/frame_item.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "ui/graph/gradient_scale.h"
#include "ui/graph/graph_style.h"

namespace gl::ui {

FrameItem::FrameItem(const VisFrame& frame, const QRectF& rect, int depth)
    : frame_(frame), rect_(rect), depth_(depth) {
  setZValue(-10 + depth);  // outer frames behind inner ones, all behind edges and nodes
  QString tip = QString::fromStdString(frame.title);
  if (foldable()) tip += QLatin1Char('\n') + QObject::tr("click [–] or double-click to fold");
  if (frame.tape >= 0)
    tip += QLatin1Char('\n') +
           QObject::tr("the ops this tape recorded; a gradient through an op outside is None");
  setToolTip(tip);
}

QRectF FrameItem::foldButtonRect() const {
  if (!foldable()) return {};
  return QRectF(rect_.left() + 5, rect_.top() + 4, 11, 11);
}

QRectF FrameItem::boundingRect() const { return rect_.adjusted(-2, -2, 2, 2); }

void FrameItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  p->setRenderHint(QPainter::Antialiasing);
  QPen pen(style::frameBorder(frame_), isRegion() ? 1.0 : 1.6);
  if (isRegion()) pen.setStyle(Qt::DashLine);
  if (frame_.tape >= 0) pen.setStyle(Qt::DashDotLine);
  p->setPen(pen);
  p->setBrush(style::frameFill(frame_, depth_));
  p->drawRoundedRect(rect_, 8, 8);

  p->setFont(style::frameFont());
  const QFontMetricsF fm(p->font());
  double x = rect_.left() + 6;
  if (foldable()) {
    const QRectF button = foldButtonRect();
    p->setPen(QPen(style::frameBorder(frame_), 1));
    p->setBrush(style::panelFill());
    p->drawRect(button);
    p->drawLine(QLineF(button.left() + 2.5, button.center().y(), button.right() - 2.5,
                       button.center().y()));
    x = button.right() + 5;
  }
  if (!style::readableAt(p->font(), option->levelOfDetailFromTransform(p->worldTransform())))
    return;
  p->setPen(style::frameTitleColor(frame_));
  const QString title =
      fm.elidedText(QString::fromStdString(frame_.title), Qt::ElideRight, rect_.right() - x - 4);
  p->drawText(QPointF(x, rect_.top() + 4 + fm.ascent()), title);
}

ColorBarItem::ColorBarItem(const GradientScale* scale) : scale_(scale) { setZValue(3); }

QRectF ColorBarItem::boundingRect() const { return QRectF(-4, -20, 110, 190); }

void ColorBarItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget* widget) {
  if (widget && drawnByView_) return;
  paintLegend(p);
}

void ColorBarItem::paintLegend(QPainter* p) const {
  p->setRenderHint(QPainter::Antialiasing);
  p->setFont(style::subtitleFont());
  p->setPen(style::panelText());
  p->drawText(QPointF(0, -6), QObject::tr("|gradient| (log)"));
  scale_->paintBar(p, QRectF(0, 0, 14, 150), Qt::Vertical);
}

}  // namespace gl::ui
