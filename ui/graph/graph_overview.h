#pragma once
// The overview (minimap) in a corner of the graph view: the whole graph small, the part the
// view shows as a rectangle; click or drag in it to move the view there. Shown only when the
// graph does not fit the view.
#include <QGraphicsView>

namespace gl::ui {

class GraphView;

class GraphOverview : public QGraphicsView {
  Q_OBJECT
 public:
  explicit GraphOverview(GraphView* view);  // a child of the view, in its bottom-right corner

  // Re-fits the graph and decides whether the overview is needed; the view calls it after a
  // layout, a zoom or a resize.
  void refresh();
  // The main view's visible part, in overview pixels.
  QRect shownRect() const;

 protected:
  void drawForeground(QPainter* painter, const QRectF& rect) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  void moveViewTo(QPoint at);
  GraphView* view_;
};

}  // namespace gl::ui
