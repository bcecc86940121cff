// The inspector panel offscreen: for a selected primitive node it shows the primitive's math as
// its registry entry states it (forward formula and gradient rule; GradLab is a teaching tool),
// for forward and gradient nodes alike; nodes that are no primitive have no math row.
#include <QTreeWidget>
#include "test_main.h"

#include <memory>

#include "engine/autodiff/tape.h"
#include "engine/control/control_flow.h"
#include "engine/control/kind.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"
#include "graph/sample_graphs.h"
#include "ui/inspect/inspector_panel.h"
#include "ui/inspect/tensor_text.h"

using namespace gl;
using gl::ui::InspectorPanel;
using gl::ui::recordSummary;

namespace {

// x -> sin -> matmul(., x) -> sum, and the gradient of the sum with respect to x.
struct SmallGraph {
  std::shared_ptr<Graph> g = std::make_shared<Graph>();
  int x = -1, grad = -1;
};

SmallGraph smallGraph() {
  SmallGraph s;
  Builder b(*s.g);
  const Value x = b.placeholder(DType::F32, {2, 2}, "x");
  GradientTape tape(b);
  tape.watch(x);
  const Value loss = ops::reduceSum(b, ops::matmul(b, ops::sin(b, x), x));
  tape.stop();
  s.x = x.node;
  s.grad = tape.gradient(loss, {x}).grads.at(0).node;
  return s;
}

// The first node running primitive `op` in `phase`, or -1.
int nodeOf(const Graph& g, const std::string& op, Phase phase = Phase::Forward) {
  for (int i = 0; i < g.numNodes(); ++i)
    if (g.node(i).prim && g.node(i).prim->name == op && g.node(i).phase == phase) return i;
  return -1;
}

// The value of the top-level row called `key`; null if there is none.
QString rowValue(const InspectorPanel& p, const QString& key) {
  const auto* tree = p.findChild<QTreeWidget*>();
  for (int i = 0; tree && i < tree->topLevelItemCount(); ++i)
    if (tree->topLevelItem(i)->text(0) == key) return tree->topLevelItem(i)->text(1);
  return {};
}

QString mathOf(const std::string& op) {
  return QString::fromStdString(Registry::instance().get(op).math);
}

}  // namespace

class TestInspectorPanel : public QObject {
  Q_OBJECT
 private slots:
  void explainsWhyTheGradientIsNoneWhereTheChainBreaks() {
    auto s = gltest::makeSampleGraph();
    InspectorPanel panel;
    panel.setContext(s.graph, nullptr);
    panel.setBreaks({s.none});
    panel.showNode(s.none.node);
    QCOMPARE(rowValue(panel, "gradient is None"), QString("the chain breaks here"));
    QVERIFY2(panel.text().contains("why: " + QString::fromStdString(s.none.text)),
             qPrintable(panel.text()));
    // Other nodes carry no such row; a new program drops the old breaks.
    panel.showNode(s.x.node);
    QVERIFY(rowValue(panel, "gradient is None").isNull());
    panel.setContext(std::make_shared<gl::Graph>(*s.graph), nullptr);
    panel.showNode(s.none.node);
    QVERIFY(rowValue(panel, "gradient is None").isNull());
  }

  void loopVariablesShowTheirValueAtTheCurrentStep() {
    auto s = gltest::makeSampleGraph();
    auto run = std::make_shared<const RunResult>(gltest::runSample(s));
    const LoopRecord& rec = run->loops.at(s.whileNode);
    const Region& body = s.graph->region(s.graph->node(s.whileNode).regions[1]);
    InspectorPanel panel;
    panel.setContext(s.graph, run);
    panel.showNode(body.params[1].node);
    QVERIFY(rowValue(panel, "at step 0, var 1").isNull());  // no step chosen yet
    panel.showLoopStep(s.whileNode, 2, false);
    // var 1 enters step 2 with carried[2][1] and leaves it with carried[3][1].
    panel.showNode(body.params[1].node);
    QCOMPARE(rowValue(panel, "at step 2, var 1"), recordSummary(rec.carried.at(2).at(1)));
    panel.showNode(body.results[1].node);
    QCOMPARE(rowValue(panel, "at step 2, var 1"), recordSummary(rec.carried.at(3).at(1)));
    QVERIFY(recordSummary(rec.carried.at(2).at(1)) != recordSummary(rec.carried.at(3).at(1)));
    panel.showLoopStep(s.whileNode, 2, true);
    panel.showNode(body.params[1].node);
    QCOMPARE(rowValue(panel, "at step 2, adjoint of var 1"),
             recordSummary(rec.adjoints.at(2).at(1)));
  }

