#pragma once
// Symbolic reverse mode: walks recorded nodes from targets back to sources and emits each
// node's VJP as new graph nodes (phase Backward), as TensorFlow's graph-mode gradients do.
// Which nodes carry the gradient is decided once, by analyzePaths; the tape's "why is this
// gradient None?" formats the same analysis, so the explanation cannot contradict the result.
#include <functional>
#include <map>
#include <set>
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

// Why a node fed a gradient does not pass it on.
enum class StopReason : uint8_t {
  NoGradient,        // not differentiable (its entry says why), or no float output
  NotEligible,       // not recorded by the tape
  RecordingStopped,  // built under tape.stop_recording()
};

struct PathStop {
  int node = -1;
  StopReason reason = StopReason::NoGradient;
};

struct PathAnalysis {
  std::vector<int> nodes;     // the candidates, in creation (= topological) order
  std::set<Value> connected;  // values that depend on a source at all
  std::set<Value> reached;    // values that depend on a source through gradient-carrying nodes
  std::set<int> active;       // nodes that carry the gradient
  // Nodes on a path from a source to a target that get a gradient and stop it, in order.
  std::vector<PathStop> stops;
};

// What reverse mode will do for `req`, without building anything. Reverse mode itself needs
// only `reached` and `active`; `connected` and `stops` (for explanations) cost two more passes.
enum class PathDetail : uint8_t { Reach, Explain };
PathAnalysis analyzePaths(const Graph& g, const BackpropRequest& req,
                          PathDetail detail = PathDetail::Explain);

// Adjoint of each source that the chain reaches; missing = not connected. `paths`, when given,
// receives the analysis the adjoints were built from.
std::map<Value, Value> backprop(Builder& b, const BackpropRequest& req,
                                PathAnalysis* paths = nullptr);

// True for nodes that end the chain (no gradient flows through them).
bool blocksGradient(const Node& n);

}  // namespace gl
