#pragma once
// How long the GUI thread's event loop stops answering. A 10 ms QTimer ticks while the test
// drives the window; a tick that comes late by more than the interval means the event loop
// was busy (a layout, a plot rebuild, a synchronous wait) for that long. Used by the latency
// tests: "the window never freezes" as a number.
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QTimer>

namespace gl::test {

class LatencyProbe : public QObject {
 public:
  explicit LatencyProbe(int intervalMs = 10);

  void start();
  void stop();
  // The longest gap between two ticks beyond the interval, in ms, since start(); and what the
  // test was doing then (the last mark()).
  double longestStallMs() const { return longest_; }
  const QString& longestStallDuring() const { return longestDuring_; }
  // The GUI thread's own CPU time in that longest gap: near the gap, the thread was busy; far
  // below it, the thread waited (for a lock, or for a core on a shared machine).
  double longestStallCpuMs() const { return longestCpu_; }
  int ticks() const { return ticks_; }
  // Names the phase that follows ("open per_step_gradients", "run"), for the failure message.
  void mark(const QString& phase);
  // Each phase's longest stall, in the order the phases were marked.
  const QList<QPair<QString, double>>& phases() const { return phases_; }

 private:
  void tick();

  QTimer timer_;
  QElapsedTimer clock_;
  qint64 last_ = 0;
  int interval_;
  int ticks_ = 0;
  double longest_ = 0, longestCpu_ = 0;
  qint64 lastCpu_ = 0;
  QString phase_, longestDuring_;
  QList<QPair<QString, double>> phases_;
};

}  // namespace gl::test
