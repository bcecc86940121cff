#pragma once
// The graph as QGraphicsScene items, rebuilt from a VisibleGraph and its dot layout whenever
// folding or the phase filters change; the gradient overlay and break markers restyle the
// existing items without a new layout. With asynchronous layout on (the window's view), dot
// runs on a LayoutWorker and the items appear when it answers; layouts seen before come from
// its cache at once. Repeated structure (repeat_groups.h) starts folded, one node per group.
#include <QElapsedTimer>
#include <QGraphicsScene>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "engine/autodiff/tape.h"
#include "engine/exec/run.h"
#include "ui/graph/graph_layout.h"
#include "ui/graph/graph_model.h"
#include "ui/graph/repeat_groups.h"

namespace gl::ui {

class NodeItem;
class EdgeItem;
class FrameItem;
class ColorBarItem;
class GradientScale;
class LayoutWorker;

class GraphScene : public QGraphicsScene {
  Q_OBJECT
 public:
  explicit GraphScene(QObject* parent = nullptr);
  ~GraphScene() override;

  // Shows a graph; nested frames start folded on big graphs (defaultFolding).
  // `repeats`, when given, are the graph's repeat groups for the current node subset (a caller
  // that already found them saves the scene a pass over a big graph).
  void setGraph(std::shared_ptr<const Graph> graph,
                std::shared_ptr<const RepeatGroups> repeats = nullptr);
  const Graph* graph() const { return graph_.get(); }

  // Iteration counts for the badges (from a RunResult's loop records).
  void setIterations(std::map<int, int64_t> iterations);
  void setRunResult(const RunResult& run);

  void setFolded(int ownerNode, bool folded);
  bool isFolded(int ownerNode) const { return filter_.folded.count(ownerNode) > 0; }
  void setFolding(std::set<int> folded);
  const std::set<int>& folding() const { return filter_.folded; }
  void foldAll();
  // Unfolds frames and groups, outermost first, as far as the picture stays within
  // kUnfoldBudget nodes; what stays folded is said by foldingRefused.
  void unfoldAll();
  // A fold or unfold that would show more nodes than this is refused with the reason: dot
  // takes seconds at 2,000 nodes in frames and minutes beyond, and such a picture is a blur.
  static constexpr int kUnfoldBudget = 2500;

  // Repeat groups of the shown nodes (recomputed with the graph and the node subset). Small
  // graphs are readable node by node: their repeats are left as they are.
  static constexpr int kFoldRepeatsAbove = 150;
  const RepeatGroups& repeatGroups() const { return *repeats_; }
  void setGroupFolded(int group, bool folded);
  bool isGroupFolded(int group) const { return !filter_.unfoldedGroups.count(group); }

  // A new layout and new items with the current style (fonts, sizes): presentation mode.
  void restyle() { rebuild(); }

  // Layout on a worker thread (the items appear on layoutChanged) instead of in the call.
  void setAsyncLayout(bool on) { asyncLayout_ = on; }
  // True until the layout has arrived and all its items are in the scene.
  bool layoutPending() const { return pendingTicket_ >= 0 || applying_; }
  // Items created per event-loop turn when a layout lands: a 34,000-node unfolded graph goes
  // in over many turns, so the GUI thread answers in between. Smaller graphs, and scenes
  // without async layout (export, tests), go in at once.
  static constexpr size_t kItemsPerTurn = 500;
  int lastItemBatches() const { return itemBatches_; }  // event-loop turns the last layout took
  // Layouts taken from the cache so far (a test and a status line read it).
  int cachedLayoutsUsed() const { return cacheHits_; }

  // How long an asynchronous layout may run before it is stopped (kLayoutTimeLimit).
  void setLayoutTimeLimit(std::chrono::milliseconds limit);

  // Edge routing: splines, or straight lines on big graphs (the default decides by size).
  void setLayoutOptions(const LayoutOptions& options);

  // Only these top-level nodes and their frames (nullptr: all).
  // firstOwnNode: GraphFilter::firstOwnNode (where the shown block's own nodes begin).
  void setNodeSubset(std::shared_ptr<const std::set<int>> nodes, int firstOwnNode = 0);
  void setShowForward(bool on);
  void setShowBackward(bool on);
  bool showForward() const { return filter_.showForward; }
  bool showBackward() const { return filter_.showBackward; }

