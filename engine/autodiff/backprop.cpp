#include "engine/autodiff/backprop.h"

#include <algorithm>
#include <unordered_set>

#include "engine/autodiff/custom_gradient.h"
#include "engine/control/kind.h"
#include "engine/ops/registry.h"

namespace gl {

bool blocksGradient(const Node& n) {
  // A primitive that names why it has no gradient (stop_gradient, argmax) blocks on purpose.
  if (n.prim) return !n.prim->differentiable || !n.prim->vjp || !n.prim->noGradient.empty();
  if (const ControlKind* k = findControlKind(n.kind)) return k->vjp == nullptr;
  return true;  // leaves and prints
}

namespace {

bool carriesGradient(const TypeInfo& t) { return isFloat(t.dtype); }

// Only the targets' ancestors can carry a gradient to them, so reverse mode visits those and
// nothing else: a query costs the size of the program that computes its targets, not of
// everything traced before it (seed-b asks one gradient per step output; walking every earlier
// node made tracing quadratic in the step count).
std::vector<int> candidateNodes(const Graph& g, const BackpropRequest& req) {
  std::unordered_set<int> regions;
  if (req.onlyRegion >= 0) {
    regions.insert(req.onlyRegion);
  } else {
    for (Value t : req.targets)
      for (int r = g.node(t).region; r >= 0; r = g.region(r).parent) regions.insert(r);
  }
  std::unordered_set<int> seen;
  std::vector<int> ids;
  std::vector<int> stack;
  for (Value t : req.targets) stack.push_back(t.node);
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    const Node& n = g.node(id);
    if (!regions.count(n.region) || !seen.insert(id).second) continue;
    ids.push_back(id);
    for (Value v : n.inputs) stack.push_back(v.node);
    for (Value v : n.captures) stack.push_back(v.node);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

bool fedBy(const Node& n, const std::set<Value>& values) {
  for (Value v : n.inputs)
    if (values.count(v)) return true;
  for (Value v : n.captures)
    if (values.count(v)) return true;
  return false;
}

}  // namespace

PathAnalysis analyzePaths(const Graph& g, const BackpropRequest& req, PathDetail detail) {
  const bool explain = detail == PathDetail::Explain;
  PathAnalysis p;
  p.nodes = candidateNodes(g, req);
  for (Value s : req.sources) {
    if (explain) p.connected.insert(s);
    if (carriesGradient(g.type(s))) p.reached.insert(s);
  }
  std::vector<PathStop> fed;  // nodes a gradient reaches but does not pass
  for (int id : p.nodes) {
    const Node& n = g.node(id);
    if (explain && fedBy(n, p.connected))
      for (int i = 0; i < int(n.outputs.size()); ++i) p.connected.insert({id, i});
    if (!fedBy(n, p.reached)) continue;
    bool floatOut = false;
    for (const TypeInfo& t : n.outputs) floatOut = floatOut || carriesGradient(t);
    if (blocksGradient(n) || !floatOut) {
      if (explain) fed.push_back({id, StopReason::NoGradient});
    } else if (n.recordingStopped) {
      if (explain) fed.push_back({id, StopReason::RecordingStopped});
    } else if (req.eligible && !req.eligible(n)) {
      if (explain) fed.push_back({id, StopReason::NotEligible});
    } else {
      p.active.insert(id);
      for (int i = 0; i < int(n.outputs.size()); ++i)
        if (carriesGradient(n.outputs[size_t(i)])) p.reached.insert({id, i});
    }
  }
  if (!explain) return p;
  // A stop matters only on the way to a target.
  std::set<Value> need(req.targets.begin(), req.targets.end());
  std::set<int> needed;
  for (auto it = p.nodes.rbegin(); it != p.nodes.rend(); ++it) {
    const Node& n = g.node(*it);
    bool any = false;
    for (int i = 0; i < int(n.outputs.size()); ++i) any = any || need.count({n.id, i});
    if (!any) continue;
    needed.insert(n.id);
    for (Value v : n.inputs) need.insert(v);
    for (Value v : n.captures) need.insert(v);
  }
  for (const PathStop& s : fed)
    if (needed.count(s.node)) p.stops.push_back(s);
  return p;
}

namespace {

// The seed of a target: the given one, or ones.
Value seedOf(Builder& b, const BackpropRequest& req, size_t i) {
  const Value t = req.targets[i];
  Value seed = i < req.seeds.size() ? req.seeds[i] : Value{};
  if (seed.valid()) return seed;
  const TypeInfo& ty = b.graph().type(t);
  if (!fullyKnown(ty.shape)) return b.onesLike(t);
  return b.op1(
      "fill", {},
      Attrs{{"dtype", std::string(dtypeName(ty.dtype))}, {"shape", ty.shape}, {"value", 1.0}});
}

// Body requests of control-flow VJPs: the body's nodes that are not under stop_recording.
std::map<Value, Value> bodyBackprop(Builder& b, const BodyGradRequest& body) {
  BackpropRequest req;
  req.onlyRegion = body.region;
  req.targets = body.targets;
  req.seeds = body.seeds;
  req.sources = body.sources;
  req.eligible = [](const Node& n) { return !n.recordingStopped; };
  return backprop(b, req);
}

}  // namespace

std::map<Value, Value> backprop(Builder& b, const BackpropRequest& req, PathAnalysis* paths) {
  PhaseScope phase(b, Phase::Backward);
  const Graph& g = b.graph();
  PathAnalysis p = analyzePaths(g, req, paths ? PathDetail::Explain : PathDetail::Reach);

  // Adjoint contributions, summed when the producer is reached.
  std::map<Value, std::vector<Value>> contrib;
  for (size_t i = 0; i < req.targets.size(); ++i)
    if (p.reached.count(req.targets[i])) contrib[req.targets[i]].push_back(seedOf(b, req, i));
  static const BodyBackprop kBody = bodyBackprop;
  for (auto it = p.nodes.rbegin(); it != p.nodes.rend(); ++it) {
    const int id = *it;
    if (!p.active.count(id)) continue;
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
    std::vector<Value> gradientOf = n.inputs;
    if (runs(n, prims::customGradient())) {
      for (size_t i = 0; i < gout.size(); ++i)
        if (!gout[i].valid()) gout[i] = b.zerosLike({id, int(i)});
      grads = customGradient(g, id)(gout);
    } else if (n.prim) {
      VjpContext ctx{b, n, n.inputs, {}, gout, {}};
      for (int i = 0; i < int(n.outputs.size()); ++i) ctx.out.push_back({id, i});
      for (Value v : n.inputs) ctx.needs.push_back(p.reached.count(v) > 0);
      grads = n.prim->vjp(ctx);
    } else {
      std::vector<bool> needs;
      for (Value v : n.inputs) needs.push_back(p.reached.count(v) > 0);
      for (Value v : n.captures) needs.push_back(p.reached.count(v) > 0);
      gradientOf.insert(gradientOf.end(), n.captures.begin(), n.captures.end());
      ControlVjpContext ctx{b, g.node(id), gout, needs, kBody};
      grads = controlKind(n.kind).vjp(ctx);
    }
    for (size_t i = 0; i < grads.size() && i < gradientOf.size(); ++i)
      if (grads[i].valid() && p.reached.count(gradientOf[i]))
        contrib[gradientOf[i]].push_back(grads[i]);
  }
  std::map<Value, Value> out;
  for (Value s : req.sources) {
    auto c = contrib.find(s);
    if (c != contrib.end() && !c->second.empty()) out[s] = sumAll(b, c->second);
  }
  if (paths) *paths = std::move(p);
  return out;
}

}  // namespace gl
