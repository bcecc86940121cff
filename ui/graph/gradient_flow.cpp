#include "ui/graph/gradient_flow.h"

#include <algorithm>

#include "engine/control/control_flow.h"
#include "ui/graph/gradient_scale.h"

namespace gl::ui {

namespace {

// Adjoint norm of loop variable i at iteration t, or -1 when not recorded.
double adjointNorm(const LoopRecord& rec, size_t t, size_t i) {
  if (t >= rec.adjoints.size() || i >= rec.adjoints[t].size()) return -1;
  return rec.adjoints[t][i].l2;
}

void put(std::map<Value, double>& norms, Value v, double norm, bool overwrite = true) {
  if (norm < 0 || !v.valid()) return;
  if (overwrite || !norms.count(v)) norms[v] = norm;
}

// The forward loop's own edges: param i and result i of its body, its inputs and outputs.
void forwardLoopNorms(const Graph& g, const Node& loop, const LoopRecord& rec, size_t t,
                      std::map<Value, double>& norms) {
  const size_t last = rec.adjoints.size() - 1;
  const size_t vars = static_cast<size_t>(whileVarCount(loop));
  const Region& cond = g.region(loop.regions[0]);
  const Region& body = g.region(loop.regions[1]);
  for (size_t i = 0; i < vars; ++i) {
    const double now = adjointNorm(rec, t, i);
    if (i < cond.params.size()) put(norms, cond.params[i], now);
    if (i < body.params.size()) put(norms, body.params[i], now);
    if (i < body.results.size())
      put(norms, body.results[i], adjointNorm(rec, std::min(t + 1, last), i));
    put(norms, Value{loop.id, int(i)}, adjointNorm(rec, last, i));
    // The initial value may feed other consumers too; the loop's own adjoint only fills gaps.
    if (i < loop.inputs.size()) put(norms, loop.inputs[i], adjointNorm(rec, 0, i), false);
  }
}

// The reverse loop carries the adjoints themselves: its var 1 + k is the adjoint of forward
// var adj_of[k]. While it processes forward iteration t its params hold the adjoint at t + 1,
// its results the adjoint at t; it ends with the adjoint at 0.
void reverseLoopNorms(const Graph& g, const Node& rev, const LoopRecord& rec, size_t t,
                      std::map<Value, double>& norms) {
  if (rev.regions.size() < 2) return;
  const size_t last = rec.adjoints.size() - 1;
  const std::vector<int>& adjOf = rev.control.adjointOf;
  const Region& cond = g.region(rev.regions[0]);
  const Region& body = g.region(rev.regions[1]);
  for (size_t k = 0; k < adjOf.size(); ++k) {
    const size_t var = static_cast<size_t>(adjOf[k]), slot = k + 1;
    const double next = adjointNorm(rec, std::min(t + 1, last), var);
    if (slot < cond.params.size()) put(norms, cond.params[slot], next);
    if (slot < body.params.size()) put(norms, body.params[slot], next);
    if (slot < body.results.size()) put(norms, body.results[slot], adjointNorm(rec, t, var));
    put(norms, Value{rev.id, int(slot)}, adjointNorm(rec, 0, var));
  }
}

}  // namespace

std::map<Value, double> gradientNormsAtStep(const Graph& g, const RunResult& run, int64_t step) {
  std::map<Value, double> norms;
  auto stepOf = [step](const LoopRecord& rec) {
    return static_cast<size_t>(std::clamp<int64_t>(step, 0, int64_t(rec.adjoints.size()) - 1));
  };
  for (const Node& n : g.nodes()) {
    if (!n.is(NodeKind::While) || n.regions.size() < 2) continue;
    const bool reverse = n.forwardNode >= 0;
    auto it = run.loops.find(reverse ? n.forwardNode : n.id);
    if (it == run.loops.end() || it->second.adjoints.empty()) continue;
    if (reverse)
      reverseLoopNorms(g, n, it->second, stepOf(it->second), norms);
    else
      forwardLoopNorms(g, n, it->second, stepOf(it->second), norms);
  }
  return norms;
}

void includeRunInScale(GradientScale& scale, const RunResult& run) {
  for (const auto& [id, rec] : run.loops)
    for (const auto& step : rec.adjoints)
      for (const TensorRecord& r : step) scale.include(r.l2);
}

std::map<int, int64_t> loopIterations(const RunResult& run) {
  std::map<int, int64_t> out;
  for (const auto& [id, rec] : run.loops) out[id] = rec.iterations;
  return out;
}

}  // namespace gl::ui
