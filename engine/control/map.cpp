// tf.map_fn: a node owning region {body}, run once per slice of its elements along axis 0.
// Its outputs are the body results, stacked (or, for reverse maps' capture adjoints, summed)
// over the iterations, then (once reverse mode asks) the saved lists.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "engine/control/control_flow.h"
#include "engine/control/kind.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"

namespace gl {

// ---- build ------------------------------------------------------------------------------------

std::vector<Value> mapFn(Builder& b, const MapFn& fn, const std::vector<Value>& elemsIn,
                         int parallelIterations, const std::vector<bool>& summed) {
  const SourceLoc loc = b.loc();
  if (elemsIn.empty()) throw EngineError("map_fn needs at least one tensor", loc, "map_fn");
  std::vector<Value> elems;
  int64_t n = -2;
  for (Value v : elemsIn) {
    elems.push_back(b.resolve(v));
    const TypeInfo& t = b.type(elems.back());
    if (t.list || t.shape.empty())
      throw EngineError("map_fn maps over the first axis of tensors; got " + t.str(), loc,
                        "map_fn");
    if (n != -2 && t.shape[0] >= 0 && n >= 0 && t.shape[0] != n)
      throw EngineError("map_fn elements have different first dimensions: " + std::to_string(n) +
                            " and " + std::to_string(t.shape[0]),
                        loc, "map_fn");
    if (n < 0) n = t.shape[0];
  }
  const int body = b.openRegion(RegionKind::MapBody);
  Value index = b.addParam({DType::I32, {}, false}, "index");
  b.graph().region(body).iterationIndex = index;
  std::vector<Value> slices;
  for (Value v : elems) {
    TypeInfo t = b.type(v);
    t.shape.erase(t.shape.begin());
    slices.push_back(b.addParam(t));
  }
  std::vector<Value> results = fn(b, slices);
  b.setLoc(loc);
  b.closeRegion(body, results);
  Node m;
  m.kind = NodeKind::Map;
  m.loc = loc;
  m.inputs = elems;
  m.regions = {body};
  const std::vector<Value>& bodyResults = b.graph().region(body).results;
  if (summed.size() > bodyResults.size())
    throw EngineError("internal: map_fn has " + std::to_string(bodyResults.size()) +
                          " results but " + std::to_string(summed.size()) + " summed flags",
                      loc, "map_fn");
  bool anySummed = false;
  for (size_t j = 0; j < bodyResults.size(); ++j) {
    TypeInfo t = b.type(bodyResults[j]);
    if (t.list) throw EngineError("map_fn bodies must return tensors", loc, "map_fn");
    const bool sum = j < summed.size() && summed[j];
    if (!sum) t.shape.insert(t.shape.begin(), n);
    anySummed = anySummed || sum;
    m.outputs.push_back(t);
  }
  if (anySummed) {
    m.control.summedOutputs = summed;
    m.control.summedOutputs.resize(bodyResults.size(), false);
  }
  size_t bytes = 0;
  for (const auto& t : m.outputs)
    if (fullyKnown(t.shape)) bytes += size_t(numel(t.shape)) * dtypeSize(t.dtype);
  b.checkBudget(bytes, "map_fn");
  m.control.savedBase = static_cast<int>(m.outputs.size());
  m.control.parallelIterations = parallelIterations;
  Node& added = addControlNode(b, std::move(m));
  std::vector<Value> outs;
  for (size_t i = 0; i < added.outputs.size(); ++i) outs.push_back({added.id, static_cast<int>(i)});
  return outs;
}

namespace {

// ---- execute ----------------------------------------------------------------------------------

// out = a + b elementwise (out may be a).
void addInto(Tensor& out, const Tensor& a, const Tensor& b) {
  auto run = [&](auto* o, const auto* x, const auto* y) {
    for (int64_t k = 0, n = out.numel(); k < n; ++k) o[k] = x[k] + y[k];
  };
  switch (out.dtype()) {
    case DType::F32:
      return run(out.data<float>(), a.data<float>(), b.data<float>());
    case DType::F64:
      return run(out.data<double>(), a.data<double>(), b.data<double>());
    case DType::I32:
      return run(out.data<int32_t>(), a.data<int32_t>(), b.data<int32_t>());
    default:
      throw EngineError("map_fn cannot sum " + std::string(dtypeName(out.dtype())) +
                        " results over its iterations");
  }
}

// A summed output over a run of consecutive iterations, added as they finish. The first
// result is kept as is (it may be shared with the body); the sum of the first two is a tensor
// of its own, and later results are added into it in place.
class RunningSum {
 public:
  void add(const Tensor& t, int64_t index) {
    if (!sum_.defined()) {
      sum_ = t;
      first_ = index;
      return;
    }
    if (t.shape() != sum_.shape() || t.dtype() != sum_.dtype())
      throw EngineError("map_fn body returns shape " + shapeStr(t.shape()) + " at index " +
                        std::to_string(index) + " but " + shapeStr(sum_.shape()) + " at index " +
                        std::to_string(first_));
    if (!owned_) {
      Tensor fresh = Tensor::empty(sum_.dtype(), sum_.shape());
      addInto(fresh, sum_, t);
      sum_ = std::move(fresh);
      owned_ = true;
      return;
    }
    addInto(sum_, sum_, t);
  }
  // Adds the sum of a later run of iterations.
  void merge(RunningSum&& later) {
    if (!later.sum_.defined()) return;
    if (!sum_.defined()) {
      *this = std::move(later);
      return;
    }
    add(later.sum_, later.first_);
  }
  // The total; zeros of the output's type when no iteration ran.
  Tensor total(const TypeInfo& type) const {
    if (sum_.defined()) return sum_;
    Shape s = type.shape;
    for (auto& d : s)
      if (d < 0) d = 0;
    return Tensor::zeros(type.dtype, s);
  }

