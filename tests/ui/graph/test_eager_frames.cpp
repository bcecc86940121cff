// An eager program's graph as the window draws it (issue #27): each concrete tf.function is
// one group whose instances are its calls (folded: one node with the call count), and the ops
// a GradientTape recorded sit in the tape's frame while the ops it did not see sit outside,
// which is seed-d's cause of three lists of None.
#include "test_main.h"

#include <fstream>
#include <sstream>

#include "engine/lab/gradient_view.h"
#include "engine/lang/program.h"
#include "ui/graph/graph_model.h"
#include "ui/graph/repeat_groups.h"

using namespace gl::ui;

namespace {

gl::lang::TracedProgram trace(const std::string& source) {
  return gl::lang::traceProgram(source, "eager.py", gl::lang::TraceOptions{});
}

// The visible node that stands for the first node named `name`.
const VisNode* visibleNamed(const gl::Graph& g, const VisibleGraph& vg, const std::string& name) {
  for (const gl::Node& n : g.nodes())
    if (n.name == name) {
      const int index = vg.indexOf(n.id);
      return index < 0 ? nullptr : &vg.nodes[size_t(index)];
    }
  return nullptr;
}

// The tape frame a visible node sits in (through its enclosing frames), -1 if none.
int tapeAround(const VisibleGraph& vg, const VisNode& v) {
  for (int f = v.frame; f >= 0; f = vg.frames[size_t(f)].parent)
    if (vg.frames[size_t(f)].tape >= 0) return vg.frames[size_t(f)].tape;
  return -1;
}

int countTapeFrames(const VisibleGraph& vg) {
  int count = 0;
  for (const VisFrame& f : vg.frames) count += f.tape >= 0;
  return count;
}

const char* kCalls = R"(import tensorflow as tf

@tf.function
def step(x):
    y = x * 2.0
    return y + 1.0

a = step(tf.constant(1.0))
b = step(tf.constant(2.0))
c = step(tf.constant(3.0))
d = step(tf.constant([1.0, 2.0]))
print(a, b, c, d)
)";

}  // namespace

class TestEagerFrames : public QObject {
  Q_OBJECT
 private slots:
  // Three calls with one signature and one with another: two groups, 3 and 1 calls, each
  // holding exactly the top-level nodes of its calls (Graph::functionCalls).
  void callsOfAConcreteFunctionAreOneGroup() {
    const auto p = trace(kCalls);
    const gl::Graph& g = *p.graph;
    QCOMPARE(g.functionCalls.size(), size_t(4));
    const RepeatGroups rg = findRepeatGroups(g, nullptr, kMinRepeats, false);
    QCOMPARE(rg.groups.size(), size_t(2));
    const RepeatGroup& scalar = rg.groups[0];
    const RepeatGroup& vector = rg.groups[1];
    QCOMPARE(scalar.kind, GroupKind::FunctionCalls);
    QCOMPARE(scalar.repeats, 3);
    QCOMPARE(scalar.title, std::string("tf.function step"));
    QCOMPARE(vector.repeats, 1);
    QCOMPARE(vector.title, std::string("tf.function step (trace 2)"));
    size_t inCalls = 0;
    for (const gl::FunctionCall& call : g.functionCalls)
      for (int id = call.first; id < call.end; ++id)
        if (g.node(id).region <= 0) {
          ++inCalls;
          QCOMPARE(rg.groupOf.at(id), call.concrete == 0 ? 0 : 1);
        }
    QCOMPARE(scalar.members.size() + vector.members.size(), inCalls);
    // The size shown is the trace's: the first call's top-level nodes.
    const gl::FunctionCall& traced = g.functionCalls[0];
    QVERIFY(traced.traced);
    int tracedNodes = 0;
    for (int id = traced.first; id < traced.end; ++id) tracedNodes += g.node(id).region <= 0;
    QCOMPARE(scalar.nodesPerInstance, tracedNodes);
    QVERIFY(tracedNodes >= 4);  // x, x * 2.0, + 1.0 and their constants at least
  }

  // Folded, a concrete function is one node with its call count; unfolded, a frame titled
  // with it that holds the mul and add of every call.
  void aFoldedFunctionIsOneNodeWithItsCallCount() {
    const auto p = trace(kCalls);
    const gl::Graph& g = *p.graph;
    GraphFilter f;
    f.repeats = std::make_shared<RepeatGroups>(findRepeatGroups(g, nullptr, kMinRepeats, false));
    VisibleGraph folded = buildVisibleGraph(g, f);
    int functionNodes = 0;
    for (const VisNode& v : folded.nodes)
      if (v.op == "tf.function") {
        ++functionNodes;
        QCOMPARE(v.kind, VisNodeKind::Folded);
        QVERIFY(v.iterations == 3 || v.iterations == 1);
        if (v.iterations == 3) QVERIFY(v.subtitle.find("3 calls") == 0);
      }
    QCOMPARE(functionNodes, 2);
    f.unfoldedGroups = {0, 1};
    VisibleGraph unfolded = buildVisibleGraph(g, f);
    int frames = 0, muls = 0;
    for (const VisFrame& fr : unfolded.frames)
      if (fr.group == 0) {
        ++frames;
        QCOMPARE(fr.title, std::string("tf.function step  3 calls"));
        QVERIFY(fr.calls);
      }
    QCOMPARE(frames, 1);
    for (const VisNode& v : unfolded.nodes)
      if (v.op == "mul" && v.frame >= 0 && unfolded.frames[size_t(v.frame)].group >= 0) ++muls;
    QCOMPARE(muls, 4);  // x * 2.0 in each of the four calls
  }

