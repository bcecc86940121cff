#pragma once
// The Graph IR: nodes (a primitive or a structural kind) with inputs, attributes, static types,
// phase and source location, grouped in nested Regions (loop, branch and map bodies).
// Node ids are creation order, which is a topological order of every region.
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "engine/graph/attrs.h"
#include "engine/graph/kinds.h"
#include "engine/tensor/error.h"
#include "engine/tensor/limits.h"
#include "engine/tensor/tensor.h"

namespace gl {

struct Primitive;

struct Value {
  int node = -1;
  int index = 0;
  bool valid() const { return node >= 0; }
  bool operator==(const Value& o) const { return node == o.node && index == o.index; }
  bool operator!=(const Value& o) const { return !(*this == o); }
  bool operator<(const Value& o) const { return node != o.node ? node < o.node : index < o.index; }
};

// Static type of a value. For a list, dtype and shape describe its elements.
struct TypeInfo {
  DType dtype = DType::F32;
  Shape shape;
  bool list = false;
  bool nested = false;  // a list whose elements are lists (saved inner-loop accumulators)
  std::string str() const;
};

enum class Phase : uint8_t { Forward, Backward };

// Set on while loops by transform/independent_iterations.h when no iteration depends on another
// (a counter i < limit stepping by one; every other variable passes through unchanged or is a
// TensorArray written at i): the parallel executor then runs the iterations concurrently.
struct IndependentIterations {
  int counter = -1;          // the counting loop variable; -1: not independent (or not analysed)
  Value limit;               // the bound when it is a value from outside the loop
  double constantLimit = 0;  // the bound when it is a constant of the condition
  std::vector<int> writes;   // per loop variable: the body's list_write at the counter, or -1
  bool marked() const { return counter >= 0; }
};

// Typed attributes of control-flow nodes (primitives keep theirs in Node::attrs).
struct ControlAttrs {
  // while: loop variables; the outputs start with them, then the trip count. scan: the carried
  // values; the outputs start with their final values, then the stacked per-element results.
  int numVars = 0;
  int savedBase = 0;  // index of the first saved output (see Node::saved)
  int parallelIterations = kDefaultParallelIterations;
  int64_t maximumIterations = -1;  // while: -1 = unbounded
  // map: per output below savedBase, true when it is the sum of the iterations' results rather
  // than their stack, so its type is the body result's (no leading iteration axis). Reverse
  // maps sum captured values' adjoints this way instead of stacking N copies. Empty: none.
  std::vector<bool> summedOutputs;
  bool summedOutput(size_t j) const { return j < summedOutputs.size() && summedOutputs[j]; }
  // Reverse while loops carry [k, adjoints..., capture accumulators...], reverse scans
  // [adjoints..., capture accumulators...]; adjoint j belongs to loop variable (carried value)
  // adjointOf[j] of the forward node (Node::forwardNode).
  std::vector<int> adjointOf;
  IndependentIterations independent;
  bool reverse = false;  // scan: the elements from last to first (tf.foldr, scan(reverse=True))
};

// In a print node's "format" attribute, where the next input's value goes.
inline constexpr char kPrintSlot = '\x01';

struct Node {
  int id = -1;
  NodeKind kind = NodeKind::Primitive;
  const Primitive* prim = nullptr;  // set for primitives only
  std::vector<Value> inputs;
  Attrs attrs;  // primitive attributes
  std::vector<TypeInfo> outputs;
  int region = 0;
  Phase phase = Phase::Forward;
  SourceLoc loc;
  std::string name;               // user-facing name (variable or script name), may be empty
  std::vector<int> regions;       // owned sub-regions
  std::vector<Value> captures;    // values from enclosing regions used inside owned regions
  std::vector<Value> saved;       // loops/maps/conds: body values kept for reverse mode
  ControlAttrs control;           // while / map / cond
  int paramIndex = -1;            // params: position in the region's params
  std::string printPrefix;        // print (tf.print's layout: attrs "format", kPrintSlot)
  Tensor value;                   // const and variable nodes
  bool recordingStopped = false;  // created under tape.stop_recording()
  bool sideEffect = false;        // runs even if nothing consumes it (print)
  int forwardNode = -1;           // backward loops: the forward loop they reverse

