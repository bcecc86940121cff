// Reverse mode through control flow. Each rule builds a reverse node of the same kind whose
// body differentiates the forward body; forward values the reverse body needs are saved per
// iteration by the forward node (TensorFlow while_v2's accumulators), except constants, which
// are copied. A body whose VJPs need no forward value therefore saves nothing.
#include <map>
#include <set>

#include "engine/autodiff/backprop.h"
#include "engine/control/control_flow.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"

namespace gl {

namespace {

Value zerosOf(Builder& b, Value like) { return b.zerosLike(like); }

// Sources of a body's backprop: the float params listed plus the needed captures.
std::vector<Value> neededCaptures(const Node& n, const std::vector<bool>& needs, size_t nIn) {
  std::vector<Value> caps;
  for (size_t i = 0; i < n.captures.size(); ++i)
    if (needs[nIn + i]) caps.push_back(n.captures[i]);
  return caps;
}

bool eligibleInBody(const Node& n) { return !n.recordingStopped; }

// y = while_loop(cond, body, x)
// dx: a reverse loop runs the body's VJP from the last iteration to the first
std::vector<Value> whileVjp(Builder& b, const Node& wIn, const std::vector<Value>& gout,
                            const std::vector<bool>& needs) {
  const int wid = wIn.id;
  Graph& g = b.graph();
  const int nv = whileVarCount(g.node(wid));
  const int bodyR = g.node(wid).regions[1];
  const std::vector<Value> inputs = g.node(wid).inputs;
  const std::vector<Value> caps = neededCaptures(g.node(wid), needs, inputs.size());
  std::vector<int> adjOf;
  for (int j = 0; j < nv; ++j)
    if (isFloat(g.node(wid).type(j).dtype)) adjOf.push_back(j);

  std::vector<Value> init;
  init.push_back(b.op1("sub", {Value{wid, nv}, b.scalar(1, DType::I32)}));
  for (int j : adjOf)
    init.push_back(gout[size_t(j)].valid() ? gout[size_t(j)] : zerosOf(b, {wid, j}));
  for (Value c : caps) init.push_back(zerosOf(b, c));

  auto condFn = [](Builder& bb, const std::vector<Value>& p) {
    return bb.op1("greater_equal", {p[0], bb.scalar(0, DType::I32)});
  };
  auto bodyFn = [&](Builder& bb, const std::vector<Value>& p) {
    Region& rev = bb.graph().region(bb.currentRegion());
    rev.forwardOf = bodyR;
    rev.iterationIndex = p[0];
    const Region& fwd = bb.graph().region(bodyR);
    BackpropRequest req;
    req.onlyRegion = bodyR;
    req.eligible = eligibleInBody;
    for (size_t k = 0; k < adjOf.size(); ++k) {
      req.targets.push_back(fwd.results[size_t(adjOf[k])]);
      req.seeds.push_back(p[1 + k]);
      req.sources.push_back(fwd.params[size_t(adjOf[k])]);
    }
    for (Value c : caps) req.sources.push_back(c);
    // A result that is directly a source (a param, or a capture we differentiate) is seeded
    // by backprop itself; one that is an outer value we do not differentiate has no path.
    std::map<Value, Value> adj = backprop(bb, req);
    std::map<Value, std::vector<Value>> direct;
    const std::set<Value> sources(req.sources.begin(), req.sources.end());
    for (size_t k = 0; k < req.targets.size(); ++k) {
      Value t = req.targets[k];
      const Node& tn = bb.graph().node(t);
      if ((tn.region != bodyR || tn.is(NodeKind::Param)) && !sources.count(t) && !adj.count(t))
        direct[t].push_back(req.seeds[k]);
    }
    auto total = [&](Value src) -> Value {
      std::vector<Value> parts;
      if (auto it = adj.find(src); it != adj.end()) parts.push_back(it->second);
      if (auto it = direct.find(src); it != direct.end())
        parts.insert(parts.end(), it->second.begin(), it->second.end());
      return parts.empty() ? Value{} : sumAll(bb, parts);
    };
    std::vector<Value> out{bb.op1("sub", {p[0], bb.scalar(1, DType::I32)})};
    for (size_t k = 0; k < adjOf.size(); ++k) {
      Value a = total(fwd.params[size_t(adjOf[k])]);
      out.push_back(a.valid() ? a : zerosOf(bb, p[1 + k]));
    }
    for (size_t i = 0; i < caps.size(); ++i) {
      Value a = total(caps[i]);
      Value acc = p[1 + adjOf.size() + i];
      out.push_back(a.valid() ? sumAll(bb, {acc, a}) : acc);
    }
    return out;
  };
  WhileOptions opt;
  opt.parallelIterations = 1;
  opt.name = g.node(wid).name.empty() ? "" : g.node(wid).name + "_grad";
  std::vector<Value> outs = whileLoop(b, condFn, bodyFn, init, opt);
  Node& rev = b.graph().node(outs[0].node);
  rev.forwardNode = wid;
  rev.control.adjointOf = adjOf;

  std::vector<Value> grads(inputs.size() + g.node(wid).captures.size());
  for (size_t k = 0; k < adjOf.size(); ++k) grads[size_t(adjOf[k])] = outs[1 + k];
  size_t ci = 0;
  for (size_t i = 0; i < g.node(wid).captures.size(); ++i)
    if (needs[inputs.size() + i]) grads[inputs.size() + i] = outs[1 + adjOf.size() + ci++];
  return grads;
}

// ys = map_fn(f, xs)
// dxs = map_fn(vjp(f), xs, dys); captured values get the sum over iterations
std::vector<Value> mapVjp(Builder& b, const Node& mIn, const std::vector<Value>& gout,
                          const std::vector<bool>& needs) {
  const int mid = mIn.id;
  Graph& g = b.graph();
  const int bodyR = g.node(mid).regions[0];
  const std::vector<Value> inputs = g.node(mid).inputs;
  const size_t nOut = size_t(savedBase(g.node(mid)));
  const std::vector<Value> caps = neededCaptures(g.node(mid), needs, inputs.size());
  std::vector<Value> elems;
  for (size_t j = 0; j < nOut; ++j)
    elems.push_back(gout[j].valid() ? gout[j] : zerosOf(b, {mid, int(j)}));
  auto fn = [&](Builder& bb, const std::vector<Value>& slices) {
    Region& rev = bb.graph().region(bb.currentRegion());
    rev.forwardOf = bodyR;
    const Region& fwd = bb.graph().region(bodyR);
    BackpropRequest req;
    req.onlyRegion = bodyR;
    req.eligible = eligibleInBody;
    for (size_t j = 0; j < nOut; ++j) {
      req.targets.push_back(fwd.results[j]);
      req.seeds.push_back(slices[j]);
    }
    for (size_t i = 1; i < fwd.params.size(); ++i) req.sources.push_back(fwd.params[i]);
    for (Value c : caps) req.sources.push_back(c);
    // Results that are params or captures are sources: backprop seeds them itself.
    std::map<Value, Value> adj = backprop(bb, req);
    std::vector<Value> out;
    for (size_t i = 1; i < fwd.params.size(); ++i) {
      auto it = adj.find(fwd.params[i]);
      out.push_back(it != adj.end() ? it->second : zerosOf(bb, fwd.params[i]));
    }
    for (Value c : caps) {
      auto it = adj.find(c);
      out.push_back(it != adj.end() ? it->second : zerosOf(bb, c));
    }
    return out;
  };
  std::vector<Value> outs = mapFn(b, fn, elems, g.node(mid).control.parallelIterations);
  std::vector<Value> grads(inputs.size() + g.node(mid).captures.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (needs[i]) grads[i] = outs[i];
  size_t ci = 0;
  for (size_t i = 0; i < g.node(mid).captures.size(); ++i)
    if (needs[inputs.size() + i])
      grads[inputs.size() + i] = ops::reduceSum(b, outs[inputs.size() + ci++], {0});
  return grads;
}

// y = cond(p, f, g)
// dcaptures = cond(p, vjp(f), vjp(g)); no gradient into p
std::vector<Value> condVjp(Builder& b, const Node& cIn, const std::vector<Value>& gout,
                           const std::vector<bool>& needs) {
  const int cid = cIn.id;
  Graph& g = b.graph();
  const Node& c = g.node(cid);
  const size_t nOut = size_t(savedBase(c));
  const std::vector<Value> caps = neededCaptures(c, needs, c.inputs.size());
  const Value pred = c.inputs[0];
  const int thenR = c.regions[0], elseR = c.regions[1];
  std::vector<Value> seeds;
  for (size_t j = 0; j < nOut; ++j)
    seeds.push_back(gout[j].valid() ? gout[j] : zerosOf(b, {cid, int(j)}));
  auto branch = [&](int fwdR) {
    return [&, fwdR](Builder& bb) {
      bb.graph().region(bb.currentRegion()).forwardOf = fwdR;
      const Region& fwd = bb.graph().region(fwdR);
      BackpropRequest req;
      req.onlyRegion = fwdR;
      req.eligible = eligibleInBody;
      req.targets = fwd.results;
      req.seeds = seeds;
      req.sources = caps;
      // A branch returning a captured value as is: backprop seeds it (it is a source).
      std::map<Value, Value> adj = backprop(bb, req);
      std::vector<Value> out;
      for (Value cap : caps) {
        auto it = adj.find(cap);
        out.push_back(it != adj.end() ? it->second : zerosOf(bb, cap));
      }
      return out;
    };
  };
  std::vector<Value> outs = cond(b, pred, branch(thenR), branch(elseR));
  std::vector<Value> grads(1 + g.node(cid).captures.size());
  size_t ci = 0;
  for (size_t i = 0; i < g.node(cid).captures.size(); ++i)
    if (needs[1 + i]) grads[1 + i] = outs[ci++];
  return grads;
}

const std::map<NodeKind, ControlFlowVjp>& controlFlowVjps() {
  static const std::map<NodeKind, ControlFlowVjp> rules{
      {NodeKind::While, whileVjp}, {NodeKind::Map, mapVjp}, {NodeKind::Cond, condVjp}};
  return rules;
}

}  // namespace

const ControlFlowVjp* findControlFlowVjp(NodeKind kind) {
  auto it = controlFlowVjps().find(kind);
  return it == controlFlowVjps().end() ? nullptr : &it->second;
}

}  // namespace gl
