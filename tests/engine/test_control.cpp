// Control-flow kinds as registry entries, the independent-iterations pass, and the executor's
// parallelFor.
#include <QtTest>

#include <atomic>
#include <cmath>

#include "engine/autodiff/tape.h"
#include "engine/control/control_flow.h"
#include "engine/control/kind.h"
#include "engine/exec/executor.h"
#include "engine/exec/parallel_for.h"
#include "engine/lab/session.h"
#include "engine/ops/api.h"
#include "engine/transform/independent_iterations.h"
#include "helpers.h"

using namespace gl;
namespace o = gl::ops;

namespace {

Value newList(Builder& b, int64_t size) {
  return b.op1("list_new", {}, Attrs{{"dtype", std::string("float32")}, {"size", size}});
}

// for i in range(n): ta = ta.write(i, sin(x[i]) * step), with `step` chosen per test.
struct PerSampleLoop {
  Graph g;
  Builder b{g};
  Value x, stacked;
  int loop = -1;
};

enum class Body { Independent, ReadsList, StepsByTwo, Accumulates, Prints };

void buildLoop(PerSampleLoop& s, Body kind, int64_t n = 6) {
  Builder& b = s.b;
  s.x = b.constant(Tensor::fromVector({0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, {6}, DType::F32), "x");
  const Value limit = b.scalar(double(n), DType::I32);
  auto outs = whileLoop(
      b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], limit); },
      [&](Builder& bb, const std::vector<Value>& v) {
        Value y = o::sin(bb, o::gather(bb, s.x, v[0]));
        if (kind == Body::ReadsList) y = o::add(bb, y, bb.op1("list_read", {v[1], v[0]}));
        if (kind == Body::Prints) bb.print({y}, "y");
        const Value step = bb.scalar(kind == Body::StepsByTwo ? 2 : 1, DType::I32);
        Value acc = kind == Body::Accumulates ? o::add(bb, v[2], y) : v[2];
        return std::vector<Value>{o::add(bb, v[0], step), bb.op1("list_write", {v[1], v[0], y}),
                                  acc};
      },
      {b.scalar(0, DType::I32), newList(b, n), b.scalar(0.0, DType::F32)});
  s.loop = outs[0].node;
  s.stacked = b.op1("list_stack", {outs[1]}, Attrs{{"size", n}});
}

}  // namespace

class TestControl : public QObject {
  Q_OBJECT
 private slots:
  void everyControlKindHasACompleteEntry() {
    QCOMPARE(controlKinds().size(), size_t(3));
    for (NodeKind k : {NodeKind::While, NodeKind::Map, NodeKind::Cond}) {
      const ControlKind* c = findControlKind(k);
      QVERIFY2(c, std::string(kindName(k)).c_str());
      QCOMPARE(c->kind, k);
      QVERIFY(c->execute && c->vjp);
      QVERIFY(!c->userName.empty());
      QVERIFY2(c->math.find('\n') != std::string_view::npos, std::string(kindName(k)).c_str());
    }
    QCOMPARE(controlKind(NodeKind::While).userName, std::string_view("while_loop"));
    QCOMPARE(controlKind(NodeKind::Map).userName, std::string_view("map_fn"));
    QCOMPARE(controlKind(NodeKind::Cond).badge, std::string_view("if/else"));
    // Only loops keep adjoint records to decode; only loops and maps save per iteration.
    QVERIFY(controlKind(NodeKind::While).edgeAdjoints);
    for (const ControlKind* c : controlKinds())
      QCOMPARE(savesPerIteration(c->kind), c->kind != NodeKind::Cond);
    for (NodeKind k : {NodeKind::Primitive, NodeKind::Const, NodeKind::Variable,
                       NodeKind::Placeholder, NodeKind::Param, NodeKind::Print}) {
      QVERIFY(!findControlKind(k));
      QVERIFY_THROWS_EXCEPTION(EngineError, controlKind(k));
    }
  }

  void displayNamesComeFromTheEntry() {
    PerSampleLoop s;
    buildLoop(s, Body::Independent);
    QCOMPARE(displayName(s.g.node(s.loop)), std::string_view("while_loop"));
    QCOMPARE(displayName(s.g.node(s.stacked)), std::string_view("list_stack"));
  }

