#pragma once
// What the step-through shows of a run: tensor summaries, and per-iteration records of loops.
// Control-flow kinds write them while they run and decode them for the gradient overlay.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/tensor/tensor_list.h"

namespace gl {

// A tensor as the step-through shows it: whole when small, else a summary.
struct TensorRecord {
  DType dtype = DType::F32;
  Shape shape;
  double min = 0, max = 0, mean = 0, l2 = 0;  // min and max skip NaN; mean and l2 do not
  int64_t nanCount = 0, infCount = 0;         // NaN and +-Inf elements
  std::vector<double> head;                   // first few elements
  Tensor full;                                // set when small
  static TensorRecord of(const Datum& d, int64_t smallTensor);
  size_t bytes() const { return sizeof(TensorRecord) + (full.defined() ? full.bytes() : 0); }
};

// One execution of a loop. A loop inside a map_fn, a jacobian's row map or another loop runs
// once per enclosing iteration; each execution has its own record.
struct LoopRecord {
  int loopNode = -1;
  int64_t iterations = 0;
  size_t width = 0;  // loop variables (the row size of carried and adjoints)
  // Where this execution ran: the iterations of the enclosing loops and maps, outermost first
  // (empty at the top level). For a jacobian's reverse loop, the row first.
  std::vector<int64_t> at;
  // A reverse-only execution (the forward loop ran once, its gradient once per jacobian row)
  // holds adjoints only: its carried values are those of the run's first execution.
  bool sharesCarried = false;
  // carried[t][i]: loop variable i at the start of iteration t (t = iterations: the final value)
  std::vector<std::vector<TensorRecord>> carried;
  // adjoints[t][i]: adjoint of loop variable i at the start of forward iteration t, filled by
  // the reverse loop; empty until a gradient runs.
  std::vector<std::vector<TensorRecord>> adjoints;
  bool truncated = false;  // the record budget ran out
};

// Every execution of one loop, ordered by `at`; the first is RunResult::loops[node].
struct LoopExecutions {
  std::vector<LoopRecord> later;  // executions 2..n
  // Executions that ran, recorded or not: the record budget can stop recording before the last
  // (the ODE's ten per-sample loops of 20000 steps keep seven or eight). 0: only those recorded.
  size_t ran = 0;
  size_t count() const { return 1 + later.size(); }
  size_t total() const { return std::max(count(), ran); }
};

// Execution k (0-based) of a loop whose first execution is `first`, complete: a reverse-only
// execution gets the first execution's carried values (a copy, made on request).
LoopRecord loopExecution(const LoopRecord& first, const LoopExecutions* more, size_t k);

}  // namespace gl
