#include "ui/graph/graph_layout.h"

#include <chrono>

#include "ui/graph/graphviz_graph.h"

namespace gl::ui {

namespace {

// Graphviz points, y up, origin at the bounding box's lower left -> scene, y down.
struct Flip {
  double left, top;
  QPointF operator()(pointf p) const { return {p.x - left, top - p.y}; }
};

QRectF boxRect(const boxf& b, const Flip& flip) {
  return QRectF(flip(pointf{b.LL.x, b.UR.y}), flip(pointf{b.UR.x, b.LL.y})).normalized();
}

EdgeGeometry readEdge(Agedge_t* e, const Flip& flip) {
  EdgeGeometry geo;
  const splines* spl = ED_spl(e);
  if (!spl || spl->size == 0) return geo;
  // dot gives one bezier per edge (more only for compound edges, which we do not use).
  const bezier& bz = spl->list[0];
  if (bz.size < 1) return geo;
  QPointF start = bz.sflag ? flip(bz.sp) : flip(bz.list[0]);
  geo.path.moveTo(start);
  if (bz.sflag) geo.path.lineTo(flip(bz.list[0]));
  for (int i = 1; i + 2 < bz.size; i += 3)
    geo.path.cubicTo(flip(bz.list[i]), flip(bz.list[i + 1]), flip(bz.list[i + 2]));
  geo.arrowBase = flip(bz.list[bz.size - 1]);
  geo.arrowTip = bz.eflag ? flip(bz.ep) : geo.arrowBase;
  return geo;
}

}  // namespace

GraphLayout layoutGraph(const VisibleGraph& vg, const std::vector<QSizeF>& sizes,
                        const LayoutOptions& options) {
  if (vg.nodes.empty()) return {};
  std::lock_guard<std::mutex> lock(graphvizMutex());
  return layoutGraphLocked(vg, sizes, options);
}

GraphLayout layoutGraphLocked(const VisibleGraph& vg, const std::vector<QSizeF>& sizes,
                              const LayoutOptions& options) {
  GraphLayout out;
  if (vg.nodes.empty()) return out;
  if (int(vg.nodes.size()) > kMaxLayoutNodes) {
    out.failure = LayoutFailure::TooLarge;
    return out;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<GvGraph> gv = buildLayoutGraph(vg, sizes);
  const bool straight =
      options.edges == LayoutOptions::Edges::Straight ||
      (options.edges == LayoutOptions::Edges::Auto && int(vg.nodes.size()) > kLargeGraphNodes);
  if (straight) {
    // Spline routing around clusters dominates dot's time on big graphs; straight edges and a
    // bounded crossing minimisation keep a 2000-node graph around a second.
    agsafeset(gv->graph, const_cast<char*>("splines"), const_cast<char*>("line"),
              const_cast<char*>(""));
    agsafeset(gv->graph, const_cast<char*>("mclimit"), const_cast<char*>("0.3"),
              const_cast<char*>(""));
  }
  GVC_t* gvc = graphvizContext();
  if (gvLayout(gvc, gv->graph, "dot") != 0) {
    out.failure = LayoutFailure::Graphviz;
    out.error = "Graphviz could not lay out the graph (is the dot layout plugin installed?)";
    return out;
  }
  const boxf bb = GD_bb(gv->graph);
  const Flip flip{bb.LL.x, bb.UR.y};
  out.bounds = boxRect(bb, flip);
  out.nodes.reserve(vg.nodes.size());
  for (Agnode_t* n : gv->nodes) {
    const QPointF c = flip(ND_coord(n));
    const double w = ND_width(n) * 72.0, h = ND_height(n) * 72.0;
    out.nodes.emplace_back(c.x() - w / 2, c.y() - h / 2, w, h);
  }
  out.edges.reserve(vg.edges.size());
  for (Agedge_t* e : gv->edges) out.edges.push_back(readEdge(e, flip));
  out.frames.assign(vg.frames.size(), QRectF());
  for (size_t i = 0; i < gv->frames.size(); ++i)
    if (gv->frames[i]) out.frames[i] = boxRect(GD_bb(gv->frames[i]), flip);
  gvFreeLayout(gvc, gv->graph);
  gv.reset();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace gl::ui
