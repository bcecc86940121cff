#pragma once
// The view does view things only: zoom (wheel, Ctrl +/-/0), pan (drag the background), fit,
// search by name, and keeping a frame in place while it folds or unfolds. The graph itself is
// the GraphScene's business.
#include <QGraphicsView>

namespace gl::ui {

class GraphScene;
class GraphOverview;

class GraphView : public QGraphicsView {
  Q_OBJECT
 public:
  explicit GraphView(QWidget* parent = nullptr);  // owns a GraphScene
  GraphScene* graphScene() const { return scene_; }
  GraphOverview* overview() const { return overview_; }

  double zoom() const;  // 1 = one scene unit per pixel
  void setZoom(double zoom);
  void zoomBy(double factor);
  void zoomIn() { zoomBy(1.25); }
  void zoomOut() { zoomBy(1 / 1.25); }
  void resetZoom() { setZoom(1); }
  void fitGraph();  // the whole graph in the viewport (never magnified past 1.5)
  // The dark palette for the graph: background, boxes, text, plain edges (graph_style).
  void setDark(bool dark);
  // Fit never zooms out below this (presentation mode: labels stay readable from the back of
  // the room); a graph that is still too big is shown from its top, the overview shows the rest.
  void setMinimumFitZoom(double zoom) { minFitZoom_ = zoom; }
  double minimumFitZoom() const { return minFitZoom_; }

  // Selects and centres the next visible node whose title (op and name) contains `text`,
  // case-insensitively; repeated calls with the same text step through the matches.
  bool search(const QString& text);
  void centerOnNode(int nodeId);

  static constexpr double kMinZoom = 0.02, kMaxZoom = 8;

  // Where the colour bar is drawn, in viewport pixels: pinned to the top-right corner at its
  // own size, whatever the zoom (null when there is no gradient to show).
  QRect colorBarRect() const;

 signals:
  void zoomChanged(double zoom);

 protected:
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void drawForeground(QPainter* painter, const QRectF& rect) override;
  void scrollContentsBy(int dx, int dy) override;

 private:
  void keepAnchor(QPointF after);
  // The scrollable area: the graph plus half a viewport all round, so that any node (even one
  // on the graph's edge) can be centred and a frame can stay put while the layout changes.
  void updateScrollArea();

  GraphScene* scene_;
  QString lastSearch_;
  int searchIndex_ = -1;
  QPoint anchorInViewport_;
  bool fitWhenLaidOut_ = false;
  double minFitZoom_ = kMinZoom;
  GraphOverview* overview_;
};

}  // namespace gl::ui
