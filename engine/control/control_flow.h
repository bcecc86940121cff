#pragma once
// Building control flow: tf.while_loop, tf.cond, tf.map_fn and tf.scan/foldl/foldr as nodes that
// own regions (each kind's file, while.cpp, cond.cpp, map.cpp, scan.cpp, also holds its registry
// entry: kind.h).
// Bodies are C++ callables that build nodes with the same Builder; values from enclosing
// regions may be used directly (they become the node's captures).
#include <functional>
#include <string>
#include <vector>

#include "engine/build/builder.h"
#include "engine/transform/batching.h"

namespace gl {

using LoopCondFn = std::function<Value(Builder&, const std::vector<Value>&)>;
using LoopBodyFn = std::function<std::vector<Value>(Builder&, const std::vector<Value>&)>;
using BranchFn = std::function<std::vector<Value>(Builder&)>;
// Map bodies get one slice per element tensor.
using MapFn = std::function<std::vector<Value>(Builder&, const std::vector<Value>&)>;

struct WhileOptions {
  int parallelIterations = kDefaultParallelIterations;
  int64_t maximumIterations = -1;
  std::string name;
};

// Returns the final loop variables. The while node also outputs its iteration count (output
// index = number of loop vars) and, after reverse mode asks for them, the saved lists.
std::vector<Value> whileLoop(Builder& b, const LoopCondFn& cond, const LoopBodyFn& body,
                             const std::vector<Value>& init, const WhileOptions& opt = {});

std::vector<Value> cond(Builder& b, Value pred, const BranchFn& trueFn, const BranchFn& falseFn);

// Returns one output per body result: the results stacked along a new axis 0, or, where
// summed[j] is true, result j summed over the iterations (ControlAttrs::summedOutputs).
std::vector<Value> mapFn(Builder& b, const MapFn& fn, const std::vector<Value>& elems,
                         int parallelIterations = kDefaultParallelIterations,
                         const std::vector<bool>& summed = {});

// One step of a scan: the new carried values (as many as it was given, of the same types) and
// the per-element results to stack.
struct ScanStep {
  std::vector<Value> carry;
  std::vector<Value> stacked;
};
// Scan bodies get the carried values and one slice per element tensor.
using ScanFn = std::function<ScanStep(Builder&, const std::vector<Value>& carry,
                                      const std::vector<Value>& slices)>;

struct ScanOptions {
  bool reverse = false;  // the elements from last to first
  int parallelIterations = kDefaultParallelIterations;
  std::string name;
};

// tf.scan, tf.foldl and tf.foldr as one node: the body runs once per slice of `elems` along
// axis 0 (all of the same length, at least one tensor), in order or reversed, carrying `init`.
// Returns the final carried values, then each stacked result with a new axis 0 whose row t is
// the result at element t, whichever the order. The node's name in the window follows: a scan
// with stacked results is "scan", one without is "foldl", or "foldr" when reversed.
std::vector<Value> scan(Builder& b, const ScanFn& fn, const std::vector<Value>& init,
                        const std::vector<Value>& elems, const ScanOptions& opt = {});

// tf.vectorized_map: fn traced once per example (as a map_fn body), then emitted again as one
// batched graph (transform/batching.h). Nodes that cannot be batched run in a loop over the
// batch, each listed in `fallbacks`; with fallbackToLoop false the first of them is an
// EngineError naming op and line instead.
// Also adds a record to Graph::vectorizedMaps for the run report.
struct VectorizedMap {
  std::vector<Value> outputs;
  std::vector<BatchFallback> fallbacks;
  int mapNode = -1;  // the traced per-example map
};
// `what` names the caller in the report ("vectorized_map", "jacobian").
VectorizedMap vectorizedMap(Builder& b, const MapFn& fn, const std::vector<Value>& elems,
                            bool fallbackToLoop,
                            int parallelIterations = kDefaultParallelIterations,
                            const std::string& what = "vectorized_map");

// Number of loop variables of a while node (its outputs start with them).
int whileVarCount(const Node& n);

}  // namespace gl
