#include "ui/graph/graph_view.h"

#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <utility>

#include "ui/graph/frame_item.h"
#include "ui/graph/graph_overview.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_style.h"
#include "ui/graph/node_item.h"

namespace gl::ui {

GraphView::GraphView(QWidget* parent)
    : QGraphicsView(parent), scene_(new GraphScene(this)), overview_(new GraphOverview(this)) {
  setScene(scene_);
  scene_->setAsyncLayout(true);  // the window never waits for dot
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(QGraphicsView::ScrollHandDrag);  // items still take clicks; the background pans
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
  setOptimizationFlag(QGraphicsView::DontAdjustForAntialiasing);
  connect(scene_, &GraphScene::anchorAboutToMove, this,
          [this](QPointF before) { anchorInViewport_ = mapFromScene(before); });
  connect(scene_, &GraphScene::anchorMoved, this,
          [this](QPointF, QPointF after) { keepAnchor(after); });
  connect(scene_, &GraphScene::layoutChanged, this, [this] {
    if (ColorBarItem* bar = scene_->colorBar()) bar->setDrawnByView(true);
    updateScrollArea();
    if (std::exchange(fitWhenLaidOut_, false)) fitGraph();
    overview_->refresh();
  });
  connect(this, &GraphView::zoomChanged, overview_, &GraphOverview::refresh);
  connect(scene_, &GraphScene::foldingChanged, this, [this] { lastSearch_.clear(); });
}

double GraphView::zoom() const { return transform().m11(); }

void GraphView::setZoom(double z) {
  z = std::clamp(z, kMinZoom, kMaxZoom);
  const QPointF center = mapToScene(viewport()->rect().center());
  setTransform(QTransform::fromScale(z, z));
  updateScrollArea();
  centerOn(center);
  emit zoomChanged(z);
}

void GraphView::zoomBy(double factor) {
  const double z = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
  if (z == zoom()) return;
  scale(z / zoom(), z / zoom());
  updateScrollArea();
  emit zoomChanged(z);
}

void GraphView::fitGraph() {
  if (scene_->layoutPending()) {
    fitWhenLaidOut_ = true;  // fits the graph that is on its way, not the notice
    return;
  }
  const QRectF bounds = scene_->graphBounds();
  if (bounds.isEmpty()) return;
  fitInView(bounds, Qt::KeepAspectRatio);
  if (zoom() > 1.5) setZoom(1.5);  // a tiny graph stays at a readable size, not a giant one
  QPointF center = bounds.center();
  if (zoom() < minFitZoom_) {
    setZoom(minFitZoom_);
    center.setY(bounds.top() + 0.5 * viewport()->height() / zoom());  // from the inputs down
  }
  updateScrollArea();
  centerOn(center);
  overview_->refresh();
  emit zoomChanged(zoom());
}

bool GraphView::search(const QString& text) {
  if (text.isEmpty()) return false;
  std::vector<NodeItem*> matches;
  for (NodeItem* item : scene_->nodeItems())
    if (QString::fromStdString(item->info().title).contains(text, Qt::CaseInsensitive))
      matches.push_back(item);
  if (matches.empty()) return false;
  searchIndex_ = text == lastSearch_ ? (searchIndex_ + 1) % int(matches.size()) : 0;
  lastSearch_ = text;
  NodeItem* hit = matches[size_t(searchIndex_)];
  scene_->clearSelection();
  hit->setSelected(true);
  centerOn(hit);
  return true;
}

void GraphView::centerOnNode(int nodeId) {
  if (NodeItem* item = scene_->nodeItem(nodeId)) centerOn(item);
}

// The toggled frame stays where the user was looking, even though dot moved everything.
void GraphView::keepAnchor(QPointF after) {
  const QPoint shift = mapFromScene(after) - anchorInViewport_;
  horizontalScrollBar()->setValue(horizontalScrollBar()->value() + shift.x());
  verticalScrollBar()->setValue(verticalScrollBar()->value() + shift.y());
}

void GraphView::updateScrollArea() {
  const QRectF bounds = scene_->graphBounds();
  const double margin = 0.5 * std::max(viewport()->width(), viewport()->height()) / zoom();
  setSceneRect(bounds.adjusted(-margin, -margin, margin, margin));
}

QRect GraphView::colorBarRect() const {
  const ColorBarItem* bar = scene_->colorBar();
  if (!bar || !bar->isVisible()) return {};
  const QSize size = bar->boundingRect().size().toSize();
  return {QPoint(viewport()->width() - size.width() - 16, 12), size};
}

void GraphView::setDark(bool dark) {
  style::setDark(dark);
  scene_->setBackgroundBrush(style::sceneBackground());
  scene_->update();  // items read the palette when they paint
  viewport()->update();
  if (overview_) overview_->update();
}

void GraphView::drawForeground(QPainter* painter, const QRectF& rect) {
  QGraphicsView::drawForeground(painter, rect);
  const QRect r = colorBarRect();
  if (r.isNull()) return;
  painter->save();
  painter->resetTransform();  // viewport pixels: the legend keeps its size and place
  painter->setPen(QPen(style::dark() ? QColor(80, 82, 88) : QColor(200, 200, 200), 1));
  painter->setBrush(style::panelFill());  // opaque: edges passing behind never blur the legend
  painter->drawRoundedRect(QRectF(r).adjusted(-6, -4, 4, 4), 6, 6);
  const QRectF local = scene_->colorBar()->boundingRect();
  painter->translate(QPointF(r.topLeft()) - local.topLeft());
  scene_->colorBar()->paintLegend(painter);
  painter->restore();
}

// Scrolling moves the viewport's pixels; the pinned legend must not move with them.
void GraphView::scrollContentsBy(int dx, int dy) {
  QGraphicsView::scrollContentsBy(dx, dy);
  viewport()->update(colorBarRect().adjusted(-8, -8, 8, 8).translated(dx, dy));
  viewport()->update(colorBarRect().adjusted(-8, -8, 8, 8));
  overview_->viewport()->update();
}

void GraphView::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  updateScrollArea();
  overview_->refresh();
}

void GraphView::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0) return QGraphicsView::wheelEvent(event);
  zoomBy(std::pow(1.15, steps));
  event->accept();
}

void GraphView::keyPressEvent(QKeyEvent* event) {
  if (event->modifiers() & Qt::ControlModifier) {
    switch (event->key()) {
      case Qt::Key_Plus:
      case Qt::Key_Equal:
        zoomIn();
        return;
      case Qt::Key_Minus:
        zoomOut();
        return;
      case Qt::Key_0:
        fitGraph();
        return;
      default:
        break;
    }
  }
  QGraphicsView::keyPressEvent(event);
}

}  // namespace gl::ui
