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

// Why a layout has no positions.
enum class LayoutFailure {
  None,
  Graphviz,  // dot answered with an error (`error` says what it printed)
  Crashed,   // the layout process ended without an answer
  TimedOut,  // stopped after the time limit (layout_process.h)
  Stopped,   // stopped because a newer layout superseded it
  TooLarge,  // refused before starting: more visible nodes than kMaxLayoutNodes
};

struct GraphLayout {
  std::vector<QRectF> nodes;        // per VisNode
  std::vector<EdgeGeometry> edges;  // per VisEdge
  std::vector<QRectF> frames;       // per VisFrame; null rect: nothing inside, not drawn
  QRectF bounds;
  double seconds = 0;  // wall time of the Graphviz part
  LayoutFailure failure = LayoutFailure::None;
  std::string error;  // Graphviz's words, for LayoutFailure::Graphviz and Crashed
  bool ok() const { return failure == LayoutFailure::None; }
};

// Above this many visible nodes the layout trades spline routing for speed.
constexpr int kLargeGraphNodes = 1200;
// Above this many, no layout is tried: dot's time grows faster than quadratically with nodes
// in frames (per_step unfolded: 1,000 nodes 0.6 s, 2,000 3 s, 3,000 13 s, 49,000 never ended
// in 11 minutes), and a picture of that many boxes is not readable anyway.
constexpr int kMaxLayoutNodes = 6000;

struct LayoutOptions {
  enum class Edges { Auto, Splines, Straight };
  Edges edges = Edges::Auto;  // Auto: splines up to kLargeGraphNodes, straight above
};

// Lays the graph out with dot. `sizes` gives each node's box in pixels. Thread-safe (holds the
// Graphviz mutex).
GraphLayout layoutGraph(const VisibleGraph& vg, const std::vector<QSizeF>& sizes,
                        const LayoutOptions& options = {});
// The same, for a caller that already holds graphvizMutex() (layout_process.cpp's child).
GraphLayout layoutGraphLocked(const VisibleGraph& vg, const std::vector<QSizeF>& sizes,
                              const LayoutOptions& options);

}  // namespace gl::ui
