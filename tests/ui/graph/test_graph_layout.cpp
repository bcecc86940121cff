// The model and the layout without a window: what is visible under folding and phase filters,
// which values each edge carries, where dot puts things, and how long big graphs take.
#include <QElapsedTimer>
#include "test_main.h"

#include "sample_graphs.h"
#include "ui/graph/graph_layout.h"
#include "ui/graph/graph_model.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_style.h"
#include "ui/graph/node_item.h"

using namespace gl::ui;

namespace {

GraphLayout layoutOf(const VisibleGraph& vg) {
  std::vector<QSizeF> sizes;
  for (const VisNode& n : vg.nodes) sizes.push_back(style::nodeSize(n));
  return layoutGraph(vg, sizes);
}

}  // namespace

class TestGraphLayout : public QObject {
  Q_OBJECT
 private slots:
  void edgesCarryTheirValues() {
    auto s = gltest::makeSampleGraph();
    const VisibleGraph vg = buildVisibleGraph(*s.graph, {});
    const int from = vg.indexOf(s.unrolled[0]), to = vg.indexOf(s.unrolled[1]);
    int found = 0;
    for (const VisEdge& e : vg.edges)
      if (e.from == from && e.to == to) {
        ++found;
        QCOMPARE(e.values.size(), size_t(1));
        QVERIFY(e.values[0] == (gl::Value{s.unrolled[0], 0}));
        QVERIFY(!e.structural && !e.layoutOnly);
      }
    QCOMPARE(found, 1);
    // Loop outputs leave from the exit node, inputs enter the entry node.
    const int exit = vg.indexOf(s.whileNode) + 1;
    QCOMPARE(vg.nodes[size_t(exit)].kind, VisNodeKind::Exit);
    bool outputEdge = false;
    for (const VisEdge& e : vg.edges) outputEdge |= e.from == exit && !e.structural;
    QVERIFY(outputEdge);
  }

  void foldedFrameStandsForItsNodes() {
    auto s = gltest::makeSampleGraph();
    GraphFilter f;
    f.showBackward = false;
    f.folded = {s.whileNode};
    f.iterations = {{s.whileNode, 42}};
    const VisibleGraph vg = buildVisibleGraph(*s.graph, f);
    const int folded = vg.indexOf(s.whileNode);
    QCOMPARE(vg.nodes[size_t(folded)].kind, VisNodeKind::Folded);
    QCOMPARE(vg.nodes[size_t(folded)].iterations, int64_t(42));
    QCOMPARE(style::badgeText(vg.nodes[size_t(folded)]), QStringLiteral("×42"));
    for (int r : s.graph->node(s.whileNode).regions)
      for (int id : s.graph->region(r).nodes) QCOMPARE(vg.indexOf(id), folded);
    for (const VisFrame& fr : vg.frames) QVERIFY(fr.owner != s.whileNode);
    // Backward nodes are hidden, not mapped anywhere.
    for (const gl::Node& n : s.graph->nodes())
      if (n.phase == gl::Phase::Backward) QCOMPARE(vg.indexOf(n.id), -1);
  }

  void mapFrameKnowsItsLength() {
    auto g = std::make_shared<gl::Graph>();
    gl::Builder b(*g);
    gl::Value x = b.constant(gl::Tensor::zeros(gl::DType::F32, {7, 3}), "x");
    const int map = gl::mapFn(b,
                              [](gl::Builder& bb, const std::vector<gl::Value>& row) {
                                return std::vector<gl::Value>{gl::ops::reduceSum(bb, row[0])};
                              },
                              {x})[0]
                        .node;
    VisibleGraph vg = buildVisibleGraph(*g, {});
    QCOMPARE(vg.frames.size(), size_t(1));  // one region: no sub-frames
    QVERIFY(vg.frames[0].title.find("map_fn") == 0);
    QCOMPARE(vg.frames[0].iterations, int64_t(7));
    GraphFilter f;
    f.folded = {map};
    vg = buildVisibleGraph(*g, f);
    QCOMPARE(style::badgeText(vg.nodes[size_t(vg.indexOf(map))]), QStringLiteral("×7"));
  }

  // Graphviz's y grows upwards; the scene's downwards: producers sit above their consumers,
  // and a frame's entry above its branches.
  void layoutIsTopDown() {
    auto s = gltest::makeSampleGraph();
    GraphFilter f;
    f.showBackward = false;
    const VisibleGraph vg = buildVisibleGraph(*s.graph, f);
    const GraphLayout layout = layoutOf(vg);
    QVERIFY(layout.ok());
    QVERIFY(layout.bounds.contains(layout.nodes[0]));
    for (const VisEdge& e : vg.edges)
      QVERIFY(layout.nodes[size_t(e.from)].center().y() < layout.nodes[size_t(e.to)].center().y());
    const double entryY = layout.nodes[size_t(vg.indexOf(s.condNode))].center().y();
    for (int r : s.graph->node(s.condNode).regions)
      for (int id : s.graph->region(r).nodes)
        QVERIFY(entryY < layout.nodes[size_t(vg.indexOf(id))].center().y());
    // Each edge ends at its target's border, arrowhead pointing in.
    for (size_t i = 0; i < vg.edges.size(); ++i) {
      const QRectF target = layout.nodes[size_t(vg.edges[i].to)].adjusted(-3, -3, 3, 3);
      QVERIFY(target.contains(layout.edges[i].arrowTip));
    }
  }