  // Seed-d's cause as a picture: the loss is computed on the tape, tf.gather after the `with`
  // block is not, so it sits outside the tape's frame.
  void opsOutsideTheTapeAreDrawnOutsideItsFrame() {
    const auto p = trace(R"(import tensorflow as tf
w = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    loss_val = w * w
first = tf.gather(loss_val, 0)
print(tape.gradient(first, w))
)");
    const gl::Graph& g = *p.graph;
    QCOMPARE(g.tapes.size(), size_t(1));
    QCOMPARE(g.tapes[0].loc.line, 3);
    QVERIFY(g.tapes[0].persistent);
    const VisibleGraph vg = buildVisibleGraph(g, GraphFilter{});
    QCOMPARE(countTapeFrames(vg), 1);
    const VisNode* loss = visibleNamed(g, vg, "loss_val");
    const VisNode* gather = visibleNamed(g, vg, "first");
    QVERIFY(loss && gather);
    QCOMPARE(tapeAround(vg, *loss), 0);
    QCOMPARE(tapeAround(vg, *gather), -1);
    for (const VisFrame& fr : vg.frames)
      if (fr.tape == 0) QCOMPARE(fr.title, std::string("GradientTape, line 3 (persistent)"));
  }

  // A tape opened inside another's `with` block draws inside its frame; two tapes apart draw
  // apart.
  void nestedTapesNestTheirFrames() {
    const auto p = trace(R"(import tensorflow as tf
x = tf.Variable(2.0)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = x * x
    dy = inner.gradient(y, x)
    z = dy * 3.0
d2 = outer.gradient(z, x)
with tf.GradientTape() as apart:
    q = x + 1.0
)");
    const gl::Graph& g = *p.graph;
    QCOMPARE(g.tapes.size(), size_t(3));
    const VisibleGraph vg = buildVisibleGraph(g, GraphFilter{});
    QCOMPARE(countTapeFrames(vg), 3);
    const VisNode* y = visibleNamed(g, vg, "y");
    const VisNode* z = visibleNamed(g, vg, "z");
    const VisNode* q = visibleNamed(g, vg, "q");
    QVERIFY(y && z && q);
    QCOMPARE(vg.frames[size_t(y->frame)].tape, 1);
    QCOMPARE(vg.frames[size_t(vg.frames[size_t(y->frame)].parent)].tape, 0);
    QCOMPARE(vg.frames[size_t(z->frame)].tape, 0);
    QCOMPARE(vg.frames[size_t(q->frame)].tape, 2);
    QCOMPARE(vg.frames[size_t(q->frame)].parent, -1);
    // Parents precede children (graphviz_graph.cpp builds subgraphs in this order).
    for (size_t i = 0; i < vg.frames.size(); ++i) QVERIFY(vg.frames[i].parent < int(i));
  }

  // Variables built under one variant's tape are shared by the next variant's view; that tape
  // is the first variant's and gets no frame there (GraphFilter::firstOwnNode).
  void aTapeOfAnEarlierBlockIsNotDrawn() {
    const auto p = trace(R"(import tensorflow as tf
layer = tf.keras.layers.Dense(2)
x = tf.ones([1, 3])
with variant("eager"):
    with tf.GradientTape() as tape:
        y = layer(x)
    g = tape.gradient(y, layer.kernel)
with variant("traced"):
    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            y = layer(x)
        return tape.gradient(y, layer.kernel)
    h = step(x)
)");
    const gl::Graph& g = *p.graph;
    QCOMPARE(g.tapes.size(), size_t(1));  // the tape inside the tf.function is the call's
    for (const gl::lang::Variant& v : p.variants) {
      GraphFilter f;
      f.only = gl::lab::variantNodes(p, v.name);
      f.firstOwnNode = v.eagerNodes.first;
      QVERIFY(f.only);
      QCOMPARE(countTapeFrames(buildVisibleGraph(g, f)), v.name == "eager" ? 1 : 0);
    }
  }

  // A tape inside a tf.function belongs to the function's calls: the call group holds its
  // ops, and no tape frame splits the group.
  void aTapeInsideAFunctionLeavesTheCallGroupWhole() {
    const auto p = trace(R"(import tensorflow as tf
w = tf.Variable(3.0)

@tf.function
def grad_of_square():
    with tf.GradientTape() as tape:
        y = w * w
    return tape.gradient(y, w)

g1 = grad_of_square()
g2 = grad_of_square()
print(g1, g2)
)");
    const gl::Graph& g = *p.graph;
    GraphFilter f;
    f.repeats = std::make_shared<RepeatGroups>(findRepeatGroups(g, nullptr, kMinRepeats, false));
    const VisibleGraph vg = buildVisibleGraph(g, f);
    int functionNodes = 0;
    for (const VisNode& v : vg.nodes) functionNodes += v.op == "tf.function";
    QCOMPARE(functionNodes, 1);
    QCOMPARE(countTapeFrames(vg), 0);
    f.unfoldedGroups = {0};
    QCOMPARE(countTapeFrames(buildVisibleGraph(g, f)), 0);
    QCOMPARE(p.traceLog.back(), std::string("tf.Tensor(6.0, shape=(), dtype=float32) "
                                            "tf.Tensor(6.0, shape=(), dtype=float32)"));
  }
};

GRADLAB_TEST_MAIN(TestEagerFrames)
#include "test_eager_frames.moc"
