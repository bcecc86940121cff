#pragma once
// tf.debugging.check_numerics for a whole run: the first primitive whose float output holds a
// NaN or an Inf is kept (node, script line, loop iteration, counts), so the report, the JSON
// and the window can point at where the numbers went wrong instead of where they ended up.
#include <atomic>
#include <mutex>
#include <vector>

#include "engine/exec/run.h"

namespace gl {

class NumericsCheck {
 public:
  // Scans `outputs` of n unless a fault is already known. Safe to call from several threads
  // (map bodies run concurrently): one fault is kept, the first one seen.
  void scan(const Node& n, const std::vector<Datum>& outputs, int64_t iteration);
  // Scans one output of n. Returns true when it holds a NaN or an Inf.
  bool scan(const Node& n, int output, const Datum& value, int64_t iteration);
  NumericsFault take() { return std::move(fault_); }

 private:
  std::atomic<bool> found_{false};
  std::mutex mu_;
  NumericsFault fault_;
};

}  // namespace gl
