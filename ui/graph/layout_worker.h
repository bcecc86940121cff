#pragma once
// Graph layout off the GUI thread. Graphviz on a few thousand nodes takes seconds, so the
// scene asks this worker and keeps the event loop running; the answer arrives as a signal.
// A newer request supersedes an older one: a request still waiting never starts, a running
// one is stopped (dot runs in a child process, layout_process.h), and so is one still running
// when the worker goes (quitting never waits for dot). Layouts are cached by what they depend
// on (layoutKey), so switching back to a variant or a fold state seen before costs nothing.
#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ui/graph/graph_layout.h"
#include "ui/graph/layout_process.h"

namespace gl::ui {

// Everything a layout depends on: the visible nodes (keys, frames, box sizes), the frame
// nesting, the edges and the options. Titles and colours do not matter, sizes do.
std::string layoutKey(const VisibleGraph& vg, const std::vector<QSizeF>& sizes,
                      const LayoutOptions& options);

class LayoutWorker : public QObject {
  Q_OBJECT
 public:
  explicit LayoutWorker(QObject* parent = nullptr, size_t cacheSize = 24);
  ~LayoutWorker() override;  // drops waiting requests, stops a running dot

  std::shared_ptr<const GraphLayout> cached(const std::string& key);
  void store(const std::string& key, std::shared_ptr<const GraphLayout> layout);

  // Starts a layout; returns its ticket (delivered with `finished`).
  int request(std::string key, std::shared_ptr<const VisibleGraph> graph, std::vector<QSizeF> sizes,
              LayoutOptions options);
  // No request delivers any more (the scene shows something else).
  void cancel() { ++current_; }
  bool isCurrent(int ticket) const { return ticket == current_.load(); }
  // How long a layout may run before it is stopped (LayoutFailure::TimedOut).
  void setTimeLimit(std::chrono::milliseconds limit) { timeLimit_ = limit; }

 signals:
  void finished(int ticket, std::shared_ptr<const gl::ui::GraphLayout> layout);

 private:
  QThreadPool pool_;
  std::atomic<int> current_{0};
  size_t cacheSize_;
  std::chrono::milliseconds timeLimit_ = kLayoutTimeLimit;
  std::list<std::pair<std::string, std::shared_ptr<const GraphLayout>>> cache_;  // newest first
};

}  // namespace gl::ui
