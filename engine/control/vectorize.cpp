// tf.vectorized_map: trace the body once as a map_fn, then batch it (transform/batching.h).
// The traced map node stays in the graph as the reference and the loop of last resort; when
// the batched graph replaces it, nothing reads it and the executor's plan never runs it.
#include "engine/control/control_flow.h"
#include "engine/control/kind.h"
#include "engine/ops/batch_rules.h"

namespace gl {

namespace {

class ControlHooks : public BatchingHooks {
 public:
  explicit ControlHooks(int parallelIterations) : par_(parallelIterations) {}

  Loop loop(
      Builder& b, const std::vector<Value>& elems,
      const std::function<std::vector<Value>(Builder&, const std::vector<Value>&)>& body) override {
    std::vector<Value> outs = mapFn(b, body, elems, par_);
    // The map node is the last node of the current region (its body's nodes are inside it).
    const Region& r = b.graph().region(b.currentRegion());
    return {r.nodes.back(), outs};
  }

  std::optional<std::vector<BatchedValue>> controlRule(Builder& b, const Node& n,
                                                       const std::vector<BatchedValue>& deps,
                                                       const RegionBatcher& batchRegion) override {
    const ControlKind& kind = controlKind(n.kind);
    if (!kind.batch) return std::nullopt;
    return kind.batch(b, n, deps, batchRegion);
  }

  std::string displayName(const Node& n) const override { return std::string(gl::displayName(n)); }

 private:
  int par_;
};

std::string lineOf(const SourceLoc& loc) {
  return loc.known() ? " at line " + std::to_string(loc.line) : std::string();
}

VectorizedMap batchMap(Builder& b, const MapFn& fn, const std::vector<Value>& elems,
                       bool fallbackToLoop, int parallelIterations, const std::string& what) {
  const SourceLoc loc = b.loc();
  const std::vector<Value> traced = mapFn(b, fn, elems, parallelIterations);
  const int mapNode = b.graph().region(b.currentRegion()).nodes.back();
  VectorizedMap result{traced, {}, mapNode};
  auto wholeLoop = [&](const std::string& reason) {
    if (!fallbackToLoop)
      throw EngineError(what + " cannot batch its function: " + reason, loc, what);
    result.outputs = traced;
    result.fallbacks = {{mapNode, what, loc, reason}};
    return result;
  };
  const Node& m = b.graph().node(mapNode);
  const int64_t n = b.type(m.inputs[0]).shape[0];
  if (n < 0) return wholeLoop("the batch size is not known while tracing");
  const std::vector<Value> inputs = m.inputs;
  const int body = m.regions[0];

  ControlHooks hooks(parallelIterations);
  Batcher batcher(b, hooks, inputs[0]);
  std::vector<BatchedValue> params;
  Tensor index = Tensor::empty(DType::I32, {n});
  for (int64_t i = 0; i < n; ++i) index.set(i, double(i));
  params.push_back({b.constant(index, "index"), true});
  for (Value v : inputs) params.push_back({v, true});
  std::vector<BatchedValue> results;
  const int region = b.currentRegion();
  try {
    results = batcher.run(body, params);
  } catch (const EngineError& e) {
    b.setCurrentRegion(region);
    return wholeLoop(e.message());
  }
  b.setLoc(loc);
  std::vector<Value> outs;
  for (size_t i = 0; i < results.size(); ++i) {
    Value v = results[i].batched ? results[i].v : batch::broadcastBatch(b, results[i].v, n);
    // A batched type that differs from the loop's is a bug in a rule: keep the loop's numbers.
    const TypeInfo &got = b.type(v), &want = b.type(traced[i]);
    if (got.dtype != want.dtype || got.shape != want.shape)
      return wholeLoop("output " + std::to_string(i) + " batched as " + got.str() + ", not " +
                       want.str());
    outs.push_back(v);
  }
  const std::vector<BatchFallback>& fallbacks = batcher.fallbacks();
  if (!fallbackToLoop && !fallbacks.empty()) {
    const BatchFallback& f = fallbacks.front();
    throw EngineError(what + " cannot batch " + f.op + lineOf(f.loc) + ": " + f.reason +
                          " (fallback_to_while_loop=True runs it in a loop)",
                      f.loc, what);
  }
  result.outputs = outs;
  result.fallbacks = fallbacks;
  return result;
}

}  // namespace

VectorizedMap vectorizedMap(Builder& b, const MapFn& fn, const std::vector<Value>& elems,
                            bool fallbackToLoop, int parallelIterations, const std::string& what) {
  const SourceLoc loc = b.loc();
  VectorizedMap r = batchMap(b, fn, elems, fallbackToLoop, parallelIterations, what);
  b.graph().vectorizedMaps.push_back({r.mapNode, what, loc, r.fallbacks});
  return r;
}

}  // namespace gl
