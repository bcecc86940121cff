#pragma once
// Runs a Graph. The serial executor is the reference; the parallel one (RunOptions::parallel)
// splits large kernels across OpenMP threads, runs map_fn iterations concurrently up to
// parallel_iterations, and runs while_loops whose iterations are independent (a counter plus
// TensorArray writes at the counter) concurrently. Both give the same numbers.
#include <memory>
#include <vector>

#include "engine/exec/run.h"
#include "engine/graph/graph.h"

namespace gl {

class Executor {
 public:
  Executor(const Graph& g, RunOptions options = {});
  ~Executor();
  // Computes the fetched values (tensors or lists). Throws EngineError (with the node's script
  // location) on bad input, CancelledError if the monitor cancels.
  RunResult run(const std::vector<Value>& fetches);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One top-level primitive on given input values, as a run computes it (the same random stream):
// an eager op's value while tracing, without planning a run of the graph.
std::vector<Datum> runTopLevelPrimitive(const Node& n, std::vector<Datum> inputs);

// Convenience: one run, tensors only.
std::vector<Tensor> evaluate(const Graph& g, const std::vector<Value>& fetches,
                             const RunOptions& options = {});

}  // namespace gl
