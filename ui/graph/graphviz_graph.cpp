#include "ui/graph/graphviz_graph.h"

#include <cstdio>
#include <cstdlib>

#include "ui/graph/gradient_scale.h"
#include "ui/graph/graph_style.h"

namespace gl::ui {

namespace {

// cgraph 2.43 takes char* everywhere; it copies what it keeps.
char* cs(const std::string& s) { return const_cast<char*>(s.c_str()); }

void set(void* obj, const std::string& name, const std::string& value) {
  agsafeset(obj, cs(name), cs(value), cs(std::string()));
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

std::string hex(const QColor& c) { return c.name().toStdString(); }

// Frames whose subtree holds at least one node (empty clusters are left out).
std::vector<bool> framesWithNodes(const VisibleGraph& vg) {
  std::vector<bool> used(vg.frames.size(), false);
  for (const VisNode& n : vg.nodes)
    for (int f = n.frame; f >= 0 && !used[size_t(f)]; f = vg.frames[size_t(f)].parent)
      used[size_t(f)] = true;
  return used;
}

// `nodeDefaults` are declared before any node exists, so that every node starts with them.
std::unique_ptr<GvGraph> buildSkeleton(
    const VisibleGraph& vg, const std::vector<std::pair<std::string, std::string>>& nodeDefaults) {
  auto gv = std::make_unique<GvGraph>();
  gv->graph = agopen(cs("gradlab"), Agdirected, nullptr);
  Agraph_t* g = gv->graph;
  for (const auto& [name, value] : nodeDefaults) agattr(g, AGNODE, cs(name), cs(value));
  set(g, "rankdir", "TB");
  set(g, "nodesep", "0.25");
  set(g, "ranksep", "0.35");
  set(g, "newrank", "true");
  set(g, "fontname", "Helvetica");
  // Frames: parents come before children in vg.frames.
  const std::vector<bool> used = framesWithNodes(vg);
  gv->frames.assign(vg.frames.size(), nullptr);
  for (size_t i = 0; i < vg.frames.size(); ++i) {
    if (!used[i]) continue;
    const VisFrame& f = vg.frames[i];
    Agraph_t* parent = f.parent >= 0 ? gv->frames[size_t(f.parent)] : g;
    Agraph_t* sg = agsubg(parent, cs(f.key), 1);
    set(sg, "label", f.title);
    set(sg, "labeljust", "l");
    set(sg, "fontsize", "11");
    set(sg, "margin", "10");
    gv->frames[i] = sg;
  }
  gv->nodes.reserve(vg.nodes.size());
  for (const VisNode& n : vg.nodes) {
    Agraph_t* owner = n.frame >= 0 ? gv->frames[size_t(n.frame)] : g;
    gv->nodes.push_back(agnode(owner, cs(n.key), 1));
  }
  gv->edges.reserve(vg.edges.size());
  for (const VisEdge& e : vg.edges)
    gv->edges.push_back(agedge(g, gv->nodes[size_t(e.from)], gv->nodes[size_t(e.to)], nullptr, 1));
  return gv;
}

std::string shapeOf(const VisNode& n) {
  switch (n.kind) {
    case VisNodeKind::Entry:
      return "invhouse";
    case VisNodeKind::Exit:
      return "house";
    case VisNodeKind::Folded:
      return "box3d";
    case VisNodeKind::Op:
      break;
  }
  return n.category == NodeCategory::Leaf ? "ellipse" : "box";
}

}  // namespace

std::mutex& graphvizMutex() {
  static std::mutex m;
  return m;
}

GVC_t* graphvizContext() {
  // Freed at exit; plugins are loaded once, not per layout.
  struct Holder {
    GVC_t* gvc = gvContext();
    ~Holder() { gvFreeContext(gvc); }
  };
  static Holder holder;
  return holder.gvc;
}

GvGraph::~GvGraph() {
  if (graph) agclose(graph);
}

std::unique_ptr<GvGraph> buildLayoutGraph(const VisibleGraph& vg,
                                          const std::vector<QSizeF>& sizes) {
  auto gv = buildSkeleton(vg, {{"shape", "box"},
                               {"fixedsize", "true"},
                               {"label", ""},
                               {"width", "0.75"},
                               {"height", "0.5"}});
  Agsym_t* width = agattr(gv->graph, AGNODE, cs("width"), nullptr);
  Agsym_t* height = agattr(gv->graph, AGNODE, cs("height"), nullptr);
  for (size_t i = 0; i < gv->nodes.size(); ++i) {
    agxset(gv->nodes[i], width, cs(num(sizes[i].width() / 72.0)));
    agxset(gv->nodes[i], height, cs(num(sizes[i].height() / 72.0)));
  }
  // Arrowheads are drawn by the scene; a small one keeps the spline end where the tip goes.
  agattr(gv->graph, AGEDGE, cs("arrowsize"), cs("0.6"));
  return gv;
}

std::unique_ptr<GvGraph> buildStyledGraph(const VisibleGraph& vg, const DotStyle& style) {
  auto gv = buildSkeleton(
      vg, {{"fontname", "Helvetica"}, {"fontsize", "10"}, {"style", "filled,rounded"}});
  for (size_t i = 0; i < vg.nodes.size(); ++i) {
    const VisNode& n = vg.nodes[i];
    Agnode_t* an = gv->nodes[i];
    std::string label = n.title;
    if (n.kind == VisNodeKind::Folded) label += "  " + style::badgeText(n).toStdString();
    // Graphviz's own escape for a centred line break (a raw newline would be kept verbatim).
    if (!n.subtitle.empty()) label += "\\n" + n.subtitle;
    set(an, "label", label);
    set(an, "shape", shapeOf(n));
    set(an, "fillcolor", hex(style::nodeFill(n)));
    const bool broken = i < style.breaks.size() && style.breaks[i];
    set(an, "color", hex(broken ? style::breakColor() : style::nodeBorder(n)));
    if (broken) set(an, "penwidth", "2.5");
    if (i < style.tooltips.size() && !style.tooltips[i].empty())
      set(an, "tooltip", style.tooltips[i]);
  }
  GradientScale scale = style.scale;
  if (scale.empty())
    for (double v : style.edgeNorms) scale.include(v);
  for (size_t i = 0; i < vg.edges.size(); ++i) {
    Agedge_t* e = gv->edges[i];
    if (vg.edges[i].structural) set(e, "style", "dashed");
    if (vg.edges[i].layoutOnly) set(e, "style", "invis");
    const double norm = i < style.edgeNorms.size() ? style.edgeNorms[i] : 0.0;
    if (norm > 0) {
      set(e, "color", hex(scale.color(norm)));
      set(e, "penwidth", num(scale.penWidth(norm)));
      set(e, "tooltip", "|grad| = " + GradientScale::formatNorm(norm).toStdString());
    }
  }
  for (size_t i = 0; i < vg.frames.size(); ++i) {
    Agraph_t* sg = gv->frames[i];
    if (!sg) continue;
    set(sg, "style",
        vg.frames[i].region >= 0 ? "dashed,rounded"
        : vg.frames[i].tape >= 0 ? "filled,rounded,dashed"
                                 : "filled,rounded");
    set(sg, "color", hex(style::frameBorder(vg.frames[i])));
    set(sg, "fillcolor", hex(style::frameFill(vg.frames[i], 0)));
  }
  return gv;
}

std::string writeDot(Agraph_t* g) {
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  if (!f) return {};
  agwrite(g, f);
  std::fclose(f);
  std::string out(buf, len);
  std::free(buf);
  return out;
}

}  // namespace gl::ui