  void bigGraphsLayOutQuickly_data() {
    QTest::addColumn<bool>("constants");
    QTest::addColumn<int>("edges");
    using E = LayoutOptions::Edges;
    QTest::newRow("chain, auto") << false << int(E::Auto);
    QTest::newRow("chain, splines") << false << int(E::Splines);
    QTest::newRow("chain + constants, auto") << true << int(E::Auto);
    QTest::newRow("chain + constants, splines") << true << int(E::Splines);
  }

  // A 2000-node unrolled chain lays out in about a second; the times are printed, not asserted.
  void bigGraphsLayOutQuickly() {
    QFETCH(bool, constants);
    QFETCH(int, edges);
    auto g = gltest::makeChain(2000, constants);
    GraphScene scene;
    scene.setLayoutOptions({LayoutOptions::Edges(edges)});
    QElapsedTimer timer;
    timer.start();
    scene.setGraph(g);
    qInfo("%d-node unrolled chain: dot %.3f s, scene total %.3f s", g->numNodes(),
          scene.lastLayoutSeconds(), timer.elapsed() / 1000.0);
    QVERIFY(g->numNodes() >= 2000);
    QCOMPARE(int(scene.nodeItems().size()), g->numNodes());
    QVERIFY(scene.lastLayoutSeconds() < 60);
    // A real layered layout: every step of the chain one layer further down.
    double lastY = -1e9;
    for (const gl::Node& n : g->nodes()) {
      if (n.is(gl::NodeKind::Const)) continue;
      const double y = scene.nodeItem(n.id)->scenePos().y();
      QVERIFY(y > lastY);
      lastY = y;
    }
  }

  // Many loops on a big graph: nested frames fold by default so dot stays fast.
  void bigGraphWithLoopsFoldsByDefault() {
    constexpr int kLoops = 90;  // about 2000 nodes, 540 frames unfolded
    auto g = std::make_shared<gl::Graph>();
    {
      namespace o = gl::ops;
      gl::Builder b(*g);
      gl::Value x = b.variable(gl::Tensor::scalar(1.0), "x");
      for (int k = 0; k < kLoops; ++k) {
        gl::Value n = b.scalar(5, gl::DType::I32);
        auto outer = gl::whileLoop(
            b,
            [&](gl::Builder& bb, const std::vector<gl::Value>& v) { return o::less(bb, v[0], n); },
            [&](gl::Builder& bb, const std::vector<gl::Value>& v) {
              auto inner = gl::whileLoop(
                  bb,
                  [&](gl::Builder& b2, const std::vector<gl::Value>& u) {
                    return o::less(b2, u[0], n);
                  },
                  [&](gl::Builder& b2, const std::vector<gl::Value>& u) {
                    gl::Value y = u[1];
                    for (int i = 0; i < 4; ++i) y = o::tanh(b2, y);
                    return std::vector<gl::Value>{o::add(b2, u[0], b2.scalar(1, gl::DType::I32)),
                                                  y};
                  },
                  {bb.scalar(0, gl::DType::I32), v[1]});
              return std::vector<gl::Value>{o::add(bb, v[0], bb.scalar(1, gl::DType::I32)),
                                            inner[1]};
            },
            {b.scalar(0, gl::DType::I32), x});
        x = outer[1];
      }
    }
    GraphScene scene;
    QElapsedTimer timer;
    timer.start();
    scene.setGraph(g);
    qInfo("%d nodes in %d nested loops: %d visible, dot %.3f s, scene total %.3f s", g->numNodes(),
          kLoops, int(scene.nodeItems().size()), scene.lastLayoutSeconds(),
          timer.elapsed() / 1000.0);
    QVERIFY(g->numNodes() > 600);
    QVERIFY(!scene.folding().empty());
    QVERIFY(int(scene.nodeItems().size()) < g->numNodes());
    timer.restart();
    scene.unfoldAll();
    qInfo("  all unfolded: %d visible, %d frames, dot %.3f s, scene total %.3f s",
          int(scene.nodeItems().size()), int(scene.frameItems().size()), scene.lastLayoutSeconds(),
          timer.elapsed() / 1000.0);
    QCOMPARE(int(scene.nodeItems().size()), g->numNodes() + 2 * kLoops);  // + an exit per frame
  }
};

GRADLAB_TEST_MAIN(TestGraphLayout)
#include "test_graph_layout.moc"
