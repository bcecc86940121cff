#pragma once
// The executor's share of the machine's cores, while it runs. When another program is running
// (a compiler, the window's layout, `yes`), the kernel gives each session a fair share of the
// cores: on 2 cores beside one busy program our two threads get one core between them, and every
// hand-over between them waits for a thread that is not running. Seed-c's Python-list layers
// took 1.11x the serial executor's time that way; on one thread they take 1.02x.
//
// With threads left to the executor (RunOptions::threads == 0), the team therefore shrinks to
// the cores nobody else is using, looked up at most every kRecheckSeconds in /proc/loadavg's
// count of runnable threads. Two successive lookups must agree before the team shrinks, so a
// kernel worker that happens to run at the moment of one lookup does not cost a parallel phase
// (about 1 lookup in 100 sees one on a quiet machine). A thread count the user chose is kept.
#include <atomic>
#include <functional>
#include <optional>
#include <string_view>

namespace gl {

// The runnable-threads count of a /proc/loadavg text ("0.52 0.30 0.20 3/412 12345" -> 3), or
// nothing if the text is not in that form.
std::optional<int> runnableThreads(std::string_view loadavg);

// Runnable threads on the machine now, from /proc/loadavg; nothing where it cannot be read.
std::optional<int> runnableThreadsNow();

// Where a CoreShare looks, and what the previous lookup saw: runs come one after another, so a
// run starts from what the last one saw instead of at the full team.
struct LoadWatch {
  std::function<std::optional<int>()> runnable;  // runnable threads, the caller included
  std::atomic<int> lastOthers{0};                // other runnable threads at the last lookup
};

// The machine's: /proc/loadavg.
LoadWatch& machineLoad();

class CoreShare {
 public:
  static constexpr double kRecheckSeconds = 0.01;

  // `team`: the most threads to use; `adapt`: follow the machine's load (otherwise always
  // `team`).
  CoreShare(int team, bool adapt, LoadWatch& watch = machineLoad());

  // The threads to use now. Cheap enough to ask before every node: it looks at a coarse clock
  // only every 16th call, and at the machine only every kRecheckSeconds.
  int threads() {
    if (adapt_ && (++calls_ & 15) == 0) recheck();
    return current_;
  }

  // Looks at the machine now (tests, and the start of a run).
  void recheck(bool force = false);

 private:
  int team_, current_;
  bool adapt_;
  LoadWatch& watch_;
  unsigned calls_ = 0;
  double next_ = 0;  // coarseSeconds() of the next lookup
};

}  // namespace gl
