#include "support/latency_probe.h"

#include <time.h>

namespace gl::test {

namespace {

qint64 threadCpuNs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return qint64(t.tv_sec) * 1000000000 + t.tv_nsec;
}

}  // namespace

LatencyProbe::LatencyProbe(int intervalMs) : interval_(intervalMs) {
  timer_.setTimerType(Qt::PreciseTimer);
  timer_.setInterval(intervalMs);
  connect(&timer_, &QTimer::timeout, this, &LatencyProbe::tick);
}

void LatencyProbe::start() {
  longest_ = 0;
  ticks_ = 0;
  longestDuring_.clear();
  phases_.clear();
  clock_.start();
  last_ = clock_.nsecsElapsed();
  lastCpu_ = threadCpuNs();
  longestCpu_ = 0;
  timer_.start();
}

void LatencyProbe::mark(const QString& phase) {
  tick();  // what came before the mark belongs to the phase before
  phase_ = phase;
  phases_.append({phase, 0.0});
}

void LatencyProbe::stop() {
  tick();  // a stall that ends with the test's last step still counts
  timer_.stop();
}

void LatencyProbe::tick() {
  const qint64 now = clock_.nsecsElapsed();
  const double late = (now - last_) / 1e6 - interval_;
  const qint64 cpu = threadCpuNs();
  const double cpuMs = (cpu - lastCpu_) / 1e6;
  last_ = now;
  lastCpu_ = cpu;
  ++ticks_;
  if (!phases_.isEmpty() && late > phases_.back().second) phases_.back().second = late;
  if (late > longest_) {
    longest_ = late;
    longestCpu_ = cpuMs;
    longestDuring_ = phase_;
  }
}

}  // namespace gl::test
