// The graph view offscreen: frames and node counts, folding, phase filters, the gradient
// overlay, break markers, clicks, search and script-line selection.
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include "test_main.h"

#include "engine/lab/gradient_view.h"
#include "sample_graphs.h"
#include "ui/graph/edge_item.h"
#include "ui/graph/frame_item.h"
#include "ui/graph/gradient_flow.h"
#include "ui/graph/gradient_scale.h"
#include "ui/graph/graph_export.h"
#include "ui/graph/graph_overview.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_style.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/node_item.h"

using namespace gl::ui;

namespace {

int countPhase(const gl::Graph& g, gl::Phase p) {
  int n = 0;
  for (const gl::Node& node : g.nodes()) n += node.phase == p;
  return n;
}

// Nodes whose region lies inside one of `owner`'s regions.
int nodesInside(const gl::Graph& g, int owner, gl::Phase p) {
  int n = 0;
  for (const gl::Node& node : g.nodes())
    for (int r : g.node(owner).regions)
      if (node.phase == p && g.within(node.region, r)) ++n;
  return n;
}

// A list comprehension of `layers` layers x * x + 0.5 traced at one script line, stacked: more
// nodes than a small graph, so the view folds them into one repeat group.
struct RepeatedLayers {
  std::shared_ptr<gl::Graph> graph = std::make_shared<gl::Graph>();
  std::vector<int> layerMuls;
};

RepeatedLayers makeRepeatedLayers(int layers) {
  RepeatedLayers r;
  gl::Builder b(*r.graph);
  b.setLoc(gltest::line(1));
  gl::Value x = b.variable(gl::Tensor::fromVector({0.5, 1.0}, {2}, gl::DType::F64), "x");
  b.setLoc(gltest::line(3));
  std::vector<gl::Value> outs;
  for (int i = 0; i < layers; ++i) {
    const gl::Value h = gl::ops::mul(b, x, x);
    r.layerMuls.push_back(h.node);
    outs.push_back(gl::ops::add(b, h, b.scalar(0.5, gl::DType::F64)));
  }
  b.setLoc(gltest::line(4));
  gl::ops::stack(b, outs);
  return r;
}

}  // namespace

class TestGraphView : public QObject {
  Q_OBJECT
 private slots:
  void framesAndNodeCounts() {
    auto s = gltest::makeSampleGraph();
    GraphScene scene;
    scene.setShowBackward(false);
    scene.setGraph(s.graph);
    const gl::Graph& g = *s.graph;
    // Every forward node once, plus an exit node for each of the two unfolded frames.
    QCOMPARE(int(scene.nodeItems().size()), countPhase(g, gl::Phase::Forward) + 2);
    QVERIFY(scene.frameItem(s.whileNode));
    QVERIFY(scene.frameItem(s.condNode));
    // The while frame holds cond and body, the cond frame then and else.
    QCOMPARE(int(scene.frameItems().size()), 6);
    int regions = 0;
    for (FrameItem* f : scene.frameItems()) regions += f->isRegion();
    QCOMPARE(regions, 4);
    // The unrolled loop is four separate mul nodes at the top level; the while body is one frame.
    for (int id : s.unrolled) QCOMPARE(scene.nodeItem(id)->info().frame, -1);
    QCOMPARE(scene.nodeItem(s.whileNode)->kind(), VisNodeKind::Entry);
    // Frames enclose their nodes.
    const QRectF whileFrame = scene.frameItem(s.whileNode)->boundingRect();
    for (int r : g.node(s.whileNode).regions)
      for (int id : g.region(r).nodes)
        QVERIFY(whileFrame.contains(scene.nodeItem(id)->sceneBoundingRect().center()));
    QVERIFY(scene.lastLayoutSeconds() > 0);
  }

