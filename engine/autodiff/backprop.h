#pragma once
// Symbolic reverse mode: walks recorded nodes from targets back to sources and emits each
// node's VJP as new graph nodes (phase Backward), as TensorFlow's graph-mode gradients do.
#include <functional>
#include <map>
#include <vector>

#include "engine/build/builder.h"

namespace gl {

struct BackpropRequest {
  std::vector<Value> targets;
  std::vector<Value> seeds;    // one per target; invalid = ones
  std::vector<Value> sources;  // leaves to differentiate with respect to
  // Nodes that may carry the chain (a tape's recorded nodes). Empty = all.
  std::function<bool(const Node&)> eligible;
  // Only nodes of this region (a loop/branch/map body); -1 = the targets' region and its
  // enclosing regions (a tape at any level).
  int onlyRegion = -1;
};

// Adjoint of each source that the chain reaches; missing = not connected.
std::map<Value, Value> backprop(Builder& b, const BackpropRequest& req);

// True for primitives that end the chain (no gradient flows through them).
bool blocksGradient(const Node& n);

// VJP rules of the control-flow nodes, beside the primitives' own: they return one gradient
// per input, then one per capture (invalid = none).
using ControlFlowVjp = std::function<std::vector<Value>(
    Builder&, const Node&, const std::vector<Value>& gout, const std::vector<bool>& needs)>;
const ControlFlowVjp* findControlFlowVjp(NodeKind kind);

// Sum of contributions (add for tensors, list_add for lists).
Value sumAll(Builder& b, const std::vector<Value>& parts);

}  // namespace gl
