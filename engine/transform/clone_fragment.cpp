// Copying a fragment (see clone_fragment.h): regions first, in id order (a parent is made
// before its children), then the nodes in id order (a node refers only to earlier nodes), then
// what regions and the Graph say about them.
#include "engine/transform/clone_fragment.h"

#include <set>
#include <string>
#include <vector>

#include "engine/tensor/error.h"

namespace gl {

Value FragmentClone::map(Value v) const {
  if (!v.valid()) return v;
  auto it = nodes.find(v.node);
  return it != nodes.end() ? Value{it->second, v.index} : v;
}

namespace {

std::string regionName(const Graph& g, int r) {
  return std::string(regionKindName(g.region(r).kind)) + " region " + std::to_string(r);
}

class FragmentCopier {
 public:
  FragmentCopier(Builder& b, int first, int end, int home, int target,
                 const std::map<Value, Value>& substitute)
      : b_(b),
        g_(b.graph()),
        first_(first),
        end_(end),
        home_(home),
        target_(target),
        substitute_(substitute) {}

  FragmentClone run(const std::function<void(Node&)>& adjust) {
    validate();
    findRegions();
    checkVisible();
    for (int id = first_; id < end_; ++id) checkBudget(g_.node(id));
    for (int r : regions_)
      out_.regions[r] = g_.addRegion(copiedRegion(g_.region(r).parent), g_.region(r).kind);
    for (int id = first_; id < end_; ++id) copyNode(id, adjust);
    for (int r : regions_) fillRegion(r);
    copyAdjoints();
    copyVectorizedMaps();
    return std::move(out_);
  }

 private:
  bool inFragment(int id) const { return id >= first_ && id < end_; }

  // A value as the copy reads it: the copy's, the substitute, or itself.
  Value get(Value v) const {
    if (!v.valid()) return v;
    if (inFragment(v.node)) return {out_.nodes.at(v.node), v.index};
    auto it = substitute_.find(v);
    return it != substitute_.end() ? it->second : v;
  }
  int copiedNode(int id) const { return inFragment(id) ? out_.nodes.at(id) : id; }
  int copiedRegion(int r) const {
    if (r == home_) return target_;
    auto it = out_.regions.find(r);
    return it != out_.regions.end() ? it->second : r;
  }

  void validate() const {
    if (first_ < 0 || first_ > end_ || end_ > g_.numNodes())
      throw EngineError("cloneFragment: nodes [" + std::to_string(first_) + ", " +
                        std::to_string(end_) + ") are not a range of a graph of " +
                        std::to_string(g_.numNodes()) + " nodes");
    for (int r : {home_, target_})
      if (r < 0 || r >= g_.numRegions())
        throw EngineError("cloneFragment: region " + std::to_string(r) + " is not one of the " +
                          std::to_string(g_.numRegions()) + " regions of the graph");
  }

  // The regions made during the call: those owned by a node of the fragment, and those that hold
  // one (a region whose owner was never added, left behind by a failed attempt, is copied
  // unowned). Each must nest in home through regions of the fragment.
  void findRegions() {
    for (int id = first_; id < end_; ++id) {
      const Node& n = g_.node(id);
      if (n.region != home_) regions_.insert(n.region);
      regions_.insert(n.regions.begin(), n.regions.end());
    }
    if (regions_.count(home_))
      throw EngineError("cloneFragment: the call's " + regionName(g_, home_) +
                        " is made or owned by the fragment itself");
    if (regions_.count(target_))
      throw EngineError("cloneFragment: the target " + regionName(g_, target_) +
                        " is a region of the fragment");
    for (int r : regions_) {
      const Region& reg = g_.region(r);
      if (reg.parent != home_ && !regions_.count(reg.parent))
        throw EngineError("cloneFragment: " + regionName(g_, r) +
                          " holds nodes of the fragment, but its parent " +
                          (reg.parent < 0 ? std::string("(none)") : regionName(g_, reg.parent)) +
                          " is neither the call's region " + std::to_string(home_) +
                          " nor made during the call");
      if (reg.owner >= 0 && !inFragment(reg.owner))
        throw EngineError("cloneFragment: " + regionName(g_, r) + " belongs to node " +
                          std::to_string(reg.owner) + ", outside the fragment");
      for (int id : reg.nodes)
        if (!inFragment(id))
          throw EngineError("cloneFragment: " + regionName(g_, r) + " holds node " +
                            std::to_string(id) + ", outside the fragment");
    }
  }