  void perSampleLoopIsMarkedIndependent() {
    PerSampleLoop s;
    buildLoop(s, Body::Independent);
    const IndependentIterations ind = independentIterations(s.g, s.g.node(s.loop));
    QVERIFY(ind.marked());
    QCOMPARE(ind.counter, 0);
    QCOMPARE(ind.constantLimit, 0.0);  // the bound is a value from outside the loop
    QVERIFY(ind.limit.valid());
    QCOMPARE(ind.writes.size(), size_t(3));
    QVERIFY(ind.writes[1] >= 0);
    QCOMPARE(ind.writes[2], -1);  // passes through
    QCOMPARE(markIndependentIterations(s.g), 1);
    QVERIFY(s.g.node(s.loop).control.independent.marked());
  }

  void dependentLoopsAreNotMarked() {
    for (Body kind : {Body::ReadsList, Body::StepsByTwo, Body::Accumulates, Body::Prints}) {
      PerSampleLoop s;
      buildLoop(s, kind);
      QVERIFY2(!independentIterations(s.g, s.g.node(s.loop)).marked(),
               QByteArray::number(int(kind)).constData());
      QCOMPARE(markIndependentIterations(s.g), 0);
    }
  }

  void reverseLoopsAreNotMarked() {
    PerSampleLoop s;
    buildLoop(s, Body::Accumulates);
    Value x = s.b.variable(Tensor::scalar(0.5, DType::F32), "w");
    GradientTape tape(s.b);
    auto outs = whileLoop(
        s.b,
        [&](Builder& bb, const std::vector<Value>& v) {
          return o::less(bb, v[0], bb.scalar(3, DType::I32));
        },
        [&](Builder& bb, const std::vector<Value>& v) {
          return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)),
                                    o::mul(bb, v[1], x)};
        },
        {s.b.scalar(0, DType::I32), s.b.scalar(2.0, DType::F32)});
    tape.stop();
    const Value dx = tape.gradient(outs[1], {x}).grads[0];
    QVERIFY(dx.valid());
    int reverse = -1;
    for (const Node& n : s.g.nodes())
      if (n.forwardNode == outs[1].node) reverse = n.id;
    QVERIFY(reverse >= 0);
    QVERIFY(!independentIterations(s.g, s.g.node(reverse)).marked());
    // d/dx 2 x^3 = 6 x^2
    QCOMPARE(evaluate(s.g, {dx})[0].at(0), 6 * 0.25);
  }

  // RunResult::primitiveOps counts every executed primitive, each loop iteration again: the
  // top level's once, the condition's n + 1 times, the body's n times (bench's us/op).
  void runCountsEveryExecutedPrimitive() {
    for (const int64_t n : {int64_t(3), int64_t(6)}) {
      PerSampleLoop s;
      buildLoop(s, Body::Accumulates, n);
      auto primitivesIn = [&](int region) {
        int64_t count = 0;
        for (const Node& node : s.g.nodes())
          if (node.region == region && node.is(NodeKind::Primitive)) ++count;
        return count;
      };
      const Node& loop = s.g.node(s.loop);
      const int64_t expected = primitivesIn(0) + (n + 1) * primitivesIn(loop.regions[0]) +
                               n * primitivesIn(loop.regions[1]);
      QVERIFY(primitivesIn(loop.regions[1]) >= 4);
      for (const bool parallel : {false, true}) {
        RunOptions options;
        options.parallel = parallel;
        Executor ex(s.g, options);
        QCOMPARE(ex.run({s.stacked}).primitiveOps, expected);
        QCOMPARE(ex.run({s.stacked}).primitiveOps, expected);  // per run, not cumulative
      }
    }
  }
  // Loop bodies hand their op counts to the frame that ran the loop, and it adds them to the
  // run's total in batches: per-sample inner loops running on two threads at once still count
  // every op once, and the ops limit still stops them.
  void parallelNestedLoopsCountEveryOpOnce() {
    const char* script = R"(
x = tf.ones([400, 8])
def per_sample(i, grads):
    def step(j, v):
        return j + 1, v * 0.5 + 1.0
    _, v = tf.while_loop(lambda j, v: j < 20, step, [tf.constant(0), x[i]])
    return i + 1, grads.write(i, v)
_, grads = tf.while_loop(lambda i, grads: i < 400, per_sample,
                         [tf.constant(0), tf.TensorArray(tf.float32, size=400)],
                         parallel_iterations=8)
y = grads.stack()
)";
    const lang::TracedProgram p = lang::traceProgram(script, "nested.gls", lang::TraceOptions{});
    // One thread and two take the same path (the loop's iterations are independent: no
    // condition ops per iteration, unlike the serial executor's loop).
    std::vector<int64_t> counts;
    for (const int threads : {1, 2}) {
      lab::RunSettings s;
      s.parallel = true;
      s.threads = threads;
      const lab::ProgramRun r = lab::runProgram(p, s);
      QVERIFY2(r.ok(), r.variants.at(0).error.c_str());
      QVERIFY(std::abs(r.variants[0].run.values.back().t.at(0) - 2.0) < 1e-5);  // v -> 2
      counts.push_back(r.variants[0].run.primitiveOps);
    }
    // Per sample 21 compares, 20 x (j + 1, v * 0.5, + 1.0), x[i], i + 1 and the write; three
    // ops at the top level.
    QCOMPARE(counts[0], int64_t(400 * (21 + 20 * 3 + 3) + 3));
    QCOMPARE(counts[1], counts[0]);
    lab::RunSettings limited;
    limited.parallel = true;
    limited.threads = 2;
    limited.maxOps = 20000;  // reached after about 240 samples
    const lab::ProgramRun stopped = lab::runProgram(p, limited);
    QVERIFY(!stopped.ok());
    QVERIFY2(stopped.variants.at(0).error.find("the run executed more than 20000 ops") !=
                 std::string::npos,
             stopped.variants[0].error.c_str());
  }

  void markedLoopRunsInParallelWithTheSameNumbers() {
    PerSampleLoop s;
    buildLoop(s, Body::Independent);
    QCOMPARE(markIndependentIterations(s.g), 1);
    const auto vals = gltest::runBoth(s.g, {s.stacked}, 0.0);
    QCOMPARE(vals[0].shape(), (Shape{6}));
    for (int i = 0; i < 6; ++i) QVERIFY(std::abs(vals[0].at(i) - std::sin(0.1 * (i + 1))) < 1e-6);
  }

  void parallelLoopReportsTheBodysError() {
    // Iteration 6 gathers past the end of x: that iteration's error (not a crash, not a hang)
    // reaches the caller, on both executors.
    PerSampleLoop s;
    buildLoop(s, Body::Independent, 7);
    QCOMPARE(markIndependentIterations(s.g), 1);
    for (bool parallel : {false, true}) {
      RunOptions opt;
      opt.parallel = parallel;
      opt.threads = 2;
      try {
        evaluate(s.g, {s.stacked}, opt);
        QFAIL("expected an error");
      } catch (const EngineError& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains("gather"), e.what());
      }
    }
  }

  void parallelForRunsEveryIndexOnce() {
    std::vector<std::atomic<int>> hits(1000);
    parallelFor(1000, 2, [&](int64_t i) { hits[size_t(i)]++; });
    for (const auto& h : hits) QCOMPARE(h.load(), 1);
  }

  void parallelForRethrowsTheFirstErrorAndStops() {
    std::atomic<int64_t> ran{0};
    try {
      parallelFor(100000, 2, [&](int64_t i) {
        ++ran;
        if (i == 3) throw EngineError("iteration 3 failed");
      });
      QFAIL("expected the iteration's error");
    } catch (const EngineError& e) {
      QCOMPARE(std::string(e.what()), std::string("iteration 3 failed"));
    }
    // The others stop taking work once one failed.
    QVERIFY(ran.load() < 100000);
  }
};

QTEST_APPLESS_MAIN(TestControl)
#include "test_control.moc"
