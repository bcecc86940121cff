#pragma once
// The run's records: per-iteration loop records under one byte budget, and summaries of
// top-level values. Thread-safe: parallel loop bodies record through it.
#include <atomic>
#include <map>
#include <mutex>

#include "engine/control/loop_record.h"
#include "engine/graph/graph.h"

namespace gl {

class Recorder {
 public:
  Recorder(bool loops, size_t budget, int64_t smallTensor)
      : loops_(loops), budget_(budget), smallTensor_(smallTensor) {}

  // The record of loop node `n`, or null (records off, or not its first execution). A reverse
  // loop records into its forward loop's record, which must exist.
  LoopRecord* begin(const Node& n);
  // Summaries of `values`; false (and rec.truncated) once the budget runs out.
  bool row(LoopRecord& rec, const std::vector<Datum>& values, std::vector<TensorRecord>& out);
  void value(Value v, const Datum& d);

  std::map<int, LoopRecord> takeLoops() { return std::move(loopRecords_); }
  std::map<Value, TensorRecord> takeValues() { return std::move(values_); }

 private:
  const bool loops_;
  const size_t budget_;
  const int64_t smallTensor_;
  std::atomic<size_t> used_{0};
  std::mutex mu_;
  std::map<int, LoopRecord> loopRecords_;
  std::map<Value, TensorRecord> values_;
};

}  // namespace gl