 private:
  Tensor sum_;
  bool owned_ = false;
  int64_t first_ = -1;
};

void executeMap(ControlRuntime& rt, const Node& n) {
  std::vector<Tensor> elems;
  for (Value v : n.inputs) elems.push_back(rt.value(v).t);
  const int64_t count = elems[0].shape()[0];
  for (const auto& e : elems)
    if (e.shape()[0] != count)
      throw EngineError("map_fn elements have different first dimensions: " +
                        std::to_string(count) + " and " + std::to_string(e.shape()[0]));
  const int body = n.regions[0];
  const size_t numOut = size_t(n.control.savedBase);
  std::vector<size_t> summed;  // the summed outputs' indices
  for (size_t j = 0; j < numOut; ++j)
    if (n.control.summedOutput(j)) summed.push_back(j);
  SavedAccumulators saved(rt, n, count);
  std::vector<std::vector<Datum>> outs(static_cast<size_t>(count));
  // Runs iteration i, adding its summed results to `sums` (one per summed output).
  auto iteration = [&](int64_t i, std::vector<RunningSum>& sums) {
    rt.checkCancelled();
    std::vector<Datum> params{Datum(Tensor::scalar(double(i), DType::I32))};
    for (const auto& e : elems) params.push_back(Datum(sliceRow(e, i)));
    RegionRun run = rt.runRegion(body, params, i);
    for (size_t k = 0; k < summed.size(); ++k) {
      Datum& r = run.results[summed[k]];
      sums[k].add(r.t, i);
      r = Datum();  // the sum holds it now: no iteration's tensor is kept past its turn
    }
    outs[size_t(i)] = std::move(run.results);
    saved.put(size_t(i), run.saved);
  };
  const int threads = int(std::min<int64_t>(n.control.parallelIterations, rt.threads()));
  const bool parallel = rt.parallel() && threads > 1 && count > 1;
  // Summed outputs: one running sum per chunk of consecutive iterations, the chunks' sums added
  // in chunk order, so a given thread count always adds in the same order (the serial executor
  // is one chunk). Without them, iterations are handed out one at a time.
  const int64_t chunks = parallel && !summed.empty() ? std::min<int64_t>(threads, count) : 1;
  std::vector<std::vector<RunningSum>> partial(size_t(chunks),
                                               std::vector<RunningSum>(summed.size()));
  if (!parallel) {
    for (int64_t i = 0; i < count; ++i) iteration(i, partial[0]);
  } else if (summed.empty()) {  // nothing to sum: partial[0] stays empty
    rt.parallelFor(count, threads, [&](int64_t i) { iteration(i, partial[0]); });
  } else {
    std::atomic<bool> failed{false};  // a chunk that failed stops the others at their next step
    rt.parallelFor(chunks, threads, [&](int64_t c) {
      for (int64_t i = c * count / chunks; i < (c + 1) * count / chunks; ++i) {
        if (failed.load(std::memory_order_relaxed)) return;
        try {
          iteration(i, partial[size_t(c)]);
        } catch (...) {
          failed.store(true, std::memory_order_relaxed);
          throw;
        }
      }
    });
  }
  std::vector<Datum> result;
  for (size_t j = 0, k = 0; j < numOut; ++j) {
    if (!n.control.summedOutput(j)) {
      result.push_back(Datum(stackRows(
          n.type(int(j)), int64_t(outs.size()),
          [&](int64_t i) -> const Tensor& { return outs[size_t(i)][j].t; }, "map_fn body",
          "index")));
      continue;
    }
    RunningSum total;
    for (auto& chunk : partial) total.merge(std::move(chunk[k]));
    result.push_back(Datum(total.total(n.type(int(j)))));
    ++k;
  }
  saved.appendOutputs(n, result);
  rt.setOutputs(std::move(result));
}

// ---- reverse mode -------------------------------------------------------------------------------

// The reads of a list captured by a map body when the body reads it only at its own iteration
// (a reverse map reading what another map saved); empty when it uses the list otherwise. The
// list's adjoint then has one entry per iteration: the reverse map returns the reads'
// adjoints as tensors, stacked, and they become the list's entries.
std::vector<Value> readsAtIteration(const Graph& g, int bodyR, Value list) {
  const Region& r = g.region(bodyR);
  std::vector<Value> reads;
  for (int id : r.nodes) {
    const Node& n = g.node(id);
    const bool uses = std::find(n.inputs.begin(), n.inputs.end(), list) != n.inputs.end() ||
                      std::find(n.captures.begin(), n.captures.end(), list) != n.captures.end();
    if (!uses) continue;
    if (!runs(n, prims::listRead()) || n.inputs[0] != list || n.inputs[1] != r.iterationIndex)
      return {};
    reads.push_back({id, 0});
  }
  return reads;
}

// ys = map_fn(f, xs), or s = sum_i f(xs[i]) for a summed output
// dxs = map_fn(vjp(f), xs, dys), ds reaching every i whole; captures' adjoints are summed outputs
std::vector<Value> mapVjp(ControlVjpContext& c) {
  Builder& b = c.b;
  Graph& g = b.graph();
  const int mid = c.node.id;
  const int bodyR = g.node(mid).regions[0];
  const std::vector<Value> inputs = g.node(mid).inputs;
  const size_t numCaptures = g.node(mid).captures.size();
  const size_t nOut = size_t(g.node(mid).control.savedBase);
  const std::vector<Value> caps = neededCaptures(g.node(mid), c.needs);
  const Node& m = g.node(mid);
  // A stacked output's adjoint is mapped over: iteration i is seeded with its row i. A summed
  // output's adjoint seeds every iteration whole (each term of a sum gets the sum's adjoint):
  // the reverse body captures it.
  std::vector<Value> elems;
  std::vector<int> sliceOf(nOut, -1);  // per output: its seed's slice, -1 for summed outputs
  for (size_t j = 0; j < nOut; ++j) {
    if (m.control.summedOutput(j)) continue;
    sliceOf[j] = int(elems.size());
    elems.push_back(c.gout[j].valid() ? c.gout[j] : b.zerosLike({mid, int(j)}));
  }
  // Every output summed: the reverse map takes its count from the forward map's first input.
  if (elems.empty()) elems.push_back(inputs.at(0));
  // The saved values (read by a first reverse pass) are targets in a gradient of a gradient.
  std::vector<std::pair<Value, Value>> savedAdj;  // body value, its adjoints per iteration
  for (size_t i = 0; i < m.saved.size() && nOut + i < c.gout.size(); ++i) {
    const TypeInfo& t = g.type(m.saved[i]);
    if (c.gout[nOut + i].valid() && !t.list && isFloat(t.dtype))
      savedAdj.push_back({m.saved[i], c.gout[nOut + i]});
  }
  std::vector<std::vector<Value>> capReads;
  for (Value cap : caps)
    capReads.push_back(g.type(cap).list ? readsAtIteration(g, bodyR, cap) : std::vector<Value>{});
  auto fn = [&](Builder& bb, const std::vector<Value>& slices) {
    const Value index = bb.graph().region(bb.currentRegion()).iterationIndex;
    bb.graph().region(bb.currentRegion()).forwardOf = bodyR;
    const Region& fwd = bb.graph().region(bodyR);
    BodyGradRequest req;
    req.region = bodyR;
    for (size_t j = 0; j < nOut; ++j) {
      const Value seed = sliceOf[j] >= 0 ? slices[size_t(sliceOf[j])] : c.gout[j];
      if (!seed.valid()) continue;  // a summed output nothing reads
      req.targets.push_back(fwd.results[j]);
      req.seeds.push_back(seed);
    }
    for (const auto& [value, perIteration] : savedAdj) {
      req.targets.push_back(value);
      req.seeds.push_back(bb.op1("list_read", {perIteration, index}));
    }
    for (size_t i = 1; i < fwd.params.size(); ++i) req.sources.push_back(fwd.params[i]);
    for (size_t k = 0; k < caps.size(); ++k) {
      if (capReads[k].empty()) req.sources.push_back(caps[k]);
      req.sources.insert(req.sources.end(), capReads[k].begin(), capReads[k].end());
    }
    // Results that are params or captures are sources: backprop seeds them itself.
    std::map<Value, Value> adj = c.backprop(bb, req);
    auto adjointOr0 = [&](Value v) {
      auto it = adj.find(v);
      return it != adj.end() ? it->second : bb.zerosLike(v);
    };
    std::vector<Value> out;
    for (size_t i = 1; i < fwd.params.size(); ++i) out.push_back(adjointOr0(fwd.params[i]));
    for (size_t k = 0; k < caps.size(); ++k) {
      if (capReads[k].empty()) {
        out.push_back(adjointOr0(caps[k]));
        continue;
      }
      std::vector<Value> parts;
      for (Value r : capReads[k]) parts.push_back(adjointOr0(r));
      out.push_back(sumAll(bb, parts));
    }
    return out;
  };
  // The inputs' adjoints are stacked; a captured value's adjoint is summed as the iterations
  // finish (no [N, ...] tensor of per-iteration adjoints), except a list read at the iteration,
  // whose adjoint has one entry per iteration.
  std::vector<bool> summed(inputs.size(), false);
  for (const auto& reads : capReads) summed.push_back(reads.empty());
  const std::vector<Value> outs =
      mapFn(b, fn, elems, g.node(mid).control.parallelIterations, summed);
  std::vector<Value> grads(inputs.size() + numCaptures);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (c.needs[i]) grads[i] = outs[i];
  size_t ci = 0;
  for (size_t i = 0; i < numCaptures; ++i) {
    if (!c.needs[inputs.size() + i]) continue;
    const Value out = outs[inputs.size() + ci];
    grads[inputs.size() + i] =
        capReads[ci].empty() ? out : b.op1("list_unstack", {out}, Attrs{{"zero_default", true}});
    ++ci;
  }
  return grads;
}

}  // namespace

ControlKind mapKind() {
  return {.kind = NodeKind::Map,
          .userName = "map_fn",
          .math =
              "ys = map_fn(f, xs), or s = sum_i f(xs[i]) for a summed output\n"
              "dxs = map_fn(vjp(f), xs, dys), ds reaching every i whole; captures' adjoints "
              "are summed outputs",
          .execute = executeMap,
          .vjp = mapVjp,
          .batch = mapBatchRule()};
}

}  // namespace gl
