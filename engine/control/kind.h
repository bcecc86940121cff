#pragma once
// A control-flow kind's registry entry, as a primitive's is in ops/registry.h: how it runs, its
// VJP, its batching rule, how the window names it and how its loop records are decoded, all
// in the kind's own file (while.cpp, map.cpp, cond.cpp, scan.cpp). Executor, reverse mode,
// diagnostics and the window look the entry up by NodeKind. The builders (whileLoop, cond, mapFn,
// scan) are in control_flow.h.
//
// Layering: this header sits above build/ and below autodiff/ and exec/. Reverse mode reaches
// a kind's VJP through the entry and hands it a callback to differentiate a body; the executor
// implements ControlRuntime. So neither a kind nor its users call upward.
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/build/builder.h"
#include "engine/control/loop_record.h"
#include "engine/transform/batching.h"

namespace gl {

// ---- running ---------------------------------------------------------------------------------

// What one run of a region gives back: its results, and the node's saved values defined in that
// region, one per entry of ControlRuntime::usedSaved (undefined when defined elsewhere).
struct RegionRun {
  std::vector<Datum> results;
  std::vector<Datum> saved;
};

// The executor, as a control-flow node running at one place of a run sees it.
class ControlRuntime {
 public:
  virtual ~ControlRuntime() = default;
  virtual const Graph& graph() const = 0;
  // A value visible where the node runs: its inputs, its captures, anything enclosing.
  virtual const Datum& value(Value v) const = 0;
  // The innermost loop iteration around the node (-1 at the top level).
  virtual int64_t iteration() const = 0;
  // Runs `region` once in a frame of its own. Safe to call from several threads at once.
  RegionRun runRegion(int region, const std::vector<Datum>& params, int64_t iteration) {
    RegionRun out;
    runRegionInto(region, params, iteration, out);
    return out;
  }
  // The same into `out`, replacing its contents: a loop that passes the same RegionRun every
  // iteration reuses its vectors.
  virtual void runRegionInto(int region, const std::vector<Datum>& params, int64_t iteration,
                             RegionRun& out) = 0;
  // The same with params the caller no longer needs: they move into the region's frame (and
  // `params` is left holding nothing), so their buffers can die inside it, where the last
  // reader may write its output into them. A loop's carried values, for one.
  virtual void runRegionTaking(int region, std::vector<Datum>& params, int64_t iteration,
                               RegionRun& out) {
    runRegionInto(region, params, iteration, out);
  }
  // Indices into Node::saved that some reverse body reads; the others are not kept.
  virtual const std::vector<int>& usedSaved() const = 0;
  virtual void setOutputs(std::vector<Datum> outputs) = 0;
  // Bytes kept for reverse mode (RunResult::savedBytes).
  virtual void accountSaved(size_t bytes) = 0;

  // The parallel executor's settings.
  virtual bool parallel() const = 0;
  virtual int threads() const = 0;
  // body(i) for i in [0, count) on up to `threads` threads. When one throws, the others stop
  // taking work and the first exception is rethrown here.
  virtual void parallelFor(int64_t count, int threads,
                           const std::function<void(int64_t)>& body) = 0;
  virtual void checkCancelled() const = 0;
  // Progress of a top-level loop; ignored inside bodies and off the main thread.
  virtual void progress(int64_t done, int64_t total) = 0;