  // What the copy reads from outside must be visible from target (the call's region or one
  // enclosing it): a value of the first call's region that is not, say its argument, needs a
  // substitute.
  void checkVisible() const {
    auto check = [&](Value v) {
      if (!v.valid() || inFragment(v.node)) return;
      const Value read = get(v);
      const int r = g_.node(read).region;
      if (!g_.within(target_, r))
        throw EngineError("cloneFragment: the fragment reads " + g_.node(read).label() + " of " +
                          regionName(g_, r) + ", which the target " + regionName(g_, target_) +
                          " cannot see; give its value at this call in `substitute`");
    };
    for (int id = first_; id < end_; ++id) {
      const Node& n = g_.node(id);
      for (Value v : n.inputs) check(v);
      for (Value v : n.captures) check(v);
    }
    for (int r : regions_)
      for (Value v : g_.region(r).results) check(v);
  }

  void remap(Node& c) const {
    for (Value& v : c.inputs) v = get(v);
    // Two captured values may have the same substitute: a node captures each value once.
    std::vector<Value> captures;
    std::set<Value> seen;
    for (Value v : c.captures)
      if (seen.insert(get(v)).second) captures.push_back(get(v));
    c.captures = std::move(captures);
    for (Value& v : c.saved) v = get(v);
    for (int& r : c.regions) r = copiedRegion(r);
    if (c.forwardNode >= 0) c.forwardNode = copiedNode(c.forwardNode);
    IndependentIterations& ind = c.control.independent;
    ind.limit = get(ind.limit);
    for (int& w : ind.writes)
      if (w >= 0) w = copiedNode(w);
  }

  void copyNode(int id, const std::function<void(Node&)>& adjust) {
    const Node& orig = g_.node(id);
    Node c = orig;
    c.region = copiedRegion(orig.region);
    remap(c);
    // A copy made while building a gradient is part of it; otherwise it keeps its phase.
    if (b_.phase() == Phase::Backward) c.phase = Phase::Backward;
    for (TapeHook* t : b_.tapes())
      if (t->recordingStopped()) c.recordingStopped = true;
    if (adjust) adjust(c);
    Node& added = g_.addNode(std::move(c));
    out_.nodes[id] = added.id;
    for (TapeHook* t : b_.tapes()) t->onNode(added);
  }

  // The budget may have been lowered since the first call (the copies have the same types).
  void checkBudget(const Node& c) const {
    if (!c.is(NodeKind::Primitive) && !c.is(NodeKind::Placeholder)) return;
    const SourceLoc saved = b_.loc();
    b_.setLoc(c.loc);
    for (const TypeInfo& t : c.outputs) b_.checkBudget(t, std::string(c.opName()));
    b_.setLoc(saved);
  }

  void fillRegion(int r) {
    const Region& src = g_.region(r);
    Region& dst = g_.region(out_.regions.at(r));
    dst.owner = src.owner >= 0 ? copiedNode(src.owner) : -1;
    for (Value p : src.params) dst.params.push_back(get(p));
    for (Value v : src.results) dst.results.push_back(get(v));
    dst.forwardOf = src.forwardOf >= 0 ? copiedRegion(src.forwardOf) : -1;
    dst.iterationIndex = get(src.iterationIndex);
    for (const auto& [forward, read] : src.savedReads) dst.savedReads[get(forward)] = get(read);
  }

  // A fragment value's adjoints from gradients built in the fragment give its copy's; those
  // built after the call belong to the first call only. A gradient in the fragment reaching a
  // value from outside (an argument) reaches its substitute.
  void copyAdjoints() {
    std::vector<std::pair<Value, std::vector<Value>>> added;
    for (const auto& [key, adjoints] : g_.adjoints) {
      std::vector<Value> copies;
      for (Value a : adjoints)
        if (inFragment(a.node)) copies.push_back(get(a));
      if (!copies.empty()) added.emplace_back(get(key), std::move(copies));
    }
    for (auto& [key, copies] : added) {
      std::vector<Value>& entry = g_.adjoints[key];
      entry.insert(entry.end(), copies.begin(), copies.end());
    }
  }

  void copyVectorizedMaps() {
    const size_t count = g_.vectorizedMaps.size();
    for (size_t i = 0; i < count; ++i) {
      if (!inFragment(g_.vectorizedMaps[i].mapNode)) continue;
      VectorizedMapRecord rec = g_.vectorizedMaps[i];
      rec.mapNode = copiedNode(rec.mapNode);
      for (BatchFallback& f : rec.fallbacks)
        if (f.loopNode >= 0) f.loopNode = copiedNode(f.loopNode);
      g_.vectorizedMaps.push_back(std::move(rec));
    }
  }

  Builder& b_;
  Graph& g_;
  const int first_, end_, home_, target_;
  const std::map<Value, Value>& substitute_;
  std::set<int> regions_;  // made during the call, in id order
  FragmentClone out_;
};

}  // namespace

FragmentClone cloneFragment(Builder& b, int first, int end, int home, int target,
                            const std::map<Value, Value>& substitute,
                            const std::function<void(Node&)>& adjust) {
  return FragmentCopier(b, first, end, home, target, substitute).run(adjust);
}

}  // namespace gl
