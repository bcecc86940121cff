#include "engine/exec/core_share.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <fstream>
#include <string>

namespace gl {

std::optional<int> runnableThreads(std::string_view text) {
  // The fourth field is "running/total".
  size_t pos = 0;
  for (int field = 0; field < 3; ++field) {
    pos = text.find(' ', pos);
    if (pos == std::string_view::npos) return std::nullopt;
    pos = text.find_first_not_of(' ', pos);
    if (pos == std::string_view::npos) return std::nullopt;
  }
  int running = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data() + pos, end, running);
  if (ec != std::errc() || ptr == end || *ptr != '/' || running < 0) return std::nullopt;
  return running;
}

std::optional<int> runnableThreadsNow() {
  std::ifstream in("/proc/loadavg");
  if (!in) return std::nullopt;
  std::string text;
  std::getline(in, text);
  return runnableThreads(text);
}

LoadWatch& machineLoad() {
  static LoadWatch watch{runnableThreadsNow};
  return watch;
}

CoreShare::CoreShare(int team, bool adapt, LoadWatch& watch)
    : team_(std::max(team, 1)), current_(team_), adapt_(adapt && team_ > 1), watch_(watch) {
  if (adapt_) recheck(true);
}

namespace {

// CLOCK_MONOTONIC_COARSE: a few nanoseconds where steady_clock::now() takes 48 ns on these VMs
// (2.8 % of a scalar loop on the parallel executor, asked every 16th node); its resolution, a
// kernel tick (4 ms), is fine for a recheck every 10 ms.
double coarseSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

}  // namespace

void CoreShare::recheck(bool force) {
  if (!adapt_) return;
  const double now = coarseSeconds();
  if (!force && now < next_) return;
  next_ = now + kRecheckSeconds;
  const std::optional<int> runnable = watch_.runnable();
  if (!runnable) return;
  const int others = std::max(*runnable - 1, 0);  // the calling thread is one of them
  // Shrink only on two lookups in a row that see the others; grow at once.
  const int seen = std::min(others, watch_.lastOthers.exchange(others));
  current_ = std::clamp(team_ - seen, 1, team_);
}

}  // namespace gl
