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

struct LayoutLimits {
  std::chrono::milliseconds timeLimit = kLayoutTimeLimit;
  // Polled about every 20 ms; true stops the layout (LayoutFailure::Stopped).
  std::function<bool()> stopRequested;
};

// layoutGraph in a child process. Falls back to the calling thread when no process can be
// made (then it cannot be stopped).
GraphLayout layoutGraphInChild(const VisibleGraph& vg, const std::vector<QSizeF>& sizes,
                               const LayoutOptions& options, const LayoutLimits& limits = {});

}  // namespace gl::ui
