#pragma once
// The batching transform behind tf.vectorized_map (JAX's vmap, TensorFlow's pfor): the nodes of
// a traced per-example body are emitted again, once, in the builder's current region, each
// value either batched (a leading batch axis) or unbatched (the same for every example).
// Primitives apply their registry entry's batching rule (ops/batch_rules.h); control-flow nodes
// their kind's rule (control/kind.h). A node without a rule, or whose rule cannot apply (a
// stateful op, an unsupported shape), runs in a loop over the batch for that node only, and a
// fallback entry records op, source line and reason.
//
// Layering: transform/ sits below control/, so the layer above hands in what it owns through
// BatchingHooks (control/vectorize.cpp): the loop that a fallback runs and the kinds' rules.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/build/builder.h"

namespace gl {

struct BatchedValue {
  Value v;
  bool batched = false;  // true: axis 0 is the batch axis
};

// What a control-flow kind's rule may ask of the transform: batch one of its regions, and make
// an unbatched TensorArray batched (a loop variable that becomes per-lane in the body).
struct RegionBatcher {
  std::function<std::vector<BatchedValue>(int region, const std::vector<BatchedValue>& params)>
      region;
  std::function<Value(Value list)> list;
  // The batched stand-in of a value of a region batched before (a body value its owner saves
  // for a reverse body batched with it).
  std::function<BatchedValue(Value v)> value;
  std::vector<BatchedValue> operator()(int r, const std::vector<BatchedValue>& params) const {
    return region(r, params);
  }
};

class BatchingHooks {
 public:
  virtual ~BatchingHooks() = default;
  // A loop over the batch: `body` gets one slice per element tensor (axis 0) and returns one
  // example's results; returns the loop node and its stacked results.
  struct Loop {
    int node = -1;
    std::vector<Value> outputs;
  };
  virtual Loop loop(
      Builder& b, const std::vector<Value>& elems,
      const std::function<std::vector<Value>(Builder&, const std::vector<Value>&)>& body) = 0;
  // The batched outputs of control-flow node n by its kind's rule (deps = inputs, then
  // captures), or nullopt when the kind has none. Throws EngineError when the rule cannot apply.
  virtual std::optional<std::vector<BatchedValue>> controlRule(
      Builder& b, const Node& n, const std::vector<BatchedValue>& deps,
      const RegionBatcher& batchRegion) = 0;
  // The name a fallback entry gives a node.
  virtual std::string displayName(const Node& n) const = 0;
};

class Batcher {
 public:
  // `countElem` is a batched tensor that gives a loop over the batch its trip count when the
  // node it runs has no batched input (a random draw per example).
  Batcher(Builder& b, BatchingHooks& hooks, Value countElem);
  // Emits region's nodes batched, its params bound to `params`; returns its results. Values
  // from enclosing regions stand for themselves, unbatched, unless bound before. The values
  // the region's owner saves for reverse mode are batched too (a tape inside the function).
  std::vector<BatchedValue> run(int region, const std::vector<BatchedValue>& params);
  const std::vector<BatchFallback>& fallbacks() const { return fallbacks_; }
  // `list`, an unbatched list of the batched graph, as a batched one (entries gain the batch
  // axis first): its producer, back to the list_new / list_zeros / unstack that made it, is
  // emitted again by the producers' batching rules, shared values broadcast. Throws
  // EngineError when a producer has no rule (a loop's output).
  Value batchedList(Value list);

 private:
  void batchNode(const Node& n);
  // elemHint: the entry shape of the list being converted, for a list_new made without one.
  Value batchedList(Value list, const Shape& elemHint);
  void fallback(const Node& n, const std::vector<BatchedValue>& deps, const std::string& reason);
  BatchedValue get(Value v) const;

  Builder& b_;
  BatchingHooks& hooks_;
  Value countElem_;
  std::map<Value, BatchedValue> env_;
  std::map<Value, Value> batchedLists_;
  std::vector<BatchFallback> fallbacks_;
};

// Emits a copy of node n in the builder's current region, its inputs (and the values its
// regions read from outside) replaced by `sub` where it has them; returns the copy's outputs
// (without saved ones). Regions are copied with it.
std::vector<Value> cloneNode(Builder& b, const Node& n, const std::map<Value, Value>& sub);

// True if n, or anything inside its regions, draws random numbers or prints.
bool isStateful(const Graph& g, const Node& n);

}  // namespace gl
