#include "ui/graph/graph_model.h"

#include "engine/control/kind.h"

#include <cstdio>

namespace gl::ui {

namespace {

// Frame owners around a node, innermost first.
std::vector<int> enclosingOwners(const Graph& g, const Node& n) {
  std::vector<int> chain;
  for (int r = n.region; r > 0;) {
    const int owner = g.region(r).owner;
    if (owner < 0) break;
    chain.push_back(owner);
    r = g.node(owner).region;
  }
  return chain;
}

// The outermost folded frame around a node, -1 if none.
int outermostFolded(const Graph& g, const Node& n, const std::set<int>& folded) {
  int found = -1;
  for (int owner : enclosingOwners(g, n))
    if (folded.count(owner)) found = owner;
  return found;
}

bool phaseShown(const Node& n, const GraphFilter& f) {
  return n.phase == Phase::Forward ? f.showForward : f.showBackward;
}

std::string regionTitle(RegionKind kind) {
  if (kind == RegionKind::WhileCond) return "cond";
  if (kind == RegionKind::WhileBody) return "body";
  return std::string(regionKindName(kind));
}

// "1 call", "3 calls".
std::string plural(int64_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string formatScalar(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// A run's count when there is one; a map's or a scan's length is known before any run.
int64_t iterationsOf(const Graph& g, const Node& n, const GraphFilter& f) {
  if (auto it = f.iterations.find(n.id); it != f.iterations.end()) return it->second;
  const size_t first = n.is(NodeKind::Scan) ? size_t(n.control.numVars) : 0;
  if ((n.is(NodeKind::Map) || n.is(NodeKind::Scan)) && first < n.inputs.size()) {
    const Shape& s = g.type(n.inputs[first]).shape;
    if (!s.empty() && s[0] >= 0) return s[0];
  }
  return -1;
}

// Builds the VisibleGraph; one instance per call keeps the helper state together.
class Builder {
 public:
  Builder(const Graph& g, const GraphFilter& f) : g_(g), f_(f) { precompute(); }

  VisibleGraph build() {
    for (const Node& n : g_.nodes()) addNode(n);
    for (const Node& n : g_.nodes()) mapHiddenByFolding(n);
    for (const Node& n : g_.nodes()) addInputEdges(n);
    for (const auto& [owner, entry] : entryOf_) addStructuralEdges(owner, entry);
    return std::move(out_);
  }

  // What build() would make, counted, and the folded nodes among it: the node pass without
  // titles, frames or edges.
  VisibleCount count() const {
    VisibleCount out;
    std::set<int> groups;
    for (const Node& n : g_.nodes()) {
      if (phaseHidden(n) || outermostFolded(n) >= 0) {
        continue;
      }
      if (const int group = foldedGroup(n); group >= 0) {
        if (groups.insert(group).second) out.folded.push_back({-1, group});
        continue;
      }
      if (!isFrameOwner(n)) {
        ++out.nodes;
      } else if (f_.folded.count(n.id)) {
        ++out.nodes;
        out.folded.push_back({n.id, -1});
      } else {
        out.nodes += 2;  // entry and exit
      }
    }
    out.nodes += groups.size();
    return out;
  }

 private:
  // One walk up each node's frames answers every question the passes below ask about it:
  // 34,000-node programs are built node by node several times per open, on the GUI thread.
  void precompute() {
    assignTapes();
    const size_t n = size_t(g_.numNodes());
    hidden_.assign(n, 0);
    folded_.assign(n, -1);
    group_.assign(n, -1);
    regions_.assign(size_t(g_.numRegions()), {});
    for (const Node& node : g_.nodes()) {
      const RegionInfo* r = node.region > 0 ? &regionInfo(node.region) : nullptr;
      if (r && r->top >= 0) {
        hidden_[size_t(node.id)] = r->hidden || !phaseShown(node, f_);
        folded_[size_t(node.id)] = r->folded;
        group_[size_t(node.id)] = r->group;
      } else {  // top-level, or in a region no node owns: the node is its own top
        const TopInfo top = topInfo(node.id);
        hidden_[size_t(node.id)] = top.hidden || !phaseShown(node, f_);
        group_[size_t(node.id)] = top.group;
      }
    }
  }

  // What a top-level node's place says about it and everything inside its frames.
  struct TopInfo {
    bool hidden = false;  // outside the subset
    int group = -1;       // the folded repeat group it belongs to
  };
  TopInfo topInfo(int top) const {
    TopInfo info;
    info.hidden = f_.only && !f_.only->count(top);
    if (f_.repeats && !f_.repeats->empty())
      if (auto it = f_.repeats->groupOf.find(top); it != f_.repeats->groupOf.end())
        if (!f_.unfoldedGroups.count(it->second)) info.group = it->second;
    return info;
  }

  // The same facts for every node of a region, found once per region (a node used to walk up
  // its frames itself: 48,000 walks per fold weighed).
  struct RegionInfo {
    bool known = false;
    bool hidden = false;  // an enclosing frame's phase is hidden, or its top is outside the subset
    int folded = -1;      // the outermost folded frame around it
    int group = -1;
    int top = -1;  // the top-level node whose frames hold it; -1: none (an unowned region)
  };
  const RegionInfo& regionInfo(int r) {
    RegionInfo& info = regions_[size_t(r)];
    if (info.known) return info;
    const int owner = g_.region(r).owner;
    if (owner >= 0) {
      const Node& o = g_.node(owner);
      RegionInfo outer;
      if (o.region > 0) {
        outer = regionInfo(o.region);
      } else {
        const TopInfo top = topInfo(owner);
        outer.hidden = top.hidden;
        outer.group = top.group;
        outer.top = owner;
      }
      info.hidden = outer.hidden || !phaseShown(o, f_);
      info.folded = outer.folded >= 0 ? outer.folded : f_.folded.count(owner) ? owner : -1;
      info.top = outer.top >= 0 ? outer.top : owner;
      if (outer.top < 0) {  // the owner sits in an unowned region: it is the top
        const TopInfo top = topInfo(owner);
        info.hidden = info.hidden || top.hidden;
        info.group = top.group;
      } else {
        info.group = outer.group;
      }
    }
    info.known = true;
    return info;
  }

  bool phaseHidden(const Node& n) const { return hidden_[size_t(n.id)]; }
  int outermostFolded(const Node& n) const { return folded_[size_t(n.id)]; }

  bool visible(const Node& n) const {
    return !phaseHidden(n) && outermostFolded(n) < 0 && foldedGroup(n) < 0;
  }

  // The repeat group a node is hidden in (itself or through its frames), -1 if none.
  int foldedGroup(const Node& n) const { return group_[size_t(n.id)]; }
  int unfoldedGroup(const Node& n) const {
    if (!f_.repeats || n.region > 0) return -1;
    auto it = f_.repeats->groupOf.find(n.id);
    return it != f_.repeats->groupOf.end() && f_.unfoldedGroups.count(it->second) ? it->second : -1;
  }

  const RepeatGroup& repeatGroup(int group) const { return f_.repeats->groups[size_t(group)]; }

  // The one node that stands for a folded group, made when its first shown member is met.
  int groupNode(int group) {
    if (auto it = groupNode_.find(group); it != groupNode_.end()) return it->second;
    const RepeatGroup& rg = repeatGroup(group);
    VisNode v;
    v.key = "g" + std::to_string(group);
    v.node = rg.members.front();
    v.kind = VisNodeKind::Folded;
    v.category = NodeCategory::ControlFlow;
    v.backward = rg.backward;
    v.title = rg.title;
    v.iterations = rg.repeats;
    v.group = group;
    v.frame = groupTape(group);
    if (rg.kind == GroupKind::FunctionCalls) {
      v.op = "tf.function";
      v.subtitle =
          plural(rg.repeats, "call") + ", traced graph of " + plural(rg.nodesPerInstance, "node");
    } else {
      v.op = "repeat";
      v.subtitle =
          plural(rg.nodesPerInstance, "node") + " each, line " + std::to_string(rg.firstLine);
    }
    const int index = push(v);
    groupNode_[group] = index;
    return index;
  }

  int groupFrame(int group) {
    if (auto it = groupFrame_.find(group); it != groupFrame_.end()) return it->second;
    const RepeatGroup& rg = repeatGroup(group);
    VisFrame fr;
    fr.key = "cluster_g" + std::to_string(group);
    fr.group = group;
    fr.parent = groupTape(group);
    fr.calls = rg.kind == GroupKind::FunctionCalls;
    fr.backward = rg.backward;
    fr.iterations = rg.repeats;
    fr.title = rg.kind == GroupKind::FunctionCalls ? rg.title + "  " + plural(rg.repeats, "call")
                                                   : rg.title + "  ×" + std::to_string(rg.repeats);
    if (fr.backward) fr.title += "  (backward)";
    out_.frames.push_back(fr);
    groupFrame_[group] = static_cast<int>(out_.frames.size()) - 1;
    return groupFrame_[group];
  }

  // The frame of tape k (its enclosing tape's frame made first: parents precede children).
  int tapeFrame(int k) {
    if (k < 0) return -1;
    if (auto it = tapeFrame_.find(k); it != tapeFrame_.end()) return it->second;
    const TapeRecord& tape = g_.tapes[size_t(k)];
    VisFrame fr;
    fr.key = "cluster_t" + std::to_string(k);
    fr.tape = k;
    fr.parent = tapeFrame(tapeParent_[size_t(k)]);
    fr.title = "GradientTape, line " + std::to_string(tape.loc.line);
    if (tape.persistent) fr.title += " (persistent)";
    out_.frames.push_back(fr);
    tapeFrame_[k] = static_cast<int>(out_.frames.size()) - 1;
    return tapeFrame_[k];
  }

  // The innermost tape that recorded every member of a group, -1 if none.
  int groupTape(int group) {
    int tape = -2;
    for (int id : repeatGroup(group).members) {
      const int t = tapeOf_[size_t(id)];
      if (tape == -2) tape = t;
      while (tape >= 0 && !tapeHolds(tape, t)) tape = tapeParent_[size_t(tape)];
    }
    return tapeFrame(tape < 0 ? -1 : tape);
  }

  // True if tape `outer` is `inner` or encloses it.
  bool tapeHolds(int outer, int inner) const {
    for (int t = inner; t >= 0; t = tapeParent_[size_t(t)])
      if (t == outer) return true;
    return false;
  }

  // Which tape frame each top-level node goes in. Tapes are taken in opening order; a tape
  // whose top-level ops are neither inside nor apart from each earlier tape's is left out.
  void assignTapes() {
    tapeOf_.assign(size_t(g_.numNodes()), -1);
    tapeParent_.assign(g_.tapes.size(), -1);
    for (size_t k = 0; k < g_.tapes.size(); ++k) {
      std::vector<int> top;
      for (int id : g_.tapes[k].recorded)
        if (id >= 0 && id < g_.numNodes() && g_.node(id).region <= 0) top.push_back(id);
      if (top.empty() || (f_.only && top.back() < f_.firstOwnNode)) continue;
      // Every op must sit in the same frame so far: none (a tape apart from the others) or
      // one tape's (the tape opened inside that one's `with` block).
      const int enclosing = tapeOf_[size_t(top.front())];
      bool nests = true;
      for (int id : top) nests = nests && tapeOf_[size_t(id)] == enclosing;
      if (!nests) continue;
      tapeParent_[k] = enclosing;
      for (int id : top) tapeOf_[size_t(id)] = static_cast<int>(k);
    }
  }

  int frameOf(int owner) {
    if (auto it = frameIndex_.find(owner); it != frameIndex_.end()) return it->second;
    const Node& o = g_.node(owner);
    VisFrame fr;
    fr.key = "cluster_f" + std::to_string(owner);
    fr.owner = owner;
    fr.parent = containingFrame(o);
    fr.backward = o.phase == Phase::Backward;
    fr.iterations = iterationsOf(g_, o, f_);
    fr.title = std::string(displayName(o)) + " #" + std::to_string(owner);
    if (!o.name.empty()) fr.title += " '" + o.name + "'";
    if (fr.iterations >= 0) fr.title += "  ×" + std::to_string(fr.iterations);
    if (fr.backward) fr.title += "  (backward)";
    out_.frames.push_back(fr);
    const int index = static_cast<int>(out_.frames.size()) - 1;
    frameIndex_[owner] = index;
    if (o.regions.size() > 1)
      for (int r : o.regions) {
        VisFrame sub;
        sub.key = fr.key + "_r" + std::to_string(r);
        sub.owner = owner;
        sub.region = r;
        sub.parent = index;
        sub.backward = fr.backward;
        sub.title = regionTitle(g_.region(r).kind);
        out_.frames.push_back(sub);
        regionFrame_[r] = static_cast<int>(out_.frames.size()) - 1;
      }
    return index;
  }

  // The frame a node is drawn in: its region's sub-frame, or its owner's frame; at the top
  // level an unfolded group's frame, else the innermost tape that recorded it.
  int containingFrame(const Node& n) {
    if (n.region <= 0) {
      const int group = unfoldedGroup(n);
      if (group >= 0) return groupFrame(group);
      return tapeFrame(tapeOf_[size_t(n.id)]);
    }
    const int owner = g_.region(n.region).owner;
    if (owner < 0) return -1;
    const int whole = frameOf(owner);
    auto it = regionFrame_.find(n.region);
    return it == regionFrame_.end() ? whole : it->second;
  }

  int push(VisNode v) {
    out_.nodes.push_back(std::move(v));
    return static_cast<int>(out_.nodes.size()) - 1;
  }

  void addNode(const Node& n) {
    if (!phaseHidden(n) && outermostFolded(n) < 0)
      if (const int group = foldedGroup(n); group >= 0) groupNode(group);
    if (!visible(n)) return;
    VisNode v;
    v.node = n.id;
    v.op = std::string(n.opName());
    v.nodeKind = n.kind;
    v.frame = containingFrame(n);
    v.category = categoryOf(n);
    v.backward = n.phase == Phase::Backward;
    v.title = nodeTitle(n);
    v.subtitle = nodeSubtitle(n);
    v.key = "n" + std::to_string(n.id);
    if (!isFrameOwner(n)) {
      out_.nodeIndex[n.id] = push(v);
      return;
    }
    if (f_.folded.count(n.id)) {
      v.kind = VisNodeKind::Folded;
      v.iterations = iterationsOf(g_, n, f_);
      out_.nodeIndex[n.id] = push(v);
      return;
    }
    v.kind = VisNodeKind::Entry;
    v.frame = frameOf(n.id);
    v.subtitle = "enter";
    const int entry = push(v);
    v.kind = VisNodeKind::Exit;
    v.key = "x" + std::to_string(n.id);
    v.title = "exit";
    v.subtitle = plural(int64_t(n.outputs.size()), "output");
    exitOf_[n.id] = push(v);
    entryOf_[n.id] = entry;
    out_.nodeIndex[n.id] = entry;
  }

  // Nodes inside a folded frame are represented by the folded node (made after them).
  void mapHiddenByFolding(const Node& n) {
    if (phaseHidden(n)) return;
    if (const int group = foldedGroup(n); group >= 0) {
      if (auto it = groupNode_.find(group); it != groupNode_.end())
        out_.nodeIndex[n.id] = it->second;
      return;
    }
    const int folded = outermostFolded(n);
    if (folded < 0) return;
    auto it = out_.nodeIndex.find(folded);
    if (it != out_.nodeIndex.end()) out_.nodeIndex[n.id] = it->second;
  }

  int represent(int node, bool asProducer) const {
    if (asProducer)
      if (auto it = exitOf_.find(node); it != exitOf_.end()) return it->second;
    auto it = out_.nodeIndex.find(node);
    return it == out_.nodeIndex.end() ? -1 : it->second;
  }

  void addEdge(int from, int to, Value v, bool structural, bool layoutOnly = false) {
    if (from < 0 || to < 0 || from == to) return;
    auto [it, added] = edgeIndex_.try_emplace({from, to}, static_cast<int>(out_.edges.size()));
    if (added) out_.edges.push_back({from, to, {}, structural, layoutOnly});
    VisEdge& e = out_.edges[static_cast<size_t>(it->second)];
    if (!layoutOnly) e.values.push_back(v);
    e.structural = e.structural && structural;
    e.layoutOnly = e.layoutOnly && layoutOnly;
  }

  // A region node fed only from outside (branches read captures, bodies have constants):
  // without an edge from the entry, dot may rank the entry below its own frame's content.
  bool isRegionRoot(const Node& n, int region) const {
    if (n.is(NodeKind::Param)) return false;
    for (Value v : n.inputs)
      if (g_.within(g_.node(v.node).region, region)) return false;
    return true;
  }

  void addInputEdges(const Node& n) {
    if (phaseHidden(n)) return;
    const int to = represent(n.id, false);
    for (Value v : n.inputs) addEdge(represent(v.node, true), to, v, false);
  }

  void addStructuralEdges(int owner, int entry) {
    const int exit = exitOf_.at(owner);
    for (int r : g_.node(owner).regions) {
      const Region& reg = g_.region(r);
      for (Value p : reg.params) addEdge(entry, represent(p.node, false), p, true);
      for (int id : reg.nodes)
        if (isRegionRoot(g_.node(id), r) && !phaseHidden(g_.node(id)))
          addEdge(entry, represent(id, false), Value{id, 0}, false, true);
      for (Value v : reg.results) addEdge(represent(v.node, true), exit, v, true);
    }
  }

  const Graph& g_;
  const GraphFilter& f_;
  VisibleGraph out_;
  std::map<int, int> frameIndex_, regionFrame_, entryOf_, exitOf_, groupNode_, groupFrame_,
      tapeFrame_;
  std::vector<int> tapeOf_;      // top-level node -> innermost tape with a frame, or -1
  std::vector<int> tapeParent_;  // tape -> the tape whose frame encloses its frame, or -1
  std::map<std::pair<int, int>, int> edgeIndex_;
  std::vector<char> hidden_;         // by the phase filters or the subset
  std::vector<int> folded_, group_;  // outermost folded frame / folded repeat group, or -1
  std::vector<RegionInfo> regions_;
};

}  // namespace

int VisibleGraph::indexOf(int glNode) const {
  auto it = nodeIndex.find(glNode);
  return it == nodeIndex.end() ? -1 : it->second;
}

bool isFrameOwner(const Node& n) { return !n.regions.empty(); }

std::vector<int> frameOwners(const Graph& g) {
  std::vector<int> owners;
  for (const Node& n : g.nodes())
    if (isFrameOwner(n)) owners.push_back(n.id);
  // Outer frames are created after their bodies: reverse id order puts them first.
  return {owners.rbegin(), owners.rend()};
}

std::set<int> defaultFolding(const Graph& g, int maxVisibleNodes) {
  if (g.numNodes() <= maxVisibleNodes) return {};
  std::set<int> nested;
  for (int owner : frameOwners(g))
    if (g.node(owner).region > 0) nested.insert(owner);
  int visibleCount = 0;
  for (const Node& n : g.nodes())
    if (outermostFolded(g, n, nested) < 0) ++visibleCount;
  if (visibleCount <= maxVisibleNodes) return nested;
  const std::vector<int> all = frameOwners(g);
  return {all.begin(), all.end()};
}

VisibleGraph buildVisibleGraph(const Graph& g, const GraphFilter& filter) {
  return Builder(g, filter).build();
}

VisibleCount countVisible(const Graph& g, const GraphFilter& filter) {
  return Builder(g, filter).count();
}

NodeCategory categoryOf(const Node& n) {
  if (isFrameOwner(n)) return NodeCategory::ControlFlow;
  if (n.is(NodeKind::Const) || n.is(NodeKind::Variable) || n.is(NodeKind::Placeholder))
    return NodeCategory::Leaf;
  if (n.is(NodeKind::Param)) return NodeCategory::Param;
  return NodeCategory::Primitive;
}

std::string nodeTitle(const Node& n) {
  std::string s(displayName(n));
  if (n.is(NodeKind::Const) && n.value.numel() == 1 && n.name.empty())
    return s + " " + formatScalar(n.value.at(0));
  if (!n.name.empty()) s += " '" + n.name + "'";
  return s;
}

std::string nodeSubtitle(const Node& n) {
  if (n.outputs.empty()) return {};
  if (isFrameOwner(n)) return "#" + std::to_string(n.id);
  std::string s = n.outputs[0].str();
  if (n.outputs.size() > 1) s += " +" + std::to_string(n.outputs.size() - 1);
  return s;
}

}  // namespace gl::ui
