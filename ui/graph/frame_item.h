#pragma once
// A loop, branch or map frame (or one region inside it), a group's or a GradientTape's frame,
// drawn behind its nodes. The header holds a fold button and the title ("while_loop #12  ×20").
#include <QGraphicsItem>

#include "ui/graph/graph_model.h"

namespace gl::ui {

class FrameItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 3 };

  FrameItem(const VisFrame& frame, const QRectF& rect, int depth);

  int type() const override { return Type; }
  const VisFrame& info() const { return frame_; }
  int owner() const { return frame_.owner; }
  bool isRegion() const { return frame_.region >= 0; }
  // A whole loop, branch, map or group folds; a region or a tape's frame does not.
  bool foldable() const {
    return !isRegion() && (frame_.owner >= 0 || frame_.group >= 0) && frame_.tape < 0;
  }
  // The fold button, in scene coordinates (whole frames only).
  QRectF foldButtonRect() const;

  QRectF boundingRect() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  VisFrame frame_;
  QRectF rect_;  // local = scene (the item stays at the origin)
  int depth_;
};

// The gradient colour scale as a legend inside the scene (and so in every export). A view
// that pins the legend to its viewport draws it itself (paintLegend) and the item then paints
// only where no widget is involved: exports, which render the scene.
class GradientScale;
class ColorBarItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 4 };
  explicit ColorBarItem(const GradientScale* scale);
  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  void paintLegend(QPainter* p) const;  // in item coordinates, boundingRect() sized
  void setDrawnByView(bool on) { drawnByView_ = on; }
  bool isDrawnByView() const { return drawnByView_; }

 private:
  const GradientScale* scale_;
  bool drawnByView_ = false;
};

}  // namespace gl::ui
