#include "ui/graph/graph_scene.h"

#include <QGraphicsSceneMouseEvent>
#include <QGraphicsTextItem>
#include <QTimer>

#include <algorithm>

#include "ui/graph/edge_item.h"
#include "ui/graph/frame_item.h"
#include "ui/graph/gradient_flow.h"
#include "ui/graph/gradient_scale.h"
#include "ui/graph/graph_style.h"
#include "ui/graph/graphviz_graph.h"
#include "ui/graph/layout_process.h"
#include "ui/graph/layout_worker.h"
#include "ui/graph/node_item.h"
#include "ui/i18n/diagnostic_text.h"

namespace gl::ui {

namespace {

// "backward pass ×1000": the title and the badge, as the folded node shows them.
QString foldedNodeTitle(const VisNode& n) {
  const QString title = QString::fromStdString(n.title);
  return n.iterations > 0 ? title + QStringLiteral(" ×%1").arg(n.iterations) : title;
}

QString layoutFailureText(const GraphLayout& layout, int nodes) {
  switch (layout.failure) {
    case LayoutFailure::TimedOut:
      return GraphScene::tr(
                 "The layout of %n node(s) was stopped after %1 s. Fold loops or groups (View > "
                 "Fold All Loops) to see the graph.",
                 nullptr, nodes)
          .arg(qint64(kLayoutTimeLimit.count()));
    case LayoutFailure::TooLarge:
      return GraphScene::tr(
                 "%n node(s) are too many to lay out (at most %1). Fold loops or groups (View > "
                 "Fold All Loops) to see the graph.",
                 nullptr, nodes)
          .arg(kMaxLayoutNodes);
    case LayoutFailure::Crashed:
      return GraphScene::tr("Graphviz stopped without a layout (%1).")
          .arg(QString::fromStdString(layout.error));
    case LayoutFailure::Graphviz:
    case LayoutFailure::Stopped:
    case LayoutFailure::None:
      break;
  }
  return QString::fromStdString(layout.error);
}

}  // namespace

GraphScene::GraphScene(QObject* parent)
    : QGraphicsScene(parent),
      layoutWorker_(new LayoutWorker(this)),
      scale_(std::make_shared<GradientScale>()),
      layoutClock_(new QTimer(this)) {
  layoutClock_->setInterval(1000);
  connect(layoutClock_, &QTimer::timeout, this, &GraphScene::tickLayoutNotice);
  setBackgroundBrush(style::sceneBackground());
  setItemIndexMethod(QGraphicsScene::BspTreeIndex);
  connect(layoutWorker_, &LayoutWorker::finished, this,
          [this](int ticket, std::shared_ptr<const GraphLayout> layout) {
            if (ticket != pendingTicket_) return;
            pendingTicket_ = -1;
            applyLayout(std::move(layout));
          });
}

GraphScene::~GraphScene() = default;

void GraphScene::setGraph(std::shared_ptr<const Graph> graph,
                          std::shared_ptr<const RepeatGroups> repeats) {
  graph_ = std::move(graph);
  filter_.folded = graph_ ? defaultFolding(*graph_) : std::set<int>{};
  norms_.clear();
  breaks_.clear();
  recomputeRepeats(std::move(repeats));
  rebuild();
}

void GraphScene::setNodeSubset(std::shared_ptr<const std::set<int>> nodes, int firstOwnNode) {
  filter_.only = std::move(nodes);
  filter_.firstOwnNode = firstOwnNode;
  recomputeRepeats();
  rebuild();
}

void GraphScene::recomputeRepeats(std::shared_ptr<const RepeatGroups> known) {
  const int shown = !graph_ ? 0 : filter_.only ? int(filter_.only->size()) : graph_->numNodes();
  // A small graph shows every node: only tf.function calls are grouped, each call group
  // unfolded (its frame says which ops a call ran); a big one folds repeats and the calls of
  // functions called more than once.
  const bool small = shown <= kFoldRepeatsAbove;
  if (!graph_)
    repeats_ = std::make_shared<const RepeatGroups>();
  else if (known && !small)
    repeats_ = std::move(known);
  else
    repeats_ = std::make_shared<const RepeatGroups>(
        findRepeatGroups(*graph_, filter_.only.get(), kMinRepeats, !small));
  filter_.repeats = repeats_;
  filter_.unfoldedGroups.clear();
  // A function called once (a lesson's whole computation, often) opens as its frame.
  for (size_t i = 0; i < repeats_->groups.size(); ++i) {
    const RepeatGroup& group = repeats_->groups[i];
    if (small || (group.kind == GroupKind::FunctionCalls && group.repeats == 1))
      filter_.unfoldedGroups.insert(int(i));
  }
}

void GraphScene::setGroupFolded(int group, bool folded) {
  if (group >= 0 && size_t(group) < repeats_->groups.size() && isGroupFolded(group) != folded)
    toggleGroup(group, folded);
}

void GraphScene::setIterations(std::map<int, int64_t> iterations) {
  filter_.iterations = std::move(iterations);
  rebuild();  // titles and badges change size
}

void GraphScene::setRunResult(const RunResult& run) { setIterations(loopIterations(run)); }

void GraphScene::setFolded(int ownerNode, bool folded) {
  if (isFolded(ownerNode) != folded) toggleFold(ownerNode, folded);
}

void GraphScene::setFolding(std::set<int> folded) {
  filter_.folded = std::move(folded);
  rebuild();
}

void GraphScene::foldAll() {
  if (!graph_) return;
  const std::vector<int> owners = frameOwners(*graph_);
  filter_.unfoldedGroups.clear();
  setFolding({owners.begin(), owners.end()});
}

void GraphScene::unfoldAll() {
  if (!graph_) return;
  GraphFilter all = filter_;
  all.folded.clear();
  for (size_t i = 0; i < repeats_->groups.size(); ++i) all.unfoldedGroups.insert(int(i));
  const size_t allNodes = countVisible(*graph_, all).nodes;
  if (allNodes <= size_t(kUnfoldBudget)) {
    filter_ = std::move(all);
    return rebuild();
  }
  // Outermost first. Each round weighs every folded node of the picture so far by the nodes
  // unfolding it adds (they are disjoint, so the additions sum) and opens the lightest first
  // while the picture stays within the budget: as many loops open as fit, rather than the
  // first group met filling the budget with copies of one step.
  GraphFilter trial = filter_;
  std::vector<FoldedItem> refused;
  std::set<FoldedItem> weighed;
  for (bool grew = true; grew;) {
    grew = false;
    const VisibleCount now = countVisible(*graph_, trial);
    std::vector<std::pair<size_t, FoldedItem>> added;
    for (const FoldedItem& item : now.folded) {
      if (!weighed.insert(item).second) continue;  // refused in an earlier round
      GraphFilter next = trial;
      if (item.group >= 0)
        next.unfoldedGroups.insert(item.group);
      else
        next.folded.erase(item.owner);
      added.push_back({countVisible(*graph_, next).nodes - now.nodes, item});
    }
    std::sort(added.begin(), added.end());
    size_t total = now.nodes;
    for (const auto& [more, item] : added) {
      if (total + more > size_t(kUnfoldBudget)) {
        refused.push_back(item);
        continue;
      }
      total += more;
      grew = true;
      if (item.group >= 0)
        trial.unfoldedGroups.insert(item.group);
      else
        trial.folded.erase(item.owner);
    }
  }
  filter_ = std::move(trial);
  rebuild();
  QStringList titles;
  for (const FoldedItem& item : refused) titles << foldedTitle(item.owner, item.group);
  emit foldingRefused(
      tr("Unfolded as far as %n node(s) can be laid out readably; left folded: %1 (all unfolded "
         "would show %2 nodes).",
         nullptr, kUnfoldBudget)
          .arg(titles.join(QStringLiteral(", ")))
          .arg(allNodes));
}

bool GraphScene::refuseUnfold(const GraphFilter& trial, const QString& what) {
  const size_t nodes = countVisible(*graph_, trial).nodes;
  if (nodes <= size_t(kUnfoldBudget)) return false;
  emit foldingRefused(tr("%1 stays folded: unfolded, the graph would show %2 nodes, more than "
                         "the %3 that can be laid out readably. Fold other loops first.")
                          .arg(what)
                          .arg(nodes)
                          .arg(kUnfoldBudget));
  return true;
}

QString GraphScene::foldedTitle(int owner, int group) const {
  for (const VisNode& n : visible_.nodes)
    if (n.kind == VisNodeKind::Folded && (group >= 0 ? n.group == group : n.node == owner))
      return foldedNodeTitle(n);
  return group >= 0 ? tr("group %1").arg(group) : tr("node #%1").arg(owner);
}

void GraphScene::setLayoutTimeLimit(std::chrono::milliseconds limit) {
  layoutWorker_->setTimeLimit(limit);
}

void GraphScene::setLayoutOptions(const LayoutOptions& options) {
  layoutOptions_ = options;
  rebuild();
}

void GraphScene::setShowForward(bool on) {
  if (filter_.showForward == on) return;
  filter_.showForward = on;
  rebuild();
}

void GraphScene::setShowBackward(bool on) {
  if (filter_.showBackward == on) return;
  filter_.showBackward = on;
  rebuild();
}

void GraphScene::setGradientScale(std::shared_ptr<GradientScale> scale) {
  scale_ = scale ? std::move(scale) : std::make_shared<GradientScale>();
  rebuild();  // the colour bar item points at the scale
}

void GraphScene::setValueNorms(std::map<Value, double> norms, bool widenScale) {
  norms_ = std::move(norms);
  if (widenScale) scale_->include(norms_);
  refreshGradientStyle();
}

void GraphScene::clearValueNorms() {
  norms_.clear();
  refreshGradientStyle();
}

double GraphScene::edgeNorm(const VisEdge& e) const {
  double best = -1;
  for (Value v : e.values)
    if (auto it = norms_.find(v); it != norms_.end()) best = std::max(best, it->second);
  return best;
}

void GraphScene::refreshGradientStyle() {
  for (EdgeItem* item : edgeItems_) {
    const double norm = edgeNorm(item->info());
    if (norm > 0)
      item->setGradientNorm(norm, *scale_);
    else
      item->clearGradient();
  }
  if (colorBar_) {
    colorBar_->setVisible(!norms_.empty());
    update();  // a view may draw the bar pinned to its viewport, outside any item's rect
  }
  setSceneRect(graphBounds());
}

void GraphScene::setBreaks(const std::vector<GradDiagnostic>& breaks) {
  breaks_.clear();
  for (const GradDiagnostic& d : breaks)
    if (d.node >= 0 && !d.text.empty()) breaks_[d.node] = whyNoneText(d);
  applyBreaks();
}

void GraphScene::applyBreaks() {
  std::map<NodeItem*, QStringList> texts;
  for (const auto& [node, why] : breaks_) {
    NodeItem* item = nodeItem(node);
    if (!item) continue;
    // A break hidden in a folded frame marks the frame's node and says where it really is.
    texts[item] << (item->nodeId() == node
                        ? why
                        : QStringLiteral("inside, at node #%1: %2").arg(node).arg(why));
  }
  for (NodeItem* item : nodeItems_) {
    auto it = texts.find(item);
    item->setBreak(it == texts.end() ? QString() : it->second.join(QStringLiteral("\n")));
  }
}

int GraphScene::selectNodesAtLine(int line) {
  clearSelection();
  for (NodeItem* item : nodeItems_) item->setHighlighted(false);
  if (!graph_ || line <= 0) return 0;
  std::set<NodeItem*> hits;
  for (const Node& n : graph_->nodes())
    if (n.loc.line == line)
      if (NodeItem* item = nodeItem(n.id)) hits.insert(item);
  for (NodeItem* item : hits) {
    item->setHighlighted(true);
    item->setSelected(true);
  }
  return static_cast<int>(hits.size());
}

NodeItem* GraphScene::nodeItem(int glNode) const {
  const int index = visible_.indexOf(glNode);
  return index >= 0 && size_t(index) < nodeItems_.size() ? nodeItems_[size_t(index)] : nullptr;
}

EdgeItem* GraphScene::edgeItem(int fromGlNode, int toGlNode) const {
  for (EdgeItem* item : edgeItems_) {
    const VisEdge& e = item->info();
    if (visible_.nodes[size_t(e.from)].node == fromGlNode &&
        visible_.nodes[size_t(e.to)].node == toGlNode)
      return item;
  }
  return nullptr;
}

FrameItem* GraphScene::frameItem(int ownerNode) const {
  for (FrameItem* item : frameItems_)
    if (item->owner() == ownerNode && !item->isRegion()) return item;
  return nullptr;
}

QRectF GraphScene::graphBounds() const {
  QRectF r = layout_.bounds;
  if (colorBar_ && colorBar_->isVisible())
    r = r.united(colorBar_->mapRectToScene(colorBar_->boundingRect()));
  return r.adjusted(-12, -12, 12, 12);
}

void GraphScene::rebuild() {
  clear();  // deletes every item
  layoutNotice_ = nullptr;
  layoutClock_->stop();
  nodeItems_.clear();
  edgeItems_.clear();
  frameItems_.clear();
  colorBar_ = nullptr;
  visible_ = {};
  layout_ = {};
  pendingTicket_ = -1;
  applying_ = false;
  ++applyGeneration_;
  layoutWorker_->cancel();
  if (!graph_) return;
  visible_ = buildVisibleGraph(*graph_, filter_);
  std::vector<QSizeF> sizes;
  sizes.reserve(visible_.nodes.size());
  for (const VisNode& n : visible_.nodes) sizes.push_back(style::nodeSize(n));
  std::string key = layoutKey(visible_, sizes, layoutOptions_);
  if (auto hit = layoutWorker_->cached(key)) {
    ++cacheHits_;
    return applyLayout(std::move(hit));
  }
  if (!asyncLayout_ || visible_.nodes.empty()) {
    auto layout = std::make_shared<const GraphLayout>(layoutGraph(visible_, sizes, layoutOptions_));
    layoutWorker_->store(key, layout);
    return applyLayout(std::move(layout));
  }
  layoutStarted_.start();
  tickLayoutNotice();
  layoutClock_->start();
  pendingTicket_ =
      layoutWorker_->request(std::move(key), std::make_shared<const VisibleGraph>(visible_),
                             std::move(sizes), layoutOptions_);
}

void GraphScene::showLayoutNotice(const QString& text) {
  if (!layoutNotice_) {
    layoutNotice_ = addText(QString());
    layoutNotice_->setDefaultTextColor(Qt::gray);
    layoutNotice_->setTextWidth(560);
  }
  layoutNotice_->setPlainText(text);
  setSceneRect(layoutNotice_->mapRectToScene(layoutNotice_->boundingRect()));
}

// "Laying out", with the seconds so far once it takes a while: a big layout is visibly alive,
// and the user learns what stops it.
void GraphScene::tickLayoutNotice() {
  const int nodes = int(visible_.nodes.size());
  const qint64 seconds = layoutStarted_.elapsed() / 1000;
  if (seconds < 1) return showLayoutNotice(tr("Laying out %n node(s)…", nullptr, nodes));
  showLayoutNotice(tr("Laying out %n node(s)… %1 s (stopped after %2 s; folding loops stops it "
                      "now)",
                      nullptr, nodes)
                       .arg(seconds)
                       .arg(qint64(kLayoutTimeLimit.count())));
}

void GraphScene::applyLayout(std::shared_ptr<const GraphLayout> layout) {
  layoutClock_->stop();
  clear();  // the "laying out" notice
  layoutNotice_ = nullptr;
  layout_ = *layout;
  if (!layout_.ok()) {
    const QString why = layoutFailureText(layout_, int(visible_.nodes.size()));
    showLayoutNotice(why);
    emit layoutFailed(why);
    return afterLayout();
  }
  applyCursor_ = 0;
  itemBatches_ = 0;
  applying_ = true;
  addItemBatch(++applyGeneration_);
}

// Creates up to kItemsPerTurn items, then yields to the event loop until all are in.
void GraphScene::addItemBatch(int generation) {
  if (generation != applyGeneration_ || !applying_) return;  // a newer rebuild took over
  const size_t frames = visible_.frames.size(), edges = visible_.edges.size();
  const size_t total = frames + edges + visible_.nodes.size();
  const size_t end = asyncLayout_ ? std::min(total, applyCursor_ + kItemsPerTurn) : total;
  ++itemBatches_;
  for (; applyCursor_ < end; ++applyCursor_) {
    const size_t i = applyCursor_;
    if (i < frames) {
      if (layout_.frames[i].isNull()) continue;
      int depth = 0;
      for (int p = visible_.frames[i].parent; p >= 0; p = visible_.frames[size_t(p)].parent)
        ++depth;
      frameItems_.push_back(new FrameItem(visible_.frames[i], layout_.frames[i], depth));
      addItem(frameItems_.back());
    } else if (i < frames + edges) {
      const size_t e = i - frames;
      if (visible_.edges[e].layoutOnly) continue;
      edgeItems_.push_back(new EdgeItem(visible_.edges[e], layout_.edges[e]));
      addItem(edgeItems_.back());
    } else {
      const VisNode& n = visible_.nodes[i - frames - edges];
      nodeItems_.push_back(
          new NodeItem(n, layout_.nodes[i - frames - edges], graph_->node(n.node).loc));
      addItem(nodeItems_.back());
    }
  }
  if (applyCursor_ < total) {
    QTimer::singleShot(0, this, [this, generation] { addItemBatch(generation); });
    return;
  }
  finishLayout();
}

void GraphScene::finishLayout() {
  applying_ = false;
  colorBar_ = new ColorBarItem(scale_.get());
  addItem(colorBar_);
  colorBar_->setPos(layout_.bounds.right() + 28, layout_.bounds.top() + 24);
  refreshGradientStyle();
  applyBreaks();
  emit layoutChanged(layout_.seconds);
  afterLayout();
}

// A fold toggled before this layout: the view keeps the toggled frame in place.
void GraphScene::afterLayout() {
  if (!pendingAnchor_) return;
  const QPointF after = pendingAnchor_();
  pendingAnchor_ = nullptr;
  emit anchorMoved(anchorBefore_, after);
}

QPointF GraphScene::anchorOf(int owner) const {
  if (FrameItem* frame = frameItem(owner)) {
    const QRectF r = frame->mapRectToScene(frame->boundingRect());
    return {r.center().x(), r.top()};
  }
  if (NodeItem* node = nodeItem(owner)) {
    const QRectF r = node->mapRectToScene(node->boundingRect());
    return {r.center().x(), r.top()};
  }
  return {};
}

void GraphScene::toggleFold(int owner, bool folded) {
  if (!folded) {
    GraphFilter trial = filter_;
    trial.folded.erase(owner);
    if (refuseUnfold(trial, foldedTitle(owner, -1))) return;
  }
  const QPointF before = anchorOf(owner);
  emit anchorAboutToMove(before);
  if (folded)
    filter_.folded.insert(owner);
  else
    filter_.folded.erase(owner);
  anchorBefore_ = before;
  pendingAnchor_ = [this, owner] { return anchorOf(owner); };
  rebuild();
  emit foldingChanged(owner, folded);
}

void GraphScene::toggleGroup(int group, bool folded) {
  if (!folded) {
    GraphFilter trial = filter_;
    trial.unfoldedGroups.insert(group);
    if (refuseUnfold(trial, foldedTitle(-1, group))) return;
  }
  const int first = repeats_->groups[size_t(group)].members.front();
  auto anchor = [this, group, first] {
    for (FrameItem* frame : frameItems_)
      if (frame->info().group == group) {
        const QRectF r = frame->mapRectToScene(frame->boundingRect());
        return QPointF(r.center().x(), r.top());
      }
    return anchorOf(first);
  };
  const QPointF before = anchor();
  emit anchorAboutToMove(before);
  if (folded)
    filter_.unfoldedGroups.erase(group);
  else
    filter_.unfoldedGroups.insert(group);
  anchorBefore_ = before;
  pendingAnchor_ = anchor;
  rebuild();
}

NodeItem* GraphScene::nodeItemAt(QPointF pos) const {
  for (QGraphicsItem* item : items(pos))
    if (item->type() == NodeItem::Type) return static_cast<NodeItem*>(item);
  return nullptr;
}

FrameItem* GraphScene::frameItemAt(QPointF pos) const {
  for (QGraphicsItem* item : items(pos))
    if (item->type() == FrameItem::Type && !static_cast<FrameItem*>(item)->isRegion())
      return static_cast<FrameItem*>(item);
  return nullptr;
}

void GraphScene::mousePressEvent(QGraphicsSceneMouseEvent* event) {
  const QPointF pos = event->scenePos();
  if (event->button() == Qt::LeftButton && !nodeItemAt(pos)) {
    FrameItem* frame = frameItemAt(pos);
    if (frame && frame->foldButtonRect().contains(pos)) {
      event->accept();
      // Items are rebuilt: nothing below may touch them.
      if (frame->info().group >= 0)
        toggleGroup(frame->info().group, true);
      else
        toggleFold(frame->owner(), true);
      return;
    }
  }
  QGraphicsScene::mousePressEvent(event);
  if (event->button() != Qt::LeftButton) return;
  if (NodeItem* node = nodeItemAt(pos)) {
    emit nodeSelected(node->nodeId());
    if (node->isBreak()) emit breakActivated(node->nodeId(), node->breakText(), node->loc());
  }
}

// Double-click: a folded frame unfolds, a frame folds, any other node asks for its script line.
void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) {
  const QPointF pos = event->scenePos();
  if (event->button() == Qt::LeftButton) {
    if (NodeItem* node = nodeItemAt(pos)) {
      if (node->kind() == VisNodeKind::Folded) {
        event->accept();
        if (node->info().group >= 0)
          toggleGroup(node->info().group, false);
        else
          toggleFold(node->nodeId(), false);
        return;
      }
      if (node->loc().known()) emit sourceRequested(node->loc());
    } else if (FrameItem* frame = frameItemAt(pos); frame && frame->foldable()) {
      event->accept();
      if (frame->info().group >= 0)
        toggleGroup(frame->info().group, true);
      else
        toggleFold(frame->owner(), true);
      return;
    }
  }
  QGraphicsScene::mouseDoubleClickEvent(event);
}

QString GraphScene::toDot() const {
  DotStyle style;
  style.scale = *scale_;
  for (const VisEdge& e : visible_.edges) style.edgeNorms.push_back(edgeNorm(e));
  for (NodeItem* item : nodeItems_) {
    style.breaks.push_back(item->isBreak());
    style.tooltips.push_back(item->breakText().toStdString());
  }
  std::lock_guard<std::mutex> lock(graphvizMutex());
  std::unique_ptr<GvGraph> gv = buildStyledGraph(visible_, style);
  return QString::fromStdString(writeDot(gv->graph));
}

}  // namespace gl::ui
