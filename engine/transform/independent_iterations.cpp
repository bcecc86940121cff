#include "engine/transform/independent_iterations.h"

#include "engine/ops/registry.h"

namespace gl {

namespace {

bool usedBy(const Graph& g, const Region& body, Value v, int except) {
  for (int id : body.nodes) {
    if (id == except) continue;
    const Node& m = g.node(id);
    for (Value u : m.inputs)
      if (u == v) return true;
    for (Value u : m.captures)
      if (u == v) return true;
  }
  return false;
}

// cond: less(counter param, limit) with limit a constant of the cond or a value from outside.
bool readCounter(const Graph& g, const Node& loop, IndependentIterations& out) {
  const Region& cond = g.region(loop.regions[0]);
  const Node& c = g.node(cond.results[0]);
  if (!runs(c, prims::less()) || !c.inputs[0].valid()) return false;
  const Node& counter = g.node(c.inputs[0]);
  if (!counter.is(NodeKind::Param) || counter.region != cond.id) return false;
  const Node& limit = g.node(c.inputs[1]);
  if (limit.region == cond.id) {
    if (!limit.is(NodeKind::Const)) return false;
    out.constantLimit = limit.value.at(0);
  } else {
    out.limit = c.inputs[1];
  }
  out.counter = counter.paramIndex;
  return true;
}

// body: counter + 1
bool stepsByOne(const Graph& g, const Region& body, int counter) {
  const Node& inc = g.node(body.results[size_t(counter)]);
  if (!runs(inc, prims::add()) || inc.inputs[0] != body.params[size_t(counter)]) return false;
  const Node& one = g.node(inc.inputs[1]);
  return one.is(NodeKind::Const) && one.value.numel() == 1 && one.value.at(0) == 1.0;
}

}  // namespace

IndependentIterations independentIterations(const Graph& g, const Node& loop) {
  IndependentIterations none, out;
  const int nv = loop.control.numVars;
  if (!loop.is(NodeKind::While) || loop.forwardNode >= 0 || nv < 1 || loop.regions.size() < 2)
    return none;
  if (!readCounter(g, loop, out)) return none;
  const Region& body = g.region(loop.regions[1]);
  if (!stepsByOne(g, body, out.counter)) return none;
  out.writes.assign(size_t(nv), -1);
  for (int j = 0; j < nv; ++j) {
    if (j == out.counter) continue;
    const Value r = body.results[size_t(j)], p = body.params[size_t(j)];
    if (r == p) continue;
    // A TensorArray written at the counter, read by nothing else in the body.
    const Node& w = g.node(r);
    if (!runs(w, prims::listWrite()) || w.inputs[0] != p ||
        w.inputs[1] != body.params[size_t(out.counter)] || usedBy(g, body, p, w.id))
      return none;
    out.writes[size_t(j)] = w.id;
  }
  for (int id : body.nodes)
    if (g.node(id).sideEffect) return none;
  return out;
}

int markIndependentIterations(Graph& g) {
  int marked = 0;
  for (int id = 0; id < g.numNodes(); ++id) {
    Node& n = g.node(id);
    if (!n.is(NodeKind::While)) continue;
    n.control.independent = independentIterations(g, n);
    marked += n.control.independent.marked();
  }
  return marked;
}

}  // namespace gl
