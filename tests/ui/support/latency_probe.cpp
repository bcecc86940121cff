#include "support/latency_probe.h"

namespace gl::test {

LatencyProbe::LatencyProbe(int intervalMs) : interval_(intervalMs) {
  timer_.setTimerType(Qt::PreciseTimer);
  timer_.setInterval(intervalMs);
  connect(&timer_, &QTimer::timeout, this, &LatencyProbe::tick);
}

void LatencyProbe::start() {
  longest_ = 0;
  ticks_ = 0;
  longestDuring_.clear();
  clock_.start();
  last_ = clock_.nsecsElapsed();
  timer_.start();
}

void LatencyProbe::stop() {
  tick();  // a stall that ends with the test's last step still counts
  timer_.stop();
}

void LatencyProbe::tick() {
  const qint64 now = clock_.nsecsElapsed();
  const double late = (now - last_) / 1e6 - interval_;
  last_ = now;
  ++ticks_;
  if (late > longest_) {
    longest_ = late;
    longestDuring_ = phase_;
  }
}

}  // namespace gl::test
