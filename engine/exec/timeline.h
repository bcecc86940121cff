#pragma once
// The run's timeline: one event list per thread, so threads never append to a container
// another thread may be growing, capped at RunOptions::timelineLimit events.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/exec/run.h"

namespace gl {

class Timeline {
 public:
  explicit Timeline(bool on, size_t limit);
  // Past the cap the clock is not read at all: two clock reads per node were a tenth of the
  // time of loops with tiny bodies.
  bool wanted() const { return on_ && count_.load(std::memory_order_relaxed) < limit_; }
  void start() { t0_ = Clock::now(); }
  double now() const;  // seconds since start()
  void add(int node, int64_t iteration, double start, double end);
  // All events sorted by start; sets `truncated` when the cap was hit.
  std::vector<TimelineEvent> take(bool& truncated);

 private:
  using Clock = std::chrono::steady_clock;
  std::pair<int, std::vector<TimelineEvent>*> threadEvents();

  const bool on_;
  const size_t limit_;
  Clock::time_point t0_ = Clock::now();
  const uint64_t runId_;
  std::atomic<size_t> count_{0};
  std::mutex mu_;
  std::vector<std::unique_ptr<std::vector<TimelineEvent>>> perThread_;
};

}  // namespace gl