  void foldAndUnfold() {
    auto s = gltest::makeSampleGraph();
    GraphScene scene;
    scene.setShowBackward(false);
    scene.setGraph(s.graph);
    scene.setRunResult(gltest::runSample(s));
    const int before = int(scene.nodeItems().size());
    const int itemsBefore = int(scene.items().size());
    QSignalSpy folded(&scene, &GraphScene::foldingChanged);
    scene.setFolded(s.whileNode, true);
    QCOMPARE(folded.count(), 1);
    QVERIFY(scene.isFolded(s.whileNode));
    const int inside = nodesInside(*s.graph, s.whileNode, gl::Phase::Forward);
    QCOMPARE(int(scene.nodeItems().size()), before - inside - 1);  // and no exit node
    QVERIFY(int(scene.items().size()) < itemsBefore);
    QVERIFY(!scene.frameItem(s.whileNode));
    NodeItem* node = scene.nodeItem(s.whileNode);
    QCOMPARE(node->kind(), VisNodeKind::Folded);
    QCOMPARE(node->info().iterations, int64_t(gltest::SampleGraph::kSteps));
    // Nodes of the body are now shown by the folded node.
    const int bodyNode = s.graph->region(s.graph->node(s.whileNode).regions[1]).nodes.back();
    QCOMPARE(scene.nodeItem(bodyNode), node);
    scene.setFolded(s.whileNode, false);
    QCOMPARE(int(scene.nodeItems().size()), before);
    QCOMPARE(int(scene.items().size()), itemsBefore);
    scene.foldAll();
    QCOMPARE(int(scene.frameItems().size()), 0);
    scene.unfoldAll();
    QCOMPARE(int(scene.frameItems().size()), 6);
  }

  void forwardAndBackwardToggles() {
    auto s = gltest::makeSampleGraph();
    GraphScene scene;
    scene.setGraph(s.graph);
    const int backward = countPhase(*s.graph, gl::Phase::Backward);
    QVERIFY(backward > 0);
    auto count = [&](bool wantBackward) {
      int n = 0;
      for (NodeItem* item : scene.nodeItems()) n += item->info().backward == wantBackward;
      return n;
    };
    QVERIFY(count(true) >= backward);
    scene.setShowBackward(false);
    QCOMPARE(count(true), 0);
    QVERIFY(count(false) > 0);
    scene.setShowForward(false);
    scene.setShowBackward(true);
    QCOMPARE(count(false), 0);
    QVERIFY(count(true) >= backward);
    scene.setShowForward(true);
    QVERIFY(count(false) > 0 && count(true) > 0);
  }

  void gradientOverlayFollowsNorms() {
    auto s = gltest::makeSampleGraph();
    GraphScene scene;
    scene.setShowBackward(false);
    scene.setGraph(s.graph);
    const int m0 = s.unrolled[0], m1 = s.unrolled[1], m2 = s.unrolled[2];
    std::map<gl::Value, double> norms{{{m0, 0}, 1e-3}, {{m1, 0}, 10.0}};
    scene.setValueNorms(norms);
    EdgeItem* small = scene.edgeItem(m0, m1);
    EdgeItem* big = scene.edgeItem(m1, m2);
    QVERIFY(small && big);
    QCOMPARE(small->gradientNorm(), 1e-3);
    QVERIFY(big->penWidth() > small->penWidth());
    QCOMPARE(big->penWidth(), GradientScale::kMaxWidth);
    QCOMPARE(small->penWidth(), GradientScale::kMinWidth);
    QVERIFY(big->color() != small->color());
    QCOMPARE(scene.gradientScale()->min(), 1e-3);
    QCOMPARE(scene.gradientScale()->max(), 10.0);
    QVERIFY(scene.colorBar()->isVisible());
    // One scale for all variants: a second scene sharing it draws the same norm the same way.
    GraphScene other;
    other.setGradientScale(scene.gradientScale());
    other.setShowBackward(false);
    other.setGraph(s.graph);
    other.setValueNorms({{{m1, 0}, 10.0}}, /*widenScale=*/false);
    QCOMPARE(other.edgeItem(m1, m2)->color(), big->color());
    QCOMPARE(other.edgeItem(m1, m2)->penWidth(), big->penWidth());
    scene.clearValueNorms();
    QVERIFY(!scene.edgeItem(m1, m2)->hasGradient());
    QVERIFY(!scene.colorBar()->isVisible());
  }

