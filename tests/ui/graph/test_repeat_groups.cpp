// Repeated structure folds into one node per group: the sample's unrolled loop, seed-c's
// list of 64 layers and seed-b's 1000 gradient passes (a 34,000-node program) at seed size.
#include "test_main.h"

#include <fstream>
#include <sstream>

#include "engine/lab/gradient_view.h"
#include "engine/lang/program.h"
#include "sample_graphs.h"
#include "ui/graph/graph_model.h"
#include "ui/graph/repeat_groups.h"

using namespace gl::ui;

namespace {

gl::lang::TracedProgram traceLesson(const std::string& name,
                                    std::map<std::string, double> overrides = {}) {
  std::ifstream in(std::string(GRADLAB_SOURCE_DIR) + "/resources/lessons/" + name);
  std::stringstream text;
  text << in.rdbuf();
  gl::lang::TraceOptions opt;
  opt.overrides = std::move(overrides);
  return gl::lang::traceProgram(text.str(), name, opt);
}

// The group that holds a node whose op display name is `op`, with `repeats` instances.
const RepeatGroup* groupWith(const gl::Graph& g, const RepeatGroups& rg, std::string_view op,
                             int repeats) {
  for (const RepeatGroup& group : rg.groups)
    if (group.repeats == repeats)
      for (int id : group.members)
        if (g.node(id).opName() == op) return &group;
  return nullptr;
}

GraphFilter foldedFilter(const gl::Graph& g, std::shared_ptr<const std::set<int>> only) {
  GraphFilter f;
  f.only = only;
  f.folded = defaultFolding(g);
  f.repeats = std::make_shared<RepeatGroups>(findRepeatGroups(g, only.get()));
  return f;
}

}  // namespace

class TestRepeatGroups : public QObject {
  Q_OBJECT
 private slots:
  void unrolledChainIsOneGroup() {
    auto s = gltest::makeSampleGraph();
    const RepeatGroups rg = findRepeatGroups(*s.graph);
    const int group = rg.groupOfNode(*s.graph, s.graph->node(s.unrolled[0]));
    QVERIFY(group >= 0);
    QCOMPARE(rg.groups[size_t(group)].repeats, 4);
    for (int id : s.unrolled) QCOMPARE(rg.groupOf.at(id), group);
    // Nothing else of the forward pass repeats four times.
    for (const RepeatGroup& other : rg.groups)
      if (&other != &rg.groups[size_t(group)]) QVERIFY(other.backward);
    // Fewer repeats than the threshold: no group.
    QVERIFY(findRepeatGroups(*s.graph, nullptr, 5).groupOf.count(s.unrolled[0]) == 0);
  }

  void foldedGroupIsOneNodeThatUnfoldsInPlace() {
    auto s = gltest::makeSampleGraph();
    GraphFilter f;
    f.showBackward = false;
    f.repeats = std::make_shared<RepeatGroups>(findRepeatGroups(*s.graph));
    const int group = f.repeats->groupOf.at(s.unrolled[0]);
    VisibleGraph folded = buildVisibleGraph(*s.graph, f);
    const int node = folded.indexOf(s.unrolled[0]);
    QVERIFY(node >= 0);
    for (int id : s.unrolled) QCOMPARE(folded.indexOf(id), node);
    QCOMPARE(folded.nodes[size_t(node)].kind, VisNodeKind::Folded);
    QCOMPARE(folded.nodes[size_t(node)].group, group);
    QCOMPARE(folded.nodes[size_t(node)].iterations, int64_t(4));
    QCOMPARE(folded.nodes[size_t(node)].title, std::string("mul"));
    // The variable x feeds the group, the group feeds the while loop.
    const int x = folded.indexOf(s.x.node), loop = folded.indexOf(s.whileNode);
    bool in = false, out = false;
    for (const VisEdge& e : folded.edges) {
      in |= e.from == x && e.to == node;
      out |= e.from == node && e.to == loop;
    }
    QVERIFY(in && out);

    f.unfoldedGroups = {group};
    VisibleGraph open = buildVisibleGraph(*s.graph, f);
    QCOMPARE(open.nodes.size(), folded.nodes.size() + 3);
    std::set<int> shown;
    for (int id : s.unrolled) shown.insert(open.indexOf(id));
    QCOMPARE(shown.size(), size_t(4));
    const int frame = open.nodes[size_t(open.indexOf(s.unrolled[0]))].frame;
    QVERIFY(frame >= 0);
    QCOMPARE(open.frames[size_t(frame)].group, group);
    QCOMPARE(open.frames[size_t(frame)].owner, -1);
    QVERIFY(QString::fromStdString(open.frames[size_t(frame)].title).contains(u"×4"));
    for (int id : s.unrolled) QCOMPARE(open.nodes[size_t(open.indexOf(id))].frame, frame);
  }

