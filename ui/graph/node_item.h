#pragma once
// One visible node: an op, the entry or exit of an unfolded frame, or a folded frame with its
// iteration badge. Draws its two label lines; turns red when a gradient chain breaks here.
#include <QGraphicsItem>
#include <QString>

#include "ui/graph/graph_model.h"

namespace gl::ui {

class NodeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 1 };

  // `rect` in scene coordinates; the item is placed at its centre.
  NodeItem(const VisNode& node, const QRectF& rect, const SourceLoc& loc);

  int type() const override { return Type; }
  int nodeId() const { return node_.node; }
  VisNodeKind kind() const { return node_.kind; }
  const VisNode& info() const { return node_; }
  const SourceLoc& loc() const { return loc_; }

  // A None gradient: red, with the engine's explanation as tooltip.
  void setBreak(const QString& why);
  bool isBreak() const { return !breakText_.isEmpty(); }
  const QString& breakText() const { return breakText_; }
  // The first NaN/Inf of the shown run was made here (or inside this folded frame): a thick
  // dashed outline, with `why` first in the tooltip. Empty clears it.
  void setNumericsFault(const QString& why);
  bool isNumericsFault() const { return !numericsText_.isEmpty(); }
  // Highlight without selection (nodes of a script line).
  void setHighlighted(bool on);
  bool isHighlighted() const { return highlighted_; }

  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  QString defaultToolTip() const;
  void paintBadge(QPainter* p, const QRectF& box) const;

  VisNode node_;
  SourceLoc loc_;
  QRectF box_;  // local, centred on (0, 0)
  QString breakText_;
  QString numericsText_;
  bool highlighted_ = false;
};

}  // namespace gl::ui