  void overlayFromLoopRecords() {
    auto s = gltest::makeSampleGraph();
    const gl::RunResult run = gltest::runSample(s);
    QVERIFY(run.loops.count(s.whileNode));
    QVERIFY(!run.loops.at(s.whileNode).adjoints.empty());
    const auto norms = gl::lab::loopAdjointNorms(*s.graph, run, 2);
    const gl::Region& body = s.graph->region(s.graph->node(s.whileNode).regions[1]);
    QVERIFY(norms.count(body.params[1]));
    const auto& adjoints = run.loops.at(s.whileNode).adjoints;
    QCOMPARE(norms.at(body.params[1]), adjoints[2][1].l2);
    QCOMPARE(norms.at(body.results[1]), adjoints[3][1].l2);
    // The reverse loop's edges carry the same adjoints, one iteration later.
    int reverse = -1;
    for (const gl::Node& n : s.graph->nodes())
      if (n.forwardNode == s.whileNode && n.is(gl::NodeKind::While)) reverse = n.id;
    QVERIFY(reverse >= 0);
    const gl::Region& revBody = s.graph->region(s.graph->node(reverse).regions[1]);
    QCOMPARE(norms.at(revBody.params[1]), adjoints[3][1].l2);
    QCOMPARE(norms.at(revBody.results[1]), adjoints[2][1].l2);
    // The scale spans every step, so that colours stay put while stepping.
    auto scale = std::make_shared<GradientScale>();
    includeRunInScale(*scale, run);
    for (int64_t t = 0; t <= gltest::SampleGraph::kSteps; ++t)
      for (const auto& [v, norm] : gl::lab::loopAdjointNorms(*s.graph, run, t))
        QVERIFY(norm == 0 || (norm >= scale->min() && norm <= scale->max()));
    GraphScene scene;
    scene.setGradientScale(scale);
    scene.setGraph(s.graph);
    scene.setValueNorms(norms, /*widenScale=*/false);
    int withGradient = 0;
    for (EdgeItem* e : scene.edgeItems()) withGradient += e->hasGradient();
    QVERIFY(withGradient >= 2);
  }

