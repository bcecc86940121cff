#pragma once
// What a run takes (options, feeds, a monitor for progress and cancel) and what it gives back
// (fetched values, per-iteration records of loops, the Timeline, the run log).
#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/control/loop_record.h"
#include "engine/exec/executor_kind.h"
#include "engine/graph/graph.h"
#include "engine/tensor/tensor_list.h"

namespace gl {

// The engine reports progress and asks about cancellation through this; the ui implements it
// on a worker thread without the engine knowing Qt.
class RunMonitor {
 public:
  virtual ~RunMonitor() = default;
  virtual void onProgress(int /*loopNode*/, int64_t /*done*/, int64_t /*total*/) {}
  virtual bool cancelled() const { return false; }
  virtual void onPrint(const std::string& /*line*/) {}
};

class CancelledError : public EngineError {
 public:
  CancelledError() : EngineError("the run was cancelled") {}
};

struct RunOptions {
  // The fusing executor (exec/fused_executor.h): elementwise chains run as fused programs and
  // while loops whose body is elementwise over their carried values run element-major. Its
  // kernels and element-major blocks use `threads` threads, as the parallel executor's do.
  ExecutorKind executor = ExecutorKind::Serial;
  int threads = 0;  // threads of the parallel and fusing executors; 0 = all cores
  bool timeline = true;
  size_t timelineLimit = 200000;  // events kept; a 20000-step loop would otherwise log millions
  bool records = true;
  // Flush-to-zero / denormals-are-zero on the run's threads (exec/float_env.h).
  bool flushDenormals = true;
  size_t memoryBudget = kDefaultMemoryBudget;
  int64_t maxOps = kDefaultMaxOps;  // primitive ops executed, every loop iteration counted
  size_t recordBudget = kDefaultRecordBudget;  // bytes of per-iteration records
  int64_t smallTensor = kSmallTensorElements;  // records keep whole tensors up to this size
  std::map<int, Tensor> feeds;                 // placeholder node id -> value
  RunMonitor* monitor = nullptr;
  // Summaries of every value computed at the top level (not inside loop bodies, whose
  // values the loop records cover), for the inspector and the gradient-flow overlay.
  bool valueRecords = true;
  // Scan every primitive's float outputs for NaN/Inf and keep the first (RunResult::numerics);
  // off for benchmarks (one pass over each output).
  bool checkNumerics = true;
  // Run the graph's side effects (tf.print, asserts) besides what the fetches need. Off for
  // evaluations while tracing (a tf.Variable's initial value): they run the script's prints
  // and loops otherwise.
  bool sideEffects = true;
  // The top-level side effects that run: node ids in [first, second) (a tf.function call's
  // prints, run when eager code calls it: lang/tracer_function.cpp).
  std::pair<int, int> sideEffectNodes{0, INT32_MAX};
  // Top-level nodes (ids [first, second)) that run although no fetch needs them: an eager
  // program's recorded ops, all of which ran (lang::Variant::eagerNodes). Prints excepted.
  std::pair<int, int> alsoRun{0, 0};
  // Top-level nodes whose outputs are known already (an eager trace's earlier values, see
  // lang::Tracer::evaluateNow): the run takes them as they are and computes nothing they
  // need. `computed` receives the outputs of every top-level node the run computes.
  const std::map<int, std::vector<Datum>>* known = nullptr;
  std::map<int, std::vector<Datum>>* computed = nullptr;
};

// The first primitive that produced a NaN or an Inf (RunOptions::checkNumerics).
struct NumericsFault {
  int node = -1;  // -1: every float value of the run was finite
  int output = 0;
  std::string op;
  SourceLoc loc;
  int64_t iteration = -1;  // innermost loop/map iteration, -1 at the top level
  int64_t nanCount = 0, infCount = 0;
  bool found() const { return node >= 0; }
};

// What the fusing executor did with a while loop: ran it element-major, or why not.
struct LoopFusion {
  int node = -1;
  bool elementMajor = false;
  std::string reason;      // why it ran the normal way (empty when element-major)
  int64_t iterations = 0;  // element-major: the trip count
};

struct TimelineEvent {
  int node = -1;
  int64_t iteration = -1;  // innermost loop/map iteration, -1 at the top level
  int thread = 0;
  double start = 0, end = 0;  // seconds since the run started
};

struct RunResult {
  std::vector<Datum> values;                     // one per fetch
  std::map<int, LoopRecord> loops;               // the first execution of each loop
  std::map<int, LoopExecutions> loopExecutions;  // loops that ran more than once: the others
  std::map<Value, TensorRecord> valueRecords;    // top-level values, see RunOptions
  std::vector<TimelineEvent> timeline;
  bool timelineTruncated = false;  // RunOptions::timelineLimit events were kept, later ones not
  std::vector<std::string> log;    // tf.print lines
  double seconds = 0;
  int64_t primitiveOps = 0;  // primitive nodes executed, every iteration counted (bench's us/op)
  size_t peakBytes = 0;      // tensor memory high-water mark during the run
  size_t savedBytes = 0;     // bytes kept by loops for reverse mode (peak over the run)
  NumericsFault numerics;    // the first NaN/Inf, when RunOptions::checkNumerics
  // The fusing executor: fused groups and the primitives in them (each run of a group counts
  // its members in primitiveOps), and each while loop it met, once.
  int fusedGroups = 0, fusedNodes = 0;
  std::vector<LoopFusion> loopFusion;
  // The parallel executor: times the team started running independent nodes side by side
  // (exec/dataflow.h), and the nodes it ran so.
  int64_t sideBySidePhases = 0, sideBySideNodes = 0;
};

}  // namespace gl
