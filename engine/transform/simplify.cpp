#include "engine/transform/simplify.h"

#include "engine/ops/registry.h"

namespace gl {

namespace {

// A negation read by input `negAt` of `consumer`: the consumer becomes `becomes` of its other
// operand and the negation's operand, in that order.
struct NegationRule {
  const Primitive& (*consumer)();
  int negAt;
  const Primitive& (*becomes)();
};

constexpr NegationRule kNegationRules[] = {
    // x + -y = x - y
    {prims::add, 1, prims::sub},
    // -x + y = y - x (addition commutes exactly)
    {prims::add, 0, prims::sub},
    // x - -y = x + y
    {prims::sub, 1, prims::add},
};

// How many places read each node's values: inputs, captures, saved values, region results,
// loop bounds and the fetches. A value read once, by one input, has no other reader.
std::vector<int> readersOf(const Graph& g, const std::vector<Value>& fetches) {
  std::vector<int> readers(size_t(g.numNodes()), 0);
  auto read = [&](Value v) {
    if (v.valid()) ++readers[size_t(v.node)];
  };
  for (const Node& n : g.nodes()) {
    for (const auto* values : {&n.inputs, &n.captures, &n.saved})
      for (Value v : *values) read(v);
    read(n.control.independent.limit);
  }
  for (int r = 0; r < g.numRegions(); ++r) {
    const Region& reg = g.region(r);
    for (Value v : reg.results) read(v);
    read(reg.iterationIndex);
    for (const auto& [forward, inside] : reg.savedReads) {
      read(forward);
      read(inside);
    }
  }
  for (Value v : fetches) read(v);
  return readers;
}

bool sameFloatType(const Graph& g, const Node& consumer, const Node& negation, Value other) {
  const DType t = consumer.type().dtype;
  return isFloat(t) && g.type(negation.inputs[0]).dtype == t && g.type(other).dtype == t &&
         negation.type().dtype == t;
}

}  // namespace

std::vector<SimplifiedNode> simplifyForRun(const Graph& g, const std::vector<Value>& fetches) {
  std::vector<SimplifiedNode> out;
  std::vector<int> readers;  // counted on the first candidate only
  for (const Node& c : g.nodes()) {
    if (!c.is(NodeKind::Primitive) || c.inputs.size() != 2) continue;
    for (const NegationRule& rule : kNegationRules) {
      if (!runs(c, rule.consumer())) continue;
      const Value negated = c.inputs[size_t(rule.negAt)];
      const Value other = c.inputs[size_t(1 - rule.negAt)];
      if (!negated.valid() || !other.valid()) continue;
      const Node& p = g.node(negated);
      if (!p.is(NodeKind::Primitive) || !runs(p, prims::neg()) || p.inputs.size() != 1 ||
          p.region != c.region || !sameFloatType(g, c, p, other))
        continue;
      if (readers.empty()) readers = readersOf(g, fetches);
      if (readers[size_t(p.id)] != 1) continue;
      SimplifiedNode s{c, p.id};
      s.node.prim = &rule.becomes();
      // primName stays: messages and reports name the op the user wrote.
      s.node.inputs = {other, p.inputs[0]};
      out.push_back(std::move(s));
      break;
    }
  }
  return out;
}

}  // namespace gl
