#include "engine/exec/timeline.h"

#include <algorithm>

namespace gl {

namespace {
uint64_t nextRunId() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}
}  // namespace

Timeline::Timeline(bool on, size_t limit) : on_(on), limit_(limit), runId_(nextRunId()) {}

double Timeline::now() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }

// The cache is keyed by a run id, not `this`: a later Timeline may reuse the same address.
std::pair<int, std::vector<TimelineEvent>*> Timeline::threadEvents() {
  thread_local uint64_t owner = 0;
  thread_local int idx = 0;
  thread_local std::vector<TimelineEvent>* events = nullptr;
  if (owner != runId_) {
    std::lock_guard<std::mutex> lock(mu_);
    idx = int(perThread_.size());
    perThread_.push_back(std::make_unique<std::vector<TimelineEvent>>());
    events = perThread_.back().get();
    owner = runId_;
  }
  return {idx, events};
}

void Timeline::add(int node, int64_t iteration, double start, double end) {
  if (count_.fetch_add(1, std::memory_order_relaxed) >= limit_) return;
  auto [thread, events] = threadEvents();
  events->push_back({node, iteration, thread, start, end});
}

std::vector<TimelineEvent> Timeline::take(bool& truncated) {
  std::vector<TimelineEvent> all;
  for (auto& events : perThread_) all.insert(all.end(), events->begin(), events->end());
  truncated = count_ >= limit_;
  std::sort(all.begin(), all.end(),
            [](const TimelineEvent& a, const TimelineEvent& b) { return a.start < b.start; });
  return all;
}

}  // namespace gl
