#pragma once
// The run's records: per-iteration loop records under one byte budget, and summaries of
// top-level values. Thread-safe: parallel loop bodies (a map's elements) record through it.
#include <atomic>
#include <deque>
#include <map>
#include <mutex>

#include "engine/control/loop_record.h"
#include "engine/graph/graph.h"

namespace gl {

class Recorder {
 public:
  Recorder(bool loops, size_t budget, int64_t smallTensor)
      : loops_(loops), budget_(budget), smallTensor_(smallTensor) {}

  // A new record for the execution of loop node `n` at `at` (the iterations of its enclosing
  // loops and maps, outermost first), or null when records are off. A reverse loop records
  // into its forward loop's execution at the same place; when the forward loop ran outside
  // the map the reverse loop runs in (a jacobian's rows), each reverse execution gets an
  // adjoints-only record. Null when no forward execution matches.
  LoopRecord* begin(const Node& n, const std::vector<int64_t>& at);
  // Summaries of `values`; false (and rec.truncated) once the budget runs out.
  bool row(LoopRecord& rec, const std::vector<Datum>& values, std::vector<TensorRecord>& out);
  void value(Value v, const Datum& d);

  // The first execution of each loop, and the later ones of loops that ran more than once.
  void takeLoops(std::map<int, LoopRecord>& first, std::map<int, LoopExecutions>& later);
  std::map<Value, TensorRecord> takeValues() { return std::move(values_); }

 private:
  using Executions = std::map<std::vector<int64_t>, LoopRecord>;  // by `at`
  const bool loops_;
  const size_t budget_;
  const int64_t smallTensor_;
  std::atomic<size_t> used_{0};
  std::mutex mu_;
  std::map<int, Executions> forward_;      // by forward loop node
  std::map<int, Executions> reverseOnly_;  // by forward loop node
  std::map<int, size_t> forwardRan_;       // forward executions begun, recorded or not
  std::map<Value, TensorRecord> values_;
};

}  // namespace gl
