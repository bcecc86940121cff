#include "ui/graph/layout_worker.h"

#include <QMetaObject>

#include <cstdio>

namespace gl::ui {

std::string layoutKey(const VisibleGraph& vg, const std::vector<QSizeF>& sizes,
                      const LayoutOptions& options) {
  std::string key = std::to_string(static_cast<int>(options.edges)) + "|";
  char buf[48];
  for (size_t i = 0; i < vg.nodes.size(); ++i) {
    const QSizeF s = i < sizes.size() ? sizes[i] : QSizeF();
    std::snprintf(buf, sizeof buf, ":%d:%.1fx%.1f;", vg.nodes[i].frame, s.width(), s.height());
    key += vg.nodes[i].key + buf;
  }
  key += "|";
  for (const VisFrame& f : vg.frames) key += f.key + ":" + std::to_string(f.parent) + ";";
  key += "|";
  for (const VisEdge& e : vg.edges) {
    std::snprintf(buf, sizeof buf, "%d>%d%c;", e.from, e.to, e.layoutOnly ? 'l' : '-');
    key += buf;
  }
  return key;
}

LayoutWorker::LayoutWorker(QObject* parent, size_t cacheSize)
    : QObject(parent), cacheSize_(cacheSize) {
  pool_.setMaxThreadCount(1);  // Graphviz is serialised by its mutex anyway
}

LayoutWorker::~LayoutWorker() {
  cancel();
  pool_.clear();
  pool_.waitForDone();
}

std::shared_ptr<const GraphLayout> LayoutWorker::cached(const std::string& key) {
  for (auto it = cache_.begin(); it != cache_.end(); ++it)
    if (it->first == key) {
      cache_.splice(cache_.begin(), cache_, it);  // most recently used first
      return cache_.front().second;
    }
  return nullptr;
}

void LayoutWorker::store(const std::string& key, std::shared_ptr<const GraphLayout> layout) {
  if (!layout || !layout->ok() || cached(key)) return;
  cache_.emplace_front(key, std::move(layout));
  if (cache_.size() > cacheSize_) cache_.pop_back();
}

int LayoutWorker::request(std::string key, std::shared_ptr<const VisibleGraph> graph,
                          std::vector<QSizeF> sizes, LayoutOptions options) {
  const int ticket = ++current_;
  pool_.clear();  // superseded requests that have not started never will
  pool_.start([this, ticket, key = std::move(key), graph = std::move(graph),
               sizes = std::move(sizes), options, limit = timeLimit_] {
    if (!isCurrent(ticket)) return;
    LayoutLimits limits;
    limits.timeLimit = limit;
    limits.stopRequested = [this, ticket] { return !isCurrent(ticket); };
    auto layout =
        std::make_shared<const GraphLayout>(layoutGraphInChild(*graph, sizes, options, limits));
    if (layout->failure == LayoutFailure::Stopped) return;
    // Queued to this object's (the GUI) thread; dropped by Qt if the worker is gone.
    QMetaObject::invokeMethod(
        this,
        [this, ticket, key, layout] {
          store(key, layout);
          if (isCurrent(ticket)) emit finished(ticket, layout);
        },
        Qt::QueuedConnection);
  });
  return ticket;
}

}  // namespace gl::ui