  void showsTheMathOfASelectedPrimitive_data() {
    QTest::addColumn<QString>("op");
    QTest::newRow("sin") << "sin";
    QTest::newRow("matmul") << "matmul";
    QTest::newRow("sum") << "sum";
  }

  void showsTheMathOfASelectedPrimitive() {
    QFETCH(QString, op);
    const SmallGraph s = smallGraph();
    InspectorPanel panel;
    panel.show();
    panel.setContext(s.g, nullptr);
    const int id = nodeOf(*s.g, op.toStdString());
    QVERIFY(id >= 0);
    panel.showNode(id);
    QCOMPARE(panel.currentNode(), id);
    const QString math = mathOf(op.toStdString());
    QCOMPARE(rowValue(panel, "math"), math);
    const QString text = panel.text();
    for (const QString& line : math.split(QLatin1Char('\n')))
      QVERIFY2(text.contains(line), qPrintable(text));
  }

  // The words a student reads for sin, as the registry states them.
  void sinShowsItsDerivative() {
    const SmallGraph s = smallGraph();
    InspectorPanel panel;
    panel.setContext(s.g, nullptr);
    panel.showNode(nodeOf(*s.g, "sin"));
    const QString text = panel.text();
    QVERIFY2(text.contains("y = sin(x)") && text.contains("dy/dx = cos(x)"), qPrintable(text));
  }

  // Gradient nodes are primitives too: the node computing dx shows its own primitive's math.
  void gradientNodesShowTheirMath() {
    const SmallGraph s = smallGraph();
    InspectorPanel panel;
    panel.setContext(s.g, nullptr);
    const Node& n = s.g->node(s.grad);
    QVERIFY(n.prim);
    QCOMPARE(n.phase, Phase::Backward);
    panel.showNode(s.grad);
    QCOMPARE(rowValue(panel, "math"), mathOf(n.prim->name));
    QVERIFY(rowValue(panel, "phase").contains("backward"));
  }

  void otherNodesHaveNoMath() {
    const SmallGraph s = smallGraph();
    InspectorPanel panel;
    panel.setContext(s.g, nullptr);
    panel.showNode(s.x);  // a placeholder
    QVERIFY(!rowValue(panel, "op").isNull());
    QVERIFY(rowValue(panel, "math").isNull());
  }

  void controlFlowNodesShowTheirKindsMath() {
    auto g = std::make_shared<Graph>();
    Builder b(*g);
    const Value x = b.placeholder(DType::F32, {3, 2}, "x");
    const Value y = mapFn(b,
                          [](Builder& bb, const std::vector<Value>& s) {
                            return std::vector<Value>{ops::sin(bb, s[0])};
                          },
                          {x})[0];
    InspectorPanel panel;
    panel.setContext(g, nullptr);
    panel.showNode(y.node);
    const std::string_view math = controlKind(NodeKind::Map).math;
    QCOMPARE(rowValue(panel, "math"), QString::fromUtf8(math.data(), qsizetype(math.size())));
    QVERIFY(rowValue(panel, "math").contains("map_fn"));
  }

  void mathFollowsTheSelection() {
    const SmallGraph s = smallGraph();
    InspectorPanel panel;
    panel.setContext(s.g, nullptr);
    panel.showNode(nodeOf(*s.g, "sin"));
    QCOMPARE(rowValue(panel, "math"), mathOf("sin"));
    panel.showNode(nodeOf(*s.g, "matmul"));
    QCOMPARE(rowValue(panel, "math"), mathOf("matmul"));
    panel.clear();
    QVERIFY(rowValue(panel, "math").isNull());
  }
};

GRADLAB_TEST_MAIN(TestInspectorPanel)
#include "test_inspector_panel.moc"
