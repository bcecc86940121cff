// The batching transform (see batching.h): one pass over a body's nodes in order, keeping for
// each value its batched stand-in.
#include "engine/transform/batching.h"

#include <set>

#include "engine/ops/batch_rules.h"
#include "engine/ops/registry.h"

namespace gl {

namespace {

// Copies regions and nodes; `sub` grows with every copied value, so later nodes read the copies.
class Cloner {
 public:
  Cloner(Builder& b, std::map<Value, Value> sub) : b_(b), sub_(std::move(sub)) {}

  std::vector<Value> node(const Node& n) {
    b_.setLoc(n.loc);
    std::vector<Value> in;
    for (Value v : n.inputs) in.push_back(get(v));
    switch (n.kind) {
      case NodeKind::Primitive: {
        // A custom_gradient node's grad_fn was traced against this node and its region's
        // values; a copy would have no gradient. Refusing makes vectorized_map run the traced
        // function itself, in a loop (control/vectorize.cpp).
        if (n.primName == "custom_gradient")
          throw EngineError(
              "a @tf.custom_gradient function's grad_fn is traced for one "
              "element, so the function runs in a loop",
              n.loc);
        const std::vector<Value> outs = b_.op(std::string(n.primName), in, n.attrs);
        // Side effects (asserts, checks) stay side effects in the copy.
        if (n.sideEffect && !outs.empty()) b_.graph().node(outs[0]).sideEffect = true;
        return outs;
      }
      case NodeKind::Const:
        return {b_.constant(n.value, n.name)};
      case NodeKind::Variable:
        return {b_.variable(n.value, n.name)};
      case NodeKind::Print:
        b_.print(in, n.printPrefix, n.attrs);
        return {};
      case NodeKind::Placeholder:
      case NodeKind::Param:
        throw EngineError("cannot copy a " + std::string(kindName(n.kind)), n.loc);
      case NodeKind::While:
      case NodeKind::Map:
      case NodeKind::Cond:
      case NodeKind::Scan:
        return control(n, in);
    }
    return {};
  }

 private:
  Value get(Value v) const {
    auto it = sub_.find(v);
    return it != sub_.end() ? it->second : v;
  }

  std::vector<Value> control(const Node& n, const std::vector<Value>& in) {
    Node copy;
    copy.kind = n.kind;
    copy.loc = n.loc;
    copy.name = n.name;
    copy.attrs = n.attrs;
    copy.control = n.control;
    copy.control.independent = {};  // the analysis runs again over the finished graph
    copy.sideEffect = n.sideEffect;
    copy.inputs = in;
    const size_t keep = n.control.savedBase > 0 ? size_t(n.control.savedBase) : n.outputs.size();
    copy.outputs.assign(n.outputs.begin(), n.outputs.begin() + long(keep));
    for (int r : n.regions) copy.regions.push_back(region(r));
    b_.setLoc(n.loc);
    std::vector<int> regions = copy.regions;
    Node& added = b_.addNode(std::move(copy));
    for (int r : regions) b_.graph().region(r).owner = added.id;
    std::vector<Value> outs;
    for (size_t i = 0; i < keep; ++i) outs.push_back({added.id, int(i)});
    return outs;
  }

  int region(int r) {
    const Region& src = b_.graph().region(r);
    const int copy = b_.openRegion(src.kind);
    for (Value p : src.params) sub_[p] = b_.addParam(b_.type(p), b_.graph().node(p).name);
    if (src.iterationIndex.valid())
      b_.graph().region(copy).iterationIndex = get(src.iterationIndex);
    for (int id : src.nodes) {
      const Node& m = b_.graph().node(id);
      if (m.is(NodeKind::Param)) continue;
      const std::vector<Value> outs = node(m);
      for (size_t i = 0; i < outs.size(); ++i) sub_[{id, int(i)}] = outs[i];
    }
    std::vector<Value> results;
    for (Value v : src.results) results.push_back(get(v));
    b_.closeRegion(copy, results);
    return copy;
  }