  void breakMarkerWithExplanation() {
    auto s = gltest::makeSampleGraph();
    QVERIFY(!s.none.text.empty());
    QVERIFY(s.none.node >= 0);
    GraphView view;
    GraphScene& scene = *view.graphScene();
    scene.setShowBackward(false);
    scene.setGraph(s.graph);
    QTRY_VERIFY(!view.graphScene()->layoutPending());  // the view lays out on a worker
    scene.setBreaks({s.none});
    NodeItem* item = scene.nodeItem(s.none.node);
    QVERIFY(item && item->isBreak());
    QCOMPARE(item->breakText(), QString::fromStdString(s.none.text));
    // The tooltip holds the whole explanation, wrapped to a readable column.
    QVERIFY(
        item->toolTip().simplified().contains(QString::fromStdString(s.none.text).simplified()));
    QVERIFY(QString::fromStdString(s.none.text).size() > 80);
    for (const QString& line : item->toolTip().split('\n'))
      QVERIFY2(line.size() <= 72, qPrintable(line));
    int breaks = 0;
    for (NodeItem* n : scene.nodeItems()) breaks += n->isBreak();
    QCOMPARE(breaks, 1);
    // Clicking the break tells the editor where to go.
    QSignalSpy spy(&scene, &GraphScene::breakActivated);
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.centerOn(item);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.mapFromScene(item->scenePos()));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), s.none.node);
    const auto loc = spy.at(0).at(2).value<gl::SourceLoc>();
    QCOMPARE(loc.line, s.graph->node(s.none.node).loc.line);
  }

  void clickEmitsNodeSelected() {
    auto s = gltest::makeSampleGraph();
    GraphView view;
    view.graphScene()->setGraph(s.graph);
    QTRY_VERIFY(!view.graphScene()->layoutPending());  // the view lays out on a worker
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy spy(view.graphScene(), &GraphScene::nodeSelected);
    NodeItem* item = view.graphScene()->nodeItem(s.unrolled[2]);
    view.centerOn(item);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.mapFromScene(item->scenePos()));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), s.unrolled[2]);
    QVERIFY(item->isSelected());
  }

  void doubleClickFoldsAndUnfolds() {
    auto s = gltest::makeSampleGraph();
    GraphView view;
    GraphScene& scene = *view.graphScene();
    scene.setShowBackward(false);
    scene.setGraph(s.graph);
    QTRY_VERIFY(!view.graphScene()->layoutPending());  // the view lays out on a worker
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    // The fold button in the frame's header folds it.
    const QPointF button = scene.frameItem(s.whileNode)->foldButtonRect().center();
    view.centerOn(button);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.mapFromScene(button));
    QVERIFY(scene.isFolded(s.whileNode));
    QTRY_VERIFY(!scene.layoutPending());
    // Double-clicking the folded node unfolds it, and the view keeps it where it was.
    NodeItem* folded = scene.nodeItem(s.whileNode);
    view.centerOn(folded);
    const QPoint at = view.mapFromScene(folded->scenePos());
    QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, at);
    QVERIFY(!scene.isFolded(s.whileNode));
    QTRY_VERIFY(!scene.layoutPending());
    QVERIFY(scene.frameItem(s.whileNode));
    const QRectF frame = scene.frameItem(s.whileNode)->sceneBoundingRect();
    const QPoint top = view.mapFromScene(QPointF(frame.center().x(), frame.top()));
    QVERIFY2(QLineF(top, at).length() < 60, "the unfolded frame jumped away");
  }

  // A big graph's items go into the scene over several event-loop turns, never one long
  // stall: the layout arrives from the worker, then kItemsPerTurn items per turn.
  void bigGraphItemsArriveInBatches() {
    auto g = gltest::makeChain(3000);
    GraphView view;
    GraphScene& scene = *view.graphScene();
    scene.setLayoutOptions({LayoutOptions::Edges::Straight});
    scene.setGraph(g);
    QTRY_VERIFY_WITH_TIMEOUT(!scene.layoutPending(), 120000);
    QCOMPARE(int(scene.nodeItems().size()), g->numNodes());
    const size_t items = scene.nodeItems().size() + scene.edgeItems().size();
    QVERIFY(items > 2 * GraphScene::kItemsPerTurn);
    QVERIFY2(size_t(scene.lastItemBatches()) >= items / GraphScene::kItemsPerTurn,
             qPrintable(QString::number(scene.lastItemBatches())));
    // Every item is placed where the layout put it, batches or not.
    for (const gl::Node& n : g->nodes()) QVERIFY(scene.nodeItem(n.id));
    // A rebuild while batches are pending drops the rest: the new layout's items only. The
    // cached layout puts its first batch in at once, the rest would follow on later turns.
    scene.setGraph(g);
    QVERIFY(scene.layoutPending());
    QCOMPARE(scene.lastItemBatches(), 1);
    scene.setGraph(gltest::makeChain(5));
    QTRY_VERIFY(!scene.layoutPending());
    QCOMPARE(int(scene.nodeItems().size()), 5);
    QTest::qWait(20);
    QCOMPARE(int(scene.nodeItems().size()), 5);
  }

  void repeatGroupFoldsAndUnfoldsInPlace() {
    const RepeatedLayers r = makeRepeatedLayers(60);
    GraphView view;
    GraphScene& scene = *view.graphScene();
    scene.setGraph(r.graph);
    QVERIFY(scene.layoutPending());  // the view never lays out in the call
    QTRY_VERIFY(!scene.layoutPending());
    // x, one node for the 60 layers, the stack.
    QCOMPARE(int(scene.nodeItems().size()), 3);
    NodeItem* group = scene.nodeItem(r.layerMuls[0]);
    QVERIFY(group);
    QCOMPARE(group->kind(), VisNodeKind::Folded);
    QCOMPARE(group->info().iterations, int64_t(60));
    for (int id : r.layerMuls) QCOMPARE(scene.nodeItem(id), group);
    QCOMPARE(scene.repeatGroups().groups.size(), size_t(1));
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    // Double-click unfolds in place: a frame "×60" holding every layer.
    view.centerOn(group);
    QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, view.mapFromScene(group->scenePos()));
    QVERIFY(!scene.isGroupFolded(0));
    QTRY_VERIFY(!scene.layoutPending());
    QCOMPARE(int(scene.nodeItems().size()), 2 + 3 * 60);
    FrameItem* frame = nullptr;
    for (FrameItem* f : scene.frameItems())
      if (f->info().group == 0) frame = f;
    QVERIFY(frame);
    QVERIFY(QString::fromStdString(frame->info().title).contains(u"×60"));
    for (int id : r.layerMuls)
      QVERIFY(frame->sceneBoundingRect().contains(scene.nodeItem(id)->sceneBoundingRect()));
    // Its fold button folds it again; that layout was seen before and comes from the cache.
    const int hits = scene.cachedLayoutsUsed();
    const QPointF button = frame->foldButtonRect().center();
    view.centerOn(button);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.mapFromScene(button));
    QVERIFY(scene.isGroupFolded(0));
    QVERIFY(!scene.layoutPending());
    QCOMPARE(scene.cachedLayoutsUsed(), hits + 1);
    QCOMPARE(int(scene.nodeItems().size()), 3);
  }

  void newerLayoutRequestsSupersedeOlderOnes() {
    const RepeatedLayers r = makeRepeatedLayers(60);
    GraphView view;
    GraphScene& scene = *view.graphScene();
    QSignalSpy laidOut(&scene, &GraphScene::layoutChanged);
    scene.setGraph(r.graph);
    scene.setGroupFolded(0, false);
    scene.setShowBackward(false);
    scene.setGroupFolded(0, true);
    scene.setGroupFolded(0, false);  // the state asked for last
    QTRY_VERIFY(!scene.layoutPending());
    QTest::qWait(50);  // an older answer arriving late would show here
    QCOMPARE(laidOut.count(), 1);
    QCOMPARE(int(scene.nodeItems().size()), 2 + 3 * 60);
  }

  void labelsAreNeverDrawnTooSmall() {
    // 9 pt titles are 12 px at zoom 1; below 7 px on screen they are left out.
    QVERIFY(style::readableAt(style::titleFont(), 1.0));
    QVERIFY(style::readableAt(style::titleFont(), 0.6));
    QVERIFY(!style::readableAt(style::titleFont(), 0.5));
    QVERIFY(!style::readableAt(style::subtitleFont(), 0.7));
    // Drawn zoomed out, a node shows its box but no text: the pixels inside the box are the
    // fill colour only.
    auto s = gltest::makeSampleGraph();
    GraphScene scene;
    scene.setShowBackward(false);
    scene.setGraph(s.graph);
    NodeItem* item = scene.nodeItem(s.unrolled[0]);
    auto inkInside = [&](double zoom) {
      const QRectF box = item->sceneBoundingRect().adjusted(10, 8, -10, -8);  // inside the border
      QImage image((box.size() * zoom).toSize(), QImage::Format_ARGB32);
      image.fill(Qt::white);
      QPainter p(&image);
      scene.render(&p, QRectF(QPointF(0, 0), QSizeF(image.size())), box);
      p.end();
      const QRgb fill = image.pixel(1, 1);
      int other = 0;
      for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) other += image.pixel(x, y) != fill;
      return other;
    };
    QVERIFY(inkInside(1.0) > 0);   // the title
    QCOMPARE(inkInside(0.45), 0);  // 5 px text: not drawn
  }

  void colorBarIsPinnedToTheViewport() {
    auto s = gltest::makeSampleGraph();
    GraphView view;
    GraphScene& scene = *view.graphScene();
    scene.setShowBackward(false);
    scene.setGraph(s.graph);
    QTRY_VERIFY(!scene.layoutPending());
    scene.setValueNorms({{{s.unrolled[0], 0}, 1e-3}, {{s.unrolled[1], 0}, 10.0}});
    view.resize(600, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(scene.colorBar()->isDrawnByView());
    const QRect bar = view.colorBarRect();
    QVERIFY(!bar.isNull());
    QVERIFY(view.viewport()->rect().contains(bar));
    auto legend = [&] { return view.viewport()->grab().toImage().copy(bar); };
    const QImage before = legend();
    view.setZoom(2.5);
    view.centerOn(scene.nodeItem(s.whileNode));
    QCOMPARE(view.colorBarRect(), bar);
    QCOMPARE(legend(), before);  // same size, same place, same pixels
    view.setZoom(0.3);
    QCOMPARE(legend(), before);
    // Exports render the scene without a widget: the legend is still in them.
    QImage image(scene.graphBounds().size().toSize(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    const QRectF barInScene = scene.colorBar()->sceneBoundingRect();
    scene.render(&p, QRectF(QPointF(0, 0), barInScene.size()), barInScene);
    p.end();
    int colored = 0;
    for (int y = 0; y < int(barInScene.height()); ++y)
      for (int x = 0; x < int(barInScene.width()); ++x)
        colored += qRed(image.pixel(x, y)) != qBlue(image.pixel(x, y));
    QVERIFY(colored > 100);
  }

  // The dark palette covers the view: dark background and boxes, light text; exports stay
  // black on white.
  void darkPaletteCoversTheGraph() {
    auto s = gltest::makeSampleGraph();
    GraphView view;
    GraphScene& scene = *view.graphScene();
    scene.setGraph(s.graph);
    QTRY_VERIFY(!scene.layoutPending());
    view.resize(600, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto meanLightness = [](const QImage& image) {
      double sum = 0;
      int n = 0;
      for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3, ++n) sum += image.pixelColor(x, y).lightnessF();
      return sum / std::max(1, n);
    };
    const double light = meanLightness(view.viewport()->grab().toImage());
    view.setDark(true);
    QVERIFY(style::dark());
    QVERIFY(scene.backgroundBrush().color().lightnessF() < 0.2);
    const double dark = meanLightness(view.viewport()->grab().toImage());
    QVERIFY2(light > 0.8 && dark < 0.3,
             qPrintable(QStringLiteral("light %1, dark %2").arg(light).arg(dark)));
    const VisNode& any = scene.visibleGraph().nodes.front();
    QVERIFY(style::nodeFill(any).lightnessF() < 0.4);
    QVERIFY(style::titleColor().lightnessF() > 0.8);  // readable on those boxes
    QVERIFY(style::plainEdgeColor().lightnessF() > 0.5);
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("dark.png"));
    QVERIFY(exportPngAtDpi(scene, png, 72));
    QVERIFY(meanLightness(QImage(png)) > 0.8);  // figures stay light
    QVERIFY(style::dark());                     // and the window stays dark
    view.setDark(false);
    QCOMPARE(scene.backgroundBrush().color(), QColor(Qt::white));
  }

  void overviewShowsAndMovesTheView() {
    auto s = gltest::makeSampleGraph();
    GraphView view;
    GraphScene& scene = *view.graphScene();
    scene.setGraph(s.graph);
    QTRY_VERIFY(!scene.layoutPending());
    view.resize(700, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.fitGraph();
    QVERIFY(!view.overview()->isVisible());  // it all fits: nothing to find
    view.setZoom(2);
    QVERIFY(view.overview()->isVisible());
    // A click on the overview's top-left corner moves the view to the graph's top-left.
    const QPointF target = scene.graphBounds().topLeft() + QPointF(40, 40);
    const QPoint at = view.overview()->mapFromScene(target);
    QTest::mouseClick(view.overview()->viewport(), Qt::LeftButton, {}, at);
    const QPointF center = view.mapToScene(view.viewport()->rect().center());
    const QRectF shown = view.mapToScene(view.viewport()->rect()).boundingRect();
    QVERIFY2(shown.contains(target),
             qPrintable(QString("centre %1,%2").arg(center.x()).arg(center.y())));
    QVERIFY(view.overview()->shownRect().contains(at));
  }

  void searchSelectsAndCenters() {
    auto s = gltest::makeSampleGraph();
    GraphView view;
    view.graphScene()->setGraph(s.graph);
    QTRY_VERIFY(!view.graphScene()->layoutPending());  // the view lays out on a worker
    view.resize(400, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setZoom(2);
    // 'w' sits at the top edge of the graph: the view scrolls as far as it can to show it.
    QVERIFY(view.search(QStringLiteral("'W'")));
    NodeItem* w = view.graphScene()->nodeItem(s.w.node);
    QVERIFY(w->isSelected());
    const QRectF shown = view.mapToScene(view.viewport()->rect()).boundingRect();
    QVERIFY(shown.contains(w->sceneBoundingRect()));
    // tanh is inside the loop body, away from the edges: it lands in the centre.
    QVERIFY(view.search(QStringLiteral("tanh")));
    NodeItem* tanh = static_cast<NodeItem*>(view.graphScene()->selectedItems().value(0));
    QCOMPARE(tanh->info().title, std::string("tanh"));
    const QPointF center = view.mapToScene(view.viewport()->rect().center());
    QVERIFY2(
        QLineF(center, tanh->scenePos()).length() < 5,
        qPrintable(QString("centre is %1 px away").arg(QLineF(center, tanh->scenePos()).length())));
    // Repeated searches step through the matches.
    QVERIFY(view.search(QStringLiteral("mul")));
    QGraphicsItem* first = view.graphScene()->selectedItems().value(0);
    QVERIFY(view.search(QStringLiteral("mul")));
    QVERIFY(view.graphScene()->selectedItems().value(0) != first);
    QVERIFY(!view.search(QStringLiteral("no such node")));
  }

  void selectNodesOfAScriptLine() {
    auto s = gltest::makeSampleGraph();
    GraphScene scene;
    scene.setShowBackward(false);
    scene.setGraph(s.graph);
    const int n = scene.selectNodesAtLine(gltest::SampleGraph::kUnrolledLine);
    QCOMPARE(n, int(s.unrolled.size()));
    for (int id : s.unrolled) QVERIFY(scene.nodeItem(id)->isHighlighted());
    QCOMPARE(int(scene.selectedItems().size()), n);
    QCOMPARE(scene.selectNodesAtLine(999), 0);
    QCOMPARE(int(scene.selectedItems().size()), 0);
  }

  void viewZoomAndFit() {
    auto s = gltest::makeSampleGraph();
    GraphView view;
    view.graphScene()->setGraph(s.graph);
    QTRY_VERIFY(!view.graphScene()->layoutPending());  // the view lays out on a worker
    view.resize(300, 200);
    view.fitGraph();
    QVERIFY(view.zoom() < 1);
    const double fitted = view.zoom();
    view.zoomIn();
    QVERIFY(qAbs(view.zoom() - fitted * 1.25) < 1e-9);
    QTest::keyClick(&view, Qt::Key_Minus, Qt::ControlModifier);
    QVERIFY(qAbs(view.zoom() - fitted) < 1e-9);
    view.setZoom(100);
    QCOMPARE(view.zoom(), GraphView::kMaxZoom);
  }
};

GRADLAB_TEST_MAIN(TestGraphView)
#include "test_graph_view.moc"