  void parallelLayersListFoldsItsLayers() {
    // Seed-c's 64 layers; small tensors keep the trace quick, the structure is the seed's.
    auto p = traceLesson("parallel_layers.gls",
                         {{"batch", 2}, {"time", 2}, {"n_in", 3}, {"n_out", 2}, {"layers", 64}});
    const gl::Graph& g = *p.graph;
    auto only = gl::lab::variantNodes(p, "python_list");
    const RepeatGroups rg = findRepeatGroups(g, only.get());
    const RepeatGroup* layers = groupWith(g, rg, "einsum", 64);
    QVERIFY(layers);
    QVERIFY(!layers->backward);
    QCOMPARE(layers->nodesPerInstance * 64, int(layers->members.size()));
    QVERIFY(layers->nodesPerInstance >= 3);  // the two gathers (kernels[n], biases[n]), einsum, add
    QVERIFY(groupWith(g, rg, "einsum", 64) != nullptr);
    bool backwardLayers = false;
    for (const RepeatGroup& group : rg.groups)
      backwardLayers |= group.backward && group.repeats >= 63;
    QVERIFY(backwardLayers);
    // The other variants hold no repeats of 64, and none of their nodes are taken for repeats
    // of the list's.
    auto einsum = gl::lab::variantNodes(p, "einsum");
    const RepeatGroups none = findRepeatGroups(g, einsum.get());
    for (const RepeatGroup& group : none.groups) QVERIFY(group.repeats < 64);
    for (const auto& [id, group] : rg.groupOf) QVERIFY(only->count(id));

    const VisibleGraph vg = buildVisibleGraph(g, foldedFilter(g, only));
    QVERIFY2(vg.nodes.size() < 80, std::to_string(vg.nodes.size()).c_str());
  }

  void perStepPassesFold34000NodesIntoAReadableGraph() {
    auto p = traceLesson("per_step_gradients.gls");  // seed size: steps = 1000
    const gl::Graph& g = *p.graph;
    QVERIFY2(g.numNodes() > 30000, std::to_string(g.numNodes()).c_str());
    auto only = gl::lab::variantNodes(p, "backward_passes");
    const RepeatGroups rg = findRepeatGroups(g, only.get());
    // 1000 step outputs x_outs[t] (slice, squeeze) and 1000 backward passes, each group folded
    // to one node.
    const RepeatGroup* outputs = groupWith(g, rg, "slice", 1000);
    QVERIFY(outputs);
    QVERIFY(!outputs->backward);
    bool passes = false;
    for (const RepeatGroup& group : rg.groups) passes |= group.backward && group.repeats == 1000;
    QVERIFY(passes);

    const GraphFilter f = foldedFilter(g, only);
    const VisibleGraph vg = buildVisibleGraph(g, f);
    QVERIFY2(vg.nodes.size() < 40, std::to_string(vg.nodes.size()).c_str());
    int groupNodes = 0;
    for (const VisNode& n : vg.nodes) groupNodes += n.group >= 0;
    QVERIFY(groupNodes >= 2);
    // Every node of the variant is drawn or stands behind a drawn node.
    for (int id : *only) QVERIFY(vg.indexOf(id) >= 0);
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestRepeatGroups)
#include "test_repeat_groups.moc"
