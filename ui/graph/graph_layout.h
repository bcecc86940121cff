#pragma once
// Positions for a VisibleGraph from Graphviz's dot (layered, clusters for frames), in scene
// coordinates: y grows downwards (Graphviz's grows upwards), origin at the top-left.
#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <string>
#include <vector>

#include "ui/graph/graph_model.h"

namespace gl::ui {

struct EdgeGeometry {
  QPainterPath path;  // the spline, ending where the arrowhead begins
  QPointF arrowBase, arrowTip;
};

struct GraphLayout {
  std::vector<QRectF> nodes;        // per VisNode
  std::vector<EdgeGeometry> edges;  // per VisEdge
  std::vector<QRectF> frames;       // per VisFrame; null rect: nothing inside, not drawn
  QRectF bounds;
  double seconds = 0;  // wall time of the Graphviz part
  std::string error;   // empty on success
  bool ok() const { return error.empty(); }
};

// Above this many visible nodes the layout trades spline routing for speed.
constexpr int kLargeGraphNodes = 1200;

struct LayoutOptions {
  enum class Edges { Auto, Splines, Straight };
  Edges edges = Edges::Auto;  // Auto: splines up to kLargeGraphNodes, straight above
};

// Lays the graph out with dot. `sizes` gives each node's box in pixels. Thread-safe (holds the
// Graphviz mutex).
GraphLayout layoutGraph(const VisibleGraph& vg, const std::vector<QSizeF>& sizes,
                        const LayoutOptions& options = {});

}  // namespace gl::ui