  // Gradient overlay. The scale is shared by the scenes of all variants; setValueNorms widens
  // it by the new norms (other scenes sharing it then need refreshGradientStyle()).
  void setGradientScale(std::shared_ptr<GradientScale> scale);
  std::shared_ptr<GradientScale> gradientScale() const { return scale_; }
  void setValueNorms(std::map<Value, double> norms, bool widenScale = true);
  void clearValueNorms();
  void refreshGradientStyle();
  // The norm an edge between two visible gl nodes shows (max over the values it carries).
  double edgeNorm(const VisEdge& e) const;

  // None gradients: marks diag.node red with diag.text as tooltip. Replaces earlier breaks.
  void setBreaks(const std::vector<GradDiagnostic>& breaks);

  // Highlights and selects the visible nodes built from script line `line`; returns how many.
  int selectNodesAtLine(int line);

  NodeItem* nodeItem(int glNode) const;  // the item that shows a node (entry, folded frame)
  EdgeItem* edgeItem(int fromGlNode, int toGlNode) const;
  FrameItem* frameItem(int ownerNode) const;
  const std::vector<NodeItem*>& nodeItems() const { return nodeItems_; }
  const std::vector<EdgeItem*>& edgeItems() const { return edgeItems_; }
  const std::vector<FrameItem*>& frameItems() const { return frameItems_; }
  ColorBarItem* colorBar() const { return colorBar_; }

  const VisibleGraph& visibleGraph() const { return visible_; }
  const GraphLayout& currentLayout() const { return layout_; }
  double lastLayoutSeconds() const { return layout_.seconds; }
  QRectF graphBounds() const;  // everything drawn, with a margin

  // The visible graph in DOT, styled like the scene (colours, gradient widths, breaks).
  QString toDot() const;

 signals:
  void nodeSelected(int nodeId);
  void breakActivated(int nodeId, const QString& why, const gl::SourceLoc& loc);
  void sourceRequested(const gl::SourceLoc& loc);
  void foldingChanged(int ownerNode, bool folded);
  // Around a fold or unfold: where the toggled frame is before the new layout and after it, so
  // a view can keep it where the user was looking.
  void anchorAboutToMove(QPointF before);
  void anchorMoved(QPointF before, QPointF after);
  void layoutChanged(double seconds);
  void layoutFailed(const QString& error);
  // An unfold the scene did not make (or made only in part), with the reason in words.
  void foldingRefused(const QString& why);

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

 private:
  void rebuild();
  void applyLayout(std::shared_ptr<const GraphLayout> layout);
  void addItemBatch(int generation);
  void finishLayout();
  void afterLayout();
  void recomputeRepeats(std::shared_ptr<const RepeatGroups> known = nullptr);
  void toggleFold(int owner, bool folded);
  void toggleGroup(int group, bool folded);
  bool refuseUnfold(const GraphFilter& trial, const QString& what);
  QString foldedTitle(int owner, int group) const;
  void showLayoutNotice(const QString& text);
  void tickLayoutNotice();
  QPointF anchorOf(int owner) const;
  void applyBreaks();
  NodeItem* nodeItemAt(QPointF pos) const;
  FrameItem* frameItemAt(QPointF pos) const;

  std::shared_ptr<const Graph> graph_;
  GraphFilter filter_;
  LayoutOptions layoutOptions_;
  VisibleGraph visible_;
  GraphLayout layout_;
  std::shared_ptr<const RepeatGroups> repeats_ = std::make_shared<RepeatGroups>();
  LayoutWorker* layoutWorker_;
  bool asyncLayout_ = false;
  int pendingTicket_ = -1;
  // Items of the landed layout go in batches: the next item to create (frames, then edges,
  // then nodes) and the rebuild they belong to (a newer rebuild drops the rest).
  bool applying_ = false;
  size_t applyCursor_ = 0;
  int applyGeneration_ = 0;
  int itemBatches_ = 0;
  int cacheHits_ = 0;
  std::string pendingKey_;
  // A fold toggled while its layout runs: where it was, to report once the layout lands.
  std::function<QPointF()> pendingAnchor_;
  QPointF anchorBefore_;
  std::shared_ptr<GradientScale> scale_;
  std::map<Value, double> norms_;
  std::map<int, QString> breaks_;  // gl node -> why
  std::vector<NodeItem*> nodeItems_;
  std::vector<EdgeItem*> edgeItems_;
  std::vector<FrameItem*> frameItems_;
  ColorBarItem* colorBar_ = nullptr;
  // While a layout runs: its notice in the scene and the clock that counts its seconds.
  QGraphicsTextItem* layoutNotice_ = nullptr;
  QTimer* layoutClock_;
  QElapsedTimer layoutStarted_;
};

}  // namespace gl::ui