  // Per-iteration records: the node's record, or null when not recording (records are off, or
  // this node already ran once: only the first execution is recorded).
  virtual LoopRecord* beginRecord(const Node& n) = 0;
  // Summaries of `values` under the run's record budget; false (and rec.truncated) past it.
  virtual bool recordRow(LoopRecord& rec, const std::vector<Datum>& values,
                         std::vector<TensorRecord>& row) = 0;
};

// ---- reverse mode -----------------------------------------------------------------------------

// A body's VJP as a kind asks reverse mode for it: adjoints of `sources` given `seeds` on
// `targets`, over the nodes of `region` (which must have been recorded).
struct BodyGradRequest {
  int region = -1;
  std::vector<Value> targets;
  std::vector<Value> seeds;
  std::vector<Value> sources;
};
using BodyBackprop = std::function<std::map<Value, Value>(Builder&, const BodyGradRequest&)>;

struct ControlVjpContext {
  Builder& b;
  const Node& node;
  const std::vector<Value>& gout;  // adjoint per output (invalid = none)
  const std::vector<bool>& needs;  // per input, then per capture
  const BodyBackprop& backprop;
};
// One gradient per input, then one per capture (invalid = none).
using ControlVjp = std::vector<Value> (*)(ControlVjpContext&);

// ---- the entry --------------------------------------------------------------------------------

// The node applied to a batch (transform/batching.h): deps are its inputs then its captures,
// each batched along axis 0 or not; `batchRegion` batches one of its regions in the current
// region. Returns one value per output (up to Node::control.savedBase; a map also one per
// saved value, for a reverse map batched with it); throws EngineError
// when it cannot apply, and the transform runs the node in a loop instead.
using ControlBatchRule = std::function<std::vector<BatchedValue>(
    Builder&, const Node&, const std::vector<BatchedValue>& deps,
    const RegionBatcher& batchRegion)>;

// The adjoint norm along each edge of the node's frame at forward iteration `step`, from the
// loop record its forward loop keeps (LoopRecord::adjoints). Put only where known.
using EdgeAdjointsFn = void (*)(const Graph& g, const Node& n, const LoopRecord& rec, size_t step,
                                std::map<Value, double>& norms);

struct ControlKind {
  NodeKind kind = NodeKind::While;
  std::string_view userName;  // what the user wrote: "while_loop", "map_fn", "cond", "scan"
  std::string_view badge;     // a folded frame's badge when no trip count shows: "if/else"
  std::string_view math;      // the gradient rule in two lines, shown in the inspector
  void (*execute)(ControlRuntime& rt, const Node& n) = nullptr;
  ControlVjp vjp = nullptr;
  ControlBatchRule batch;                 // empty: not yet batchable
  EdgeAdjointsFn edgeAdjoints = nullptr;  // null: the kind keeps no adjoint records
  // What the user wrote for this node when the kind stands for several functions (a scan node
  // is tf.scan, tf.foldl or tf.foldr); null: userName.
  std::string_view (*nameOf)(const Node& n) = nullptr;
};

// Every control-flow kind, in NodeKind order.
const std::vector<const ControlKind*>& controlKinds();
// Null for nodes that are not control flow.
const ControlKind* findControlKind(NodeKind k);
const ControlKind& controlKind(NodeKind k);  // throws for nodes that are not control flow

// What the window calls a node: a control-flow kind's user name ("while_loop"), else opName().
std::string_view displayName(const Node& n);

// ---- shared by the kinds ------------------------------------------------------------------------

// The node's per-iteration accumulators of saved values (while, map): one list per used saved
// value; entry i of each holds iteration i's value.
class SavedAccumulators {
 public:
  SavedAccumulators(ControlRuntime& rt, const Node& n, int64_t count = -1);
  void put(size_t iteration, const std::vector<Datum>& saved);
  // Appends the node's saved outputs (after its first Node::control.savedBase outputs).
  void appendOutputs(const Node& n, std::vector<Datum>& outputs) const;

 private:
  ControlRuntime& rt_;
  const std::vector<int>& used_;
  std::vector<std::shared_ptr<TensorList>> lists_;  // per used saved value
};

// Row i of e along axis 0, copied (map and scan hand the body one element).
Tensor sliceRow(const Tensor& e, int64_t i);
// `count` rows stacked along a new axis 0 as a tensor of `type` (the node's output, leading
// dim = count; unknown dims of an empty result become 0). A row shaped unlike row 0 is an error:
// "<body> returns shape .. at <unit> i but .. at <unit> 0".
Tensor stackRows(const TypeInfo& type, int64_t count,
                 const std::function<const Tensor&(int64_t)>& row, const std::string& body,
                 const std::string& unit);

// Edge adjoints (EdgeAdjointsFn) of the loop kinds: the L2 norm of rec.adjoints[step][var], or
// -1 when not recorded; putAdjointNorm keeps a known norm for an edge (overwrite: a later put
// wins, else the first).
double recordedAdjointNorm(const LoopRecord& rec, size_t step, size_t var);
void putAdjointNorm(std::map<Value, double>& norms, Value v, double norm, bool overwrite = true);

// Sum of adjoint contributions (add for tensors, list_add for lists).
Value sumAll(Builder& b, const std::vector<Value>& parts);

// Adds a control-flow node and makes it the owner of its regions.
Node& addControlNode(Builder& b, Node n);

// Sources of a body's backprop beyond its params: the captures whose gradient is needed.
std::vector<Value> neededCaptures(const Node& n, const std::vector<bool>& needs);

// The kinds' batching rules (batching_rules.cpp).
ControlBatchRule whileBatchRule();
ControlBatchRule mapBatchRule();
ControlBatchRule condBatchRule();
ControlBatchRule scanBatchRule();

// The registry of kinds: one factory per kind file.
ControlKind whileKind();
ControlKind mapKind();
ControlKind condKind();
ControlKind scanKind();

}  // namespace gl
