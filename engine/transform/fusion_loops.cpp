#include "engine/transform/fusion_loops.h"

#include <algorithm>
#include <set>

#include "engine/ops/registry.h"

namespace gl {

namespace {

// "less at line 12" (or the bare label when the node has no script line).
std::string where(const Node& n) {
  std::string s(n.opName());
  if (n.loc.known()) s += " at line " + std::to_string(n.loc.line);
  return s;
}

// The nodes of region r that `roots` need, in region order (nodes of other regions are outer
// values and stop the walk).
std::vector<int> sliceOf(const Graph& g, int r, const std::vector<Value>& roots) {
  std::set<int> need;
  std::vector<int> stack;
  auto mark = [&](Value v) {
    if (v.valid() && g.node(v).region == r && need.insert(v.node).second) stack.push_back(v.node);
  };
  for (Value v : roots) mark(v);
  while (!stack.empty()) {
    const Node& n = g.node(stack.back());
    stack.pop_back();
    for (Value v : n.inputs) mark(v);
    for (Value v : n.captures) mark(v);
  }
  std::vector<int> out;
  for (int id : g.region(r).nodes)
    if (need.count(id)) out.push_back(id);
  return out;
}

}  // namespace

ElementMajorLoop analyseElementMajor(const Graph& g, const Node& loop) {
  ElementMajorLoop e;
  auto fail = [&e](std::string why) {
    e.why = std::move(why);
    return e;
  };
  if (!loop.is(NodeKind::While) || loop.regions.size() != 2) return fail("not a while loop");
  const Region& cond = g.region(loop.regions[0]);
  const Region& body = g.region(loop.regions[1]);
  const int nv = loop.control.numVars;

  // Element variables: the float tensors of the first float tensor variable's type and size.
  DType dtype = DType::F32;
  int64_t size = -1;
  for (int j = 0; j < nv; ++j) {
    const TypeInfo& t = loop.type(j);
    if (t.list || !isFloat(t.dtype) || !fullyKnown(t.shape) || numel(t.shape) <= 1) continue;
    if (size < 0) {
      dtype = t.dtype;
      size = numel(t.shape);
    }
    if (t.dtype == dtype && numel(t.shape) == size)
      e.elementVars.push_back(j);
    else
      e.controlVars.push_back(j);
  }
  if (e.elementVars.empty()) return fail("no loop variable is a float tensor");
  for (int j = 0; j < nv; ++j)
    if (std::find(e.elementVars.begin(), e.elementVars.end(), j) == e.elementVars.end() &&
        std::find(e.controlVars.begin(), e.controlVars.end(), j) == e.controlVars.end())
      e.controlVars.push_back(j);
  std::sort(e.controlVars.begin(), e.controlVars.end());

  // What each body node reads: element params (E), control params (C), or neither.
  std::set<int> readsE, readsC;
  std::set<int> elementParams;
  for (int j : e.elementVars) {
    readsE.insert(body.params[size_t(j)].node);
    elementParams.insert(body.params[size_t(j)].node);
  }
  for (int j : e.controlVars) readsC.insert(body.params[size_t(j)].node);
  for (int id : body.nodes) {
    const Node& n = g.node(id);
    if (n.is(NodeKind::Param)) continue;
    if (isControlFlow(n.kind))
      return fail("the body holds a " + std::string(n.opName()) + " (" + where(n) + ")");
    if (n.is(NodeKind::Print)) return fail("the body prints (" + where(n) + ")");
    if (n.is(NodeKind::Primitive) && n.prim->stateful)
      return fail("the body draws random numbers (" + where(n) + ")");
    for (Value v : n.inputs) {
      if (readsE.count(v.node)) readsE.insert(id);
      if (readsC.count(v.node)) readsC.insert(id);
    }
  }

  // The element step: every node it needs reads element values only, and is elementwise.
  std::vector<Value> elementResults;
  for (int j : e.elementVars) elementResults.push_back(body.results[size_t(j)]);
  std::vector<int> members;
  for (int id : sliceOf(g, body.id, elementResults)) {
    const Node& n = g.node(id);
    if (n.is(NodeKind::Param)) {
      if (!elementParams.count(id))
        return fail("the elementwise values read loop variable " + std::to_string(n.paramIndex) +
                    ", which is not carried elementwise");
      continue;
    }
    if (readsC.count(id))
      return fail("the elementwise values read the loop counter (" + where(n) + ")");
    if (!readsE.count(id)) {
      e.hoisted.push_back(id);
      continue;
    }
    DType dt = DType::F32;
    std::string why;
    if (!fusible(g, n, dt, &why)) return fail(why + " (" + where(n) + ")");
    if (dt != dtype || numel(n.type().shape) != size)
      return fail(where(n) + " computes on another type or size than the loop variables");
    members.push_back(id);
  }
  for (Value r : elementResults) {
    const Node& rn = g.node(r);
    if (rn.region == body.id && rn.is(NodeKind::Param) && !elementParams.count(r.node))
      return fail("an elementwise variable takes the value of a control variable");
  }
  if (members.empty()) return fail("the body does no elementwise work");

  // The control slice and the condition must not read element values.
  std::vector<Value> controlResults;
  for (int j : e.controlVars) controlResults.push_back(body.results[size_t(j)]);
  for (int id : sliceOf(g, body.id, controlResults)) {
    const Node& n = g.node(id);
    if (readsE.count(id))
      return fail("a control variable depends on the elementwise values (" + where(n) + ")");
    if (!n.is(NodeKind::Param)) e.controlNodes.push_back(id);
  }
  std::set<int> elementCondParams;
  for (int j : e.elementVars) elementCondParams.insert(cond.params[size_t(j)].node);
  std::set<int> condReadsE(elementCondParams);
  for (int id : sliceOf(g, cond.id, cond.results)) {
    const Node& n = g.node(id);
    for (Value v : n.inputs)
      if (condReadsE.count(v.node)) condReadsE.insert(id);
    if (condReadsE.count(id) && !n.is(NodeKind::Param))
      return fail("the trip count depends on the carried values (" + where(n) + ")");
    if (isControlFlow(n.kind) || n.is(NodeKind::Print) ||
        (n.is(NodeKind::Primitive) && n.prim->stateful))
      return fail("the condition runs " + where(n));
    if (!n.is(NodeKind::Param)) e.condNodes.push_back(id);
  }
  e.program = compileProgram(g, members, elementResults);
  return e;
}

}  // namespace gl
