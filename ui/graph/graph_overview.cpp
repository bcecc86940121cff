#include "ui/graph/graph_overview.h"

#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"

namespace gl::ui {

GraphOverview::GraphOverview(GraphView* view) : QGraphicsView(view), view_(view) {
  setScene(view->graphScene());
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setInteractive(false);  // clicks move the main view, they never select
  setFrameShape(QFrame::Box);
  setRenderHints(QPainter::Antialiasing);
  setFixedSize(220, 150);
  setCursor(Qt::CrossCursor);
  setToolTip(tr("Overview: click or drag to move the view"));
  hide();
}

void GraphOverview::refresh() {
  GraphScene* scene = view_->graphScene();
  const QRectF bounds = scene->graphBounds();
  const QRectF shown = view_->mapToScene(view_->viewport()->rect()).boundingRect();
  const bool needed = !scene->nodeItems().empty() && !shown.contains(scene->currentLayout().bounds);
  setVisible(needed);
  if (!needed) return;
  setSceneRect(bounds);
  fitInView(bounds, Qt::KeepAspectRatio);
  move(view_->viewport()->width() - width() - 8, view_->viewport()->height() - height() - 8);
  viewport()->update();
}

QRect GraphOverview::shownRect() const {
  const QRectF shown = view_->mapToScene(view_->viewport()->rect()).boundingRect();
  return mapFromScene(shown).boundingRect();
}

void GraphOverview::drawForeground(QPainter* painter, const QRectF& rect) {
  QGraphicsView::drawForeground(painter, rect);
  painter->save();
  painter->resetTransform();
  painter->setPen(QPen(QColor(30, 110, 220), 2));
  painter->setBrush(QColor(30, 110, 220, 40));
  painter->drawRect(shownRect().intersected(viewport()->rect().adjusted(1, 1, -1, -1)));
  painter->restore();
}

void GraphOverview::moveViewTo(QPoint at) {
  view_->centerOn(mapToScene(at));
  viewport()->update();
}

void GraphOverview::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) moveViewTo(event->position().toPoint());
  event->accept();
}

void GraphOverview::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton) moveViewTo(event->position().toPoint());
  event->accept();
}

void GraphOverview::wheelEvent(QWheelEvent* event) { event->accept(); }

}  // namespace gl::ui
