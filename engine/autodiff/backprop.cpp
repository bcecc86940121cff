#include "engine/autodiff/backprop.h"

#include <algorithm>
#include <set>

#include "engine/ops/registry.h"

namespace gl {

bool blocksGradient(const Node& n) {
  // A primitive that names why it has no gradient (stop_gradient, argmax) blocks on purpose.
  if (n.prim) return !n.prim->differentiable || !n.prim->vjp || !n.prim->noGradient.empty();
  return isLeaf(n.kind) || n.is(NodeKind::Print);
}

static bool carriesGradient(const TypeInfo& t) { return isFloat(t.dtype); }

Value sumAll(Builder& b, const std::vector<Value>& parts) {
  Value acc = parts.at(0);
  for (size_t i = 1; i < parts.size(); ++i)
    acc = b.op1(b.type(acc).list ? "list_add" : "add", {acc, parts[i]});
  return acc;
}

static std::vector<int> candidateNodes(const Graph& g, const BackpropRequest& req, int maxId) {
  std::vector<int> ids;
  if (req.onlyRegion >= 0) {
    for (int id : g.region(req.onlyRegion).nodes)
      if (id <= maxId) ids.push_back(id);
    return ids;
  }
  std::set<int> regions;
  for (Value t : req.targets)
    for (int r = g.node(t).region; r >= 0; r = g.region(r).parent) regions.insert(r);
  for (int r : regions)
    for (int id : g.region(r).nodes)
      if (id <= maxId) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::map<Value, Value> backprop(Builder& b, const BackpropRequest& req) {
  PhaseScope phase(b, Phase::Backward);
  const Graph& g = b.graph();
  int maxId = -1;
  for (Value t : req.targets) maxId = std::max(maxId, t.node);
  const std::vector<int> ids = candidateNodes(g, req, maxId);

  // Forward: which values depend differentiably on a source.
  std::set<Value> reached;
  for (Value s : req.sources)
    if (carriesGradient(g.type(s))) reached.insert(s);
  std::set<int> active;
  for (int id : ids) {
    const Node& n = g.node(id);
    if (blocksGradient(n) || n.recordingStopped) continue;
    if (req.eligible && !req.eligible(n)) continue;
    bool any = false;
    for (Value v : n.inputs) any = any || reached.count(v);
    for (Value v : n.captures) any = any || reached.count(v);
    if (!any) continue;
    active.insert(id);
    for (int i = 0; i < static_cast<int>(n.outputs.size()); ++i)
      if (carriesGradient(n.outputs[size_t(i)])) reached.insert({id, i});
  }

  // Backward: adjoint contributions, summed when the producer is reached.
  std::map<Value, std::vector<Value>> contrib;
  for (size_t i = 0; i < req.targets.size(); ++i) {
    Value t = req.targets[i];
    if (!reached.count(t)) continue;
    Value seed = i < req.seeds.size() ? req.seeds[i] : Value{};
    if (!seed.valid()) {
      const TypeInfo& ty = g.type(t);
      seed = fullyKnown(ty.shape) ? b.op1("fill", {},
                                          Attrs{{"dtype", std::string(dtypeName(ty.dtype))},
                                                {"shape", ty.shape},
                                                {"value", 1.0}})
                                  : b.onesLike(t);
    }
    contrib[t].push_back(seed);
  }
  for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
    const int id = *it;
    if (!active.count(id)) continue;
    const Node& n = g.node(id);
    std::vector<Value> gout(n.outputs.size());
    bool any = false;
    for (size_t i = 0; i < n.outputs.size(); ++i) {
      auto c = contrib.find({id, int(i)});
      if (c == contrib.end()) continue;
      gout[i] = sumAll(b, c->second);
      c->second = {gout[i]};
      b.graph().adjoints[{id, int(i)}].push_back(gout[i]);
      any = true;
    }
    if (!any) continue;
    b.setLoc(n.loc);
    std::vector<Value> grads;
    std::vector<Value> targetsOfGrads = n.inputs;
    if (n.prim) {
      VjpContext ctx{b, n, n.inputs, {}, gout, {}};
      for (int i = 0; i < int(n.outputs.size()); ++i) ctx.out.push_back({id, i});
      for (Value v : n.inputs) ctx.needs.push_back(reached.count(v) > 0);
      grads = n.prim->vjp(ctx);
    } else if (const ControlFlowVjp* rule = findControlFlowVjp(n.kind)) {
      std::vector<bool> needs;
      for (Value v : n.inputs) needs.push_back(reached.count(v) > 0);
      for (Value v : n.captures) needs.push_back(reached.count(v) > 0);
      targetsOfGrads.insert(targetsOfGrads.end(), n.captures.begin(), n.captures.end());
      grads = (*rule)(b, g.node(id), gout, needs);
    } else {
      throw EngineError("no gradient rule for '" + std::string(n.opName()) + "'", n.loc,
                        std::string(n.opName()));
    }
    for (size_t i = 0; i < grads.size() && i < targetsOfGrads.size(); ++i)
      if (grads[i].valid() && reached.count(targetsOfGrads[i]))
        contrib[targetsOfGrads[i]].push_back(grads[i]);
  }
  std::map<Value, Value> out;
  for (Value s : req.sources) {
    auto c = contrib.find(s);
    if (c != contrib.end() && !c->second.empty()) out[s] = sumAll(b, c->second);
  }
  return out;
}

}  // namespace gl