  Builder& b_;
  std::map<Value, Value> sub_;
};

}  // namespace

std::vector<Value> cloneNode(Builder& b, const Node& n, const std::map<Value, Value>& sub) {
  return Cloner(b, sub).node(n);
}

bool isStateful(const Graph& g, const Node& n) {
  if (n.is(NodeKind::Print) || (n.prim && n.prim->stateful)) return true;
  for (int r : n.regions)
    for (int id : g.region(r).nodes)
      if (isStateful(g, g.node(id))) return true;
  return false;
}

Batcher::Batcher(Builder& b, BatchingHooks& hooks, Value countElem)
    : b_(b), hooks_(hooks), countElem_(countElem) {}

BatchedValue Batcher::get(Value v) const {
  auto it = env_.find(v);
  return it != env_.end() ? it->second : BatchedValue{v, false};
}

// The nodes of region r that its results, its side effects or its owner's saved values need
// (a tape inside the function differentiates the owner). A nested vectorized_map
// leaves its traced per-example map unused: batching that would build a loop for nothing.
namespace {

std::set<int> liveNodes(const Graph& g, const Region& r) {
  std::set<int> live;
  std::vector<int> stack;
  auto use = [&](Value v) {
    if (v.valid() && g.node(v).region == r.id && live.insert(v.node).second)
      stack.push_back(v.node);
  };
  for (Value v : r.results) use(v);
  // A reverse body batched in the same function reads what the owner saved here.
  if (r.owner >= 0)
    for (Value v : g.node(r.owner).saved) use(v);
  for (int id : r.nodes)
    if (g.node(id).sideEffect || g.node(id).is(NodeKind::Print)) use({id, 0});
  while (!stack.empty()) {
    const Node& n = g.node(stack.back());
    stack.pop_back();
    for (Value v : n.inputs) use(v);
    for (Value v : n.captures) use(v);
  }
  return live;
}

}  // namespace

std::vector<BatchedValue> Batcher::run(int region, const std::vector<BatchedValue>& params) {
  const Region& r = b_.graph().region(region);
  for (size_t i = 0; i < r.params.size(); ++i) env_[r.params[i]] = params.at(i);
  const std::set<int> live = liveNodes(b_.graph(), r);
  for (int id : r.nodes) {
    const Node& n = b_.graph().node(id);
    if (!n.is(NodeKind::Param) && live.count(id)) batchNode(n);
  }
  std::vector<BatchedValue> results;
  for (Value v : r.results) results.push_back(get(v));
  return results;
}

void Batcher::batchNode(const Node& n) {
  const Graph& g = b_.graph();
  std::vector<BatchedValue> deps;
  bool anyBatched = false;
  for (Value v : n.inputs) deps.push_back(get(v));
  for (Value v : n.captures) deps.push_back(get(v));
  for (const BatchedValue& d : deps) anyBatched = anyBatched || d.batched;
  const bool stateful = isStateful(g, n);
  auto bind = [&](const std::vector<BatchedValue>& outs) {
    for (size_t i = 0; i < outs.size(); ++i) env_[{n.id, int(i)}] = outs[i];
  };
  if (!anyBatched && !stateful) {  // the same for every example: computed once
    std::map<Value, Value> sub;
    for (size_t i = 0; i < deps.size(); ++i)
      sub[i < n.inputs.size() ? n.inputs[i] : n.captures[i - n.inputs.size()]] = deps[i].v;
    std::vector<BatchedValue> outs;
    for (Value v : cloneNode(b_, n, sub)) outs.push_back({v, false});
    bind(outs);
    return;
  }
  b_.setLoc(n.loc);
  const int region = b_.currentRegion();  // a rule that throws may leave a region it opened
  std::string reason =
      stateful ? "a stateful op: each example needs its own draw or print" : "no batching rule";
  if (!stateful && n.prim && n.prim->batch) {
    try {
      // A list op that makes a list from per-lane values makes a per-lane list: every list it
      // reads becomes batched first (a write of a batched value into a shared list).
      bool makesList = false;
      for (const TypeInfo& t : n.outputs) makesList = makesList || t.list;
      for (size_t i = 0; makesList && i < deps.size(); ++i)
        if (!deps[i].batched && b_.type(deps[i].v).list) deps[i] = {batchedList(deps[i].v), true};
    } catch (const EngineError& e) {
      b_.setCurrentRegion(region);
      fallback(n, deps, e.message());
      return;
    }
    std::vector<Value> in;
    std::vector<int> axes;
    for (const BatchedValue& d : deps) {
      in.push_back(d.v);
      axes.push_back(d.batched ? 0 : -1);
    }
    try {
      std::vector<BatchedValue> outs;
      for (Value v : n.prim->batch(b_, *n.prim, in, axes, n.attrs)) outs.push_back({v, true});
      bind(outs);
      return;
    } catch (const EngineError& e) {
      b_.setCurrentRegion(region);
      reason = e.message();
    } catch (const ShapeError& e) {
      b_.setCurrentRegion(region);
      reason = e.what();
    }
  } else if (!stateful && !n.prim) {
    try {
      RegionBatcher inner;
      inner.region = [this](int r, const std::vector<BatchedValue>& params) {
        return run(r, params);
      };
      inner.list = [this](Value list) { return batchedList(list); };
      inner.value = [this](Value v) { return get(v); };
      if (auto outs = hooks_.controlRule(b_, n, deps, inner)) {
        bind(*outs);
        return;
      }
    } catch (const EngineError& e) {
      b_.setCurrentRegion(region);
      reason = e.message();
    } catch (const ShapeError& e) {
      b_.setCurrentRegion(region);
      reason = e.what();
    }
  }
  fallback(n, deps, reason);
}

Value Batcher::batchedList(Value list) { return batchedList(list, b_.type(list).shape); }

Value Batcher::batchedList(Value list, const Shape& elemHint) {
  if (auto it = batchedLists_.find(list); it != batchedLists_.end()) return it->second;
  const Node& p = b_.graph().node(list);
  if (!p.prim || !p.prim->batch)
    throw EngineError("a TensorArray from " + hooks_.displayName(p) +
                      " is shared by all lanes and cannot take per-lane entries");
  // p is a node of the batched graph with unbatched inputs: its lists become batched, its
  // tensors stay shared (the rule broadcasts them), and a list_new gets the batch size.
  std::vector<Value> in;
  std::vector<int> axes;
  for (Value v : p.inputs) {
    const bool isList = b_.type(v).list;
    in.push_back(isList ? batchedList(v, elemHint) : v);
    axes.push_back(isList ? 0 : -1);
  }
  if (in.empty()) {
    in.push_back(countElem_);
    axes.push_back(0);
  }
  const Primitive& prim = *p.prim;
  Attrs attrs = p.attrs;
  // A TensorArray made without element_shape learns it from its first write; its batched
  // version needs it before, to broadcast shared writes: the list's type after them knows it.
  if (p.inputs.empty() && attrs.ints("elem_shape").empty() && !elemHint.empty())
    attrs.set("elem_shape", elemHint);
  b_.setLoc(p.loc);
  const Value out = prim.batch(b_, prim, in, axes, attrs).at(size_t(list.index));
  batchedLists_[list] = out;
  return out;
}

void Batcher::fallback(const Node& n, const std::vector<BatchedValue>& deps,
                       const std::string& reason) {
  // A loop over the batch stacks tensors; a list in or out of it would need its lanes' entries
  // stacked (and map_fn's VJP cannot return a captured list's adjoint): the whole map loops.
  const std::string at = n.loc.known() ? " at line " + std::to_string(n.loc.line) : "";
  for (const TypeInfo& t : n.outputs)
    if (t.list)
      throw EngineError(hooks_.displayName(n) + at +
                            " makes a TensorArray, which a loop over the batch cannot stack (" +
                            reason + ")",
                        n.loc);
  for (const BatchedValue& d : deps)
    if (b_.type(d.v).list)
      throw EngineError(hooks_.displayName(n) + at +
                            " reads a TensorArray, which a loop over the batch cannot take (" +
                            reason + ")",
                        n.loc);
  std::vector<Value> elems;
  std::vector<int> slot(deps.size(), -1);
  for (size_t i = 0; i < deps.size(); ++i) {
    if (!deps[i].batched) continue;
    for (size_t k = 0; k < elems.size() && slot[i] < 0; ++k)
      if (elems[k] == deps[i].v) slot[i] = int(k);
    if (slot[i] < 0) {
      slot[i] = int(elems.size());
      elems.push_back(deps[i].v);
    }
  }
  if (elems.empty()) elems.push_back(countElem_);
  auto body = [&](Builder& bb, const std::vector<Value>& slices) {
    std::map<Value, Value> sub;
    for (size_t i = 0; i < deps.size(); ++i) {
      const Value orig = i < n.inputs.size() ? n.inputs[i] : n.captures[i - n.inputs.size()];
      sub[orig] = slot[i] >= 0 ? slices[size_t(slot[i])] : deps[i].v;
    }
    return cloneNode(bb, n, sub);
  };
  b_.setLoc(n.loc);
  BatchingHooks::Loop loop = hooks_.loop(b_, elems, body);
  // A loop that prints is kept though nothing reads it, as the print itself would be.
  if (n.is(NodeKind::Print) || n.sideEffect) b_.graph().node(loop.node).sideEffect = true;
  std::vector<BatchedValue> outs;
  for (Value v : loop.outputs) outs.push_back({v, true});
  for (size_t i = 0; i < outs.size(); ++i) env_[{n.id, int(i)}] = outs[i];
  fallbacks_.push_back({loop.node, hooks_.displayName(n), n.loc, reason});
}

}  // namespace gl
