#include "engine/exec/plan.h"

#include <algorithm>

#include "engine/transform/simplify.h"

namespace gl {

ExecutionPlan::ExecutionPlan(const Graph& g, const std::vector<Value>& fetches, bool simplify,
                             bool sideEffects, const std::map<int, std::vector<Datum>>* known,
                             std::pair<int, int> sideEffectNodes, std::pair<int, int> alsoRun)
    : g_(g),
      sideEffects_(sideEffects),
      known_(known),
      sideEffectNodes_(sideEffectNodes),
      alsoRun_(alsoRun) {
  for (const Node& n : g.nodes()) nodes_.push_back(&n);
  absorbed_.assign(size_t(g.numNodes()), -1);
  if (simplify)
    for (SimplifiedNode& s : simplifyForRun(g, fetches)) {
      absorbed_[size_t(s.node.id)] = s.absorbed;
      rewritten_.push_back(std::move(s.node));
      nodes_[size_t(rewritten_.back().id)] = &rewritten_.back();
    }
  local_.assign(size_t(g.numNodes()), -1);
  for (int r = 0; r < g.numRegions(); ++r) {
    const auto& nodes = g.region(r).nodes;
    for (size_t i = 0; i < nodes.size(); ++i) local_[size_t(nodes[i])] = int(i);
  }
  findConsumed();
  usedSaved_.resize(size_t(g.numNodes()));
  for (const Node* n : nodes_)
    for (size_t i = 0; i < n->saved.size(); ++i)
      if (consumed_.count({n->id, n->control.savedBase + int(i)}))
        usedSaved_[size_t(n->id)].push_back(int(i));
  regions_.resize(size_t(g.numRegions()));
  regions_[0] = planRegion(0, fetches);
  for (int r = 1; r < g.numRegions(); ++r) {
    const Region& reg = g.region(r);
    std::vector<Value> roots = reg.results;
    if (reg.owner >= 0) {
      const Node& owner = g.node(reg.owner);
      for (int i : usedSaved_[size_t(owner.id)])
        if (g.node(owner.saved[size_t(i)]).region == r) roots.push_back(owner.saved[size_t(i)]);
    }
    regions_[size_t(r)] = planRegion(r, roots);
  }
}

const std::vector<Datum>* ExecutionPlan::knownValues(int node) const {
  if (!known_) return nullptr;
  auto it = known_->find(node);
  // A loop gains saved outputs when a gradient is built after its values were computed.
  if (it == known_->end() || it->second.size() != g_.node(node).outputs.size()) return nullptr;
  return &it->second;
}

void ExecutionPlan::findConsumed() {
  for (const Node* n : nodes_) {
    for (Value v : n->inputs) consumed_.insert(v);
    for (Value v : n->captures) consumed_.insert(v);
  }
  for (int r = 0; r < g_.numRegions(); ++r)
    for (Value v : g_.region(r).results) consumed_.insert(v);
  // A saved accumulator that is read makes what it saves read too; outer loops save the
  // accumulators of inner ones, so propagate to a fixed point.
  for (bool grew = true; grew;) {
    grew = false;
    for (const Node& n : g_.nodes())
      for (size_t i = 0; i < n.saved.size(); ++i)
        if (consumed_.count({n.id, n.control.savedBase + int(i)}) &&
            consumed_.insert(n.saved[i]).second)
          grew = true;
  }
}

// Marks what the roots need (plus params and side effects), then frees each value after its
// last use unless it is a root.
std::unique_ptr<RegionPlan> ExecutionPlan::planRegion(int r,
                                                      const std::vector<Value>& roots) const {
  const Region& reg = g_.region(r);
  std::vector<char> need(reg.nodes.size(), 0), keep(reg.nodes.size(), 0);
  std::vector<int> stack;
  auto mark = [&](Value v, bool isRoot) {
    if (!v.valid() || g_.node(v).region != r) return;
    const int li = local(v.node);
    if (isRoot) keep[size_t(li)] = 1;
    if (!need[size_t(li)]) {
      need[size_t(li)] = 1;
      if (!(r == 0 && knownValues(v.node))) stack.push_back(v.node);
    }
  };
  for (Value v : roots) mark(v, true);
  for (Value v : reg.params) mark(v, true);
  for (int id : reg.nodes)
    if (sideEffects_ && g_.node(id).sideEffect &&
        (r != 0 || (id >= sideEffectNodes_.first && id < sideEffectNodes_.second)))
      mark({id, 0}, true);
  if (r == 0)
    for (int id : reg.nodes)
      if (id >= alsoRun_.first && id < alsoRun_.second && !g_.node(id).is(NodeKind::Print) &&
          !g_.node(id).is(NodeKind::Placeholder) && !g_.node(id).outputs.empty())
        mark({id, 0}, false);
  while (!stack.empty()) {
    const Node& n = node(stack.back());
    stack.pop_back();
    for (Value v : n.inputs) mark(v, false);
    for (Value v : n.captures) mark(v, false);
  }
  auto plan = std::make_unique<RegionPlan>();
  for (size_t i = 0; i < reg.nodes.size(); ++i)
    if (need[i]) plan->order.push_back(reg.nodes[i]);
  std::vector<int> lastUse(reg.nodes.size(), -1);
  for (size_t p = 0; p < plan->order.size(); ++p) {
    const Node& n = node(plan->order[p]);
    int& own = lastUse[size_t(local(n.id))];
    own = std::max(own, int(p));
    auto use = [&](Value v) {
      if (v.valid() && g_.node(v).region == r) lastUse[size_t(local(v.node))] = int(p);
    };
    for (Value v : n.inputs) use(v);
    for (Value v : n.captures) use(v);
  }
  plan->freeAfter.resize(plan->order.size());
  for (size_t i = 0; i < reg.nodes.size(); ++i)
    if (need[i] && !keep[i] && lastUse[i] >= 0)
      plan->freeAfter[size_t(lastUse[i])].push_back(int(i));
  return plan;
}

}  // namespace gl
