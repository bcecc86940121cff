#pragma once
// A VisibleGraph as a Graphviz graph (libcgraph), for the dot layout and for the DOT export.
// libgvc and libcgraph are not thread-safe: every call into them holds graphvizMutex().
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <QSizeF>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ui/graph/gradient_scale.h"
#include "ui/graph/graph_model.h"

namespace gl::ui {

std::mutex& graphvizMutex();
// The process-wide Graphviz context (plugins loaded once). Call with graphvizMutex() held.
GVC_t* graphvizContext();

// Owns an Agraph_t and closes it. Vectors run parallel to the VisibleGraph's; a frame without
// nodes has no subgraph (nullptr).
struct GvGraph {
  Agraph_t* graph = nullptr;
  std::vector<Agnode_t*> nodes;
  std::vector<Agedge_t*> edges;
  std::vector<Agraph_t*> frames;
  GvGraph() = default;
  GvGraph(const GvGraph&) = delete;
  GvGraph& operator=(const GvGraph&) = delete;
  ~GvGraph();
};

// Extra styling for the export; the layout needs only sizes.
struct DotStyle {
  std::vector<double> edgeNorms;      // per edge; <= 0: no gradient
  std::vector<bool> breaks;           // per node: a None gradient starts here
  std::vector<std::string> tooltips;  // per node, may be empty
  GradientScale scale;                // the scene's shared scale; when empty, made from edgeNorms
};

// Layout mode: nodes are fixed-size empty boxes of `sizes` (pixels = points).
std::unique_ptr<GvGraph> buildLayoutGraph(const VisibleGraph& vg, const std::vector<QSizeF>& sizes);
// Export mode: labelled, coloured nodes and frames that read well in any DOT viewer.
std::unique_ptr<GvGraph> buildStyledGraph(const VisibleGraph& vg, const DotStyle& style);

// agwrite into a string.
std::string writeDot(Agraph_t* g);

}  // namespace gl::ui
