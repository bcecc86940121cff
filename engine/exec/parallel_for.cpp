#include "engine/exec/parallel_for.h"

#include <atomic>
#include <exception>
#include <mutex>

namespace gl {

void parallelFor(int64_t count, int threads, const std::function<void(int64_t)>& body) {
  std::exception_ptr error;  // written under `mu`, read after the loop joined
  std::mutex mu;
  std::atomic<bool> failed{false};
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (int64_t i = 0; i < count; ++i) {
    if (failed.load(std::memory_order_relaxed)) continue;
    try {
      body(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      if (!error) error = std::current_exception();
      failed.store(true, std::memory_order_relaxed);
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace gl