  bool is(NodeKind k) const { return kind == k; }
  const TypeInfo& type(int i = 0) const { return outputs.at(static_cast<size_t>(i)); }
  // The primitive's registry name, or the structural kind's name: for display and messages.
  std::string_view opName() const { return prim ? primName : kindName(kind); }
  std::string label() const;  // "mul#12 'y'"

  std::string_view primName;  // the registry entry's name (stable storage in the registry)
};

struct Region {
  int id = 0;
  int parent = -1;  // enclosing region, -1 for the top level
  int owner = -1;   // the control-flow node that owns it
  RegionKind kind = RegionKind::Top;
  std::vector<int> nodes;
  std::vector<Value> params;
  std::vector<Value> results;
  // Reverse-mode bodies: values of this forward region are read through `saved` of forwardOwner.
  int forwardOf = -1;
  Value iterationIndex;  // a param holding the forward iteration index (loops and maps)
  std::map<Value, Value> savedReads;  // forward value -> its read inside this reverse region
};

// What tf.vectorized_map did (control/vectorize.cpp), for the run report: each part of the
// function that runs in a loop over the batch instead of batched (empty = fully batched).
struct BatchFallback {
  int loopNode = -1;  // the loop built for it (the traced map itself for a body-wide fallback)
  std::string op;     // what the user wrote: "random_normal", "while_loop"
  SourceLoc loc;
  std::string reason;
};
struct VectorizedMapRecord {
  int mapNode = -1;  // the traced per-example map (unused when batched)
  std::string what;  // "vectorized_map", or "jacobian" for its pfor
  SourceLoc loc;
  std::vector<BatchFallback> fallbacks;
};

// One call of a tf.function from eager code (lang/tracer_function.cpp): the nodes it added,
// [first, end), traced from Python (the first call with its input signature) or copied from that
// trace. The window draws a call as a frame; TF names a trace's ops within its own graph.
struct FunctionCall {
  std::string function;  // the Python function's name
  int concrete = 0;      // which trace of it (0 = the first signature)
  bool traced = false;   // true: Python ran; false: the concrete function's nodes were copied
  int first = 0, end = 0;
};

// What one tf.GradientTape recorded (lang/tracer_context.cpp, at the end of the trace): the
// nodes built while it was recording, ascending. The window draws them inside the tape's frame
// and every other op outside it, so "this op ran outside the tape" is a picture (issue #27).
struct TapeRecord {
  SourceLoc loc;  // where the tape was opened (`with tf.GradientTape() as tape:`)
  bool persistent = false;
  std::vector<int> recorded;
};

class Graph {
 public:
  Graph();
  Node& node(int id) { return nodes_.at(static_cast<size_t>(id)); }
  const Node& node(int id) const { return nodes_.at(static_cast<size_t>(id)); }
  Node& node(Value v) { return node(v.node); }
  const Node& node(Value v) const { return node(v.node); }
  const TypeInfo& type(Value v) const { return node(v.node).type(v.index); }
  Region& region(int id) { return regions_.at(static_cast<size_t>(id)); }
  const Region& region(int id) const { return regions_.at(static_cast<size_t>(id)); }
  int numNodes() const { return static_cast<int>(nodes_.size()); }
  int numRegions() const { return static_cast<int>(regions_.size()); }
  // A deque: references to nodes stay valid while VJP rules add nodes.
  const std::deque<Node>& nodes() const { return nodes_; }

  Node& addNode(Node n);  // assigns id, appends to its region
  int addRegion(int parent, RegionKind kind);

  // True if region `inner` is `outer` or nested inside it.
  bool within(int inner, int outer) const;
  int depth(int region) const;

  // Forward value -> the backward values holding its adjoint, one per gradient query that
  // reached it. The window draws gradient flow on forward edges from these.
  std::map<Value, std::vector<Value>> adjoints;
  // One per tf.vectorized_map, in build order.
  std::vector<VectorizedMapRecord> vectorizedMaps;
  // One per tf.function call from eager code, in call order.
  std::vector<FunctionCall> functionCalls;
  // One per tf.GradientTape opened in eager code, in opening order.
  std::vector<TapeRecord> tapes;

 private:
  std::deque<Node> nodes_;
  std::deque<Region> regions_;
};

}  // namespace gl
