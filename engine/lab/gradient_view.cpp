#include "engine/lab/gradient_view.h"

#include <algorithm>
#include <cmath>

#include "engine/control/kind.h"

namespace gl::lab {

std::map<Value, double> loopAdjointNorms(const Graph& g, const RunResult& run, int64_t step) {
  std::map<Value, double> norms;
  for (const Node& n : g.nodes()) {
    const ControlKind* kind = findControlKind(n.kind);
    if (!kind || !kind->edgeAdjoints) continue;
    auto it = run.loops.find(n.forwardNode >= 0 ? n.forwardNode : n.id);
    if (it == run.loops.end() || it->second.adjoints.empty()) continue;
    const int64_t last = int64_t(it->second.adjoints.size()) - 1;
    kind->edgeAdjoints(g, n, it->second, size_t(std::clamp<int64_t>(step, 0, last)), norms);
  }
  return norms;
}

std::map<Value, double> adjointNorms(const Graph& g, const RunResult& run, int64_t step) {
  std::map<Value, double> norms = loopAdjointNorms(g, run, step);
  for (const auto& [forward, adjoints] : g.adjoints) {
    double sq = 0;
    bool any = false;
    for (Value a : adjoints)
      if (auto it = run.valueRecords.find(a); it != run.valueRecords.end()) {
        sq += it->second.l2 * it->second.l2;
        any = true;
      }
    if (any && !norms.count(forward)) norms[forward] = std::sqrt(sq);
  }
  return norms;
}

std::shared_ptr<const std::set<int>> variantNodes(const lang::TracedProgram& program,
                                                  const std::string& variant) {
  if (program.variants.size() < 2) return nullptr;
  const Graph& g = *program.graph;
  auto topOf = [&](int id) {
    while (g.node(id).region > 0) {
      const int owner = g.region(g.node(id).region).owner;
      if (owner < 0) break;
      id = owner;
    }
    return id;
  };
  std::vector<int> stack;
  for (const lang::Variant& v : program.variants) {
    if (v.name != variant) continue;
    for (const lang::Output& o : v.outputs)
      for (const lang::OutputEntry& e : o.entries) {
        if (e.value.valid()) stack.push_back(topOf(e.value.node));
        if (e.whyNode >= 0) stack.push_back(topOf(e.whyNode));
      }
    for (int id : v.loops) stack.push_back(topOf(id));
  }
  if (stack.empty()) return nullptr;
  auto nodes = std::make_shared<std::set<int>>();
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    if (!nodes->insert(id).second) continue;
    const Node& n = g.node(id);
    for (Value v : n.inputs) stack.push_back(topOf(v.node));
    for (Value v : n.captures) stack.push_back(topOf(v.node));
  }
  return nodes;
}

namespace {

// True if `v` is computed from a gradient (a backward node upstream): seed-b's
// tf.stack([tape.gradient(x_t, w) for t ...]) is a gradient matrix though not a gradient itself.
bool derivesFromGradient(const Graph& graph, Value v) {
  std::vector<int> stack{v.node};
  std::set<int> seen;
  while (!stack.empty() && seen.size() < 100000) {
    const int id = stack.back();
    stack.pop_back();
    if (!seen.insert(id).second) continue;
    const Node& n = graph.node(id);
    if (n.phase == Phase::Backward) return true;
    for (Value in : n.inputs) stack.push_back(in.node);
  }
  return false;
}

// The graph value of a variant's output `name` (its first entry), invalid if none.
Value outputValue(const lang::TracedProgram& program, const std::string& variant,
                  const std::string& name) {
  for (const lang::Variant& v : program.variants)
    if (v.name == variant)
      for (const lang::Output& o : v.outputs)
        if (o.name == name && !o.entries.empty()) return o.entries[0].value;
  return {};
}

}  // namespace

const OutputResult* gradientMatrixOutput(const lang::TracedProgram& program,
                                         const VariantRun& run) {
  auto isMatrix = [](const OutputResult& o) {
    if (o.isList || o.entries.empty() || o.entries[0].none()) return false;
    const Datum& d = o.entries[0].value;
    return !d.isList() && isFloat(d.t.dtype()) && d.t.shape().size() == 2 && d.t.shape()[0] > 1 &&
           d.t.shape()[1] > 1;
  };
  for (const OutputResult& o : run.outputs)
    if (o.isGradient && isMatrix(o)) return &o;
  for (const OutputResult& o : run.outputs)
    if (isMatrix(o))
      if (const Value v = outputValue(program, run.name, o.name);
          v.valid() && derivesFromGradient(*program.graph, v))
        return &o;
  return nullptr;
}

}  // namespace gl::lab
