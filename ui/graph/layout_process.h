#pragma once
// A dot layout that can be stopped. Graphviz has no way to interrupt gvLayout, and on a big
// graph with frames it runs for many minutes; in-process, a superseded layout kept a core busy
// and quitting waited for it. So the layout runs in a forked child process that writes the
// positions back through a pipe: stopping it is a kill, and a Graphviz crash ends the child,
// not the window.
#include <chrono>
#include <functional>
#include <vector>

#include "ui/graph/graph_layout.h"

namespace gl::ui {

// A layout that has not answered in this time is stopped (LayoutFailure::TimedOut).
constexpr std::chrono::seconds kLayoutTimeLimit{45};
// Smaller layouts run in the calling thread: dot needs well under a second for them, and a
// fork is not free for a window holding a big run. After it, every page the window writes is
// first copied (copy-on-write): switching the ODE lesson's variants at seed size cost the GUI
// thread ~130 ms of such faults with a child per layout, ~30 ms without.
constexpr int kChildLayoutNodes = 1500;

struct LayoutLimits {
  std::chrono::milliseconds timeLimit = kLayoutTimeLimit;
  int childAbove = kChildLayoutNodes;  // visible nodes from which dot runs in a child
  // Polled about every 20 ms; true stops the layout (LayoutFailure::Stopped).
  std::function<bool()> stopRequested;
};

// layoutGraph in a child process (from limits.childAbove nodes). Falls back to the calling
// thread when no process can be made (then it cannot be stopped).
GraphLayout layoutGraphInChild(const VisibleGraph& vg, const std::vector<QSizeF>& sizes,
                               const LayoutOptions& options, const LayoutLimits& limits = {});

}  // namespace gl::ui
