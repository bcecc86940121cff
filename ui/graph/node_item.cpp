#include "ui/graph/node_item.h"

#include <QObject>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "ui/graph/graph_style.h"

namespace gl::ui {

NodeItem::NodeItem(const VisNode& node, const QRectF& rect, const SourceLoc& loc)
    : node_(node),
      loc_(loc),
      box_(-rect.width() / 2, -rect.height() / 2, rect.width(), rect.height()) {
  setPos(rect.center());
  setFlag(ItemIsSelectable);
  setZValue(2);
  setToolTip(defaultToolTip());
  setCursor(Qt::PointingHandCursor);
}

QString NodeItem::defaultToolTip() const {
  QString tip = QString::fromStdString(node_.title);
  if (!node_.subtitle.empty()) tip += QStringLiteral("\n") + QString::fromStdString(node_.subtitle);
  tip += QLatin1Char('\n') + QObject::tr("node #%1").arg(node_.node);
  if (loc_.known()) tip += QObject::tr(", line %1").arg(loc_.line);
  if (node_.kind == VisNodeKind::Folded)
    tip += QLatin1Char('\n') + QObject::tr("double-click to unfold");
  return tip;
}

void NodeItem::setBreak(const QString& why) {
  breakText_ = why;
  setToolTip(why.isEmpty() ? defaultToolTip()
                           : QObject::tr("Gradient is None here:") + QLatin1Char('\n') +
                                 style::wrapText(why));
  update();
}

void NodeItem::setNumericsFault(const QString& why) {
  numericsText_ = why;
  setBreak(breakText_);  // the tooltip without the fault, and a repaint
  if (!why.isEmpty()) setToolTip(style::wrapText(why) + QLatin1Char('\n') + toolTip());
}

void NodeItem::setHighlighted(bool on) {
  highlighted_ = on;
  update();
}

QRectF NodeItem::boundingRect() const { return box_.adjusted(-5, -5, 5, 5); }

QPainterPath NodeItem::shape() const {
  QPainterPath path;
  path.addRect(box_);
  return path;
}

void NodeItem::paintBadge(QPainter* p, const QRectF& box) const {
  const QString text = style::badgeText(node_);
  p->setFont(style::subtitleFont());
  const QFontMetricsF fm(p->font());
  const QRectF badge(box.right() - fm.horizontalAdvance(text) - 12, box.top() + 4,
                     fm.horizontalAdvance(text) + 8, fm.height() + 2);
  p->setPen(Qt::NoPen);
  p->setBrush(node_.backward ? QColor(110, 70, 170) : QColor(190, 110, 10));
  p->drawRoundedRect(badge, badge.height() / 2, badge.height() / 2);
  p->setPen(Qt::white);
  p->drawText(badge, Qt::AlignCenter, text);
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  const double lod = option->levelOfDetailFromTransform(p->worldTransform());
  QColor border = style::nodeBorder(node_);
  double borderWidth = 1.0;
  if (isBreak() || highlighted_ || isSelected()) {
    border =
        isBreak() && !highlighted_ && !isSelected() ? style::breakColor() : style::selectionColor();
    borderWidth = isSelected() ? 3.0 : 2.5;
  }
  QColor fill = style::nodeFill(node_);
  if (isBreak()) fill = style::breakFill();

  p->setRenderHint(QPainter::Antialiasing);
  p->setPen(QPen(border, borderWidth));
  p->setBrush(fill);
  const double radius = node_.category == NodeCategory::Leaf ? box_.height() / 2 : 5;
  if (node_.kind == VisNodeKind::Folded) {
    // A stack of cards: the frame's many nodes live behind this one.
    p->drawRoundedRect(box_.translated(3, 3), radius, radius);
  }
  p->drawRoundedRect(box_, radius, radius);
  if (isNumericsFault()) {
    p->setPen(QPen(style::numericsColor(), 3.0, Qt::DashLine));
    p->setBrush(Qt::NoBrush);
    p->drawRoundedRect(box_.adjusted(-3.5, -3.5, 3.5, 3.5), radius + 3, radius + 3);
  }
  // Unreadable text is left out (it also keeps big graphs fluid); the badge goes with the title.
  if (!style::readableAt(style::titleFont(), lod)) return;

  QRectF text = box_.adjusted(style::kPadX, style::kPadY, -style::kPadX, -style::kPadY);
  if (node_.kind == VisNodeKind::Folded) {
    paintBadge(p, box_);
    text.setRight(text.right() -
                  QFontMetricsF(style::subtitleFont()).horizontalAdvance(style::badgeText(node_)) -
                  12);
  }
  const QFontMetricsF titleMetrics(style::titleFont());
  p->setFont(style::titleFont());
  p->setPen(isBreak() ? (style::dark() ? style::breakColor().lighter(150)
                                       : style::breakColor().darker(130))
                      : style::titleColor());
  const Qt::Alignment align = Qt::AlignHCenter | Qt::AlignTop;
  p->drawText(QRectF(text.left(), text.top(), text.width(), titleMetrics.height()), align,
              titleMetrics.elidedText(QString::fromStdString(node_.title), Qt::ElideRight,
                                      text.width() + 1));
  if (!node_.subtitle.empty() && style::readableAt(style::subtitleFont(), lod)) {
    p->setFont(style::subtitleFont());
    p->setPen(style::subtitleColor());
    p->drawText(QRectF(text.left(), text.top() + titleMetrics.height(), text.width(),
                       text.height() - titleMetrics.height()),
                align, QString::fromStdString(node_.subtitle));
  }
}

}  // namespace gl::ui
