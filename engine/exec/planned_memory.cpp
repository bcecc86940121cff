#include "engine/exec/planned_memory.h"

#include <string>

#include "engine/tensor/limits.h"

namespace gl {

namespace {

// Bytes of a statically shaped tensor; 0 when a dimension is unknown.
double staticBytes(const TypeInfo& t) {
  if (t.list) return 0;
  double elements = 1;
  for (int64_t d : t.shape) {
    if (d < 0) return 0;
    elements *= double(d);
  }
  return elements * double(dtypeSize(t.dtype));
}

// Kernels may hand back an input's buffer under a new shape (reshape, expand_dims, identity,
// a while loop passing a value through): an output the size of an input may be that input.
bool mayAlias(const Graph& g, const Node& n, const TypeInfo& out) {
  for (Value v : n.inputs) {
    const TypeInfo& in = g.type(v);
    if (!in.list && in.dtype == out.dtype && staticBytes(in) == staticBytes(out)) return true;
  }
  return false;
}

double newBytes(const Graph& g, const Node& n) {
  // Constants and variables are held by the graph and fed placeholders by the caller: both are
  // in `live` already.
  if (!n.is(NodeKind::Primitive) && !isControlFlow(n.kind)) return 0;
  double bytes = 0;
  for (const TypeInfo& t : n.outputs)
    if (!mayAlias(g, n, t)) bytes += staticBytes(t);
  return bytes;
}

}  // namespace

void checkPlannedMemory(const Graph& g, const ExecutionPlan& plan, size_t live, size_t budget) {
  const RegionPlan& top = plan.region(0);
  const auto& nodes = g.region(0).nodes;
  std::vector<double> held(nodes.size(), 0);  // per local slot: bytes its outputs hold
  double total = double(live);
  for (size_t p = 0; p < top.order.size(); ++p) {
    const Node& n = plan.node(top.order[p]);
    const double bytes = newBytes(g, n);
    total += bytes;
    if (total > double(budget))
      throw EngineError("the tensors alive at once at this point of the run need " +
                            humanBytes(total) + ", over the memory budget of " +
                            humanBytes(double(budget)) + kRaiseBudget,
                        n.loc, std::string(n.opName()));
    held[size_t(plan.local(n.id))] = bytes;
    for (int slot : top.freeAfter[p]) {
      total -= held[size_t(slot)];
      held[size_t(slot)] = 0;
    }
  }
}

}  // namespace gl
